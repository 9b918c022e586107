// `loiter observe`: the server's side of a sharded run, on the server's machine. Samples a
// server's process tree (FDs, RSS, threads, TCP states of its port) with wall-clock times
// into a watch directory until the duration ends, the user presses Ctrl-C or the server
// exits; either a server that runs already (--pid) or one it starts from a target
// (--target) and stops at the end.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>

namespace loiter::cli {

struct ObserveOptions {
  std::optional<int> pid;   // an existing server
  std::optional<int> port;  // with --pid: count the TCP states of this port
  std::string target;       // or: start this target's server
  std::string out;          // the watch directory (new, or empty)
  double duration = 0;      // s
  int period_ms = 100;
  bool fd_types = false;  // count descriptors by type at each sample
};

void add_observe_options(CLI::App& command, ObserveOptions& options);

// 0 the duration ended or the server exited, 2 refused before anything started,
// 3 infrastructure (the server did not start, a file could not be written), 130 Ctrl-C.
int run_observe(const ObserveOptions& options);

}  // namespace loiter::cli
