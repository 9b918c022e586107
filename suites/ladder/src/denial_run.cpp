#include "loiter/suites/ladder/denial_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "denial_kinds.hpp"
#include "denial_trial.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/suites/ladder/denial_conclude.hpp"
#include "trial.hpp"

namespace loiter::suites::ladder {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::string_view_literals;

// The most connections one step may hold (16,000 a source address: 63 loopback sources).
constexpr std::size_t kMostHeld = 1'000'000;

bool stop_asked(const DenialRequest& request) { return request.cancelled && request.cancelled(); }

// The kinds a side runs: those asked, or its protocol's defaults the target has paths for.
std::vector<std::string> kinds_of(const DenialRequest& request, const fixtures::Target& target,
                                  std::vector<std::string>* dropped = nullptr) {
  if (!request.kinds.empty()) return request.kinds;
  std::vector<std::string> kinds;
  for (const auto& kind : kinds_over(protocol_of(target))) {
    if (!kind.by_default) continue;
    if (path_needed(target, kind.needs)) {
      kinds.emplace_back(kind.name);
    } else if (dropped != nullptr) {
      dropped->push_back(fmt::format("{} not run: it needs {}, which {} does not declare", kind.name,
                                     needs_word(kind.needs), target.name));
    }
  }
  return kinds;
}

}  // namespace

void check_denial_request(const DenialRequest& request) {
  if (request.sides.empty() || request.sides.size() > 2) {
    throw std::invalid_argument("a denial ladder runs against one target, or a baseline and a candidate");
  }
  if (request.held.empty()) throw std::invalid_argument("--held: no step to run");
  for (std::size_t i = 0; i < request.held.size(); ++i) {
    if (request.held[i] == 0 || request.held[i] > kMostHeld) {
      throw std::invalid_argument(
          fmt::format("--held: {} is not a count from 1 to {}", request.held[i], kMostHeld));
    }
    if (i > 0 && request.held[i] <= request.held[i - 1]) {
      throw std::invalid_argument(fmt::format(
          "--held: the steps must rise: {} after {} ({})", request.held[i], request.held[i - 1],
          fmt::join(request.held, ",")));
    }
  }
  if (!(request.rate > 0)) throw std::invalid_argument("the regular rate must be above 0");
  if (!(request.ramp > 0)) throw std::invalid_argument("the ramp must be above 0 a second");
  const auto room = clients::fd_room();
  const auto most = request.held.back() + request.connections + clients::kFdReserve;
  if (most > room + clients::kFdReserve) {
    throw std::invalid_argument(fmt::format(
        "--held {}: the largest step and the regular traffic's {} connections need {} "
        "descriptors, and loiter may open {} (RLIMIT_NOFILE, raised to its hard limit, less {} "
        "of its own). Raise the hard limit (as root: `ulimit -Hn 1048576` in the shell that "
        "runs loiter, LimitNOFILE= in a systemd unit, or `nofile` in "
        "/etc/security/limits.conf), or hold fewer",
        request.held.back(), request.connections, most - clients::kFdReserve, room,
        clients::kFdReserve));
  }
  const auto first = protocol_of(request.sides.front().target);
  for (const auto& side : request.sides) {
    const auto& target = side.target;
    const auto protocol = protocol_of(target);
    if (protocol != first) {
      throw std::invalid_argument(fmt::format(
          "{} speaks {} and {} speaks {}: a comparison holds the same kinds on both",
          request.sides.front().target.name, first, target.name, protocol));
    }
    if (!target.paths.health) {
      throw std::invalid_argument(fmt::format(
          "{} offers no health path: the regular traffic needs a path answering 200", target.name));
    }
    const auto kinds = kinds_of(request, target);
    if (kinds.empty()) throw std::invalid_argument(fmt::format("no kind to hold on {}", target.name));
    for (const auto& name : kinds) {
      const auto kind = held_kind(name, protocol);
      if (!kind) {
        throw std::invalid_argument(fmt::format(
            "--kinds: {} is not a kind a denial ladder holds over {} ({}); over it: {}", name,
            protocol, target.name, fmt::join(default_denial_kinds(protocol), ", ")));
      }
      if (!path_needed(target, kind->needs)) {
        throw std::invalid_argument(fmt::format("--kinds: {} needs {}, which {} does not declare",
                                                name, needs_word(kind->needs), target.name));
      }
    }
  }
}

