// The ladder document: what regular traffic cost a server, step by step (`loiter ladder`):
// an open-loop rate ladder (the requested rate stepped up), closed-loop saturation at fixed
// connection counts, and, given two targets, the paired comparison of a baseline and a
// candidate build run alternately. Plain data: the interface between measuring
// (suites/ladder) and what reads a ladder (the console, ladder.html, ladder.json, JUnit).
// Nothing here measures; the medians, limits, knee and paired verdicts are filled in by
// suites/ladder's conclusions, pure functions of the trials.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loiter::reports {

inline constexpr std::string_view kLadderSchema = "loiter-ladder/1";

// One trial: a fresh server, one schedule of regular traffic from a loopback source block of
// its own, the server's processes sampled throughout.
struct LadderTrial {
  std::size_t run = 0;     // its place in the whole run, from 0: the order trials ran in
  std::string source;      // the client's first source address ("127.3.0.2")
  double seconds = 0;      // the schedule's span, s (the duration; less when stopped early)
  std::uint64_t requested = 0;   // due on the schedule (a closed loop: = dispatched)
  std::uint64_t dispatched = 0;  // written to a socket
  std::uint64_t succeeded = 0;   // a whole 2xx answer
  std::uint64_t non_2xx = 0;     // a whole answer, not 2xx
  std::uint64_t errors = 0;      // no whole answer (timeouts, resets, refused streams, ...)
  std::map<std::string, std::uint64_t> error_kinds;  // "timeout" -> 3, as the generator names them
  // Latency of the whole answers, ms: from the intended send time on a rate step (free of
  // coordinated omission), from the send in a closed loop.
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  // loiter's own load thread: the share of the trial's wall time it was on a CPU or waiting
  // for one (1 = it always wanted a core: at its limit, or starved of its core).
  double client_busy = 0;
  // The server's processes: the share of their CPUs' time they used while the load ran (their
  // CPU over the load's wall time and the CPUs they may use: 1 = every one of them busy).
  double server_busy = 0;
  // The server's processes: CPU (user + system) spent during the schedule, s; their peak
  // RSS and descriptors, and the descriptors before the first request.
  double server_cpu_s = 0;
  double server_rss_peak_mib = 0;
  std::size_t server_fds_before = 0;
  std::size_t server_fds_peak = 0;
  bool operator==(const LadderTrial&) const = default;
};

enum class StepKind { rate, saturation };
std::string_view to_string(StepKind kind);  // "rate", "saturation"

// Who ran out at a step, if anyone: loiter's own client (its load thread busy: what it
// could not dispatch says nothing of the server), the server, or both at once (the client
// busy and the server's CPUs too: the step cannot tell whose limit it met).
enum class Limit { none, client, server, both };
std::string_view to_string(Limit limit);  // "none", "client", "server", "both"

struct LadderStep {
  StepKind kind = StepKind::rate;
  double rate = 0;              // a rate step: requested/s; saturation: 0 (a closed loop)
  std::size_t connections = 0;  // the keep-alive pool (saturation: the fixed count)
  std::vector<LadderTrial> trials;
  // Medians over the trials (per second of each trial's schedule):
  double requested_rate = 0, dispatched_rate = 0, succeeded_rate = 0;
  double p50_ms = 0, p99_ms = 0;
  double server_cpu_us_per_request = 0;  // server CPU over the whole answers, µs each
  double server_rss_peak_mib = 0;
  double server_fds_peak = 0;
  double client_busy = 0;
  double server_busy = 0;
  std::uint64_t non_2xx = 0, errors = 0;  // summed over the trials
  // A rate step: everything asked for was dispatched and answered 2xx (in most trials) and
  // the p99 stayed within the bound. Saturation steps have no bound: always false.
  bool within = false;
  Limit limit = Limit::none;
  // Why the step is not within, or what stands out ("dispatched 41,200/s of 50,000/s with
  // its load thread busy 97% of a core"); empty when nothing does.
  std::string note;
  bool operator==(const LadderStep&) const = default;
};

// One side of a run: a target, its server as started (the first trial's), its steps.
struct LadderSide {
  std::string role;      // "target" (a ladder alone), "baseline" or "candidate"
  std::string target;    // its name: "nginx", "reference+slow-under-load"
  std::string protocol;  // "http1", "tls", "h2c", "h2"
  std::string server_binary;  // /proc/PID/exe of the server, and its SHA-256
  std::string server_sha256;
  std::vector<std::string> command;  // as rendered for the first trial
  std::vector<LadderStep> steps;     // rate steps in rising order, then saturation steps
  // The knee: the highest rate step that, with every step below it, is within; nullopt
  // when the first is not. knee_note says what ended it (the next step's limit and note).
  std::optional<double> knee;
  std::string knee_note;
  bool operator==(const LadderSide&) const = default;
};

// A paired verdict: the median change's interval and the tolerance.
//   no_difference     the interval spans zero: nothing is established
//   within_tolerance  one side of zero, but the median change is within the tolerance
//   better, worse     one side of zero, the median change beyond the tolerance
enum class PairedVerdict { no_difference, within_tolerance, better, worse };
std::string_view to_string(PairedVerdict verdict);  // "no-difference", "within-tolerance", ...

// One figure at one step, paired trial by trial: pair i is baseline trial i and candidate
// trial i, run next to each other (in the order ABBA...).
struct PairedFigure {
  std::string step;    // "5000/s", "64 connections"
  std::string figure;  // "requests/s", "p99", "server CPU/request"
  std::string unit;    // "/s", "ms", "µs"
  bool higher_is_better = false;
  std::vector<double> baseline, candidate;  // one a pair
  double baseline_median = 0, candidate_median = 0;  // of each side's values
  std::vector<double> change;  // a pair's (candidate - baseline) / baseline: +0.10 = 10% more
  double median_change = 0;
  // The distribution-free interval for the median change (the sign test's order
  // statistics), and its coverage: 0.969 for six pairs, 0.938 for five.
  double low = 0, high = 0;
  double confidence = 0;
  PairedVerdict verdict = PairedVerdict::no_difference;
  std::string note;  // why a figure was not held to the tolerance ("below the 1 ms tick")
  bool operator==(const PairedFigure&) const = default;
};

struct Ladder {
  std::string schema = std::string(kLadderSchema);
  std::string loiter_version;
  std::string started;         // UTC, "2026-12-03T11:00:00Z"
  double duration = 0;         // the whole run, s
  double trial_seconds = 0;    // each trial's schedule, s
  std::size_t trials = 0;      // per step and side (a comparison: pairs)
  double p99_bound_ms = 0;     // a rate step's bound (the target's load_p99, or --p99)
  double tolerance = 0;        // a comparison's, as a fraction: 0.05
  // Where the server and loiter's load thread ran: "server on CPU 0, client on CPU 1", or why
  // they were not pinned ("1 CPU: not pinned").
  std::string pinning;
  std::vector<int> server_cpus, client_cpus;  // empty: not pinned
  std::vector<LadderSide> sides;              // one (a ladder), or baseline then candidate
  std::vector<PairedFigure> comparison;       // a comparison's figures, step by step
  std::vector<std::string> problems;          // what went wrong around the run (not the server)
  bool interrupted = false;                   // stopped by the user: what ran is kept
  bool operator==(const Ladder&) const = default;
};

// True when a comparison found the candidate worse on some figure (exit 1).
bool candidate_worse(const Ladder& ladder);

}  // namespace loiter::reports
