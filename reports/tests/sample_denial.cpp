#include "sample_denial.hpp"

#include <string>
#include <utility>
#include <vector>

namespace loiter::reports::testing {

// Named, not anonymous: a unity batch shares one anonymous namespace with sample_ladder.cpp.
namespace sample_denial_steps {

// A step of `held` connections beside 2,000/s for 5 s (10,000 requests), `succeeded` of them
// answered 2xx; the attacker's and the server's figures rising with `held`.
DenialStep step(std::size_t held, std::uint64_t succeeded, double p99_ms) {
  const auto h = static_cast<double>(held);
  return {.held = held,
          .seconds = 5,
          .held_reached = held,
          .held_low = held - held / 100,
          .reach_seconds = 0.25 + h / 1000,
          .opened = held + held / 10,
          .reopened = held / 10,
          .connects_per_s = h / 50,
          .bytes_per_s = h * 2,
          .holder_busy = 0.125,
          .requested = 10000,
          .succeeded = succeeded,
          .p99_ms = p99_ms,
          .max_ms = 2 * p99_ms,
          .client_busy = 0.25,
          .server_fds_before = 11,
          .server_fds_peak = 14 + held,
          .server_fd_limit = 16384,
          .server_rss_peak_mib = 5.5,
          .server_busy = 0.0625,
          .accept_queue_peak = held / 100,
          .backlog = 128};
}

// Denied at `held`: the 2xx share under 99% and the accept queue full.
DenialStep denied(std::size_t held, std::uint64_t succeeded) {
  auto s = step(held, succeeded, 812.25);
  s.errors = 10000 - succeeded;
  s.error_kinds = {{"connect", s.errors - 30}, {"timeout", 30}};
  s.accept_queue_peak = 128;
  s.connect_failures = 7;
  s.denied = true;
  s.why = "2xx " + std::to_string(succeeded / 100) + ".0% < 99%";
  s.cause = DenialCause::accept_queue;
  s.cause_note = "accept queue 128/128";
  return s;
}

DenialKind kind(std::string name, std::vector<DenialStep> steps, bool denied) {
  DenialKind k{.kind = std::move(name), .steps = std::move(steps)};
  k.highest = k.steps.empty() ? 0 : k.steps.back().held;
  if (denied) k.knee = k.highest;
  return k;
}

}  // namespace sample_denial_steps

Denial sample_denial() {
  using namespace sample_denial_steps;
  Denial denial{.loiter_version = "0.1.0",
                .started = "2026-12-04T09:00:00Z",
                .duration = 61.5,
                .rate = 2000,
                .step_seconds = 5,
                .p99_bound_ms = 200,
                .least_2xx_share = 0.99,
                .pinning = "server on CPU 0, client on CPU 1",
                .problems = {"step 3: the server took 2.1 s to start"}};
  DenialSide side{
      .role = "target",
      .target = "nginx",
      .protocol = "http1",
      .server_binary = "/usr/sbin/nginx",
      .server_sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      .command = {"/usr/sbin/nginx", "-c", "/run/loiter/nginx.conf", "-g", "daemon off;"},
      .control = step(0, 10000, 1.1)};
  auto silent = denied(500, 4100);
  silent.holder_busy = 0.96875;  // loiter's holder at its limit: said under the step
  side.kinds.push_back(
      kind("silent", {step(100, 10000, 1.25), step(250, 9990, 2.5), silent}, true));
  auto trickle = step(10000, 10000, 3.75);
  trickle.server_fd_limit.reset();  // not read
  side.kinds.push_back(
      kind("header-trickle", {step(1000, 10000, 1.5), step(5000, 10000, 2.25), trickle}, false));
  denial.sides.push_back(std::move(side));
  return denial;
}

Denial sample_denial_comparison() {
  using namespace sample_denial_steps;
  Denial denial{.loiter_version = "0.1.0",
                .started = "2026-12-04T10:00:00Z",
                .duration = 240.25,
                .rate = 2000,
                .step_seconds = 5,
                .p99_bound_ms = 200,
                .least_2xx_share = 0.99,
                .pinning = "1 CPU: not pinned",
                .interrupted = true};
  const std::vector<std::pair<std::string, std::string>> roles{{"baseline", "nginx-1.24"},
                                                               {"candidate", "nginx-1.26"}};
  for (std::size_t i = 0; i < roles.size(); ++i) {
    DenialSide side{.role = roles[i].first,
                    .target = roles[i].second,
                    .protocol = "h2c",
                    .server_binary = "/opt/" + roles[i].second + "/sbin/nginx",
                    .server_sha256 = i == 0 ? "aa11" : "bb22"};
    if (i == 0) side.control = step(0, 10000, 1.25);  // the candidate's: none (an older run)
    side.kinds.push_back(i == 0 ? kind("silent", {step(250, 10000, 1.5), denied(500, 3000)}, true)
                                : kind("silent", {denied(250, 5000)}, true));
    side.kinds.push_back(kind("slow-reader", {step(500, 10000, 2), step(1000, 9950, 4.5)}, false));
    auto capped = denied(2000, 8000);
    capped.cause = DenialCause::connection_cap;
    capped.cause_note = "accept queue 128/128 with 2,014 of 16,384 descriptors";
    side.kinds.push_back(i == 0 ? kind("idle-keepalive", {step(1000, 10000, 1), capped}, true)
                                : kind("idle-keepalive", {step(1000, 10000, 1)}, false));
    denial.sides.push_back(std::move(side));
  }
  denial.comparison = {{.kind = "silent",
                        .baseline_knee = 500,
                        .candidate_knee = 250,
                        .baseline_highest = 500,
                        .candidate_highest = 250,
                        .change = KneeChange::lower},
                       {.kind = "slow-reader",
                        .baseline_highest = 1000,
                        .candidate_highest = 1000,
                        .change = KneeChange::same},
                       {.kind = "idle-keepalive",
                        .baseline_knee = 2000,
                        .baseline_highest = 2000,
                        .candidate_highest = 1000,
                        .change = KneeChange::not_comparable}};
  return denial;
}

}  // namespace loiter::reports::testing
