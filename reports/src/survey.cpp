#include "loiter/reports/survey.hpp"

#include <algorithm>

namespace loiter::reports {

std::string_view to_string(SurveyProtocol protocol) {
  constexpr std::array<std::string_view, kSurveyProtocols.size()> kWords{"http1", "tls", "h2"};
  return kWords[static_cast<std::size_t>(protocol)];  // in the enum's order
}

const SurveyMeasure* find_measure(const Survey& survey, std::string_view id) {
  const auto it = std::ranges::find(survey.measures, id, &SurveyMeasure::id);
  return it == survey.measures.end() ? nullptr : &*it;
}

}  // namespace loiter::reports
