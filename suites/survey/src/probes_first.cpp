// The survey's first phase, each stall on its own (and the floods, a phase of their own):
// a silent connection; over HTTP/1.1 half a head, half a body, an idle connection, a stopped
// reader; over TLS half a ClientHello; over HTTP/2 the preface, SETTINGS, a header block never
// ended, an idle connection.
#include <fmt/format.h>

#include "loiter/clients/h2/floods.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "loiter/clients/http1/idle_keepalive.hpp"
#include "loiter/clients/http1/partial_body.hpp"
#include "loiter/clients/http1/partial_header.hpp"
#include "loiter/clients/http1/reader_pause.hpp"
#include "loiter/clients/http1/silent.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "probe_kit.hpp"
#include "probes.hpp"
#include "read_streams.hpp"

namespace loiter::suites::survey {

namespace {

using namespace kit;

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
      probes.push_back(not_run(head, std::string(kNoEchoPath)));
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
      probes.push_back(not_run(head, std::string(kNoLargePath)));
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

// HTTP/2's body and send deadlines, on a stream: a POST whose body never comes (its HEADERS
// declare one), a GET whose window is never opened; each timed from its HEADERS to the
// server's RST_STREAM, GOAWAY or close (the connection may stay open after a RST_STREAM).
std::vector<Probe> h2_stream_stalls(const ProbeContext& c) {
  const auto& r = c.request;
  std::vector<Probe> probes;
  const auto stream_probe = [&](MeasureHead head, clients::H2Options options,
                                void (*spawn)(clients::asio::io_context&,
                                              const clients::H2Options&, Records&)) {
    auto p = probe(head);
    p.spawn = spawner(std::move(options), spawn);
    p.settled = stream_settled;
    p.read = [head, slack = c.slack](const Records& records, const ServerSide&) {
      return summarize(head, each(records, stream_end), slack);
    };
    return p;
  };
  MeasureHead body{.id = "body-partial",
                   .title = "a POST whose body never comes after its HEADERS",
                   .kind = std::string(clients::kH2DataTrickle),
                   .from = "its HEADERS"};
  if (r.echo.empty()) {
    probes.push_back(not_run(body, std::string(kNoEchoPath)));
  } else {
    auto options = options_for<clients::H2Options>(c);
    options.path = r.health;
    options.echo_path = r.echo;
    options.interval = c.fleet.patience + std::chrono::seconds(1);  // no byte within the wait
    probes.push_back(stream_probe(body, options, &clients::spawn_h2_data_trickle));
  }
  MeasureHead send{.id = "send-stopped",
                   .title = "a GET of a large response whose window is never opened",
                   .kind = std::string(clients::kH2ZeroWindow),
                   .from = "its HEADERS"};
  if (r.large.empty()) {
    probes.push_back(not_run(send, std::string(kNoLargePath)));
  } else {
    auto options = options_for<clients::H2Options>(c);
    options.path = r.health;
    options.large_path = fixtures::with_bytes(r.large, kStreamResponseBytes);
    probes.push_back(stream_probe(send, options, &clients::spawn_h2_zero_window));
  }
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
  for (auto& p : h2_stream_stalls(c)) probes.push_back(std::move(p));
  if (c.request.tls) probes.push_back(tls_handshake_probe(c));
  return probes;
}

}  // namespace

std::vector<Probe> first_probes(const ProbeContext& context) {
  if (context.request.h3) return h3_first(context);  // no TCP connection to keep silent
  std::vector<Probe> probes;
  probes.push_back(silent_probe(context));
  auto rest = context.request.h2 ? h2_first(context) : http1_first(context);
  for (auto& p : rest) probes.push_back(std::move(p));
  return probes;
}

std::vector<Probe> flood_probes(const ProbeContext& context) {
  if (!context.request.floods) return {};
  if (context.request.h3) return h3_flood_probes(context);
  if (!context.request.h2) return {};
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

}  // namespace loiter::suites::survey
