// The denial document: how many stalled connections of each kind it took to deny a server's
// regular traffic, and what holding them cost the attacker (`loiter ladder --held`). Per kind
// of stall, the number of connections held at once is stepped up, each step on a fresh
// server, beside regular traffic at a fixed rate; a connection the server closes is reopened,
// as an attacker would. Plain data: the interface between measuring (suites/ladder) and what
// reads it (the console, denial.html, denial.json, JUnit). Nothing here measures; a step's
// verdict and a kind's knee are filled in by suites/ladder's conclusions, pure functions of
// the figures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loiter::reports {

inline constexpr std::string_view kDenialSchema = "loiter-denial/1";

// What the server ran into at a step, as far as its side tells (the first that applies):
//   accept_queue   its listening socket's accept queue was full: it stopped accepting
//   fd_limit       its descriptors reached its RLIMIT_NOFILE
//   connection_cap its accept queue filled while its descriptors stayed well under its
//                  limit: a cap of its own (worker pool, worker_connections, MaxRequestWorkers)
//   cpu            its CPUs were busy (at least 90% of their time)
//   client         none of those, and loiter's own holder or load thread wanted a CPU at
//                  least 85% of the time: the denial may be loiter's, not the server's
//   unknown        none of those: the figures do not say
//   none           the step was not denied
enum class DenialCause { none, accept_queue, fd_limit, connection_cap, cpu, unknown, client };
std::string_view to_string(DenialCause cause);  // "none", "accept-queue", "fd-limit", ..., "client"

struct DenialStep {
  std::size_t held = 0;  // stalled connections asked for, kept at that count
  double seconds = 0;    // the regular traffic's span, s
  // The attacker's side (loiter's holder):
  std::size_t held_reached = 0;  // open when the regular traffic began
  std::size_t held_low = 0;      // the fewest open while it ran (at the holder's 50 ms looks)
  double reach_seconds = 0;      // from the first connect to held_reached
  std::uint64_t opened = 0;      // connects attempted over the step (the first held ones too)
  std::uint64_t reopened = 0;    // of those, to replace one the server ended or refused
  std::uint64_t connect_failures = 0;  // attempts that never connected
  double connects_per_s = 0;     // reopens a second while the regular traffic ran
  double bytes_per_s = 0;        // bytes the held connections sent a second, meanwhile
  double holder_busy = 0;        // the holder thread's share of wall time wanting a CPU
  // The regular traffic (open loop at the ladder's rate, latency from the intended time):
  std::uint64_t requested = 0, succeeded = 0, non_2xx = 0, errors = 0;
  std::map<std::string, std::uint64_t> error_kinds;  // "connect", "timeout", ...
  double p99_ms = 0, max_ms = 0;
  double client_busy = 0;  // the regular traffic's load thread
  // The server's side:
  std::size_t server_fds_before = 0, server_fds_peak = 0;
  std::optional<std::size_t> server_fd_limit;  // its RLIMIT_NOFILE (soft), when read
  double server_rss_peak_mib = 0;
  double server_busy = 0;  // its CPU over the step's wall time and the CPUs it may use
  std::size_t accept_queue_peak = 0, backlog = 0;  // its listeners', from the kernel
  // Concluded (suites/ladder): denied when the 2xx share fell under the threshold or the p99
  // passed the bound; `why` says which, with the figures ("2xx 41.0% < 99%").
  bool denied = false;
  std::string why;
  DenialCause cause = DenialCause::none;
  std::string cause_note;  // the figures behind the cause ("accept queue 511/511")
  bool operator==(const DenialStep&) const = default;
};

// One kind of stall on one side: its steps in rising order (a kind stops at its first
// denied step: the higher ones are not run).
struct DenialKind {
  std::string kind;  // a client kind's name: "silent", "header-trickle", "h2-zero-window"
  std::vector<DenialStep> steps;
  // The knee: the first step's count that denied the regular traffic; nullopt: not denied up
  // to `highest` (the last step run).
  std::optional<std::size_t> knee;
  std::size_t highest = 0;
  bool operator==(const DenialKind&) const = default;
};

struct DenialSide {
  std::string role;      // "target", "baseline" or "candidate"
  std::string target;    // its name: "nginx", "reference+accept-cap"
  std::string protocol;  // "http1", "tls", "h2c", "h2"
  std::string server_binary, server_sha256;
  std::vector<std::string> command;
  // The regular traffic alone (no connection held), run first: a side whose control step is
  // denied is denied by its regular traffic, not by a stall; its kinds are not run, and each
  // kind's knee is 0.
  std::optional<DenialStep> control;
  std::vector<DenialKind> kinds;
  bool operator==(const DenialSide&) const = default;
};

// A kind's knees on the two sides, compared: lower means the candidate is denied by fewer
// held connections (exit 1); higher by more; same, or not_comparable when a side did not
// run the kind to an end (interrupted).
enum class KneeChange { same, lower, higher, not_comparable };
std::string_view to_string(KneeChange change);  // "same", "lower", "higher", "not-comparable"

struct DenialComparison {
  std::string kind;
  std::optional<std::size_t> baseline_knee, candidate_knee;
  std::size_t baseline_highest = 0, candidate_highest = 0;
  KneeChange change = KneeChange::same;
  bool operator==(const DenialComparison&) const = default;
};

struct Denial {
  std::string schema = std::string(kDenialSchema);
  std::string loiter_version;
  std::string started;          // UTC
  double duration = 0;          // the whole run, s
  double rate = 0;              // the regular traffic's requests/s
  double step_seconds = 0;      // each step's regular traffic, s
  double p99_bound_ms = 0;      // the target's load_p99, or --p99
  double least_2xx_share = 0;   // a step under this share of 2xx answers is denied: 0.99
  std::string pinning;
  std::vector<DenialSide> sides;              // one, or baseline then candidate
  std::vector<DenialComparison> comparison;   // a comparison's kinds
  std::vector<std::string> problems;
  bool interrupted = false;
  bool operator==(const Denial&) const = default;
};

// True when a comparison found some kind's knee lower on the candidate (exit 1).
bool candidate_denied_sooner(const Denial& denial);

}  // namespace loiter::reports
