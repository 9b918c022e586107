// judge() on canned observations: each finding names what failed and by how much.
#include "loiter/suites/judge/judge.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using clients::ConnectionRecord;
using clients::Ending;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

Expectations expect_silent(std::size_t count) {
  return {.connections = count,
          .patience = 2s,
          .closure = ClosureExpectation{.since = Since::connect,
                                        .deadline = 1s,
                                        .slack = 250ms,
                                        .endings = {"close", "408+close"}},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = 5s};
}

clients::Response whole(unsigned status, Duration complete) {
  clients::Response response;
  response.status = status;
  response.complete = complete;
  return response;
}

ConnectionRecord ended(Ending ending, Duration at) {
  ConnectionRecord record;
  record.kind = "silent";
  record.ending = ending;
  record.ended_at = at;
  return record;
}

Observation observe(std::vector<ConnectionRecord> records) {
  return {.scenario = "silent",
          .connections = std::move(records),
          .fds = {.baseline = 5,
                  .baseline_settled = true,
                  .peak = 105,
                  .after = 5,
                  .recovered = true,
                  .recovered_after = 10ms},
          .timeline = {},
          .server_exit = std::nullopt};
}

TEST(Judge, PassesConnectionsClosedInsideTheWindow) {
  const auto verdict = judge(observe({ended(Ending::close, 1001ms), ended(Ending::close, 1200ms)}),
                             expect_silent(2));
  EXPECT_TRUE(verdict.passed);
  EXPECT_THAT(verdict.findings, IsEmpty());
}

TEST(Judge, CountsConnectionsStillOpenAtPatience) {
  const auto verdict =
      judge(observe({ended(Ending::open, 2s), ended(Ending::open, 2s), ended(Ending::close, 1s)}),
            expect_silent(3));
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.findings,
              ElementsAre("2/3 connections still open at 2.000 s after connect (deadline 1.000 s "
                          "from connect)"));
}

TEST(Judge, FlagsEarlyAndLateClosuresOnBothSidesOfTheWindow) {
  const auto verdict = judge(observe({ended(Ending::close, 100ms), ended(Ending::close, 1300ms),
                                      ended(Ending::close, 1s)}),
                             expect_silent(3));
  EXPECT_THAT(
      verdict.findings,
      ElementsAre(HasSubstr("1/3 connections closed early, before 0.750 s (earliest 0.100 s"),
                  HasSubstr("1/3 connections closed late, after 1.250 s (latest 1.300 s")));
}

TEST(Judge, AResetIsNotAClose) {
  const auto verdict = judge(observe({ended(Ending::reset, 1s)}), expect_silent(1));
  EXPECT_THAT(verdict.findings,
              ElementsAre("1/1 connections ended as reset, expected close or 408+close"));
}

TEST(Judge, ReportsFdsThatDoNotComeBack) {
  auto observation = observe({ended(Ending::close, 1s)});
  observation.fds = {.baseline = 19,
                     .baseline_settled = true,
                     .peak = 39,
                     .after = 39,
                     .recovered = false,
                     .recovered_after = std::nullopt};
  const auto verdict = judge(observation, expect_silent(1));
  EXPECT_THAT(verdict.findings, ElementsAre("FDs 19→39, not back to 19 within 5.000 s: 20 left"));
}

TEST(Judge, NamesConnectFailuresAndAServerThatDied) {
  auto failed = ended(Ending::connect_failed, 0s);
  failed.error = "Connection refused";
  auto observation = observe({failed});
  observation.server_exit = "killed by signal 11 (Segmentation fault)";
  const auto verdict = judge(observation, expect_silent(1));
  EXPECT_THAT(verdict.findings,
              ElementsAre("the server killed by signal 11 (Segmentation fault) during the scenario",
                          "1/1 connections could not connect: Connection refused (the server: "
                          "listen backlog full or its own FD limit; see its log)"));
}

