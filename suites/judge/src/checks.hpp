// The judge's checks, one file per concern: each adds its findings to the verdict. Private
// to loiter::judge; judge() in judge.cpp runs them in order.
#pragma once

#include <string>

#include "loiter/reports/finding.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/judge/soak_figures.hpp"

namespace loiter::suites::checks {

// The names every check uses.
using clients::ConnectionRecord;
using clients::Ending;
using reports::Finding;
using reports::FindingClass;
namespace codes = reports::codes;
namespace soak_subjects = reports::soak_subjects;

// The server ended the connection (FIN, RST, or a TLS alert and then its close), rather
// than the client or nobody.
// Over QUIC, a connection a probe found gone (Ending::gone) was ended by the server too.
inline bool ended_by_server(const ConnectionRecord& r) {
  return r.ending == Ending::close || r.ending == Ending::reset || r.ending == Ending::alert ||
         r.ending == Ending::gone;
}

// server_end.cpp: how the server ended what a closure is about, the connection or (over
// HTTP/2, ClosureExpectation::stream) its stream.
struct ServerEnd {
  bool by_server = false;      // the server ended it
  bool open = false;           // still open when the client's patience ran out
  Duration at{};               // since connect: when it ended (by_server)
  clients::EndingLabel label;  // matched against the allowed endings
};
ServerEnd server_end(const ConnectionRecord& r, bool stream);

// An ending label with what the server's HTTP/2 frames said, for a finding:
// "close (without GOAWAY)", "goaway+close (GOAWAY PROTOCOL_ERROR, last stream 0)",
// "rst-stream (RST_STREAM CANCEL)"; the label as it is over HTTP/1.1.
std::string ending_words(const ConnectionRecord& r, const clients::EndingLabel& label);

// The connections of client kind `kind` (empty: every one), in the observation's order.
std::vector<const ConnectionRecord*> of_kind(const Observation& o, const std::string& kind);

// Where a deadline runs from, as a finding names it (reports::Since: "request-head" for
// first_send, ...).
reports::Since finding_since(Since since);

// A finding of `code` about the observed scenario; its figures are set by the caller.
reports::Finding finding(const Observation& o, const char* code, reports::FindingClass klass,
                         std::string subject = {});

// A finding made while the thread of loiter's it is about (the load's, for a latency finding
// about the regular traffic; the fleet's, for connections not held at once) wanted a CPU at
// least clients::kClientBusy of its span: a client limit, the run's and not the server's
// (Finding::client_busy set, its class infrastructure). Otherwise left as it is.
void name_client_limit(const clients::ClientCost& cost, reports::Finding& f);

// closure_causes.cpp: what the records show of a missed deadline's cause. Connections still
// open that each got one response unasked (a 408): its status and when, at the median, from
// the deadline's origin (Finding::status, answered_at). Closes (since connect) that all came
// within the deadline's window counted from connect, where it runs from elsewhere: their
// median (Finding::after_connect).
void name_unasked_answer(const std::vector<const ConnectionRecord*>& open, Since since, Finding& f);
std::optional<double> at_deadline_from_connect(const std::vector<Duration>& ended,
                                               const ClosureExpectation& c);
// The server's listener's accept queue at the last sample from r's connect to `until` after
// it, where it held any: connections were still waiting for an accept then, as r was if the
// server took it at `until` (the latest a deadline started at its accept can have started).
struct QueueSeen {
  std::size_t queue = 0, backlog = 0;
};
std::optional<QueueSeen> queued_until(const ConnectionRecord& r, Duration until,
                                      const std::vector<fixtures::TimedSample>& timeline);
// closed-late: of the `late` connections (each with its end since connect), those for which
// the accept queue still held connections at their end less the deadline (queued_until): how
// many (Finding::accept_waited) and the longest queue so seen (accept_queue, backlog).
void name_late_accept(const std::vector<std::pair<const ConnectionRecord*, Duration>>& late,
                      const ClosureExpectation& c,
                      const std::vector<fixtures::TimedSample>& timeline, Finding& f);

// check_completion.cpp: connections that must not be cut, and held-capacity's premise.
void check_completion(const Observation& o, const CompletionExpectation& c, Verdict& v);
void check_held_at_once(const Observation& o, Verdict& v);

// check_progress.cpp: connections of one closure that outlived their deadline while the
// client's progress (c.progress) kept arriving past it; `about` is their base finding. Not
// those the server's sampled accept queue (`timeline`) shows were accepted late.
void check_progress(const std::vector<const ConnectionRecord*>& records,
                    const ClosureExpectation& c, Finding about,
                    const std::vector<fixtures::TimedSample>& timeline, Verdict& v);
// check_cut.cpp: readers that stalled the send path: cut by the send deadline, and the
// response large enough to stall it at all.
void check_cut(const Observation& o, const CutExpectation& c, Verdict& v);
void check_stall_bytes(const Observation& o, std::size_t stall_bytes, Verdict& v);

// check_load.cpp: the regular traffic next to the waiting connections, and FDs during it.
void check_load(const Observation& o, const LoadExpectation& e, Verdict& v);

// check_flood.cpp: a flood ended within its frames, the control client answered in time,
// the server's RSS within its bound.
void check_flood(const Observation& o, const FloodExpectation& e, Verdict& v);
// A finding of `code` about e.kind's flood connections: `count` of `of`.
Finding flood_finding(const Observation& o, const FloodExpectation& e, const char* code,
                      FindingClass klass, std::size_t count, std::size_t of);
// The flood connections the server never ended (the frames each sent) and those it ended past
// the declared frames (the frames each had sent by then; the first one's ending in words).
struct FloodFrames {
  std::vector<std::size_t> not_ended, over;
  std::string over_ending;
};
// flood-not-ended and flood-over-frames, the most frames measured against e.frames.
void flood_frames_findings(const Observation& o, const FloodExpectation& e,
                           const FloodFrames& frames, std::size_t of, Verdict& v);
// check_flood_h3.cpp: an HTTP/3 flood's ending (a CONNECTION_CLOSE or stateless reset, its
// credit refused, or every stream refused) within its frames, where its kind must end, and
// its CONNECTION_CLOSE's code among those the expectation allows.
void check_h3_flood_ended(const Observation& o, const FloodExpectation& e, Verdict& v);

// check_soak.cpp: the soak's drift, p99 growth and what it left behind; then its
// explanations (descriptor type, TCP states) added to the FD findings already made.
void check_soak(const Observation& o, const SoakFigures& f, const SoakExpectation& e, Verdict& v);
void explain_soak_fds(const Observation& o, const SoakFigures& f, Verdict& v);

// check_h3.cpp: HTTP/3's probes on both sides of a deadline, the advertised idle timeout,
// the CONNECTION_CLOSE code, the amplification limit.
void check_h3(const Observation& o, const H3Expectation& e, Verdict& v);

// check_udp.cpp: the findings about connections that ended gone, given what the server's
// UDP socket dropped meanwhile (and the machine's RcvbufErrors), where either rose.
void name_udp_drops(const Observation& o, Verdict& v);

// check_resources.cpp: FDs given back, CLOSE_WAIT, and the server's own FD limit.
void check_fds(const Observation& o, const Expectations& e, Verdict& v);
void check_close_wait(const Observation& o, const Expectations& e, Verdict& v);
void explain_server_limit(const Observation& o, Verdict& v);

}  // namespace loiter::suites::checks
