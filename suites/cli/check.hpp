// `loiter check`: options and the run.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <vector>

namespace loiter::cli {

struct CheckOptions {
  std::string target = "reference";
  std::vector<std::string> scenarios;    // empty: the whole catalogue
  // Families whose scenarios run (before `scenarios`); with neither, the whole catalogue but
  // the flood family.
  std::vector<std::string> families;
  std::vector<std::string> faults;       // reference server fault switches
  std::optional<double> header_timeout;  // reference only; default: its reference.toml
  std::optional<double> body_timeout;
  std::optional<double> idle_timeout;
  std::optional<double> send_timeout;
  std::size_t count = 0;  // 0: each scenario's own default
  // Regular traffic of load scenarios (idle-under-load); 0: the scenario's default.
  double load_rate = 0;
  double load_duration = 0;  // s
  std::size_t load_connections = 0;
  // The soak's churn; each unset: its default (suites::kSoakChurn).
  std::optional<double> churn_fresh, churn_server_close, churn_abort;
  std::optional<std::size_t> churn_replace_every;
  std::string json_path;
  std::string junit_path;
  std::string runs_root = "loiter-runs";
  bool list = false;
};

void add_check_options(CLI::App& command, CheckOptions& options);

// Returns the process exit code.
int run_check(const CheckOptions& options);

}  // namespace loiter::cli