reports::Denial run_denial(const DenialRequest& request) {
  check_denial_request(request);
  const auto began = Clock::now();
  const auto pinning = pinning_for(request.pin);
  reports::Denial denial{
      .loiter_version = request.loiter_version,
      .started = request.started,
      .rate = request.rate,
      .step_seconds = std::chrono::duration<double>(request.duration).count(),
      .p99_bound_ms = std::chrono::duration<double, std::milli>(request.p99_bound).count(),
      .least_2xx_share = request.least_2xx_share,
      .pinning = pinning.text};
  std::vector<fixtures::Target> targets;
  for (const auto& side : request.sides) {
    auto target = side.target;
    if (target.cpus.empty()) target.cpus = pinning.server;
    targets.push_back(std::move(target));
    denial.sides.push_back(reports::DenialSide{
        .role = side.role, .target = side.target.name, .protocol = protocol_of(side.target)});
  }
  // The same kinds on both sides of a comparison: those every side has the paths for.
  auto kinds = kinds_of(request, request.sides.front().target, &denial.problems);
  for (const auto& side : request.sides) {
    std::erase_if(kinds, [&](const std::string& kind) {
      const auto needs = held_kind(kind, protocol_of(side.target))->needs;
      if (path_needed(side.target, needs)) return false;
      denial.problems.push_back(fmt::format("{} not run: it needs {}, which {} does not declare",
                                            kind, needs_word(needs), side.target.name));
      return true;
    });
  }
  for (auto& side : denial.sides) {
    for (const auto& kind : kinds) side.kinds.push_back({.kind = kind});
  }
  std::ranges::sort(denial.problems);
  denial.problems.erase(std::ranges::unique(denial.problems).begin(), denial.problems.end());
  std::size_t run = 0;
  // One step on side `s`: `kind` empty and `held` 0 for its control step. nullopt when the
  // user stopped it (denial.interrupted then says so).
  const auto step_on = [&](std::size_t s, const std::string& kind,
                           std::size_t held) -> std::optional<reports::DenialStep> {
    auto& side = denial.sides[s];
    if (stop_asked(request)) {
      denial.interrupted = true;
      return std::nullopt;
    }
    if (request.told) {
      request.told(fmt::format("step {}: {} {} held {}", run + 1, side.target,
                               kind.empty() ? "control:" : kind, held));
    }
    DenialTrialPlan plan{.target = &targets[s],
                         .held = held,
                         .rate = request.rate,
                         .connections = request.connections,
                         .duration = request.duration,
                         .ramp = request.ramp,
                         .run = run,
                         .client_cpus = pinning.client,
                         .want_provenance = side.command.empty(),
                         .cancelled = request.cancelled};
    if (!kind.empty()) {
      plan.kind = clients::find_client_kind(kind);
      plan.settings = settings_for(*held_kind(kind, side.protocol), targets[s]);
    }
    DenialTrialOutcome outcome;
    try {
      outcome = run_denial_trial(plan);
    } catch (const fixtures::StartError& error) {
      if (error.problem() != fixtures::StartProblem::cancelled) throw;
      denial.interrupted = true;
      return std::nullopt;
    }
    ++run;
    if (outcome.provenance) {
      side.server_binary = outcome.provenance->server_binary.string();
      side.server_sha256 = outcome.provenance->server_sha256;
      side.command = outcome.provenance->command;
    }
    if (outcome.stopped) {
      denial.interrupted = true;
      return std::nullopt;
    }
    conclude_step(outcome.step, denial.p99_bound_ms, denial.least_2xx_share);
    if (request.told && outcome.step.denied) request.told("  denied: " + outcome.step.why);
    return std::move(outcome.step);
  };
  // Each side's regular traffic alone first: a side it denies has no knee to find.
  for (std::size_t s = 0; s < denial.sides.size() && !denial.interrupted; ++s) {
    auto& side = denial.sides[s];
    side.control = step_on(s, {}, 0);
    if (side.control && side.control->denied) {
      denial.problems.push_back(fmt::format(
          "{}: its regular traffic alone, {}/s on {} connections, is denied ({}): its kinds "
          "are not run; lower --rate or --connections",
          side.target, request.rate, request.connections, side.control->why));
    }
  }
  const auto control_denied = [&](const reports::DenialSide& side) {
    return side.control && side.control->denied;
  };
  const auto kind_count = denial.sides.front().kinds.size();
  for (std::size_t k = 0; k < kind_count && !denial.interrupted; ++k) {
    for (const auto held : request.held) {
      for (std::size_t s = 0; s < denial.sides.size() && !denial.interrupted; ++s) {
        auto& kind = denial.sides[s].kinds[k];
        if (control_denied(denial.sides[s])) continue;
        if (!kind.steps.empty() && kind.steps.back().denied) continue;  // its knee is found
        if (auto step = step_on(s, kind.kind, held)) kind.steps.push_back(std::move(*step));
      }
      if (denial.interrupted) break;
    }
  }
  for (auto& side : denial.sides) {
    for (auto& kind : side.kinds) {
      conclude_kind(kind);
      if (control_denied(side)) kind.knee = 0;
    }
  }
  if (denial.sides.size() == 2) {
    denial.comparison = compare_knees(denial.sides[0], denial.sides[1], request.held.back());
  }
  denial.duration = std::chrono::duration<double>(Clock::now() - began).count();
  return denial;
}

}  // namespace loiter::suites::ladder
