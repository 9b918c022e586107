// STUB on branch survey-draft, to be dropped at merge: survey.json's reader is written
// elsewhere; these are its signatures, so that `loiter compare` of two surveys builds here.
#pragma once

#include <filesystem>

#include "loiter/reports/survey.hpp"

namespace loiter::reports {

// Reads a survey.json. The stub throws std::invalid_argument: no reader in this build.
Survey read_survey(const std::filesystem::path&);

// True when the path is a survey (a directory holding survey.json, or such a file). The
// stub says false.
bool is_survey(const std::filesystem::path&);

}  // namespace loiter::reports
