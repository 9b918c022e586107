// What a scenario saw and what it expected: plain data, the only input of judge().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/load/load_result.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/fixtures/probe/sample.hpp"
#include "loiter/reports/finding.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

struct FdObservation {
  std::size_t baseline = 0;
  bool baseline_settled = false;
  std::size_t peak = 0;
  std::size_t after = 0;  // the last value seen while waiting for recovery
  bool recovered = false;
  std::optional<Duration> recovered_after;  // from the end of the clients' run
  // The server's own RLIMIT_NOFILE (soft, of its root process) and the most FDs one of its
  // processes held in any sample: a server at its limit cannot accept more.
  std::optional<std::size_t> server_limit;
  std::size_t peak_in_one_process = 0;
};

// The regular traffic a load scenario ran next to its waiting connections.
struct LoadObservation {
  clients::LoadResult result;
  std::size_t pool = 0;  // keep-alive connections the generator was asked to use
};

// A process of the server still running once the server was stopped (then killed).
struct LeftoverProcess {
  long pid = 0;
  std::string command;  // its command line
};

struct Observation {
  std::string scenario;
  // The server at rest before the clients ran (the settled baseline's sample): FDs,
  // threads, TCP counts, FD types when the probe counted them.
  std::optional<fixtures::ProcessSample> baseline;
  std::vector<clients::ConnectionRecord> connections;
  std::optional<LoadObservation> load;
  FdObservation fds;
  std::vector<fixtures::TimedSample> timeline;
  std::optional<std::string> server_exit;  // the server ended during the scenario
  std::vector<LeftoverProcess> leftovers;  // still running after the server was stopped
  // Client processes the connections were split over (1: all in loiter's own process).
  std::size_t client_processes = 1;
  // What loiter spent driving the connections in its own process: the thread that drove them
  // (its want of a CPU over the drive) and loiter's CPU; none where they ran in client
  // processes, or in a document that did not keep it. The regular traffic's own thread is
  // the load's (LoadResult::client).
  std::optional<clients::ClientCost> fleet_cost;
  // False when nothing of the server's side was sampled (loiter check --connect without
  // --pid): no baseline, FDs or timeline, and the checks that read them are not made
  // (server_side_checks() names them), neither passed nor failed.
  bool server_sampled = true;
};

// Where a connection's deadline is measured from, in that connection's own record.
enum class Since {
  connect,        // the header deadline: from the handshake
  first_send,     // the body deadline: from the request head the client sent first
  last_response,  // the idle deadline: from the last response that arrived whole
  second_send,    // the next request's head deadline: from the second request head sent
  handshake,      // a head deadline over TLS that starts once the handshake completed
  quiet,          // HTTP/3: from the client's last packet before its probe (H3Record::last_sent)
  // HTTP/3, timed as first_send and connect are, named as the [h3] key's origin: a request
  // stream's open (the header deadline), its HEADERS (the body deadline), the request whose
  // window stays shut (the send deadline), the connection's first Initial (the handshake).
  stream_open,
  stream_headers,
  stream_request,
  first_initial,
};

// The server must end each connection within [deadline - slack, deadline + slack] of the
// connection's own `since` point, in one of the allowed ways.
struct ClosureExpectation {
  std::string kind;  // only connections of this client kind ("silent"); empty: every one
  Since since = Since::connect;
  Duration deadline{};
  Duration slack{};
  std::vector<clients::EndingLabel> endings;  // the endings allowed
  // What each send after a connection's first one is, when the client keeps making progress
  // ("header line", "header byte"); empty: sends are not progress. A connection that outlived
  // the deadline while such sends kept arriving is named with that cause (outlived-by-progress).
  std::string progress;
  std::string name;  // which deadline this is ("idle", "header"): a closure outside names it
  // The target's key that declares it ("[h3] header"): every finding of it names the key.
  std::string key;
  // HTTP/2: the deadline ends the stream, not necessarily the connection. What ended it is
  // the first of: a whole response (labelled by its status: "408"), a RST_STREAM from the
  // server ("rst-stream"), or the server's own ending of the connection ("goaway+close",
  // "close", "reset"). A connection kept open after its stream ended is not still open.
  bool stream = false;
};

