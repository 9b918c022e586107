// The survey over HTTP/3 (QUIC): a half-open handshake and an idle connection, each bracketed
// by one probe a connection at a time of its own (the server forgets either without a word),
// a HEADERS frame stopped halfway, a body that never comes, a window never opened, and the
// control stream closed; in the second phase the HEADERS frame trickled, and the two brackets
// again, between the first's two nearest answers.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "loiter/clients/h3/stalls.hpp"
#include "probe_kit.hpp"
#include "probes.hpp"
#include "read_streams.hpp"

namespace loiter::suites::survey {

namespace {

using namespace kit;

clients::H3Options h3_options(const ProbeContext& c) {
  clients::H3Options options;
  options.fleet = c.fleet;
  options.fleet.tls = nullptr;  // QUIC brings its own TLS 1.3
  options.server_name = c.request.server_name;
  options.authority = c.request.server_name.empty() ? c.request.host : c.request.server_name;
  options.path = c.request.health;
  options.keepalive = std::chrono::milliseconds(500);
  return options;
}

bool answered_or_ended(const ConnectionRecord& r, const ServerSide&) {
  if (r.ending != clients::Ending::open) return true;
  return r.h3 && ((!r.h3->probes.empty() && r.h3->probes.front().answered) ||
                  r.h3->remembered != clients::H3Remembered::unknown);
}

// A bracket probe: one connection per ladder time, its phase over once the bracket is closed.
Probe bracket_probe(const ProbeContext& c, MeasureHead head, std::vector<double> ladder,
                    void (*spawn)(clients::asio::io_context&, const clients::H3Options&, Records&),
                    BracketFrom from, std::optional<reports::Spread> before) {
  auto options = h3_options(c);
  options.fleet.count = ladder.size();
  for (const double t : ladder) options.probe_ladder.push_back(seconds(t));
  auto p = probe(std::move(head));
  p.spawn = spawner(options, spawn);
  p.settled = answered_or_ended;
  p.done = [ladder](const Records& records) { return bracket_done(records, ladder); };
  p.read = [head = p.head, from, slack = c.slack, before](const Records& records,
                                                          const ServerSide&) {
    return read_bracket(head, records, from, slack, before);
  };
  return p;
}

MeasureHead handshake_head() {
  return {.id = "h3-handshake",
          .title = "a first Initial carrying half a ClientHello",
          .kind = std::string(clients::kH3InitialStall),
          .from = "that Initial"};
}

MeasureHead idle_head() {
  return {.id = "h3-idle",
          .title = "a QUIC connection left quiet after its handshake",
          .kind = std::string(clients::kH3Idle),
          .from = "the client's last packet"};
}

std::string ladder_text(const std::vector<double>& ladder) {
  return fmt::format("a probe a connection from {}, doubling", seconds_text(ladder.front()));
}

// A stalled stream's probe: its records read by stream_end(), the codes in the note.
Probe stream_probe(const ProbeContext& c, MeasureHead head, clients::H3Options options,
                   void (*spawn)(clients::asio::io_context&, const clients::H3Options&, Records&)) {
  auto p = probe(head);
  p.spawn = spawner(std::move(options), spawn);
  p.read = [head, slack = c.slack](const Records& records, const ServerSide&) {
    auto measure = summarize(head, each(records, stream_end), slack);
    measure.note = h3_codes(records);
    return measure;
  };
  return p;
}

}  // namespace

std::vector<Probe> h3_first(const ProbeContext& c) {
  const auto& r = c.request;
  std::vector<Probe> probes;
  const auto ladder = first_ladder(c.max_wait);
  auto handshake = handshake_head();
  handshake.interval = ladder_text(ladder);
  probes.push_back(bracket_probe(c, handshake, ladder, &clients::spawn_h3_initial_stall,
                                 BracketFrom::first_initial, std::nullopt));
  auto idle = idle_head();
  idle.interval = ladder_text(ladder);
  probes.push_back(bracket_probe(c, idle, ladder, &clients::spawn_h3_idle,
                                 BracketFrom::last_packet, std::nullopt));
  probes.push_back(stream_probe(c,
                                {.id = "h3-header",
                                 .title = "a request stream whose HEADERS frame stops halfway",
                                 .kind = std::string(clients::kH3HeadersStall),
                                 .from = "the stream's open"},
                                h3_options(c), &clients::spawn_h3_headers_stall));
  {
    MeasureHead head{.id = "h3-body",
                     .title = "a POST whose body never comes after its HEADERS",
                     .kind = std::string(clients::kH3DataTrickle),
                     .from = "its HEADERS"};
    if (r.echo.empty()) {
      probes.push_back(not_run(head, std::string(kNoEchoPath)));
    } else {
      auto options = h3_options(c);
      options.echo_path = r.echo;
      // No byte of the body within the wait: the first would come one interval on.
      options.interval = c.fleet.patience + std::chrono::seconds(1);
      probes.push_back(stream_probe(c, head, options, &clients::spawn_h3_data_trickle));
    }
  }
  {
    MeasureHead head{.id = "h3-send",
                     .title = "a GET of a large response whose stream window is never opened",
                     .kind = std::string(clients::kH3ZeroWindow),
                     .from = "the request"};
    if (r.large.empty()) {
      probes.push_back(not_run(head, std::string(kNoLargePath)));
    } else {
      auto options = h3_options(c);
      options.large_path = fixtures::with_bytes(r.large, kStreamResponseBytes);
      probes.push_back(stream_probe(c, head, options, &clients::spawn_h3_zero_window));
    }
  }
  {
    MeasureHead head{.id = "h3-control-close",
                     .title = "the client's control stream closed",
                     .kind = std::string(clients::kH3ControlClose),
                     .from = "the handshake's end"};
    auto p = probe(head);
    p.spawn = spawner(h3_options(c), &clients::spawn_h3_control_close);
    p.read = [head, slack = c.slack](const Records& records, const ServerSide&) {
      std::vector<Timed> timed;
      for (const auto& record : records) {
        auto t = from_connect(record);
        if (t.seconds && record.h3 && record.h3->handshake_done) {
          t.seconds = std::max(0.0, *t.seconds - in_seconds(*record.h3->handshake_done));
        }
        timed.push_back(t);
      }
      auto measure = summarize(head, timed, slack);
      measure.note = h3_codes(records);
      return measure;
    };
    probes.push_back(std::move(p));
  }
  return probes;
}

std::vector<Probe> h3_second(const ProbeContext& c, const reports::Survey& first) {
  std::vector<Probe> probes;
  {
    // The HEADERS frame trickled a byte at a time, paced by h3-header's time: does progress
    // extend the header deadline (as a byte re-arms it in a server that times reads, not
    // the request)?
    MeasureHead head{.id = "h3-header-trickle",
                     .title = "a request stream's HEADERS frame trickled a byte at a time",
                     .kind = std::string(clients::kH3HeadersTrickle),
                     .from = "the stream's open"};
    if (const auto header = median_time(first, "h3-header"); !header) {
      probes.push_back(not_run(head, no_twin("h3-header", first)));
    } else {
      const double interval = pace(*header);
      head.interval = every("a byte", interval);
      auto options = h3_options(c);
      options.interval = seconds(interval);
      probes.push_back(stream_probe(c, head, options, &clients::spawn_h3_headers_trickle));
    }
  }
  for (const auto& [id, spawn, from] :
       {std::tuple{"h3-handshake", &clients::spawn_h3_initial_stall, BracketFrom::first_initial},
        std::tuple{"h3-idle", &clients::spawn_h3_idle, BracketFrom::last_packet}}) {
    const auto* measure = reports::find_measure(first, id);
    if (measure == nullptr || measure->ending.way != reports::SurveyEnding::Way::gone ||
        !measure->seconds) {
      continue;  // no bracket to narrow: the first phase's measure stands
    }
    const auto ladder =
        refined_ladder(measure->seconds->min, measure->seconds->max, c.request.connections, c.slack);
    auto head = std::string_view(id) == "h3-handshake" ? handshake_head() : idle_head();
    head.interval = fmt::format("{}; then {} between {} and {}", measure->interval, ladder.size(),
                                seconds_text(measure->seconds->min),
                                seconds_text(measure->seconds->max));
    auto p = bracket_probe(c, head, ladder, spawn, from, measure->seconds);
    // The second phase's measure replaces the first's: it keeps the first's advertised
    // timeout and connections too.
    p.read = [inner = p.read, first_measure = *measure](const Records& records,
                                                        const ServerSide& server) {
      auto m = inner(records, server);
      m.connections += first_measure.connections;
      m.agreed += first_measure.agreed;
      if (!m.advertised) m.advertised = first_measure.advertised;
      for (const auto& e : first_measure.endings) {
        auto it = std::ranges::find(m.endings, e.ending, &reports::EndingCount::ending);
        if (it == m.endings.end()) {
          m.endings.push_back(e);
        } else {
          it->count += e.count;
        }
      }
      return m;
    };
    probes.push_back(std::move(p));
  }
  return probes;
}

}  // namespace loiter::suites::survey
