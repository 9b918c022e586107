// Scenario results as run-document entries: the verdict, findings, key figures and plots.
#include "loiter/suites/document/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>

#include "loiter/suites/document/report_load.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/judge/load_figures.hpp"
#include "loiter/suites/judge/udp_figures.hpp"
#include "report_plots.hpp"

namespace loiter::suites {

namespace {

using clients::Ending;

// When the server ended connections, each from the moment its deadline runs from (`since`:
// connect, the last response, ...), as the scenario's `deadline` group is declared.
// Over HTTP/2 and HTTP/3 a stream closure (`stream`) is timed by the stream's end. A QUIC
// connection a probe found gone is not timed: it went somewhere before the probe.
reports::FigureGroup closure_figures(const Observation& observation, Since since = Since::connect,
                                     bool stream = false) {
  std::vector<double> times;
  for (const auto& record : observation.connections) {
    if (record.ending == Ending::gone) continue;
    const auto ended = server_end_time(record, stream);
    if (!ended) continue;
    if (const auto from = deadline_origin(record, since)) {
      times.push_back(in_seconds(*ended - *from));
    }
  }
  reports::FigureGroup group{.name = "closure", .unit = "s", .values = {}};
  std::optional<double> min, median, max;
  if (!times.empty()) {
    std::ranges::sort(times);
    min = times.front();
    median = times[times.size() / 2];
    max = times.back();
  }
  group.values = {{"min", min}, {"median", median}, {"max", max}};
  return group;
}

// A figure of the server's side: unmeasured ("-") where that side was not sampled (check
// --connect without --pid).
std::optional<double> sampled_number(std::size_t n, bool sampled) {
  return sampled ? std::optional<double>(static_cast<double>(n)) : std::nullopt;
}

// The server's FDs: at rest, at their peak, and back (or not) after the run; "-" after it
// for a server that died under the scenario (a gone process holds none, and gave none back).
reports::FigureGroup fd_figures(const FdObservation& fds, bool sampled, bool exited) {
  const auto as_number = [sampled](std::size_t n) { return sampled_number(n, sampled); };
  return {.name = "FDs",
          .unit = "",
          .values = {{"baseline", as_number(fds.baseline)},
                     {"peak", as_number(fds.peak)},
                     {fds.recovered ? "recovered" : "after",
                      exited ? std::nullopt : as_number(fds.after)}}};
}

std::optional<double> number(std::size_t n) { return static_cast<double>(n); }

// The TCP states still present on both ends at the last sample, by name.
std::optional<reports::FigureGroup> tcp_at_end(const Observation& o) {
  if (o.timeline.empty() || !o.timeline.back().sample.tcp) return std::nullopt;
  const auto& tcp = *o.timeline.back().sample.tcp;
  reports::FigureGroup group{.name = "TCP at end", .unit = "", .values = {}};
  for (std::size_t i = 0; i < fixtures::kTcpStateCount; ++i) {
    const auto state = static_cast<fixtures::TcpState>(i);
    if (state == fixtures::TcpState::listen) continue;
    const auto name = std::string(fixtures::to_string(state));
    if (const auto n = tcp.server.of(state)) group.values.emplace_back("server " + name, number(n));
    if (const auto n = tcp.client.of(state)) group.values.emplace_back("client " + name, number(n));
  }
  return group;
}

// A load with churn: the requests the client reset on purpose and the connections each
// kind of churn ended; none when the load had no churn.
std::optional<reports::FigureGroup> churn_figures(const clients::LoadResult& load) {
  if (load.aborted + load.fresh_closed + load.server_closed + load.close_kept + load.replaced ==
      0) {
    return std::nullopt;
  }
  reports::FigureGroup group{.name = "churn",
                             .unit = "",
                             .values = {{"aborted", number(load.aborted)},
                                        {"fresh closed", number(load.fresh_closed)},
                                        {"server closed", number(load.server_closed)},
                                        {"replaced", number(load.replaced)}}};
  // Requests that asked "Connection: close" and whose connection the server kept: shown
  // where there are any, beside the closes (HTTP/2's server closes are its GOAWAYs).
  if (load.close_kept > 0) {
    group.values.insert(group.values.begin() + 3, {"server kept", number(load.close_kept)});
  }
  return group;
}

// An HTTP/2 load: the GOAWAYs the server sent on the pool, by error code (nginx's after
// keepalive_requests streams: NO_ERROR); none when it sent none.
std::optional<reports::FigureGroup> goaway_figures(const clients::LoadResult& load) {
  if (load.goaways.empty()) return std::nullopt;
  reports::FigureGroup group{.name = "GOAWAY", .unit = "", .values = {}};
  for (const auto& [code, n] : load.goaways) group.values.emplace_back(code, number(n));
  return group;
}

// An HTTP/3 load: how the QUIC connections of the pool ended, by the server's CONNECTION_CLOSE
// code, a stateless reset or the idle timeout; none when none did.
std::optional<reports::FigureGroup> quic_close_figures(const clients::LoadResult& load) {
  if (load.closes.empty()) return std::nullopt;
  reports::FigureGroup group{.name = "QUIC closes", .unit = "", .values = {}};
  for (const auto& [code, n] : load.closes) group.values.emplace_back(code, number(n));
  return group;
}

// An HTTP/3 load: the pool's UDP datagrams and bytes each way; none over TCP.
std::optional<reports::FigureGroup> datagram_figures(const clients::LoadResult& load) {
  const auto& d = load.datagrams;
  if (d == clients::LoadResult::Datagrams{}) return std::nullopt;
  return reports::FigureGroup{.name = "QUIC datagrams",
                              .unit = "",
                              .values = {{"sent", number(d.sent)},
                                         {"received", number(d.received)},
                                         {"bytes sent", number(d.bytes_sent)},
                                         {"bytes received", number(d.bytes_received)}}};
}

// The p99 from intended send time of the requests due in the schedule's first and last
// edge window, and how many answers each holds; none when the windows were not kept.
std::vector<reports::FigureGroup> edge_figures(const clients::LoadResult& load) {
  const auto& first = load.first_window;
  const auto& last = load.last_window;
  if (first.count() == 0 && last.count() == 0) return {};
  const auto p99 = [](const clients::LatencyHistogram& h) -> std::optional<double> {
    if (h.count() == 0) return std::nullopt;
    return in_ms(h.percentile(99.0));
  };
  return {{.name = "edge latency",
           .unit = "ms",
           .values = {{"first p99", p99(first)}, {"last p99", p99(last)}}},
          {.name = "edge answers",
           .unit = "",
           .values = {{"first", number(first.count())}, {"last", number(last.count())}}}};
}

// The seed's quantities of a load scenario, in its own words.
std::vector<reports::FigureGroup> load_groups(const Observation& o) {
  const auto figures = load_figures(o);
  if (!figures) return {};
  const auto& load = o.load->result;
  const auto not_ok = load.owed() - std::min(load.owed(), load.succeeded);  // aborts owe none
  std::optional<double> all_closed;
  if (figures->all_waiting_closed) all_closed = in_seconds(*figures->all_waiting_closed);
  const auto server = [&](std::size_t n) { return sampled_number(n, o.server_sampled); };
  const auto during = figures->fds_during ? server(*figures->fds_during) : std::nullopt;
  auto fds =
      fd_figures(o.fds, o.server_sampled, o.server_exit.has_value());  // and during the load, third
  fds.values.insert(fds.values.begin() + 2, {"during load", during});
  std::vector<reports::FigureGroup> groups{
      {.name = "regular",
       .unit = "",
       .values = {{"requested", number(load.requested)},
                  {"dispatched", number(load.dispatched)},
                  {"non-2xx", number(not_ok)}}},
      {.name = "latency",
       .unit = "ms",
       .values = {{"p50", in_ms(load.from_intended.percentile(50.0))},
                  {"p99", in_ms(load.from_intended.percentile(99.0))},
                  {"max", in_ms(load.from_intended.max())}}},
      std::move(fds),
      {.name = "RSS",
       .unit = "KiB",
       .values = {{"start", server(figures->rss_kib.start)},
                  {"peak", server(figures->rss_kib.peak)},
                  {"end", server(figures->rss_kib.end)}}},
      {.name = "threads",
       .unit = "",
       .values = {{"start", server(figures->threads.start)},
                  {"peak", server(figures->threads.peak)},
                  {"end", server(figures->threads.end)}}}};
  if (!o.connections.empty()) {  // waiting connections beside the load (not the soak's)
    groups.insert(
        groups.begin() + 2,
        {{.name = "all waiting closed", .unit = "s", .values = {{"after load start", all_closed}}},
         closure_figures(o)});
  }
  if (auto tcp = tcp_at_end(o)) groups.push_back(std::move(*tcp));
  if (auto churn = churn_figures(load)) groups.push_back(std::move(*churn));
  if (auto goaways = goaway_figures(load)) groups.push_back(std::move(*goaways));
  if (auto closes = quic_close_figures(load)) groups.push_back(std::move(*closes));
  if (auto datagrams = datagram_figures(load)) groups.push_back(std::move(*datagrams));
  for (auto& edge : edge_figures(load)) groups.push_back(std::move(edge));
  for (auto& client : plots::client_groups(o)) groups.push_back(std::move(client));
  return groups;
}

// The declared deadline and its slack, when the scenario judges a closure (the first kind's,
// where it mixes kinds).
std::optional<reports::FigureGroup> deadline_figures(const Expectations& e) {
  const auto* closure = e.closure                 ? &*e.closure
                        : e.kind_closures.empty() ? nullptr
                                                  : &e.kind_closures.front();
  if (closure == nullptr) return std::nullopt;
  return reports::FigureGroup{.name = "deadline",
                              .unit = "s",
                              .values = {{"declared", in_seconds(closure->deadline)},
                                         {"slack", in_seconds(closure->slack)}}};
}

// When the FDs were back, from the end of the clients' run.
std::optional<reports::FigureGroup> fds_back_figures(const FdObservation& fds) {
  if (!fds.recovered || !fds.recovered_after) return std::nullopt;
  return reports::FigureGroup{
      .name = "FDs back", .unit = "s", .values = {{"after", in_seconds(*fds.recovered_after)}}};
}

// Connections by ending label ("close", "408+close", "open", ...), in label order. Where the
// closure is a stream's (HTTP/2, HTTP/3), a connection kept open after the server ended its
// stream is labelled by that ending: "rst-stream+kept-open", "408+kept-open"; over HTTP/3,
// whose stalled kinds close the connection themselves once the server ended their stream,
// the server's act comes first and the client's close after it: "rst-stream+client-close".
std::optional<reports::FigureGroup> ending_figures(const Observation& o, bool stream) {
  if (o.connections.empty()) return std::nullopt;
  std::map<std::string, std::size_t> counts;
  for (const auto& record : o.connections) {
    auto label = clients::ending_label(record);
    const bool closed_after = record.h3 && record.ending == Ending::client_close;
    if (stream && (record.ending == Ending::open || closed_after)) {
      if (const auto ended = server_end_label(record, true)) {
        label = fmt::format("{}+{}", to_string(*ended),
                            closed_after ? label : std::string(reports::kKeptOpen));
      }
    }
    ++counts[label];
  }
  reports::FigureGroup group{.name = "endings", .unit = "", .values = {}};
  for (const auto& [label, n] : counts) group.values.emplace_back(label, number(n));
  return group;
}

// A scenario the server must not cut: connections answered whole, of all.
std::optional<reports::FigureGroup> completion_figures(const Observation& o,
                                                       const Expectations& e) {
  if (!e.completion) return std::nullopt;
  const auto answered = std::ranges::count_if(o.connections, [&](const auto& record) {
    return clients::complete_responses(record) >= e.completion->responses;
  });
  return reports::FigureGroup{.name = "completion",
                              .unit = "",
                              .values = {{"answered", number(static_cast<std::size_t>(answered))},
                                         {"connections", number(o.connections.size())}}};
}

// The closure is a stream's (the first kind's, where the scenario mixes kinds).
bool stream_closure(const Expectations& e) {
  if (e.closure) return e.closure->stream;
  return !e.kind_closures.empty() && e.kind_closures.front().stream;
}

// What a matrix cell shows, beside the figures above: the deadline, FDs back, endings,
// answers, and how many client processes the fleet was split over.
void add_cell_figures(std::vector<reports::FigureGroup>& figures, const ScenarioResult& result) {
  const auto& o = result.observation;
  for (auto group : {deadline_figures(result.expectations), fds_back_figures(o.fds),
                     ending_figures(o, stream_closure(result.expectations)),
                     completion_figures(o, result.expectations)}) {
    if (group) figures.push_back(std::move(*group));
  }
  if (o.client_processes > 1) {  // a fleet split over client processes
    figures.push_back(
        {.name = "clients", .unit = "", .values = {{"processes", number(o.client_processes)}}});
  }
}

// An HTTP/3 server's UDP sockets on its QUIC port: how many a sample found, what they
// dropped and the machine's UDP errors during the scenario, and their longest receive queue.
// None where the UDP sockets were not read.
std::vector<reports::FigureGroup> udp_groups(const Observation& o) {
  const auto udp = udp_figures(o.timeline);
  if (!udp) return {};
  const auto count = [](std::uint64_t n) { return std::optional(static_cast<double>(n)); };
  return {{.name = "UDP",
           .unit = "",
           .values = {{"sockets", count(udp->sockets)},
                      {"drops", count(udp->drops)},
                      {"RcvbufErrors", count(udp->rcvbuf_errors)},
                      {"InErrors", count(udp->in_errors)}}},
          {.name = "UDP receive queue", .unit = "B", .values = {{"peak", count(udp->peak_rx_queue)}}}};
}

// A soak's table after the load's figures, its timeline plots after the load's.
void add_soak_report(reports::ScenarioReport& report, const Observation& observation) {
  const auto figures = soak_figures(observation);
  if (!figures) return;
  for (auto& group : plots::soak_groups(*figures)) report.figures.push_back(std::move(group));
  for (auto& plot : plots::soak_plots(observation, *figures, observation_origin(observation)))
    report.plots.push_back(std::move(plot));
}

}  // namespace

reports::ScenarioReport to_report(const ScenarioResult& result) {
  reports::ScenarioReport report{.id = result.id};
  if (result.skipped) {
    report.status = reports::Status::skip;
    report.note = *result.skipped;
    return report;
  }
  if (result.interrupted) {
    report.status = reports::Status::error;
    report.note = "interrupted by the user";
    return report;
  }
  report.status = result.verdict.passed ? reports::Status::pass : reports::Status::fail;
  report.findings = result.verdict.findings;
  const auto& observation = result.observation;
  if (result.stopped_early && observation.load) {
    report.note = fmt::format("stopped early by the user: judged on the first {:.0f} s of traffic",
                              in_seconds(observation.load->result.scheduled));
  }
  if (observation.load) {
    report.figures = load_groups(observation);
  } else {
    const auto& closure = result.expectations.closure;
    report.figures = {closure_figures(observation, closure ? closure->since : Since::connect,
                                      closure && closure->stream),
                      fd_figures(observation.fds, observation.server_sampled,
                                 observation.server_exit.has_value()),
                      plots::rss_figures(observation)};
  }
  add_cell_figures(report.figures, result);
  for (auto& group : udp_groups(observation)) report.figures.push_back(std::move(group));
  // held-capacity: what driving the fleet cost loiter (a load scenario's is among its figures).
  const auto& completion = result.expectations.completion;
  if (!observation.load && completion && completion->held_at_once) {
    for (auto& client : plots::client_groups(observation)) report.figures.push_back(std::move(client));
  }
  report.plots = plots::scenario_plots(observation, result.expectations);
  add_load_report(report, observation, observation_origin(observation));
  if (observation.load) {
    if (auto plot = plots::client_plot(observation, observation_origin(observation)))
      report.plots.push_back(std::move(*plot));
  }
  if (result.expectations.soak) add_soak_report(report, observation);
  return report;
}

clients::Clock::time_point observation_origin(const Observation& observation) {
  auto origin = clients::Clock::time_point::max();
  if (!observation.timeline.empty()) origin = observation.timeline.front().at;
  for (const auto& record : observation.connections) {
    // A connection whose slot never came (an interrupted run) has no start.
    if (record.connect_start == clients::Clock::time_point{}) continue;
    origin = std::min(origin, record.connect_start);
  }
  return origin == clients::Clock::time_point::max() ? clients::Clock::time_point{} : origin;
}

reports::ScenarioReport error_report(std::string id, std::string error) {
  reports::Finding finding{.code = reports::codes::kHarnessError,
                           .scenario = id,
                           .klass = reports::FindingClass::infrastructure,
                           .error = std::move(error)};
  return {.id = std::move(id),
          .status = reports::Status::error,
          .note = {},
          .findings = {std::move(finding)},
          .figures = {}};
}

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

}  // namespace loiter::suites
