// What the survey's probes are made of: their paces and buffers, and the few steps every
// probe takes (its options from the fleet, its spawn, its reading). Private to the survey.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "loiter/clients/transport/buffers.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "probes.hpp"

namespace loiter::suites::survey::kit {

using clients::ConnectionRecord;
using Records = std::vector<ConnectionRecord>;

// A paced probe's step: a little under half the deadline its stalled twin met, so two
// steps fall inside it; never under 50 ms.
constexpr double kPaceShare = 0.45;
constexpr double kShortestPace = 0.05;
// idle-reused: each reuse after this share of the idle deadline, this many requests (the
// last ones past the idle deadline from connect).
constexpr double kReuseShare = 0.6;
constexpr std::size_t kReuses = 4;
// next-head: its half head this share of the idle deadline after the first response.
constexpr double kNextHeadShare = 0.4;
// send-slow: what the steady reader takes at a time, and how often.
constexpr int kSlowReaderBuffer = 64 * 1024;
constexpr std::size_t kSlowReadSize = 128 * 1024;
constexpr auto kSlowReadInterval = std::chrono::milliseconds(50);
// send-stopped: the stopped reader's receive buffer.
constexpr int kStoppedReaderBuffer = 4096;
// HTTP/2 and HTTP/3's send probes: a response far larger than the stream windows they open.
constexpr std::size_t kStreamResponseBytes = 1 << 20;
// HTTP/2's send-slow: the window it opens, this many bytes this often (320 KiB/s).
constexpr std::size_t kStreamWindowStep = 16 * 1024;

inline clients::Duration seconds(double s) {
  return std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(s));
}

// `path` with "{bytes}" filled in (fixtures::with_bytes): a response a reader with this
// receive buffer cannot take into the kernel's buffers.
inline std::string sized(const std::string& path, int receive_buffer) {
  return fixtures::with_bytes(
      path, clients::stalling_response_bytes(clients::kernel_buffers(receive_buffer)));
}

template <typename Options>
Options options_for(const ProbeContext& c) {
  Options options;
  options.fleet = c.fleet;
  return options;
}

// The kind's spawn with its options, for a probe.
template <typename Options>
auto spawner(Options options, void (*spawn)(clients::asio::io_context&, const Options&,
                                            std::vector<ConnectionRecord>&)) {
  return [options = std::move(options), spawn](clients::asio::io_context& io, Records& out) {
    spawn(io, options, out);
  };
}

inline bool ended(const ConnectionRecord& record, const ServerSide&) {
  return record.ending != clients::Ending::open;
}

// A stream probe over HTTP/2 has nothing more to tell once the server ended its stream, sent
// a GOAWAY or answered it, even where the connection stays open after it.
inline bool stream_settled(const ConnectionRecord& record, const ServerSide&) {
  if (record.ending != clients::Ending::open) return true;
  if (record.h2 && (!record.h2->resets.empty() || record.h2->goaway)) return true;
  return std::ranges::any_of(record.responses, [](const auto& r) { return r.complete.has_value(); });
}

inline auto summarized(MeasureHead head, Timed (*read)(const ConnectionRecord&), double slack) {
  return [head = std::move(head), read, slack](const Records& records, const ServerSide&) {
    return summarize(head, each(records, read), slack);
  };
}

inline Probe probe(MeasureHead head) { return {.head = std::move(head), .settled = ended}; }

// A probe of `options`' connections whose records are summarized, each timed by `read`.
template <typename Options>
Probe summed_probe(MeasureHead head, Options options,
                   void (*spawn)(clients::asio::io_context&, const Options&, Records&),
                   Timed (*read)(const ConnectionRecord&), double slack) {
  auto p = probe(head);
  p.spawn = spawner(std::move(options), spawn);
  p.read = summarized(std::move(head), read, slack);
  return p;
}

// Why a body or send probe was not run: the path it needs was not given.
inline constexpr std::string_view kNoEchoPath =
    "no path that reads a body: give --echo PATH (a POST endpoint), or [paths] echo in the "
    "target file";
inline constexpr std::string_view kNoLargePath =
    "no large path: give --large PATH (a response larger than the kernel's buffers or a "
    "stream's window; {bytes} in it is filled in)";

inline Probe not_run(MeasureHead head, std::string why) {
  auto p = probe(std::move(head));
  p.not_measured = std::move(why);
  return p;
}

inline std::optional<double> median_time(const reports::Survey& survey, std::string_view id) {
  const auto* measure = reports::find_measure(survey, id);
  if (measure == nullptr || !measure->seconds) return std::nullopt;
  return measure->seconds->median;
}

inline double pace(double deadline) { return std::max(kShortestPace, deadline * kPaceShare); }

inline std::string every(std::string_view what, double interval) {
  return fmt::format("{} every {}", what, seconds_text(interval));
}

inline std::string no_twin(std::string_view id, const reports::Survey& first) {
  const auto* twin = reports::find_measure(first, id);
  if (twin == nullptr || !twin->not_measured.empty()) {
    return fmt::format("{} was not measured", id);
  }
  return fmt::format("{} was never ended within the wait: no deadline to extend", id);
}

}  // namespace loiter::suites::survey::kit
