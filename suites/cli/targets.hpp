// `loiter targets`: the bundled targets, one line each (name, listener, description); with a
// name or a target file, what that target declares (its listener, TLS, deadlines, paths), or
// why its file is refused: a check of a target file before a run.
#pragma once

#include <CLI/App.hpp>
#include <string>

namespace loiter::cli {

struct TargetsOptions {
  std::string target;  // empty: list the bundled targets
};

void add_targets_options(CLI::App& command, TargetsOptions& options);
int run_targets(const TargetsOptions& options);

}  // namespace loiter::cli
