// The ladder document's words for its enums, and the comparison's overall answer.
#include "loiter/reports/ladder.hpp"

#include <algorithm>

namespace loiter::reports {

std::string_view to_string(StepKind kind) {
  return kind == StepKind::rate ? "rate" : "saturation";
}

std::string_view to_string(Limit limit) {
  switch (limit) {
    case Limit::client:
      return "client";
    case Limit::server:
      return "server";
    case Limit::both:
      return "both";
    case Limit::none:
      break;
  }
  return "none";
}

std::string_view to_string(PairedVerdict verdict) {
  switch (verdict) {
    case PairedVerdict::within_tolerance:
      return "within-tolerance";
    case PairedVerdict::better:
      return "better";
    case PairedVerdict::worse:
      return "worse";
    case PairedVerdict::no_difference:
      break;
  }
  return "no-difference";
}

bool candidate_worse(const Ladder& ladder) {
  return std::ranges::any_of(ladder.comparison, [](const PairedFigure& figure) {
    return figure.verdict == PairedVerdict::worse;
  });
}

}  // namespace loiter::reports
