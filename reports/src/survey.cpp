#include "loiter/reports/survey.hpp"

#include <algorithm>

namespace loiter::reports {

const SurveyMeasure* find_measure(const Survey& survey, std::string_view id) {
  const auto it = std::ranges::find(survey.measures, id, &SurveyMeasure::id);
  return it == survey.measures.end() ? nullptr : &*it;
}

}  // namespace loiter::reports
