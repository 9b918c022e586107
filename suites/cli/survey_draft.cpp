#include "survey_draft.hpp"

namespace loiter::cli {

std::string draft_target_text(const reports::Survey&, const std::optional<fixtures::Target>&,
                              const std::string&) {
  return {};
}

}  // namespace loiter::cli
