// The denial document's words for its enums, and the comparison's overall answer.
#include "loiter/reports/denial.hpp"

#include <algorithm>

namespace loiter::reports {

std::string_view to_string(DenialCause cause) {
  switch (cause) {
    case DenialCause::accept_queue:
      return "accept-queue";
    case DenialCause::fd_limit:
      return "fd-limit";
    case DenialCause::connection_cap:
      return "connection-cap";
    case DenialCause::cpu:
      return "cpu";
    case DenialCause::unknown:
      return "unknown";
    case DenialCause::client:
      return "client";
    case DenialCause::none:
      break;
  }
  return "none";
}

std::string_view to_string(KneeChange change) {
  switch (change) {
    case KneeChange::lower:
      return "lower";
    case KneeChange::higher:
      return "higher";
    case KneeChange::not_comparable:
      return "not-comparable";
    case KneeChange::same:
      break;
  }
  return "same";
}

bool candidate_denied_sooner(const Denial& denial) {
  return std::ranges::any_of(denial.comparison, [](const DenialComparison& kind) {
    return kind.change == KneeChange::lower;
  });
}

}  // namespace loiter::reports
