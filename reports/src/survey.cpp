#include "loiter/reports/survey.hpp"

#include <algorithm>

namespace loiter::reports {

std::string_view to_string(SurveyProtocol protocol) {
  switch (protocol) {
    case SurveyProtocol::http1:
      return "http1";
    case SurveyProtocol::tls:
      return "tls";
    case SurveyProtocol::h2:
      return "h2";
  }
  return "?";
}

const SurveyMeasure* find_measure(const Survey& survey, std::string_view id) {
  const auto it = std::ranges::find(survey.measures, id, &SurveyMeasure::id);
  return it == survey.measures.end() ? nullptr : &*it;
}

}  // namespace loiter::reports
