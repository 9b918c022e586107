// A finding: what failed in one scenario, as data (a stable code, a class, the figure and the
// bound it broke), never as words. The judge makes findings; text() makes the sentence a
// reader sees, so every reporter says the same. Plain data: links fmt only (loiter::reports_data).
#pragma once

#include <array>
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loiter::reports {

// What kind of failure a finding is.
enum class FindingClass {
  deadline,        // a connection closed outside its deadline window, or not at all, or cut
  resources,       // FDs not given back, sockets left in CLOSE_WAIT
  answer,          // the wrong ending or status
  capacity,        // connect failures, latency, connections not held at once, an FD limit
  infrastructure,  // the run itself: what was driven, harness errors, a premise unmet
  crash,           // the server died under the scenario (its exit status or signal)
};
inline constexpr std::array kFindingClasses{FindingClass::deadline,       FindingClass::resources,
                                            FindingClass::answer,         FindingClass::capacity,
                                            FindingClass::infrastructure, FindingClass::crash};
std::string_view to_string(FindingClass klass);
std::optional<FindingClass> finding_class_from_string(std::string_view text);

// Every code the judge, the runner and the harness make (reports/SCHEMA.md, "Findings").
namespace codes {
inline constexpr char kServerExited[] = "server-exited";
inline constexpr char kDrivenCount[] = "driven-count";
inline constexpr char kConnectFailed[] = "connect-failed";
inline constexpr char kStillOpen[] = "still-open";
inline constexpr char kEndedBeforeOrigin[] = "ended-before-origin";
inline constexpr char kClosedEarly[] = "closed-early";
inline constexpr char kClosedLate[] = "closed-late";
inline constexpr char kWrongEnding[] = "wrong-ending";
inline constexpr char kCutOff[] = "cut-off";
inline constexpr char kProvesNothing[] = "proves-nothing";
inline constexpr char kNotHeldAtOnce[] = "not-held-at-once";
inline constexpr char kNoLoad[] = "no-load";
inline constexpr char kNoLoadDispatched[] = "no-load-dispatched";
inline constexpr char kNon2xx[] = "non-2xx";
inline constexpr char kP99OverBound[] = "p99-over-bound";
inline constexpr char kLoadTooShort[] = "load-too-short";
inline constexpr char kFdsDuringLoad[] = "fds-during-load";
inline constexpr char kFdsNotRecovered[] = "fds-not-recovered";
inline constexpr char kServerFdLimit[] = "server-fd-limit";
inline constexpr char kCloseWait[] = "close-wait";
inline constexpr char kKernelView[] = "kernel-view";
inline constexpr char kFdsBackLate[] = "fds-back-late";
inline constexpr char kFdsStillHeld[] = "fds-still-held";
inline constexpr char kHarnessError[] = "harness-error";
inline constexpr char kLeftoverProcess[] = "leftover-process";
inline constexpr char kOutlivedByProgress[] = "outlived-by-progress";
inline constexpr char kNeverCut[] = "never-cut";
inline constexpr char kFitsInBuffers[] = "fits-in-buffers";
// The flood family (bounded HTTP/2 and HTTP/3 floods beside a control client).
inline constexpr char kFloodNotEnded[] = "flood-not-ended";
inline constexpr char kFloodOverFrames[] = "flood-over-frames";
inline constexpr char kFloodGoawayCode[] = "flood-goaway-code";
inline constexpr char kFloodCloseCode[] = "flood-close-code";  // HTTP/3: a CONNECTION_CLOSE's
inline constexpr char kControlUnanswered[] = "control-unanswered";
inline constexpr char kRssOverBound[] = "rss-over-bound";
// The soak (sustained traffic with churn): drift while it runs, what it leaves behind.
inline constexpr char kSlopeOverBound[] = "slope-over-bound";
inline constexpr char kP99Grew[] = "p99-grew";
inline constexpr char kNotBackToBaseline[] = "not-back-to-baseline";
// HTTP/3 (QUIC): what probes and the server's own fields show.
inline constexpr char kProbeUnanswered[] = "probe-unanswered";
inline constexpr char kProbeAnswered[] = "probe-answered";
inline constexpr char kIdleAdvertised[] = "idle-advertised";
inline constexpr char kAmplification[] = "amplification";
// A finding read from a loiter-run/2 document: a sentence with no code.
inline constexpr char kText[] = "text";
}  // namespace codes

// What a soak's findings are about (Finding::subject, which in a mix names a client kind):
// the server's FDs, connections, RSS and threads.
namespace soak_subjects {
inline constexpr char kFds[] = "fds";
inline constexpr char kConnections[] = "connections";
inline constexpr char kRss[] = "rss";
inline constexpr char kThreads[] = "threads";
}  // namespace soak_subjects

// What a connect error points at: the client's descriptors (EMFILE, ENFILE), its ephemeral
// ports (EADDRNOTAVAIL), the server (refused, timed out, reset: its listen backlog full or its
// own FD limit); none when the error says nothing of a limit. In report.json: "limit":
// "client-nofile", "client-ports", "server" (absent for none).
enum class ConnectLimit { none, client_nofile, client_ports, server };
std::string_view to_string(ConnectLimit limit);  // "" for none
// The limit `text` names; none for "" and for a word this loiter does not know (a newer
// loiter's: the finding's sentence then leaves the limit out).
ConnectLimit connect_limit_of(std::string_view text);

// Where a deadline runs from, as a finding names it. In report.json: "since": "connect",
// "request-head" (the request head the client sent first), "last-response",
// "second-request-head" (keepalive-partial's second head), "handshake" (the TLS handshake's
// completion), "quiet" (HTTP/3: the client's last packet before its probe), "read-pause" (the
// server's last progress as a reader that stopped reading saw it), and HTTP/3's own:
// "stream-open" (a request stream's open), "stream-headers" (its HEADERS),
// "stream-request" (a request whose window stayed shut after its first bytes: the last
// bytes it let through came with them),
// "first-initial" (the connection's first Initial); absent for none.
enum class Since {
  none,
  connect,
  request_head,
  last_response,
  second_request_head,
  handshake,
  quiet,
  read_pause,
  stream_open,
  stream_headers,
  stream_request,
  first_initial,
};
// Every origin but none (a finding without a deadline, which leaves "since" out).
inline constexpr std::array kSinces{
    Since::connect,        Since::request_head,   Since::last_response, Since::second_request_head,
    Since::handshake,      Since::quiet,          Since::read_pause,    Since::stream_open,
    Since::stream_headers, Since::stream_request, Since::first_initial};
std::string_view to_string(Since since);  // "" for none

struct Finding {
  std::string code;      // stable kebab-case id: "still-open", "closed-late", ...
  std::string scenario;  // the scenario id it belongs to
  FindingClass klass = FindingClass::infrastructure;  // JSON key "class"
  std::string subject;  // the client kind in a mix ("silent"); empty: every connection
  std::optional<std::size_t> count, of;   // how many, out of how many
  std::optional<double> measured, bound;  // the figure and the bound it broke
  std::string unit;                       // of measured/bound: "s", "ms", "" (a count)

  // Details: the rest of what the sentence needs, each only where its code uses it.
  Since since = Since::none;                  // where a deadline runs from
  std::optional<double> deadline, slack;      // s: the deadline and its slack either side
  std::string ending;                         // how the connections ended: "close", "408+close"
  std::vector<std::string> expected_endings;  // the endings allowed
  std::string error;  // in the harness's words: a connect error, the server's exit, ...
  ConnectLimit limit = ConnectLimit::none;  // what a connect error points at
  std::optional<std::size_t> responses;     // cut-off: the whole responses each had to get...
  std::optional<unsigned> status;           // ...with this status (absent: the client ends it)
  std::vector<std::pair<std::string, std::size_t>> failures;  // {"503", 7}, {"reset", 3}
  std::optional<std::size_t> baseline, peak, pool;            // FDs: baseline, peak, regular pool
  std::optional<std::size_t> connected_late, most_at_once, connections;  // held at once
  // not-held-at-once: the listener's accept queue at its longest, its capacity (the backlog),
  // and for how long (s) connections waited there while the server took none of them.
  // closed-late (from connect): for how many of the late ones the accept queue still held
  // connections a deadline before they closed (a deadline run from a late accept), and the
  // longest queue so seen.
  std::optional<std::size_t> accept_queue, backlog, accept_waited;
  std::optional<double> accept_stalled;
  std::string explanation;             // what the kernel showed for the connections still open
  std::vector<std::string> processes;  // leftover-process: "PID command", one per process
  std::string progress;  // outlived-by-progress: what kept arriving: "header line", "header byte"
  std::optional<std::size_t> progress_by_deadline;  // ...the most of them by the deadline
  // closed-early/-late: which deadline ran from `since` ("idle", "header"); empty: unnamed.
  std::string deadline_name;
  // The target's key that declares the deadline missed ("[h3] header"): the sentence names
  // it and its value (still-open, closed-early/-late, outlived-by-progress, the probes).
  std::string deadline_key;
  // The soak: the descriptor type that grew most ("socket"), and the same figure earlier
  // (p99-grew: the first window's p99).
  std::string descriptor;
  std::optional<double> before;
  // still-open: every one got a response unasked (its `status`: a 408) and was left open:
  // when it came, at the median, in s from `since`.
  std::optional<double> answered_at;
  // closed-early: when those connections closed, at the median, in s from connect, set
  // where every one of them closed within the deadline's window counted from connect: a
  // deadline run from connect instead of `since` (an idle deadline from the accept).
  std::optional<double> after_connect;
  // cut-off: the cut readers were still reading: at the median, s between the last response
  // bytes they received and the cut (slow readers, whose records keep their reads).
  std::optional<double> read_gap;
  // p99-over-bound, p99-grew: the share of the load's wall time loiter's load thread wanted a
  // CPU (on one or waiting for one); not-held-at-once: the same of the thread that drove the
  // connections, over the run. Set where it was at least clients::kClientBusy: a client
  // limit, and the finding is the run's (infrastructure), not the server's.
  std::optional<double> client_busy;
  // HTTP/3: a finding about connections the server no longer answered ("gone"), made while
  // the server's UDP socket dropped datagrams (a full receive queue) or the machine's UDP
  // RcvbufErrors rose: how many, over the scenario. Those endings may be the socket's.
  std::optional<std::size_t> udp_drops, udp_rcvbuf_errors;
  // The sentence as a document stored it, kept only for a code this loiter does not
  // render (a loiter-run/2 string, code "text"; a newer loiter's code).
  std::string sentence;

  bool operator==(const Finding&) const = default;
};

// The sentence a reader sees: the same facts and figures for every reporter.
std::string text(const Finding& finding);

// The codes text() renders (every code in `codes` but "text").
std::span<const std::string_view> known_codes();

// "[deadline] still-open: 3/4 connections still open ...": for tests and logs.
std::ostream& operator<<(std::ostream& out, const Finding& finding);

}  // namespace loiter::reports
