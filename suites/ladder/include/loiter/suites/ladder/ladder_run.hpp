// `loiter ladder`'s measuring: regular traffic against a fresh server per trial, the
// requested rate stepped up (an open loop) and then a closed loop at fixed connection counts,
// the server's CPU, memory and descriptors sampled throughout; given two targets, the same
// steps run alternately against each (ABBA...) and paired. The caller chooses the targets
// and renders the document; nothing here formats for a person beyond the document's words.
// Plain data: no Asio in this header.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/reports/ladder.hpp"

namespace loiter::suites::ladder {

struct LadderSideSpec {
  std::string role;  // "target", "baseline", "candidate"
  fixtures::Target target;
};

struct LadderRequest {
  std::vector<LadderSideSpec> sides;  // one (a ladder) or two (baseline, candidate)
  std::vector<double> rates;          // the open-loop steps, requests/s, in the order given
  std::vector<std::size_t> saturation;  // the closed-loop steps: connection counts
  std::size_t connections = 64;       // a rate step's keep-alive pool
  std::size_t trials = 3;             // per step and side (a comparison: pairs)
  std::chrono::nanoseconds duration = std::chrono::seconds(8);  // each trial's schedule
  std::chrono::nanoseconds p99_bound = std::chrono::milliseconds(200);
  double tolerance = 0.05;
  // Pin the server and loiter's load thread to separate halves of the CPUs this process
  // may use (the server the lower half), where there are at least two; a target that pins
  // its own server (its `cpus`) keeps its own.
  bool pin = true;
  std::string loiter_version;
  std::string started;
  std::function<bool()> cancelled;             // the user's Ctrl-C: stop, keep what ran
  std::function<void(std::string_view)> told;  // a line per trial (stderr)
};

// The protocol words a side speaks, as the ladder names them: "http1", "tls", "h2c", "h2",
// "h3".
std::string protocol_of(const fixtures::Target& target);

// Runs every step's trials and concludes them (conclude.hpp). Throws std::invalid_argument
// for a request it cannot run (no steps, no trials, no side, a target without a health
// path), and what a server's start throws (fixtures::StartError) when a trial's server does
// not start; the user's stop ends it with what ran (Ladder::interrupted).
reports::Ladder run_ladder(const LadderRequest& request);

}  // namespace loiter::suites::ladder
