// The readings of one measure each (survey.hpp's ids), on read_probe.hpp's rules: where a
// deadline runs from, whether a steady reader outlives the send deadline, an HTTP/2 idle
// GOAWAY's code, how a flood ended. Pure functions of the client records.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "read_probe.hpp"

namespace loiter::suites::survey {

// idle-reused: a kept-alive connection reused every `reuse` s (below the idle deadline),
// `requests` times. runs_from "connect" when the server ended it before its last response
// (its idle clock never restarted: the time is from connect), "last-response" otherwise
// (the time is from the last response).
reports::SurveyMeasure read_idle_reused(const MeasureHead& head,
                                        const std::vector<clients::ConnectionRecord>& records,
                                        std::size_t requests, double slack);

// next-head: half a second head sent `pause` s after the first response. runs_from
// "first-byte" when it was ended `header` s after the half head's first byte,
// "last-response" when `header` or `idle` s after the first response, "never" when it was
// still open at the end of the wait; "other" otherwise. The time is from its first byte.
reports::SurveyMeasure read_next_head(const MeasureHead& head,
                                      const std::vector<clients::ConnectionRecord>& records,
                                      std::optional<double> header, std::optional<double> idle,
                                      double slack);

// send-slow: a reader taking the response steadily. extends=false when the server cut most
// of its connections while they were still taking bytes (no stretch of `send` s without
// new bytes up to the cut; the note says "cut while the reader made progress"), whenever the
// client saw the cut; otherwise true when it outlived the stopped reader's deadline `send`
// (read it whole, or was cut later than send + slack from the request), false when it was
// cut within the slack of `send` from the request (the deadline runs over the whole
// response), nullopt when the response was whole sooner than `send` (nothing to tell).
reports::SurveyMeasure read_send_slow(const MeasureHead& head,
                                      const std::vector<clients::ConnectionRecord>& records,
                                      double send, double slack, double max_wait);

// tls-header-from: half a head after a handshake begun late. runs_from "connect" when it was
// ended `header` s after the connect, "handshake" when `header` s after the handshake's
// end; "other" otherwise (and nothing when it was never ended).
reports::SurveyMeasure read_header_from(const MeasureHead& head,
                                        const std::vector<clients::ConnectionRecord>& records,
                                        double header, double slack);

// h2-idle: the idle close after one answered stream, from that answer; runs_from names the
// GOAWAY's code ("NO_ERROR", ...) or "none" when the server closed without one.
reports::SurveyMeasure read_h2_idle(const MeasureHead& head,
                                    const std::vector<clients::ConnectionRecord>& records,
                                    double slack);

// A flood (one connection a flood): when the server ended it (its GOAWAY, or the close),
// from connect; runs_from names the GOAWAY's code ("none": closed without one); the note
// says how many of the flood's frames had gone out by then, or that all of them went
// through (`bound`: the flood's own bound).
reports::SurveyMeasure read_flood(const MeasureHead& head,
                                  const std::vector<clients::ConnectionRecord>& records,
                                  std::size_t bound, double slack);
// Over HTTP/3: timed to the server's close; what it closed with and after how many frames.
reports::SurveyMeasure read_h3_flood(const MeasureHead& head,
                                     const std::vector<clients::ConnectionRecord>& records,
                                     std::size_t bound, double slack);

}  // namespace loiter::suites::survey
