// judge: a pure function of plain data. The same Observation and Expectations give the same
// Verdict in the CLI and in gtest; it is unit-tested on canned observations.
#pragma once

#include <string>
#include <vector>

#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites {

Verdict judge(const Observation& observation, const Expectations& expectations);

// The checks that read the server's side (its FDs, RSS, threads, the TCP states of its
// port, whether it is still running), each as "what it checks (finding code)": those not made
// when Observation::server_sampled is false.
std::vector<std::string> server_side_checks();

// The moment a connection's deadline runs from, since its connect; nullopt if the record
// has no such moment (no whole response to measure an idle deadline from, say).
std::optional<Duration> deadline_origin(const clients::ConnectionRecord& record, Since since);

// When the server ended the connection, since connect: its ending, or over HTTP/2 its
// GOAWAY when the server then closed (the close may wait for the client's first).
Duration server_ended_at(const clients::ConnectionRecord& record);

// When the server ended what a closure is about (ClosureExpectation::stream: the stalled
// stream, by its answer, its reset or the connection's end; else the connection), since
// connect; nullopt when the server did not end it.
std::optional<Duration> server_end_time(const clients::ConnectionRecord& record, bool stream);
// How the server ended it, as a closure's endings are matched ("rst-stream", "408", "close");
// nullopt when the server did not end it.
std::optional<clients::EndingLabel> server_end_label(const clients::ConnectionRecord& record,
                                                     bool stream);

// The flood family's figures. The 99th percentile (nearest rank) of the control client's
// latencies; nullopt without any. The server's RSS peak over the timeline, in bytes (all
// its processes); nullopt without a sample of a running server.
std::optional<Duration> control_p99(std::vector<Duration> latencies);
std::optional<std::uint64_t> rss_peak(const std::vector<fixtures::TimedSample>& timeline);

}  // namespace loiter::suites
