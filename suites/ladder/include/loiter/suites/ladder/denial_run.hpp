// The denial ladder's measuring (`loiter ladder --held`): for each kind of stall, the number
// of stalled connections held at once is stepped up, each step on a fresh server, while
// regular traffic runs at a fixed rate beside them. Held means kept at the count: every
// connection the server ends, or that never connects, is reopened (clients/holder.hpp), as an
// attacker keeps a slowloris pool full, and the reopens are counted. A kind stops at its
// first denied step. Given two targets, every step runs on the baseline and then the
// candidate, and their knees are compared. The caller chooses the targets and renders the
// document. Plain data: no Asio in this header.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/reports/denial.hpp"
#include "loiter/suites/ladder/ladder_run.hpp"

namespace loiter::suites::ladder {

struct DenialRequest {
  std::vector<LadderSideSpec> sides;  // one, or baseline then candidate
  std::vector<std::string> kinds;     // client kinds' names; empty: the protocol's defaults
  std::vector<std::size_t> held;      // the steps: connections held, rising
  double rate = 500;                  // the regular traffic, requests/s
  std::size_t connections = 16;       // its keep-alive pool
  std::chrono::nanoseconds duration = std::chrono::seconds(5);  // its span at each step
  std::chrono::nanoseconds p99_bound = std::chrono::milliseconds(200);
  double least_2xx_share = 0.99;
  // How fast the held connections are first opened, a second; the regular traffic starts
  // once they are all open, or after held / ramp + kRampSlack.
  double ramp = 2000;
  bool pin = true;
  std::string loiter_version;
  std::string started;
  std::function<bool()> cancelled;
  std::function<void(std::string_view)> told;
};

// The kinds a protocol's denial ladder runs by default, and the ones it can run at all.
std::vector<std::string> default_denial_kinds(std::string_view protocol);
bool denial_kind_runs_over(std::string_view kind, std::string_view protocol);

// Throws std::invalid_argument, naming what is wrong, for a request that cannot run: no
// side, steps not rising or empty, a kind unknown or not of the side's protocol, a kind
// whose path the target does not declare, a step beyond what this process's descriptors
// allow (with the limit and how to raise it). Nothing is started.
void check_denial_request(const DenialRequest& request);

// Runs every kind's steps on every side and concludes them (denial_conclude.hpp). Throws what
// check_denial_request throws, and what a server's start throws (fixtures::StartError); the
// user's stop ends it with what ran (Denial::interrupted).
reports::Denial run_denial(const DenialRequest& request);

}  // namespace loiter::suites::ladder