// The server must NOT cut the connection: each one receives `responses` whole responses
// with `status`, and the exchange outlasts `outlives` (the request-wait deadline it must
// survive; an exchange shorter than that would prove nothing).
struct CompletionExpectation {
  std::string kind;  // only connections of this client kind; empty: every one
  std::size_t responses = 1;
  unsigned status = 200;
  Duration outlives{};
  // The client, not the server, ends the connection (a held WebSocket): any server ending
  // before the client's own close is a cut.
  bool client_ends = false;
  // Every connection was held at the same time (held-capacity): the last first answer came
  // before the first re-check was sent. A fleet that opened slower than planned re-checks
  // its first connections while later ones are still connecting, and proves less.
  bool held_at_once = false;
};

// A reader that stops reading must be cut by the server's send deadline: its response left
// incomplete, the connection ended by the server. Where the client saw the cut during its
// pause (a reset), it must come within [deadline - slack, deadline + slack] of the server's
// last progress (a deadline between writes: from the pause's start at the earliest to when
// bytes last arrived during it at the latest) or of the request (one over the whole
// response); a FIN
// queued behind unsent bytes is seen only after the pause, and not timed.
struct CutExpectation {
  std::string kind;  // only connections of this client kind; empty: every one
  Duration deadline{};
  Duration slack{};
  bool from_pause = true;  // false: from the request head
  Duration pause{};        // how long the readers stopped reading
};

// Regular traffic next to the waiting connections: every dispatched request answered 2xx,
// p99 (from intended send time) within the target's bound, and the server's FDs back to
// baseline + the generator's pool once every waiting connection is closed, while the load
// still runs.
struct LoadExpectation {
  std::optional<Duration> p99;  // nullopt: the target declares no bound (reported only)
  std::size_t pool = 0;
  // FDs back to baseline + pool while the load still runs (waiting connections' FDs given
  // back); false where nothing waits (the soak, judged on its slopes instead).
  bool fds_during = true;
};

// A code a CONNECTION_CLOSE carries (RFC 9000 19.19): a transport one, or an HTTP/3 one
// (application: frame type 0x1d, RFC 9114 8.1).
struct QuicCode {
  std::uint64_t code = 0;
  bool application = false;

  bool operator==(const QuicCode&) const = default;
};

// A bounded flood next to a control client (the flood family). Over HTTP/2 the server must
// end each flood connection — a GOAWAY with ENHANCE_YOUR_CALM or PROTOCOL_ERROR, or a close
// or reset — after at most `frames` of the flood's frames. Over HTTP/3 (records with h3) a
// flood that `must_end` is ended by the server's CONNECTION_CLOSE or stateless reset with at
// most `frames` sent by then, or by the server's refusal to grant more stream credit with at
// most `frames` sent in all (or, with `refusals_end`, by refusing every stream it took a
// position on and answering none); a CONNECTION_CLOSE's code must be one of `close_codes`, whether the kind
// must end or not. Every kind: the control client's requests must each be answered 200,
// within `p99` at the 99th percentile (from their intended send times); the server's RSS
// (all its processes) must stay within `rss`.
struct FloodExpectation {
  std::string kind;                  // the flood's client kind: "h2-rapid-reset"
  std::string control_kind;          // the control client's kind: "h2-control"
  std::size_t frames = 0;            // the flood frames the server may read before ending it
  std::optional<Duration> p99;       // nullopt: the control's p99 is not judged
  std::optional<std::uint64_t> rss;  // bytes; nullopt: not judged
  // HTTP/3. false: a bounded kind, which the server need not end (its RFC gives it no reason
  // to close): only the control client, the RSS and a close's code are judged.
  bool must_end = true;
  bool refusals_end = false;  // h3-qpack-bomb: every stream refused, none answered, ends it
  std::vector<QuicCode> close_codes;  // empty: a close's code is not judged
};

