// Scenario results become run-document entries with the key figures the console shows.
#include "loiter/suites/document/report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/parse.hpp>

#include "canned_results.hpp"
#include "loiter/reports/json.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;

TEST(ToReport, SummarisesClosureTimesAndFds) {
  ScenarioResult result{.id = "silent"};
  for (auto at : {1200ms, 1000ms, 1100ms}) {
    clients::ConnectionRecord record;
    record.ending = clients::Ending::close;
    record.ended_at = at;
    result.observation.connections.push_back(record);
  }
  result.observation.fds = {.baseline = 5,
                            .baseline_settled = true,
                            .peak = 8,
                            .after = 5,
                            .recovered = true,
                            .recovered_after = 1ms};
  const auto report = to_report(result);
  EXPECT_EQ(report.status, reports::Status::pass);
  ASSERT_GE(report.figures.size(), 3u);  // closure, FDs, RSS first
  EXPECT_EQ(report.figures[2].name, "RSS");
  EXPECT_DOUBLE_EQ(*report.figures[0].values[0].second, 1.0);  // min
  EXPECT_DOUBLE_EQ(*report.figures[0].values[1].second, 1.1);  // median
  EXPECT_DOUBLE_EQ(*report.figures[0].values[2].second, 1.2);  // max
  EXPECT_EQ(report.figures[1].values[2].first, "recovered");
}

TEST(ToReport, ASkippedScenarioCarriesItsReason) {
  const auto report = to_report({.id = "stream", .skipped = "the target declares no stream path"});
  EXPECT_EQ(report.status, reports::Status::skip);
  EXPECT_EQ(report.note, "the target declares no stream path");
}

// A closure scenario records what a matrix cell shows: the declared deadline and slack, and
// how many connections ended each way (a 408 before the close is its own label).
TEST(ToReport, AClosureScenarioCarriesItsDeadlineAndEndingsByLabel) {
  const auto report = to_report(testing::plain_result());
  EXPECT_EQ(reports::figure(report, "deadline", "declared"), 2.0);
  EXPECT_EQ(reports::figure(report, "deadline", "slack"), 0.25);
  const auto endings = std::ranges::find(report.figures, "endings", &reports::FigureGroup::name);
  ASSERT_NE(endings, report.figures.end());
  using Value = std::pair<std::string, std::optional<double>>;
  EXPECT_EQ(endings->values,
            (std::vector<Value>{{"408+close", 1}, {"close", 1}, {"open", 1}, {"reset", 1}}));
  EXPECT_FALSE(reports::figure(report, "FDs back", "after"));  // not recovered
  EXPECT_FALSE(reports::figure(report, "completion", "answered"));
}

// Over HTTP/3 a stalled kind closes the connection itself once the server ended its stream:
// the endings count the server's act first ("rst-stream+client-close", "408+client-close"),
// one kept open after it as kept, and a plain client close (no stream ended) as it is.
TEST(ToReport, AnH3StreamTheServerEndedIsCountedAsTheServersActThenTheClientsClose) {
  ScenarioResult result{.id = "h3-headers-stall"};
  result.expectations.closure = ClosureExpectation{.since = Since::stream_open,
                                                   .deadline = 2s,
                                                   .slack = 250ms,
                                                   .endings = {clients::ends::stream_reset},
                                                   .stream = true};
  const auto record = [](clients::Ending ending, bool reset, unsigned status) {
    clients::ConnectionRecord r;
    r.kind = "h3-headers-stall";
    r.sends.push_back({.at = 30ms, .bytes = 10});
    r.h3 = clients::H3Record{.handshake_done = 20ms};
    if (reset) r.h3->stream_ends.push_back({.at = 2030ms, .stream = 0, .code = 0x10d});
    if (status != 0) r.responses.push_back({.status = status, .complete = 2030ms});
    r.ending = ending;
    r.ended_at = ending == clients::Ending::open ? 4s : 2031ms;
    return r;
  };
  result.observation.connections = {record(clients::Ending::client_close, true, 0),
                                    record(clients::Ending::client_close, true, 0),
                                    record(clients::Ending::client_close, false, 408),
                                    record(clients::Ending::open, true, 0),
                                    record(clients::Ending::client_close, false, 0)};
  const auto report = to_report(result);
  const auto endings = std::ranges::find(report.figures, "endings", &reports::FigureGroup::name);
  ASSERT_NE(endings, report.figures.end());
  using Value = std::pair<std::string, std::optional<double>>;
  EXPECT_EQ(endings->values, (std::vector<Value>{{"408+client-close", 1},
                                                 {"client-close", 1},
                                                 {"rst-stream+client-close", 2},
                                                 {"rst-stream+kept-open", 1}}));
}

