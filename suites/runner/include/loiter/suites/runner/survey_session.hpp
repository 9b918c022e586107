// `loiter survey` in a session: the server started from its target (its address, protocol
// and paths then come from the target) or the one running that the request names, surveyed
// (suites/survey) while the session samples it, and its FDs and RSS before, at their peak and
// after, when its side can be read.
#pragma once

#include <filesystem>
#include <optional>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/survey.hpp"
#include "loiter/suites/runner/session.hpp"
#include "loiter/suites/survey/survey_run.hpp"

namespace loiter::suites {

// The server to survey: `start` (a target loiter starts, its logs under `log_dir`), else the
// running one at `request`'s host and port, read through `pid` when given.
struct SurveyServer {
  std::optional<fixtures::Target> start;
  std::filesystem::path log_dir;
  std::optional<pid_t> pid;
};

// The survey of `server`, `request` saying how (for a started server, its target fills in
// the address, TLS, HTTP/2 and paths). Throws what run_survey and the server's start throw.
reports::Survey survey_server(SurveyRequest request, const SurveyServer& server);

}  // namespace loiter::suites
