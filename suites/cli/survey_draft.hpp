// `loiter survey --write FILE`: the drafted target file's text, from the survey and what the
// surveyed target file held (its command, files and paths are kept; its deadlines and
// promises become the measured ones).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/survey.hpp"

namespace loiter::cli {

// `target`: the target surveyed (started by loiter, or --connect's --target file); `named`:
// how the command line named it (a bundled name or a file); `paths`: what a connect-only
// file's [paths] say (--health, --echo, --large), when there is no file.
std::string draft_target_text(const reports::Survey& survey,
                              const std::optional<fixtures::Target>& target,
                              const std::string& named,
                              std::vector<std::pair<std::string, std::string>> paths);

}  // namespace loiter::cli