// A scenario the server must not cut counts the connections answered whole (every response
// asked for), and says when the FDs were back and over how many client processes it ran.
TEST(ToReport, AMustNotCutScenarioCountsTheConnectionsAnsweredWhole) {
  const auto report = to_report(testing::split_fleet_result());
  EXPECT_EQ(reports::figure(report, "completion", "answered"), 1.0);
  EXPECT_EQ(reports::figure(report, "completion", "connections"), 2.0);
  EXPECT_EQ(reports::figure(report, "FDs back", "after"), 0.3);
  EXPECT_EQ(reports::figure(report, "clients", "processes"), 3.0);
  EXPECT_FALSE(reports::figure(report, "deadline", "declared"));
}

// An HTTP/3 scenario shows its server's UDP socket beside its verdict: what it dropped and
// the machine's UDP errors during the scenario (last sample less first), its longest queue.
TEST(ToReport, AnHttp3ScenarioShowsWhatItsUdpSocketDropped) {
  const auto report = to_report(testing::h3_udp_result());
  EXPECT_EQ(reports::figure(report, "UDP", "sockets"), 1.0);
  EXPECT_EQ(reports::figure(report, "UDP", "drops"), 7.0);
  EXPECT_EQ(reports::figure(report, "UDP", "RcvbufErrors"), 9.0);
  EXPECT_EQ(reports::figure(report, "UDP", "InErrors"), 9.0);
  EXPECT_EQ(reports::figure(report, "UDP receive queue", "peak"), 212992.0);
  EXPECT_THAT(reports::text(report.findings.at(0)),
              ::testing::HasSubstr("the server's UDP socket dropped 7 datagrams meanwhile"));
  // A scenario whose UDP sockets were not read has no such group.
  EXPECT_FALSE(reports::figure(to_report(testing::plain_result()), "UDP", "drops"));
}

// A scenario that mixes kinds declares its first kind's deadline.
TEST(ToReport, AMixedKindScenarioShowsItsFirstKindsDeadline) {
  EXPECT_EQ(reports::figure(to_report(testing::load_result()), "deadline", "declared"), 2.0);
}

// A load with churn writes what each kind of churn ended and the edge windows' p99 and
// answers; report.json gives them back as they were. Aborted requests are owed no answer,
// so not among the non-2xx.
TEST(ToReport, ALoadWithChurnCarriesItsCountsAndEdgeWindowsThroughReportJson) {
  const reports::RunReport run{.loiter_version = "test",
                               .target = "reference",
                               .scenarios = {to_report(testing::churn_load_result())}};
  const auto back =
      reports::run_report_from_json(boost::json::parse(reports::run_report_text(run)));
  ASSERT_EQ(back, run);
  const auto& soak = back.scenarios.at(0);
  EXPECT_EQ(reports::figure(soak, "churn", "aborted"), 4.0);
  EXPECT_EQ(reports::figure(soak, "churn", "fresh closed"), 3.0);
  EXPECT_EQ(reports::figure(soak, "churn", "server closed"), 2.0);
  EXPECT_EQ(reports::figure(soak, "churn", "server kept"), 1.0);  // asked to close, kept open
  EXPECT_EQ(reports::figure(soak, "churn", "replaced"), 5.0);
  EXPECT_NEAR(*reports::figure(soak, "edge latency", "first p99"), 2.0, 0.01);
  EXPECT_NEAR(*reports::figure(soak, "edge latency", "last p99"), 5.0, 0.025);
  EXPECT_EQ(reports::figure(soak, "edge answers", "first"), 10.0);
  EXPECT_EQ(reports::figure(soak, "edge answers", "last"), 10.0);
  EXPECT_EQ(reports::figure(soak, "regular", "non-2xx"), 6.0);  // 100 - 4 aborted - 90
  EXPECT_EQ(reports::figure(soak, "client", "load busy"), 0.25);
  EXPECT_NEAR(*reports::figure(soak, "client CPU per request", "first"), 20.0, 1e-9);
  EXPECT_NEAR(*reports::figure(soak, "client CPU per request", "last"), 30.0, 1e-9);
}

