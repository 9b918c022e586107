// `loiter check`: options and the run.
#pragma once

#include <CLI/App.hpp>
#include <string>
#include <vector>

namespace loiter::cli {

struct CheckOptions {
  std::string target = "reference";
  std::vector<std::string> scenarios;  // empty: the whole catalogue
  std::vector<std::string> faults;     // reference server fault switches
  double header_timeout = 2.0;
  double body_timeout = 2.0;
  double idle_timeout = 2.0;
  std::size_t count = 0;  // 0: each scenario's own default
  std::string json_path;
  bool list = false;
};

void add_check_options(CLI::App& command, CheckOptions& options);

// Returns the process exit code.
int run_check(const CheckOptions& options);

}  // namespace loiter::cli