// Connect failures are grouped by error, each with the limit it points at.
TEST(Judge, GroupsConnectFailuresByTheLimitTheyPointAt) {
  auto no_fd = ended(Ending::connect_failed, 0s);
  no_fd.error = "Too many open files";
  auto no_port = no_fd;
  no_port.error = "Cannot assign requested address";
  const auto verdict = judge(observe({no_fd, no_port, no_fd}), expect_silent(3));
  EXPECT_THAT(verdict.findings,
              ElementsAre("1/3 connections could not connect: Cannot assign requested address "
                          "(the client's ephemeral ports)",
                          "2/3 connections could not connect: Too many open files (the "
                          "client's RLIMIT_NOFILE)"));
}

TEST(Judge, MeasuresTheIdleDeadlineFromTheLastWholeResponse) {
  auto expectations = expect_silent(2);
  expectations.closure->since = Since::last_response;
  expectations.closure->endings = {"close"};
  auto in_time = ended(Ending::close, 1300ms);  // 1.0 s after its response at 0.3 s
  in_time.requests = 1;
  in_time.responses = {whole(200, 300ms)};
  auto cut_early = ended(Ending::close, 600ms);  // 0.3 s after its response
  cut_early.requests = 1;
  cut_early.responses = {whole(200, 300ms)};
  const auto verdict = judge(observe({in_time, cut_early}), expectations);
  EXPECT_THAT(verdict.findings,
              ElementsAre(HasSubstr("1/2 connections closed early, before 0.750 s (earliest "
                                    "0.300 s; deadline 1.000 s ± 0.250 s from the last response")));
}

TEST(Judge, AConnectionClosedBeforeItsResponseCannotBeMeasuredFromIt) {
  auto expectations = expect_silent(1);
  expectations.closure->since = Since::last_response;
  const auto verdict = judge(observe({ended(Ending::close, 1s)}), expectations);
  EXPECT_THAT(verdict.findings,
              ElementsAre("1/1 connections ended (close) before the last response it is "
                          "measured from"));
}

Expectations expect_completion(std::size_t responses) {
  return {
      .connections = 2,
      .patience = 5s,
      .closure = std::nullopt,
      .completion = CompletionExpectation{.responses = responses, .status = 200, .outlives = 1s},
      .fds_after = 0,
      .recovery = 5s};
}

TEST(Judge, ACutStreamIsAFindingWithItsEnding) {
  auto complete = ended(Ending::client_close, 3100ms);
  complete.requests = 1;
  complete.responses = {whole(200, 3s)};
  auto cut = ended(Ending::close, 1002ms);
  cut.requests = 1;
  cut.responses = {clients::Response{.status = 200}};  // head arrived, body never finished
  const auto verdict = judge(observe({complete, cut}), expect_completion(1));
  EXPECT_THAT(
      verdict.findings,
      ElementsAre("1/2 connections were cut off: fewer than 1 whole 200 response(s), "
                  "ended as close (median 1.002 s after connect; it must outlive 1.000 s)"));
}

TEST(Judge, AnExchangeShorterThanTheDeadlineProvesNothing) {
  auto quick = ended(Ending::client_close, 200ms);
  quick.requests = 1;
  quick.responses = {whole(200, 100ms)};
  auto also_quick = quick;
  const auto verdict = judge(observe({quick, also_quick}), expect_completion(1));
  EXPECT_THAT(verdict.findings, ElementsAre(HasSubstr("the scenario proves nothing")));
}

TEST(Judge, KeepaliveReuseNeedsBothResponses) {
  auto reused = ended(Ending::client_close, 1600ms);
  reused.requests = 2;
  reused.responses = {whole(200, 10ms), whole(200, 1510ms)};
  auto refused = ended(Ending::close, 1000ms);
  refused.requests = 2;
  refused.responses = {whole(200, 10ms)};
  const auto verdict = judge(observe({reused, refused}), expect_completion(2));
  EXPECT_THAT(verdict.findings, ElementsAre(HasSubstr("1/2 connections were cut off: fewer than "
                                                      "2 whole 200 response(s), ended as close")));
}