// An HTTP/2 load names the GOAWAYs the server sent on its pool, by error code.
TEST(ToReport, AnH2LoadWritesItsGoawaysByCode) {
  const auto report = to_report(testing::h2_churn_load_result());
  EXPECT_EQ(reports::figure(report, "GOAWAY", "NO_ERROR"), 2.0);
  EXPECT_EQ(reports::figure(report, "churn", "server closed"), 2.0);
}

// An HTTP/3 load names how the server ended its pool's QUIC connections, by code; an HTTP/2
// one has no such group.
TEST(ToReport, AnH3LoadWritesItsQuicClosesByCode) {
  const auto report = to_report(testing::h3_churn_load_result());
  EXPECT_EQ(reports::figure(report, "QUIC closes", "idle timeout"), 2.0);
  EXPECT_EQ(reports::figure(report, "QUIC closes", "H3_NO_ERROR"), 1.0);
  EXPECT_EQ(reports::figure(report, "QUIC datagrams", "received"), 280.0);
  EXPECT_EQ(reports::figure(report, "QUIC datagrams", "bytes sent"), 42000.0);
  EXPECT_FALSE(reports::figure(to_report(testing::h2_churn_load_result()), "QUIC closes",
                               "idle timeout")
                   .has_value());
}

// check --connect without --pid samples no server: its RSS and threads under load are
// unmeasured ("-"), as its FDs are, not 0.
TEST(ToReport, ALoadOfAnUnsampledServerHasNoServerFigures) {
  auto result = testing::load_result();
  EXPECT_TRUE(reports::figure(to_report(result), "RSS", "peak").has_value());
  result.observation.server_sampled = false;
  const auto report = to_report(result);
  for (const char* group : {"FDs", "RSS", "threads"}) {
    const auto found = std::ranges::find(report.figures, group, &reports::FigureGroup::name);
    ASSERT_NE(found, report.figures.end()) << group;
    for (const auto& [name, value] : found->values) EXPECT_FALSE(value.has_value()) << name;
  }
  EXPECT_TRUE(reports::figure(report, "regular", "requested").has_value());
}

// A server that died under the scenario holds no FDs: the figure after the run is "-", not
// a count a gone process reads as, and no "FDs back" time is written.
TEST(ToReport, AServerThatDiedHasNoFdsAfterTheRun) {
  auto result = testing::load_result();
  result.observation.fds.recovered = false;
  result.observation.fds.recovered_after.reset();
  EXPECT_TRUE(reports::figure(to_report(result), "FDs", "after").has_value());
  result.observation.server_exit = "killed by signal 6 (SIGABRT, Aborted)";
  const auto report = to_report(result);
  EXPECT_FALSE(reports::figure(report, "FDs", "after").has_value());
  EXPECT_TRUE(reports::figure(report, "FDs", "peak").has_value());
  EXPECT_EQ(std::ranges::find(report.figures, "FDs back", &reports::FigureGroup::name),
            report.figures.end());
}

