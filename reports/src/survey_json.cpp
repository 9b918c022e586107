// STUB on branch survey-draft, to be dropped at merge: see survey_json.hpp.
#include "loiter/reports/survey_json.hpp"

#include <stdexcept>

namespace loiter::reports {

Survey read_survey(const std::filesystem::path& path) {
  throw std::invalid_argument("cannot read survey " + path.string() +
                              ": this build has no survey.json reader (a stub)");
}

bool is_survey(const std::filesystem::path&) { return false; }

}  // namespace loiter::reports
