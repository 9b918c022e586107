// Progress of a run on stderr: which scenario (i/n), its elapsed and expected time, the
// run's elapsed time. On a terminal the line is redrawn each second in place (by a thread
// that steps aside while client processes are forked: QuietForForks) and replaced by the
// scenario's outcome; otherwise one line per scenario.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "loiter/reports/run_report.hpp"
#include "loiter/suites/document/run_plan.hpp"
#include "loiter/suites/runner/quiet_threads.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::cli {

// About how long a scenario takes: its clients' patience and the recovery window
// (suites::longest_run), in seconds; nullopt when the target cannot take it.
std::optional<double> expected_seconds(const suites::Scenario& scenario,
                                       const fixtures::Target& target, const suites::Timing& timing,
                                       const suites::ScenarioParameters& parameters);

class Progress {
 public:
  explicit Progress(std::size_t scenarios);
  ~Progress() { ticker_ = {}; }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `expected_s`: about how long the scenario takes (its clients' patience and the
  // recovery window), if known.
  void start(std::string_view scenario, std::string_view target, std::optional<double> expected_s);
  void done(const reports::ScenarioReport& report);
  // start() and done() for each scenario of `plan` as run_plan runs it.
  suites::RunProgress of(const suites::RunPlan& plan);

 private:
  std::string line() const;
  void start_ticker();

  std::size_t total_;
  std::size_t index_ = 0;
  bool terminal_;
  std::string scenario_;
  std::string target_;
  std::optional<double> expected_s_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point scenario_started_{};
  bool ticking_ = false;  // between start() and done(), on a terminal
  std::jthread ticker_;   // redraws the line while ticking_, but for the forks
  suites::QuietForForks quiet_{[this] { ticker_ = {}; }, [this] { start_ticker(); }};
};

}  // namespace loiter::cli