// The client's own cost where the engine measured it: the load thread's busy share, loiter's
// cores and CPU, its CPU per request in the schedule's first and last window past the pool's
// opening and the drain (a quarter of a 10 s run: seconds 1-2 and 7-8), and the per-second
// plot. A load of a document from before (not measured) writes none of it.
TEST(ToReport, ALoadMeasuredByTheEngineWritesTheClientsOwnCost) {
  auto result = testing::load_result();
  const auto unmeasured = to_report(result);
  for (const char* group : {"client", "client CPU per request"}) {
    EXPECT_EQ(std::ranges::find(unmeasured.figures, group, &reports::FigureGroup::name),
              unmeasured.figures.end())
        << group;
  }
  EXPECT_EQ(std::ranges::find(unmeasured.plots, "client-cpu", &reports::Plot::id),
            unmeasured.plots.end());

  auto& load = result.observation.load->result;
  load.client = {.wall_s = 10.0, .busy = 0.3125, .cpu_s = 2.5};
  load.seconds.assign(10, {});
  for (std::size_t k = 0; k < 10; ++k) {
    load.seconds[k].dispatched = 1000;
    load.seconds[k].client_cpu_s = k < 5 ? 0.02 : 0.03;  // 20 µs a request, then 30
  }
  load.seconds.front().client_cpu_s = load.seconds.back().client_cpu_s = 1.0;  // opening, drain
  const auto report = to_report(result);
  EXPECT_EQ(reports::figure(report, "client", "load busy"), 0.313);
  EXPECT_EQ(reports::figure(report, "client", "cores"), 0.25);
  EXPECT_EQ(reports::figure(report, "client", "CPU s"), 2.5);
  EXPECT_NEAR(*reports::figure(report, "client CPU per request", "first"), 20.0, 1e-9);
  EXPECT_NEAR(*reports::figure(report, "client CPU per request", "last"), 30.0, 1e-9);
  const auto plot = std::ranges::find(report.plots, "client-cpu", &reports::Plot::id);
  ASSERT_NE(plot, report.plots.end());
  ASSERT_EQ(plot->series.at(0).points.size(), 10u);
  EXPECT_EQ(plot->series.at(0).points[3].second, 0.02);
}

// Beside the client's cores, the server's over the load's span, its processes' CPU read from
// the sampler's readings around the load's start and end (interpolated): they compare,
// loiter's against what it judges. None where the sum fell (a process exited with its CPU),
// nor where the readings do not span the load.
TEST(ToReport, ALoadWritesTheServersCoresBesideTheClients) {
  auto result = testing::load_result();
  auto& load = result.observation.load->result;
  load.client = {.wall_s = 10.0, .busy = 0.3, .cpu_s = 2.5};
  const auto at = [&](double s) {
    return load.started + std::chrono::duration_cast<clients::Duration>(
                              std::chrono::duration<double>(s));
  };
  load.ended = at(10);
  auto& timeline = result.observation.timeline;
  const auto sample = [](auto when, double cpu) {
    fixtures::TimedSample s{.at = when, .sample = {}};
    s.sample.cpu_seconds = cpu;
    return s;
  };
  // 0.5 s at the start (between 0.0 and 1.0), 5.5 s at the end (between 5.0 and 6.0).
  timeline = {sample(at(-1), 0.0), sample(at(1), 1.0), sample(at(9), 5.0), sample(at(11), 6.0)};
  EXPECT_EQ(reports::figure(to_report(result), "client", "server cores"), 0.5);  // 5 s in 10 s
  timeline[2].sample.cpu_seconds = timeline[3].sample.cpu_seconds = 0.2;
  EXPECT_FALSE(reports::figure(to_report(result), "client", "server cores").has_value());
  timeline = {sample(at(-1), 0.0), sample(at(5), 1.0)};  // the sampler stopped before the end
  EXPECT_FALSE(reports::figure(to_report(result), "client", "server cores").has_value());
}

