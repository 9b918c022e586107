#include "probes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loiter/clients/h2/floods.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "loiter/clients/http1/body_trickle.hpp"
#include "loiter/clients/http1/header_lines.hpp"
#include "loiter/clients/http1/header_trickle.hpp"
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/keepalive_partial.hpp"
#include "loiter/clients/http1/keepalive_reuse.hpp"
#include "loiter/clients/http1/partial_body.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/reader_pause.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/http1/slow_reader.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "loiter/clients/transport/buffers.hpp"

namespace loiter::suites::survey {

namespace {

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

clients::Duration seconds(double s) {
  return std::chrono::duration_cast<clients::Duration>(std::chrono::duration<double>(s));
}

// `path` with "{bytes}" filled in: a response a reader with this receive buffer cannot
// take into the kernel's buffers.
std::string sized(std::string path, int receive_buffer) {
  constexpr std::string_view kBytes = "{bytes}";
  const auto at = path.find(kBytes);
  if (at == std::string::npos) return path;
  const auto bytes = clients::stalling_response_bytes(clients::kernel_buffers(receive_buffer));
  return path.replace(at, kBytes.size(), std::to_string(bytes));
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

bool ended(const ConnectionRecord& record, const ServerSide&) {
  return record.ending != clients::Ending::open;
}

auto summarized(MeasureHead head, Timed (*read)(const ConnectionRecord&), double slack) {
  return [head = std::move(head), read, slack](const Records& records, const ServerSide&) {
    return summarize(head, each(records, read), slack);
  };
}

Probe probe(MeasureHead head) { return {.head = std::move(head), .settled = ended}; }

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

Probe not_run(MeasureHead head, std::string why) {
  auto p = probe(std::move(head));
  p.not_measured = std::move(why);
  return p;
}

std::optional<double> median_of(const reports::Survey& survey, std::string_view id) {
  const auto* measure = reports::find_measure(survey, id);
  if (measure == nullptr || !measure->seconds) return std::nullopt;
  return measure->seconds->median;
}

double pace(double deadline) { return std::max(kShortestPace, deadline * kPaceShare); }

std::string every(std::string_view what, double interval) {
  return fmt::format("{} every {}", what, seconds_text(interval));
}

std::string no_twin(std::string_view id, const reports::Survey& first) {
  const auto* twin = reports::find_measure(first, id);
  if (twin == nullptr || !twin->not_measured.empty()) {
    return fmt::format("{} was not measured", id);
  }
  return fmt::format("{} was never ended within the wait: no deadline to extend", id);
}

// The probes every protocol has: a silent connection.
Probe silent_probe(const ProbeContext& c) {
  MeasureHead head{.id = "header-silent",
                   .title = c.request.tls ? "a connection that sends nothing (no ClientHello)"
                                          : "a connection that sends nothing",
                   .kind = std::string(clients::kSilent),
                   .from = "connect"};
  auto p = probe(head);
  p.spawn = spawner(options_for<clients::SilentOptions>(c), &clients::spawn_silent);
  p.read = [head, slack = c.slack](const Records& records, const ServerSide& server) {
    auto measure = summarize(head, each(records, from_connect), slack);
    if (const auto held = server.held_in_syn_recv(records); held > 0) {
      measure.note = fmt::format(
          "the listener held {}/{} of them in SYN_RECV (deferred accept): the server's process "
          "never saw them while they were silent",
          held, records.size());
    }
    return measure;
  };
  return p;
}

// Half a ClientHello: the handshake deadline (HTTP/1.1 and HTTP/2 over TLS alike).
Probe tls_handshake_probe(const ProbeContext& c) {
  MeasureHead head{.id = "tls-handshake",
                   .title = "a ClientHello stopped halfway",
                   .kind = std::string(clients::kTlsHalfHello),
                   .from = "connect"};
  auto options = options_for<clients::TlsStallOptions>(c);
  options.hello_settings = {.alpn = c.request.alpn, .server_name = c.request.server_name};
  options.fleet.tls = nullptr;  // the raw kinds write the hello themselves
  return summed_probe(head, options, &clients::spawn_tls_half_hello, from_connect, c.slack);
}

std::vector<Probe> http1_first(const ProbeContext& c) {
  const auto& r = c.request;
  std::vector<Probe> probes;
  {
    MeasureHead head{.id = "header-partial",
                     .title = "a request head stopped halfway",
                     .kind = std::string(clients::kPartialHeader),
                     .from = "connect"};
    auto options = options_for<clients::PartialHeaderOptions>(c);
    options.path = r.health;
    probes.push_back(
        summed_probe(head, options, &clients::spawn_partial_header, from_connect, c.slack));
  }
  {
    MeasureHead head{.id = "body-partial",
                     .title = "a request body stopped halfway",
                     .kind = std::string(clients::kPartialBody),
                     .from = "end of head"};
    if (r.echo.empty()) {
      probes.push_back(not_run(head,
                               "no path that reads a body: give --echo PATH (a POST "
                               "endpoint), or [paths] echo in the target file"));
    } else {
      auto options = options_for<clients::PartialBodyOptions>(c);
      options.path = r.echo;
      probes.push_back(
          summed_probe(head, options, &clients::spawn_partial_body, from_first_send, c.slack));
    }
  }
  {
    MeasureHead head{.id = "idle",
                     .title = "a kept-alive connection left idle",
                     .kind = std::string(clients::kIdleKeepalive),
                     .from = "last response"};
    auto options = options_for<clients::IdleKeepaliveOptions>(c);
    options.path = r.health;
    probes.push_back(
        summed_probe(head, options, &clients::spawn_idle_keepalive, from_first_response, c.slack));
  }
  {
    MeasureHead head{.id = "send-stopped",
                     .title = "a reader that stops reading a large response",
                     .kind = std::string(clients::kReaderPause),
                     .from = "writes stalled"};
    if (r.large.empty()) {
      probes.push_back(not_run(head,
                               "no large path: give --large PATH (a response larger than "
                               "the kernel's buffers; {bytes} in it is filled in)"));
    } else {
      auto options = options_for<clients::ReaderPauseOptions>(c);
      options.receive_buffer = kStoppedReaderBuffer;
      options.path = sized(r.large, kStoppedReaderBuffer);
      options.pause = c.fleet.patience;  // reads nothing again
      auto p = probe(head);
      p.spawn = spawner(options, &clients::spawn_reader_pause);
      p.settled = [](const ConnectionRecord& record, const ServerSide& server) {
        return record.ending != clients::Ending::open || server.closed(record.source);
      };
      p.read = [head, slack = c.slack](const Records& records, const ServerSide& server) {
        auto measure = summarize(head, send_stopped(records, server.closes(records)), slack);
        if (server.blind()) {
          measure.note = "the server's side could not be seen (sock_diag): only a reset counts";
        }
        return measure;
      };
      probes.push_back(std::move(p));
    }
  }
  if (r.tls) probes.push_back(tls_handshake_probe(c));
  return probes;
}

std::vector<Probe> h2_first(const ProbeContext& c) {
  std::vector<Probe> probes;
  const auto h2 =
      [&](MeasureHead head,
          void (*spawn)(clients::asio::io_context&, const clients::H2Options&, Records&),
          Timed (*read)(const ConnectionRecord&)) {
        auto options = options_for<clients::H2Options>(c);
        options.path = c.request.health;
        return summed_probe(head, options, spawn, read, c.slack);
      };
  probes.push_back(h2({.id = "h2-preface",
                       .title = "a connection preface stopped partway",
                       .kind = std::string(clients::kH2PartialPreface),
                       .from = "connect"},
                      &clients::spawn_h2_partial_preface, h2_from_connect));
  probes.push_back(h2({.id = "h2-settings-ack",
                       .title = "the server's SETTINGS never acknowledged",
                       .kind = std::string(clients::kH2NoSettingsAck),
                       .from = "connect"},
                      &clients::spawn_h2_no_settings_ack, h2_from_connect));
  probes.push_back(h2({.id = "h2-headers-no-end",
                       .title = "a header block never ended",
                       .kind = std::string(clients::kH2HeadersNoEnd),
                       .from = "connect"},
                      &clients::spawn_h2_headers_no_end, h2_from_connect));
  auto idle = h2({.id = "h2-idle",
                  .title = "an idle connection after one answered stream",
                  .kind = std::string(clients::kH2Idle),
                  .from = "last response"},
                 &clients::spawn_h2_idle, from_first_response);
  idle.read = [head = idle.head, slack = c.slack](const Records& records, const ServerSide&) {
    return read_h2_idle(head, records, slack);
  };
  probes.push_back(std::move(idle));
  if (c.request.tls) probes.push_back(tls_handshake_probe(c));
  return probes;
}

std::vector<Probe> http1_second(const ProbeContext& c, const reports::Survey& first) {
  const auto& r = c.request;
  std::vector<Probe> probes;
  const auto header = median_of(first, "header-partial");
  {
    MeasureHead head{.id = "header-bytes",
                     .title = "a request head trickled a byte at a time",
                     .kind = std::string(clients::kHeaderTrickle),
                     .from = "connect"};
    MeasureHead lines{.id = "header-lines",
                      .title = "a request head trickled a header line at a time",
                      .kind = std::string(clients::kHeaderLines),
                      .from = "connect"};
    if (!header) {
      probes.push_back(not_run(head, no_twin("header-partial", first)));
      probes.push_back(not_run(lines, no_twin("header-partial", first)));
    } else {
      const double interval = pace(*header);
      head.interval = every("a byte", interval);
      auto bytes = options_for<clients::HeaderTrickleOptions>(c);
      bytes.interval = seconds(interval);
      bytes.path = r.health;
      probes.push_back(
          summed_probe(head, bytes, &clients::spawn_header_trickle, from_connect, c.slack));
      lines.interval = every("a header line", interval);
      auto line_options = options_for<clients::HeaderLinesOptions>(c);
      line_options.interval = seconds(interval);
      line_options.path = r.health;
      probes.push_back(
          summed_probe(lines, line_options, &clients::spawn_header_lines, from_connect, c.slack));
    }
  }
  {
    MeasureHead head{.id = "body-trickle",
                     .title = "a request body trickled a byte at a time",
                     .kind = std::string(clients::kBodyTrickle),
                     .from = "end of head"};
    if (const auto body = median_of(first, "body-partial"); !body) {
      probes.push_back(not_run(head, no_twin("body-partial", first)));
    } else {
      const double interval = pace(*body);
      head.interval = every("a byte", interval);
      auto options = options_for<clients::BodyTrickleOptions>(c);
      options.interval = seconds(interval);
      options.path = r.echo;
      // Never the whole body within the wait.
      options.content_length = std::max<std::size_t>(
          options.content_length, static_cast<std::size_t>(c.max_wait / interval) + 2);
      probes.push_back(
          summed_probe(head, options, &clients::spawn_body_trickle, from_first_send, c.slack));
    }
  }
  const auto idle = median_of(first, "idle");
  {
    MeasureHead head{.id = "idle-reused",
                     .title = "a kept-alive connection reused within the idle deadline",
                     .kind = std::string(clients::kKeepaliveReuse),
                     .from = "last response"};
    if (!idle) {
      probes.push_back(not_run(head, no_twin("idle", first)));
    } else {
      const double reuse = std::max(kShortestPace, *idle * kReuseShare);
      head.interval = fmt::format("{} requests, {} apart", kReuses, seconds_text(reuse));
      auto options = options_for<clients::KeepaliveReuseOptions>(c);
      options.reuse_after = seconds(reuse);
      options.requests = kReuses;
      options.path = r.health;
      auto p = probe(head);
      p.spawn = spawner(options, &clients::spawn_keepalive_reuse);
      p.read = [head, slack = c.slack](const Records& records, const ServerSide&) {
        return read_idle_reused(head, records, kReuses, slack);
      };
      probes.push_back(std::move(p));
    }
  }
  {
    const double pause = idle ? *idle * kNextHeadShare : 1.0;
    MeasureHead head{
        .id = "next-head",
        .title = "a second request head stopped halfway",
        .kind = std::string(clients::kKeepalivePartial),
        .from = "its first byte",
        .interval = fmt::format("sent {} after the first response", seconds_text(pause))};
    auto options = options_for<clients::KeepalivePartialOptions>(c);
    options.pause = seconds(pause);
    options.path = r.health;
    auto p = probe(head);
    p.spawn = spawner(options, &clients::spawn_keepalive_partial);
    p.read = [head, slack = c.slack, header, idle](const Records& records, const ServerSide&) {
      return read_next_head(head, records, header, idle, slack);
    };
    probes.push_back(std::move(p));
  }
  {
    MeasureHead head{.id = "send-slow",
                     .title = "a reader taking a large response slowly but steadily",
                     .kind = std::string(clients::kSlowReader),
                     .from = "the request",
                     .interval = fmt::format("{} KiB every {} ms", kSlowReadSize / 1024,
                                             kSlowReadInterval.count())};
    if (const auto send = median_of(first, "send-stopped"); !send) {
      probes.push_back(not_run(head, no_twin("send-stopped", first)));
    } else {
      auto options = options_for<clients::SlowReaderOptions>(c);
      options.receive_buffer = kSlowReaderBuffer;
      options.read_size = kSlowReadSize;
      options.interval = kSlowReadInterval;
      options.path = sized(r.large, kSlowReaderBuffer);
      auto p = probe(head);
      p.spawn = spawner(options, &clients::spawn_slow_reader);
      p.settled = [](const ConnectionRecord& record, const ServerSide&) {
        return record.ending != clients::Ending::open ||
               (!record.responses.empty() && record.responses.front().complete);
      };
      p.read = [head, slack = c.slack, send = *send, max_wait = c.max_wait](const Records& records,
                                                                            const ServerSide&) {
        return read_send_slow(head, records, send, slack, max_wait);
      };
      probes.push_back(std::move(p));
    }
  }
  if (r.tls && !r.h2) {
    MeasureHead head{.id = "tls-header-from",
                     .title = "half a head after a handshake begun late",
                     .kind = std::string(clients::kTlsLateHead),
                     .from = "connect"};
    const auto handshake = median_of(first, "tls-handshake");
    if (!header) {
      probes.push_back(not_run(head, no_twin("header-partial", first)));
    } else {
      // Begun late, but well within the handshake deadline (if there is one).
      const double delay = std::min(handshake.value_or(*header), *header) / 2;
      head.interval = fmt::format("the handshake begun {} after connect", seconds_text(delay));
      auto options = options_for<clients::TlsStallOptions>(c);
      options.delay = seconds(delay);
      options.path = r.health;
      auto p = probe(head);
      p.spawn = spawner(options, &clients::spawn_tls_late_head);
      p.read = [head, slack = c.slack, header = *header](const Records& records,
                                                         const ServerSide&) {
        return read_header_from(head, records, header, slack);
      };
      probes.push_back(std::move(p));
    }
  }
  if (r.tls) {
    MeasureHead head{.id = "tls-hello-trickle",
                     .title = "a ClientHello trickled a byte at a time",
                     .kind = std::string(clients::kTlsHelloTrickle),
                     .from = "connect"};
    if (const auto handshake = median_of(first, "tls-handshake"); !handshake) {
      probes.push_back(not_run(head, no_twin("tls-handshake", first)));
    } else {
      const double interval = pace(*handshake);
      head.interval = every("a byte", interval);
      auto options = options_for<clients::TlsStallOptions>(c);
      options.hello_settings = {.alpn = r.alpn, .server_name = r.server_name};
      options.fleet.tls = nullptr;
      options.interval = seconds(interval);
      probes.push_back(
          summed_probe(head, options, &clients::spawn_tls_hello_trickle, from_connect, c.slack));
    }
  }
  return probes;
}

void judge_twin(reports::Survey& survey, std::string_view progress_id, std::string_view twin_id,
                const std::string& holds, double slack, double max_wait) {
  auto it = std::ranges::find(survey.measures, progress_id, &reports::SurveyMeasure::id);
  const auto* twin = reports::find_measure(survey, twin_id);
  if (it == survey.measures.end() || twin == nullptr) return;
  judge_progress(*it, *twin, holds, slack, max_wait);
}

}  // namespace

std::vector<Probe> first_probes(const ProbeContext& context) {
  std::vector<Probe> probes;
  probes.push_back(silent_probe(context));
  auto rest = context.request.h2 ? h2_first(context) : http1_first(context);
  for (auto& p : rest) probes.push_back(std::move(p));
  return probes;
}

std::vector<Probe> second_probes(const ProbeContext& context, const reports::Survey& first) {
  if (context.request.h2) return {};
  return http1_second(context, first);
}

std::vector<Probe> flood_probes(const ProbeContext& context) {
  if (!context.request.h2 || !context.request.floods) return {};
  std::vector<Probe> probes;
  const auto flood =
      [&](std::string_view kind, std::string title,
          void (*spawn)(clients::asio::io_context&, const clients::FloodOptions&, Records&),
          std::size_t bound) {
        MeasureHead head{.id = std::string(kind),
                         .title = std::move(title),
                         .kind = std::string(kind),
                         .from = "connect",
                         .interval = fmt::format("up to {} frames within 5 s", bound)};
        clients::FloodOptions options;
        options.fleet = context.fleet;
        options.fleet.count = 1;
        options.fleet.patience = std::chrono::seconds(7);
        options.path = context.request.health;
        auto p = probe(head);
        p.spawn = spawner(options, spawn);
        p.read = [head, bound, slack = context.slack](const Records& records, const ServerSide&) {
          return read_flood(head, records, bound, slack);
        };
        return p;
      };
  probes.push_back(flood(clients::kH2RapidReset, "HEADERS then RST_STREAM, stream after stream",
                         &clients::spawn_h2_rapid_reset, 2 * clients::kRapidResetPairs));
  probes.push_back(flood(clients::kH2ContinuationFlood, "CONTINUATION frames that never end",
                         &clients::spawn_h2_continuation_flood, clients::kFloodFrames));
  probes.push_back(flood(clients::kH2SettingsFlood, "SETTINGS frames, each owed an ACK",
                         &clients::spawn_h2_settings_flood, clients::kFloodFrames));
  probes.push_back(flood(clients::kH2PingFlood, "PING frames, each owed an ACK",
                         &clients::spawn_h2_ping_flood, clients::kFloodFrames));
  return probes;
}

void conclude(reports::Survey& survey, double slack, double max_wait) {
  judge_twin(survey, "header-bytes", "header-partial", "a request head", slack, max_wait);
  judge_twin(survey, "header-lines", "header-partial", "a request head", slack, max_wait);
  judge_twin(survey, "body-trickle", "body-partial", "a request body", slack, max_wait);
  judge_twin(survey, "tls-hello-trickle", "tls-handshake", "a TLS handshake", slack, max_wait);
  for (auto& measure : survey.measures) {
    const auto& id = measure.id;
    if (id == "header-silent") {
      expose_if_open(measure,
                     measure.note.empty()
                         ? "a connection that sends nothing is held for as long as the client likes"
                         : "a silent connection stays open on the client's side (SYN_RECV: it "
                           "costs the server no descriptor)",
                     max_wait);
    } else if (id == "header-partial") {
      expose_if_open(measure,
                     "half a request head holds a connection for as long as the client likes",
                     max_wait);
    } else if (id == "body-partial") {
      expose_if_open(measure,
                     "half a request body holds a connection for as long as the client likes",
                     max_wait);
    } else if (id == "idle" || id == "h2-idle") {
      expose_if_open(measure,
                     "an idle kept-alive connection is held for as long as the client likes",
                     max_wait);
    } else if (id == "send-stopped") {
      expose_if_open(measure,
                     "a reader that stops reading holds its response, and the server's buffers, "
                     "for as long as it likes",
                     max_wait);
    } else if (id == "next-head" && measure.runs_from == "never") {
      measure.exposure = fmt::format(
          "half a second request head on a kept-alive connection is never timed out (none "
          "within {})",
          seconds_text(max_wait));
    } else if (id == "tls-handshake") {
      expose_if_open(measure,
                     "half a ClientHello holds a connection for as long as the client likes",
                     max_wait);
    } else if (id == "h2-preface" || id == "h2-settings-ack" || id == "h2-headers-no-end") {
      expose_if_open(
          measure,
          fmt::format("{} holds a connection for as long as the client likes", measure.title),
          max_wait);
    } else if (id == "send-slow" && measure.extends == false) {
      measure.note =
          "the send deadline runs over the whole response: a slow but steady reader "
          "is cut";
    }
  }
}

}  // namespace loiter::suites::survey
