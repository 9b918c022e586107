// What the h2 family expects of a target and how its clients are paced: the deadline each
// stall is judged by, the endings HTTP/2 allows it, and the plans of the trickles. Private to
// the catalogue (scenarios_h2.cpp; the catalogue tests reach them through the scenarios).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scenario_kit.hpp"

namespace loiter::suites::h2_plan {

using kit::Ending;
using kit::Endings;
using kit::Need;
using kit::Target;
namespace ends = kit::ends;

// A preface cut short: a close, GOAWAY (PROTOCOL_ERROR) and close, or a reset.
inline const Endings kPrefaceEndings = {ends::closed, ends::goaway(Ending::close), ends::reset};
// A header block never ended: a connection error (RFC 9113 6.10), sent as GOAWAY or not,
// the connection closed or reset; or the stream reset (nginx), the connection then idle.
inline const Endings kHeaderBlockEndings = {ends::stream_reset, ends::goaway(Ending::close),
                                            ends::closed, ends::reset, ends::goaway(Ending::reset)};
// A stream the server gives up on: its RST_STREAM, or the connection's end.
inline const Endings kStreamCutEndings = {ends::stream_reset, ends::goaway(Ending::close),
                                          ends::goaway(Ending::reset), ends::closed, ends::reset};

// h2-zero-window's response: more than the default window (65,535 bytes) could ever hold.
inline constexpr std::size_t kZeroWindowBytes = 1024 * 1024;

// The preface deadline ([h2] preface, from connect) if declared, else the header deadline
// (from connect, or from the TLS handshake as [tls] header_from says); `unmet` without both.
kit::StallDeadline preface_deadline(const Target& target);

// h2-no-settings-ack: the header and idle deadlines, whichever are declared; the server may
// apply either, so it must not close before the earlier and must by the later: one window
// from connect, [earlier - slack, later + slack], named "header-or-idle".
Need needs_settings_window(const Target& target);
Expectations expect_settings_window(const Target& target, const Timing& timing,
                                    const ScenarioParameters& parameters);

// h2-idle and h2-stream-reuse: an idle deadline and a health path to ask; GOAWAY before the
// close unless the target declares goaway_on_idle = false (then a plain close too).
Need needs_idle(const Target& target);
Endings idle_endings(const Target& target);
// When h2-stream-reuse opens its second stream: half the idle deadline after the first answer.
Duration reuse_after(const Target& target);

// h2-data-trickle: the body deadline from the request, over the stream (a RST_STREAM or a
// 408 ends it); skipped where the deadline runs between reads (body_resets_on_progress).
Need needs_data_trickle(const Target& target);
Expectations expect_data_trickle(const Target& target, const Timing& timing,
                                 const ScenarioParameters& parameters);
// About five DATA bytes per deadline, never faster than one per 50 ms.
Duration trickle_interval(Duration deadline);

// h2-zero-window: the send deadline from the request (a shut window: the server's writes
// never progress, whether its deadline runs between writes or over the response).
Need needs_zero_window(const Target& target);
Expectations expect_zero_window(const Target& target, const Timing& timing,
                                const ScenarioParameters& parameters);

// h2-window-trickle: `increment` bytes of window every `interval` (a quarter of the send
// deadline, so every write progresses well inside it) for a response of `bytes`, which takes
// `lasts`: half as long again as `outlives`, the longest of the send, header and idle
// deadlines.
struct WindowPlan {
  Duration interval{};
  std::size_t increment = 1024;
  std::size_t bytes = 0;
  Duration lasts{};
  Duration outlives{};
};
WindowPlan window_plan(const Target& target);
// A send deadline between writes, and a large path taking {bytes} (the size must be known).
Need needs_window_trickle(const Target& target);
Expectations expect_window_trickle(const Target& target, const Timing& timing,
                                   const ScenarioParameters& parameters);

}  // namespace loiter::suites::h2_plan