// The server's CPU per request over the client's first and last windows (seconds 1-2 and
// 7-8 of a 10 s run), read from the sampler's cumulative CPU between its readings, and its
// cores per second beside loiter's in the plot: a machine that slowed both shows in both.
TEST(ToReport, ALoadWritesTheServersCpuPerRequestBesideTheClients) {
  auto result = testing::load_result();
  auto& load = result.observation.load->result;
  load.client = {.wall_s = 10.0, .busy = 0.3, .cpu_s = 2.5};
  load.seconds.assign(10, {});
  for (auto& second : load.seconds) {
    second.dispatched = 1000;
    second.client_cpu_s = 0.02;
  }
  const auto at = [&](double s) {
    return load.started + std::chrono::duration_cast<clients::Duration>(
                              std::chrono::duration<double>(s));
  };
  load.ended = at(10);
  // 0.01 s of CPU a second for the first 5 s (10 µs a request), then 0.03 (30 µs): readings
  // every 0.5 s, so each second's edge falls on a reading or between two.
  auto& timeline = result.observation.timeline;
  for (int k = -1; k <= 22; ++k) {
    const double t = k * 0.5;
    fixtures::TimedSample s{.at = at(t), .sample = {}};
    s.sample.cpu_seconds = t <= 5 ? 0.01 * t : 0.05 + 0.03 * (t - 5);
    timeline.push_back(s);
  }
  const auto report = to_report(result);
  EXPECT_NEAR(*reports::figure(report, "server CPU per request", "first"), 10.0, 1e-9);
  EXPECT_NEAR(*reports::figure(report, "server CPU per request", "last"), 30.0, 1e-9);
  const auto plot = std::ranges::find(report.plots, "client-cpu", &reports::Plot::id);
  ASSERT_NE(plot, report.plots.end());
  ASSERT_EQ(plot->series.size(), 2u);
  EXPECT_EQ(plot->series[1].name, "server");
  ASSERT_EQ(plot->series[1].points.size(), 10u);
  EXPECT_NEAR(plot->series[1].points[2].second, 0.01, 1e-12);
  EXPECT_NEAR(plot->series[1].points[7].second, 0.03, 1e-12);
  // Without the sampler's readings: the client's alone.
  timeline.clear();
  const auto unsampled = to_report(result);
  EXPECT_FALSE(reports::figure(unsampled, "server CPU per request", "first").has_value());
  EXPECT_EQ(std::ranges::find(unsampled.plots, "client-cpu", &reports::Plot::id)->series.size(),
            1u);
}

// held-capacity with its fleet in loiter's own process writes what driving it cost: the
// fleet's thread and loiter's CPU over the drive; idle-under-load, its load's and its fleet's.
TEST(ToReport, HeldCapacityAndIdleUnderLoadWriteTheirFleetsThread) {
  const auto unmeasured = to_report(testing::split_fleet_result());  // in client processes: not measured
  EXPECT_EQ(std::ranges::find(unmeasured.figures, "client", &reports::FigureGroup::name),
            unmeasured.figures.end());
  const auto report = to_report(testing::held_in_process_result());
  EXPECT_EQ(reports::figure(report, "client", "fleet busy"), 0.123);
  EXPECT_EQ(reports::figure(report, "client", "cores"), 0.125);
  EXPECT_EQ(reports::figure(report, "client", "CPU s"), 0.5);

  auto idle = testing::load_result();
  idle.observation.fleet_cost = clients::ClientCost{.wall_s = 4.0, .busy = 0.5, .cpu_s = 1.0};
  idle.observation.load->result.client = {.wall_s = 3.0, .busy = 0.25, .cpu_s = 0.75};
  const auto both = to_report(idle);
  EXPECT_EQ(reports::figure(both, "client", "load busy"), 0.25);
  EXPECT_EQ(reports::figure(both, "client", "fleet busy"), 0.5);
  EXPECT_EQ(reports::figure(both, "client", "cores"), 0.25);  // over the load's wall time
}

// A load without churn or edge windows writes none of those groups, nor GOAWAY.
TEST(ToReport, ALoadWithoutChurnWritesNoChurnOrEdgeGroups) {
  const auto report = to_report(testing::load_result());
  for (const char* group : {"churn", "edge latency", "edge answers", "GOAWAY"}) {
    EXPECT_EQ(std::ranges::find(report.figures, group, &reports::FigureGroup::name),
              report.figures.end())
        << group;
  }
}

}  // namespace
}  // namespace loiter::suites
