// Progress on stderr: redrawn in place on a terminal, one line per scenario otherwise.
#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <condition_variable>
#include <iostream>
#include <mutex>

namespace loiter::cli {

namespace {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

std::optional<double> expected_seconds(const suites::Scenario& scenario,
                                       const fixtures::Target& target, const suites::Timing& timing,
                                       const suites::ScenarioParameters& parameters) {
  const auto longest = suites::longest_run(scenario, target, timing, parameters);
  if (!longest) return std::nullopt;
  return std::chrono::duration<double>(*longest).count();
}

Progress::Progress(std::size_t scenarios)
    : total_(scenarios), terminal_(::isatty(STDERR_FILENO) == 1) {}

std::string Progress::line() const {
  const auto expected =
      expected_s_ ? fmt::format(" (up to {:.0f} s)", *expected_s_) : std::string();
  return fmt::format("[{}/{}] {} against {}: {:.0f} s{}, run {:.0f} s", index_, total_, scenario_,
                     target_, since(scenario_started_), expected, since(started_));
}

void Progress::start(std::string_view scenario, std::string_view target,
                     std::optional<double> expected_s) {
  ++index_;
  scenario_ = scenario;
  target_ = target;
  expected_s_ = expected_s;
  scenario_started_ = std::chrono::steady_clock::now();
  if (!terminal_) {
    const auto expected = expected_s ? fmt::format(", up to {:.0f} s", *expected_s) : std::string();
    std::cerr << fmt::format("[{}/{}] {} against {}{} (run {:.0f} s so far)\n", index_, total_,
                             scenario, target, expected, since(started_))
              << std::flush;
    return;
  }
  ticking_ = true;
  start_ticker();
}

void Progress::start_ticker() {
  if (!ticking_) return;
  ticker_ = std::jthread([this](const std::stop_token& stop) {
    // Redraws once a second; the wait ends at once when done() requests the stop.
    std::mutex mutex;
    std::condition_variable_any never_notified;
    std::unique_lock lock(mutex);
    try {
      while (!stop.stop_requested()) {
        std::cerr << "\r\x1b[K" << line() << std::flush;
        never_notified.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
      }
    } catch (...) {  // a progress line that cannot be made (memory): the run goes on without
    }
  });
}

void Progress::done(const reports::ScenarioReport& report) {
  if (!terminal_) return;
  ticking_ = false;
  ticker_ = {};  // stops and joins the ticker
  std::cerr << fmt::format("\r\x1b[K[{}/{}] {} {} in {:.1f} s\n", index_, total_, report.id,
                           reports::to_string(report.status), since(scenario_started_))
            << std::flush;
}

suites::RunProgress Progress::of(const suites::RunPlan& plan) {
  return {.starting =
              [this, &plan](const suites::Scenario& scenario) {
                start(scenario.id, plan.target.name,
                      expected_seconds(scenario, plan.target, plan.timing, plan.parameters));
              },
          .done = [this](const reports::ScenarioReport& report) { done(report); }};
}

}  // namespace loiter::cli
