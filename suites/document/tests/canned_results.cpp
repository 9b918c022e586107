// The canned results: small, but each writes every figure group and plot of its kind.
#include "canned_results.hpp"

#include <algorithm>

namespace loiter::suites::testing {

namespace {

using namespace std::chrono_literals;
namespace ends = clients::ends;
using clients::ConnectionRecord;
using clients::Ending;

const auto kT0 = clients::Clock::now();

ConnectionRecord ended(std::string_view kind, Ending ending, Duration at, unsigned status = 0) {
  ConnectionRecord record;
  record.kind = kind;
  record.connect_start = kT0 + 10ms;
  record.connect_took = 1ms;
  record.ending = ending;
  record.ended_at = at;
  if (status != 0) record.responses.push_back({.status = status, .started = at, .complete = at});
  return record;
}

fixtures::TimedSample sample(Duration at, std::size_t fds) {
  fixtures::TimedSample s{.at = kT0 + at, .sample = {}};
  s.sample = {.processes = 1, .fds = fds, .rss_kib = 4096, .threads = 2};
  fixtures::TcpCounts tcp;
  tcp.server.by_state[static_cast<std::size_t>(fixtures::TcpState::established)] = 1;
  tcp.client.by_state[static_cast<std::size_t>(fixtures::TcpState::established)] = 1;
  s.sample.tcp = tcp;
  return s;
}

// A soak's sample at `second`: sockets (and connections) grow by one a second while the
// traffic runs (from 1 s to 9 s), RSS by 1 MiB.
fixtures::TimedSample soak_sample(int second) {
  const auto grown = static_cast<std::size_t>(std::clamp(second - 1, 0, 8));
  fixtures::FdTypes types;
  types.by_type[static_cast<std::size_t>(fixtures::FdType::socket)] = 2 + grown;
  types.by_type[static_cast<std::size_t>(fixtures::FdType::pipe)] = 2;
  types.by_type[static_cast<std::size_t>(fixtures::FdType::file)] = 1;
  types.by_type[static_cast<std::size_t>(fixtures::FdType::anon_inode)] = 3;
  fixtures::TimedSample s{.at = kT0 + std::chrono::seconds(second), .sample = {}};
  s.sample = {.processes = 1, .fds = 8 + grown, .rss_kib = 4096 + 1024 * grown, .threads = 2};
  s.sample.fd_types = types;
  fixtures::TcpCounts tcp;
  tcp.server.by_state[static_cast<std::size_t>(fixtures::TcpState::listen)] = 1;
  tcp.server.by_state[static_cast<std::size_t>(fixtures::TcpState::close_wait)] = grown;
  s.sample.tcp = tcp;
  return s;
}

// `result` with `load` as its regular traffic over 3 s from kT0 on a pool of 2, the server's
// FDs back after it, passed.
ScenarioResult with_passing_load(ScenarioResult result, clients::LoadResult load) {
  load.started = kT0;
  load.ended = kT0 + 3s;
  load.seconds.resize(3);
  result.observation.load = LoadObservation{.result = std::move(load), .pool = 2};
  result.observation.fds = {
      .baseline = 10, .peak = 14, .after = 10, .recovered = true, .recovered_after = 20ms};
  result.observation.timeline = {sample(0s, 10), sample(2s, 14), sample(4s, 10)};
  result.verdict = {.passed = true, .findings = {}};
  return result;
}

}  // namespace

ScenarioResult plain_result() {
  ScenarioResult result{.id = "silent"};
  result.expectations.closure =
      ClosureExpectation{.since = Since::connect,
                         .deadline = 2s,
                         .slack = 250ms,
                         .endings = {ends::closed, ends::with_status(408, Ending::close)}};
  result.observation.connections = {
      ended("silent", Ending::close, 2100ms), ended("silent", Ending::close, 2000ms, 408),
      ended("silent", Ending::reset, 2200ms), ended("silent", Ending::open, 4s)};
  result.observation.fds = {.baseline = 10, .peak = 14, .after = 11, .recovered = false};
  result.observation.timeline = {sample(0s, 10), sample(1s, 14), sample(5s, 11)};
  result.verdict = {.passed = false,
                    .findings = {{.code = "still-open",
                                  .scenario = "silent",
                                  .klass = reports::FindingClass::deadline,
                                  .subject = "silent",
                                  .count = 1,
                                  .of = 4}}};
  return result;
}

ScenarioResult load_result() {
  ScenarioResult result{.id = "idle-under-load"};
  for (const char* kind : {"silent", "partial-header"}) {
    result.expectations.kind_closures.push_back({.kind = kind,
                                                 .since = Since::connect,
                                                 .deadline = 2s,
                                                 .slack = 250ms,
                                                 .endings = {ends::closed}});
    result.observation.connections.push_back(ended(kind, Ending::close, 2s));
  }
  result.expectations.load = LoadExpectation{.p99 = 200ms, .pool = 2};
  clients::LoadResult load;
  load.requested = load.dispatched = 10;
  load.succeeded = 9;
  for (int i = 0; i < 10; ++i) load.from_intended.record(1ms);
  return with_passing_load(std::move(result), std::move(load));
}

ScenarioResult churn_load_result() {
  ScenarioResult result{.id = "soak"};
  result.expectations.load = LoadExpectation{.p99 = 200ms, .pool = 2};
  clients::LoadResult load;
  load.requested = load.dispatched = 100;
  load.succeeded = 90;
  load.aborted = 4;
  load.fresh_closed = 3;
  load.server_closed = 2;
  load.close_kept = 1;
  load.replaced = 5;
  for (int i = 0; i < 90; ++i) load.from_intended.record(1ms);
  for (int i = 0; i < 10; ++i) {
    load.first_window.record(2ms);
    load.last_window.record(5ms);
  }
  // The client's own cost, as the engine measures it: 20 µs a request, 30 at the end.
  load.client = {.wall_s = 3.2, .busy = 0.25, .cpu_s = 0.0026};
  load.seconds.resize(3);
  for (std::size_t k = 0; k < 3; ++k) load.seconds[k].dispatched = k == 0 ? 40 : 30;
  load.seconds[0].client_cpu_s = 0.0008;
  load.seconds[1].client_cpu_s = 0.0009;
  load.seconds[2].client_cpu_s = 0.0009;
  return with_passing_load(std::move(result), std::move(load));
}

ScenarioResult h2_churn_load_result() {
  auto result = churn_load_result();
  result.observation.load->result.goaways = {{"NO_ERROR", 2}};
  return result;
}

ScenarioResult h3_churn_load_result() {
  auto result = churn_load_result();
  result.observation.load->result.closes = {{"idle timeout", 2}, {"H3_NO_ERROR", 1}};
  result.observation.load->result.datagrams = {
      .sent = 300, .received = 280, .bytes_sent = 42000, .bytes_received = 90000};
  return result;
}

ScenarioResult split_fleet_result() {
  ScenarioResult result{.id = "held-capacity"};
  result.expectations.completion = CompletionExpectation{.responses = 2, .held_at_once = true};
  auto answered = ended("held-recheck", Ending::client_close, 3s, 200);
  answered.requests = 2;
  answered.responses.push_back({.status = 200, .started = 3s, .complete = 3s});
  result.observation.connections = {answered, ended("held-recheck", Ending::reset, 1s)};
  result.observation.fds = {
      .baseline = 10, .peak = 12, .after = 10, .recovered = true, .recovered_after = 300ms};
  result.observation.timeline = {sample(0s, 10), sample(1s, 12)};
  result.observation.client_processes = 3;
  result.verdict = {.passed = false,
                    .findings = {{.code = "cut-off",
                                  .scenario = "held-capacity",
                                  .klass = reports::FindingClass::deadline,
                                  .count = 1,
                                  .of = 2}}};
  return result;
}

ScenarioResult held_in_process_result() {
  auto result = split_fleet_result();
  result.observation.client_processes = 1;
  result.observation.fleet_cost = clients::ClientCost{.wall_s = 4.0, .busy = 0.1234, .cpu_s = 0.5};
  return result;
}

ScenarioResult soak_result() {
  ScenarioResult result{.id = "soak"};
  result.expectations.load = LoadExpectation{.p99 = 200ms, .pool = 2};
  result.expectations.soak = SoakExpectation{.fds_per_minute = 1, .window = 2s};
  clients::LoadResult load;
  load.requested = load.dispatched = load.succeeded = 80;
  for (int i = 0; i < 80; ++i) load.from_intended.record(1ms);
  for (int i = 0; i < 20; ++i) load.first_window.record(1ms);
  for (int i = 0; i < 10; ++i) load.last_window.record(3ms);
  load.started = kT0 + 1s;
  load.ended = kT0 + 9s;
  load.seconds.resize(8);
  result.observation.load = LoadObservation{.result = load, .pool = 2};
  for (int second = 0; second <= 10; ++second)
    result.observation.timeline.push_back(soak_sample(second));
  result.observation.baseline = result.observation.timeline.front().sample;
  result.observation.fds = {.baseline = 8, .peak = 16, .after = 16, .recovered = false};
  result.verdict = {.passed = false, .findings = {}};
  return result;
}

ScenarioResult h3_udp_result() {
  ScenarioResult result{.id = "h3-idle"};
  result.expectations.h3 =
      H3Expectation{.deadline = 2s, .since = Since::quiet, .slack = 250ms, .name = "idle"};
  result.observation.connections = {ended("h3-idle", Ending::gone, 1675ms),
                                    ended("h3-idle", Ending::gone, 1680ms)};
  result.observation.fds = {
      .baseline = 10, .peak = 10, .after = 10, .recovered = true, .recovered_after = 20ms};
  const auto udp = [](Duration at, std::uint64_t queue, std::uint64_t drops,
                      std::uint64_t errors) {
    auto s = sample(at, 10);
    s.sample.tcp.reset();
    s.sample.udp = fixtures::UdpCounts{.port = 8443,
                                       .sockets = 1,
                                       .rx_queue = queue,
                                       .drops = drops,
                                       .rcvbuf_errors = errors,
                                       .in_errors = errors + 2};
    return s;
  };
  result.observation.timeline = {udp(0s, 0, 3, 100), udp(1s, 212992, 3, 100),
                                 udp(2s, 0, 10, 109)};
  result.verdict = {.passed = false,
                    .findings = {{.code = "probe-unanswered",
                                  .scenario = "h3-idle",
                                  .klass = reports::FindingClass::deadline,
                                  .count = 2,
                                  .of = 2,
                                  .udp_drops = 7,
                                  .udp_rcvbuf_errors = 9}}};
  return result;
}

}  // namespace loiter::suites::testing
