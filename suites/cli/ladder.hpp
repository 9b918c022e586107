// `loiter ladder`: what regular traffic costs a server, and whether a new build costs more:
// the requested rate stepped up on a fresh server per trial (the knee, and where loiter's own
// client ran out rather than the server), closed-loop saturation at fixed connection counts,
// and with --baseline and --candidate the same steps run alternately against two builds and
// compared pair by pair. One table on the console; ladder.html, ladder.json in a run
// directory; JUnit on request.
#pragma once

#include <CLI/App.hpp>
#include <string>
#include <vector>

#include <iostream>
#include <string_view>

#include "loiter/suites/ladder/ladder_run.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "number_checks.hpp"

namespace loiter::cli {

struct LadderOptions {
  std::string target;  // a ladder alone; empty: reference (unless baseline/candidate)
  std::vector<std::string> settings, faults;
  std::string baseline, candidate;  // a comparison: both
  std::vector<std::string> baseline_settings, baseline_faults;
  std::vector<std::string> candidate_settings, candidate_faults;
  std::string rates = "1000,2000,5000,10000,20000,50000";  // or "none"
  std::string saturation = "64,128,256,512";               // or "none"
  std::size_t connections = 0;  // 0: 64 (with --held: 16)
  std::size_t trials = 0;  // 0: 3 for a ladder, 6 pairs for a comparison
  double duration = 0;     // s; 0: 8 (with --held: 5)
  double p99_ms = 0;       // 0: the target's load_p99, or 200 ms
  std::string tolerance = "5%";
  bool no_pin = false;
  std::string runs_root = "loiter-runs";
  std::string json_path;
  std::string junit_path;
  // The denial ladder (--held): stalled connections held at each step, beside regular
  // traffic at `rate`.
  std::string held;   // "100,1000,10000"; empty: the rate ladder
  std::vector<std::string> kinds;  // empty: the protocol's defaults
  double rate = 500;  // requests/s
  std::string least_2xx = "99%";
  double ramp = 2000;  // held connections opened a second at first
};

void add_ladder_options(CLI::App& command, LadderOptions& options);

// What a rate ladder's and a denial ladder's requests share, set from the options: the p99
// bound (--p99, else the first side's load_p99, else `default_p99_ms`), the pinning, the
// version and start time, the user's Ctrl-C, and a line per trial on stderr. Installs the
// interrupt handlers.
template <class Request>
void set_run_fields(Request& request, const LadderOptions& options, double default_p99_ms) {
  const auto& bound = request.sides.front().target.promises.load_p99;
  request.p99_bound = options.p99_ms > 0 ? seconds_given(options.p99_ms / 1000)
                      : bound ? std::chrono::duration_cast<std::chrono::nanoseconds>(*bound)
                              : seconds_given(default_p99_ms / 1000);
  request.pin = !options.no_pin;
  request.loiter_version = LOITER_VERSION;
  request.started = suites::utc_now();
  request.cancelled = [] { return suites::interrupted(); };
  request.told = [](std::string_view line) { std::cerr << line << "\n"; };
  suites::install_interrupt_handlers();
}

// The run directory of a ladder against `sides` ("<target>-<what>", a comparison's
// "compare-<what>"), once --json and --junit are known writable. Throws std::invalid_argument
// for an output path that is not.
suites::RunDirectory run_directory_for(const LadderOptions& options,
                                       const std::vector<suites::ladder::LadderSideSpec>& sides,
                                       std::string_view what);

// The targets a ladder runs against: one ("target"), or a baseline and a candidate. Throws
// std::invalid_argument for a choice it cannot run.
std::vector<suites::ladder::LadderSideSpec> ladder_sides(const LadderOptions& options);

// 0 measured (a comparison: the candidate not worse beyond the tolerance), 1 the candidate
// worse beyond the tolerance on some figure, 2 a bad input, 3 a server did not start, 130
// interrupted (what ran is still shown and written).
int run_ladder_command(const LadderOptions& options);
// The same with --held: the denial ladder (denial.cpp). 0 measured (a comparison: no kind's
// knee lower on the candidate), 1 a kind's knee lower on the candidate, 2, 3, 130 as above.
int run_denial_command(const LadderOptions& options);

// "5%" -> 0.05, "0.05" -> 0.05; std::invalid_argument for anything else, or outside [0, 1).
double tolerance_from(const std::string& text);
// "1000,2000" -> {1000, 2000}; "none" -> {}. std::invalid_argument naming `option` for a
// value that is not a positive number (or, with whole, a positive whole number).
std::vector<double> step_list(const std::string& option, const std::string& text, bool whole);

}  // namespace loiter::cli
