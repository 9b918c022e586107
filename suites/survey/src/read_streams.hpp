// The readings of a probe that stalls one stream of a multiplexed connection (HTTP/2 and
// HTTP/3: a body that never comes, a window never opened, a HEADERS frame stopped halfway) and
// of the two HTTP/3 probes that bracket a deadline the server keeps without a word (a half-open
// handshake, an idle connection). Pure functions of the client records.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "read_probe.hpp"

namespace loiter::suites::survey {

// The stalled stream's end as the server chose it, from its first send (its open, or its
// HEADERS): the first of a response on it (a 2xx: "answered"; another status: "408+rst-stream"),
// the server's RST_STREAM (HTTP/2) or RESET_STREAM / STOP_SENDING (HTTP/3) ("rst-stream"), a
// GOAWAY the connection was left open after ("goaway"), or the connection's end by the server.
// A kind closes its connection itself once the stream was ended: that close is not the ending.
Timed stream_end(const clients::ConnectionRecord& record);

// The HTTP/3 codes the server ended the probes' streams and connections with, most common
// first: "RESET_STREAM H3_REQUEST_INCOMPLETE (5), CONNECTION_CLOSE H3_CLOSED_CRITICAL_STREAM
// (1)"; empty when none came.
std::string h3_codes(const std::vector<clients::ConnectionRecord>& records);

// Where an HTTP/3 bracket's probe times run from: the client's first Initial (h3-handshake),
// or its last packet before the probe (h3-idle).
enum class BracketFrom { first_initial, last_packet };

// The first phase's probe times, s: 0.75, 1.5, 3, ... while under 0.9 of the wait (a probe
// must be answered, or not, before the connection's own patience ends it).
std::vector<double> first_ladder(double max_wait);
// The second phase's, between the latest time held and the earliest gone: evenly spaced, as
// many as bring the gap under the slack (at least `connections`, at most 24).
std::vector<double> refined_ladder(double held, double gone, std::size_t connections,
                                   double slack);

// A bracket's measure: each connection probed once at a time of its own (its ladder time).
// Ending "gone" with `seconds` {min: the latest time a probe found it held (0: none did),
// median: halfway, max: the earliest time one found it gone}, narrowed by `before` (the first
// phase's bracket, where this is the second's); "open" and no time when every probe found it
// held. A connection the server ended aloud (CONNECTION_CLOSE, a stateless reset) is timed
// instead; when those are the most, the measure is theirs, as summarize() makes it.
reports::SurveyMeasure read_bracket(const MeasureHead& head,
                                    const std::vector<clients::ConnectionRecord>& records,
                                    BracketFrom from, double slack,
                                    const std::optional<reports::Spread>& before = std::nullopt);

// Whether a bracket probe's phase has nothing more to learn: a connection was found gone (or
// ended aloud) and every connection with an earlier ladder time has its answer.
bool bracket_done(const std::vector<clients::ConnectionRecord>& records,
                  const std::vector<double>& ladder);

}  // namespace loiter::suites::survey