// Failures with a server process at its RLIMIT_NOFILE: the finding names the limit.
TEST(Judge, NamesTheServersFdLimitWhenItWasReached) {
  auto observation = observe({ended(Ending::open, 2s)});
  observation.fds.server_limit = 1024;
  observation.fds.peak_in_one_process = 1020;
  EXPECT_THAT(judge(observation, expect_silent(1)).findings,
              Contains("a server process held 1020 FDs, at its RLIMIT_NOFILE of 1024: that "
                       "limit stopped it"));
  observation.fds.peak_in_one_process = 500;
  EXPECT_THAT(judge(observation, expect_silent(1)).findings,
              Not(Contains(HasSubstr("RLIMIT_NOFILE"))));
}

// The client's FIN came and the server never closed: CLOSE_WAIT at the end is a finding,
// even where FDs look recovered.
TEST(Judge, NamesServerSocketsLeftInCloseWait) {
  auto expectations = expect_silent(1);
  expectations.closure.reset();
  expectations.no_server_close_wait = true;
  auto observation = observe({ended(Ending::client_close, 100ms)});
  fixtures::TimedSample last{};
  last.sample.tcp.emplace();
  last.sample.tcp->server.by_state[static_cast<std::size_t>(fixtures::TcpState::close_wait)] = 3;
  observation.timeline = {last};
  EXPECT_THAT(judge(observation, expectations).findings,
              ElementsAre("3 server-side sockets still in CLOSE_WAIT at the end: the client's FIN "
                          "arrived and the server never closed them"));
  observation.timeline.back().sample.tcp->server.by_state = {};
  EXPECT_THAT(judge(observation, expectations).findings, IsEmpty());
}

// held-capacity: a connection held, re-checked and closed by the client, connected at
// `connect` (from `t0`), its first answer 10 ms later and the re-check sent at `recheck`.
ConnectionRecord held(clients::Clock::time_point t0, Duration connect, Duration recheck) {
  auto record = ended(Ending::client_close, recheck - connect + 500ms);
  record.connect_start = t0 + connect;
  record.client_closed = record.ended_at;
  record.requests = 2;
  record.sends = {{.at = 0ms, .bytes = 40}, {.at = recheck - connect, .bytes = 40}};
  record.responses = {whole(200, 10ms), whole(200, recheck - connect + 10ms)};
  return record;
}

TEST(Judge, HeldCapacityNeedsEveryConnectionHeldAtOnce) {
  const auto t0 = clients::Clock::now();
  auto expectations = expect_completion(2);
  expectations.completion->client_ends = true;
  expectations.completion->outlives = 0ms;
  expectations.completion->held_at_once = true;
  expectations.connections = 3;
  const auto all_held = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), held(t0, 900ms, 1500ms)};
  EXPECT_THAT(judge(observe(all_held), expectations).findings, IsEmpty());
  // The third connected only after the re-checks had begun: never all three held together.
  const auto one_late = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), held(t0, 2000ms, 2500ms)};
  EXPECT_THAT(judge(observe(one_late), expectations).findings,
              ElementsAre("not every connection was held at once: 1/3 answered their first "
                          "request only after the first re-check was sent (the last 0.510 s "
                          "after it); 1 connected only after it, and at most 2 of 3 were "
                          "connected at the same time: the fleet opened slower than planned; ask "
                          "fewer connections, or declare a longer idle deadline (--idle-timeout) "
                          "for a slower opening"));
  // All connected in time, the third answered late: the server's doing.
  auto slow_answer = held(t0, 900ms, 1610ms);  // its re-check follows its late first answer
  slow_answer.responses[0].complete = 700ms;   // answered at 1.6 s, after the re-checks began
  const auto answered_late = {held(t0, 0ms, 1500ms), held(t0, 100ms, 1500ms), slow_answer};
  EXPECT_THAT(judge(observe(answered_late), expectations).findings,
              ElementsAre(HasSubstr("1/3 answered their first request only after the first "
                                    "re-check was sent (the last 0.100 s after it); all had "
                                    "connected before it: the server answered their first request "
                                    "late")));
}

}  // namespace
}  // namespace loiter::suites
