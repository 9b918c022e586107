// The survey's second phase, paced by the first's measures: trickles (a byte, a line, a
// body byte, a ClientHello byte) at 0.45 of the deadline their stalled twin met, a connection
// reused within its idle deadline, a second half head, a steady slow reader, and a handshake
// begun late.
#include <fmt/format.h>

#include "loiter/clients/h2/stalls.hpp"
#include "loiter/clients/http1/body_trickle.hpp"
#include "loiter/clients/http1/header_lines.hpp"
#include "loiter/clients/http1/header_trickle.hpp"
#include "loiter/clients/http1/keepalive_partial.hpp"
#include "loiter/clients/http1/keepalive_reuse.hpp"
#include "loiter/clients/http1/slow_reader.hpp"
#include "loiter/clients/tls/tls_stall.hpp"
#include "probe_kit.hpp"
#include "probes.hpp"
#include "read_streams.hpp"

namespace loiter::suites::survey {

namespace {

using namespace kit;

std::vector<Probe> http1_second(const ProbeContext& c, const reports::Survey& first) {
  const auto& r = c.request;
  std::vector<Probe> probes;
  const auto header = median_time(first, "header-partial");
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
    if (const auto body = median_time(first, "body-partial"); !body) {
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
  const auto idle = median_time(first, "idle");
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
    if (const auto send = median_time(first, "send-stopped"); !send) {
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
    const auto handshake = median_time(first, "tls-handshake");
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
    if (const auto handshake = median_time(first, "tls-handshake"); !handshake) {
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

// HTTP/2: a body trickled a byte at a time at 0.45 of body-partial's time, and a reader that
// opens its stream's window steadily (kStreamWindowStep every kSlowReadInterval), each a
// stream timed from its HEADERS.
std::vector<Probe> h2_second(const ProbeContext& c, const reports::Survey& first) {
  const auto& r = c.request;
  std::vector<Probe> probes;
  {
    MeasureHead head{.id = "body-trickle",
                     .title = "a POST body trickled a byte at a time",
                     .kind = std::string(clients::kH2DataTrickle),
                     .from = "its HEADERS"};
    if (const auto body = median_time(first, "body-partial"); !body) {
      probes.push_back(not_run(head, no_twin("body-partial", first)));
    } else {
      const double interval = pace(*body);
      head.interval = every("a byte", interval);
      auto options = options_for<clients::H2Options>(c);
      options.path = r.health;
      options.echo_path = r.echo;
      options.interval = seconds(interval);
      options.body_bytes = static_cast<std::size_t>(c.max_wait / interval) + 2;  // never whole
      auto p = probe(head);
      p.spawn = spawner(options, &clients::spawn_h2_data_trickle);
      p.settled = stream_settled;
      p.read = [head, slack = c.slack](const Records& records, const ServerSide&) {
        return summarize(head, each(records, stream_end), slack);
      };
      probes.push_back(std::move(p));
    }
  }
  {
    MeasureHead head{.id = "send-slow",
                     .title = "a reader opening its stream's window slowly but steadily",
                     .kind = std::string(clients::kH2WindowTrickle),
                     .from = "its HEADERS",
                     .interval = fmt::format("{} KiB every {} ms", kStreamWindowStep / 1024,
                                             kSlowReadInterval.count())};
    if (const auto send = median_time(first, "send-stopped"); !send) {
      probes.push_back(not_run(head, no_twin("send-stopped", first)));
    } else {
      auto options = options_for<clients::H2Options>(c);
      options.path = r.health;
      options.large_path = fixtures::with_bytes(r.large, kStreamResponseBytes);
      options.interval = kSlowReadInterval;
      options.window_increment = kStreamWindowStep;
      auto p = probe(head);
      p.spawn = spawner(options, &clients::spawn_h2_window_trickle);
      p.settled = stream_settled;
      p.read = [head, slack = c.slack, send = *send, max_wait = c.max_wait](const Records& records,
                                                                            const ServerSide&) {
        return read_send_slow(head, records, send, slack, max_wait);
      };
      probes.push_back(std::move(p));
    }
  }
  return probes;
}

}  // namespace

std::vector<Probe> second_probes(const ProbeContext& context, const reports::Survey& first) {
  if (context.request.h3) return h3_second(context, first);
  if (context.request.h2) return h2_second(context, first);
  return http1_second(context, first);
}

}  // namespace loiter::suites::survey