// A soak (sustained regular traffic with connection churn, LoadExpectation for its
// answers): while it runs, no upward drift — the least-squares slope of the server's FDs,
// its connections (server-side sockets of the port but LISTEN and TIME_WAIT) and its RSS over
// the second half of the traffic within the bounds, per minute; the p99 (from the intended
// send time) of the requests due in the last `window` at most `p99_growth` times that of the
// first `window` (a last p99 under `p99_floor` is never a finding: noise at a fraction of a
// millisecond); once the traffic ends, FDs, connections and threads back to their baseline
// within the recovery window.
struct SoakExpectation {
  double fds_per_minute = 0;
  double connections_per_minute = 0;
  double rss_kib_per_minute = 0;
  double p99_growth = 2.0;
  Duration p99_floor{};
  Duration window{};
  // Slopes fitted over a shorter span than this are figures, not findings: a soak stopped
  // after a few seconds fits a steep line to its pool and churn opening, not to a leak.
  Duration shortest_fit{};
};

// HTTP/3 (the h3 family): what only QUIC shows, for the connections of `kind` (empty: all).
// Over UDP a server may forget a connection without a word, so a deadline is judged by
// probes on both sides of it: a probe sent before `deadline - slack` from `since` must be
// answered (the server had not dropped the connection early), one sent from `deadline` on
// must not be (it had); an ending the client saw (CONNECTION_CLOSE, a stateless reset)
// before any probe is timed as a closure is, within [deadline - slack, deadline + slack].
struct H3Expectation {
  std::string kind;
  std::optional<Duration> deadline;  // nullopt: no probes judged
  Since since = Since::connect;
  Duration slack{};
  std::string name;  // the deadline's name: "idle", "handshake"
  std::string key;   // the target's key that declares it: "[h3] idle"
  // The server's max_idle_timeout transport parameter must be this (RFC 9000 18.2).
  std::optional<Duration> idle_advertised;
  // The connection must end with the server's CONNECTION_CLOSE carrying this HTTP/3 code
  // (application close, RFC 9114 8.1).
  std::optional<std::uint64_t> close_code;
  // Before the client's address is validated the server may send at most this many times
  // the bytes it received (RFC 9000 8.1: three).
  std::optional<double> amplification;
};

struct Expectations {
  std::size_t connections = 0;
  Duration patience{};  // how long each client waits for the server, from its connect
  std::optional<ClosureExpectation> closure;
  // A scenario that mixes client kinds: one closure expectation per kind.
  std::vector<ClosureExpectation> kind_closures;
  std::optional<LoadExpectation> load;
  std::optional<CompletionExpectation> completion;
  // A scenario that mixes client kinds: one completion expectation per kind.
  std::vector<CompletionExpectation> kind_completions;
  std::optional<CutExpectation> cut;
  std::optional<FloodExpectation> flood;
  std::optional<SoakExpectation> soak;
  std::optional<H3Expectation> h3;
  // A scenario that mixes HTTP/3 client kinds: one per kind (idle-under-load over HTTP/3).
  std::vector<H3Expectation> kind_h3;
  // The 200 responses must be at least this large (Content-Length, or the bytes of a whole
  // one): larger than the kernel's buffers, or the server's send path never stalled.
  std::optional<std::size_t> stall_bytes;
  std::size_t fds_after = 0;  // FDs the server may hold once recovered, above baseline
  Duration recovery{};
  // How often the server is sampled; 0: every 100 ms (a long soak samples less often). Its
  // port's TCP states at most every tcp_sample_period; 0: at every sample (fixtures::Sampler).
  Duration sample_period{};
  Duration tcp_sample_period{};
  // At the end, no server-side socket of the port may sit in CLOSE_WAIT (the client's FIN
  // came and the server never closed). Judged on the last sample's TCP counts, if any.
  bool no_server_close_wait = false;
};

struct Verdict {
  bool passed = true;
  std::vector<reports::Finding> findings;  // what failed, and by how much
};

}  // namespace loiter::suites
