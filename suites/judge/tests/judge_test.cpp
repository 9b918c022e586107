// judge() on canned observations: each finding's code says what failed, its figures by how
// much (the sentences are text()'s, tested in reports/tests).
#include "loiter/suites/judge/judge.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

#include "canned_connections.hpp"
#include "judge_test_names.hpp"

namespace loiter::suites {
namespace {

using namespace judge_test_names;

Expectations expect_silent(std::size_t count) {
  return {.connections = count,
          .patience = 2s,
          .closure =
              ClosureExpectation{.since = Since::connect,
                                 .deadline = 1s,
                                 .slack = 250ms,
                                 .endings = {ends::closed, ends::with_status(408, Ending::close)}},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = 5s};
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
              ElementsAre(with_class(
                  FindingClass::deadline,
                  AllOf(counted(codes::kStillOpen, 2, 3), figure(2.0, 1.0),
                        Field(&Finding::unit, "s"), Field(&Finding::since, reports::Since::connect),
                        Field(&Finding::subject, ""), Field(&Finding::scenario, "silent")))));
}

TEST(Judge, FlagsEarlyAndLateClosuresOnBothSidesOfTheWindow) {
  const auto verdict = judge(observe({ended(Ending::close, 100ms), ended(Ending::close, 1300ms),
                                      ended(Ending::close, 1s)}),
                             expect_silent(3));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kClosedEarly, 1, 3), figure(0.1, 0.75)),
                          AllOf(counted(codes::kClosedLate, 1, 3), figure(1.3, 1.25),
                                Field(&Finding::deadline, Optional(1.0)),
                                Field(&Finding::slack, Optional(0.25)))));
}

TEST(Judge, AResetIsNotAClose) {
  const auto verdict = judge(observe({ended(Ending::reset, 1s)}), expect_silent(1));
  EXPECT_THAT(verdict.findings,
              ElementsAre(with_class(
                  FindingClass::answer,
                  AllOf(counted(codes::kWrongEnding, 1, 1), Field(&Finding::ending, "reset"),
                        Field(&Finding::expected_endings, ElementsAre("close", "408+close"))))));
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
  EXPECT_THAT(verdict.findings,
              ElementsAre(with_class(FindingClass::resources,
                                     AllOf(has_code(codes::kFdsNotRecovered), figure(39, 19),
                                           Field(&Finding::baseline, Optional(19u)),
                                           Field(&Finding::peak, Optional(39u)),
                                           Field(&Finding::deadline, Optional(5.0))))));
}

// A server whose side was not sampled (check --connect without --pid) has no FDs to judge:
// no finding for them, and the connections alone decide; the check is among those named as
// not made, and a late closure still fails.
TEST(Judge, MakesNoFdFindingForAServerWhoseSideWasNotSampled) {
  auto observation = observe({ended(Ending::close, 1s)});
  observation.server_sampled = false;
  observation.fds = {};
  EXPECT_TRUE(judge(observation, expect_silent(1)).passed);
  EXPECT_THAT(server_side_checks(), Contains(::testing::HasSubstr(codes::kFdsNotRecovered)));
  observation.connections = {ended(Ending::close, 1300ms)};
  EXPECT_THAT(judge(observation, expect_silent(1)).findings,
              ElementsAre(counted(codes::kClosedLate, 1, 1)));
}

TEST(Judge, NamesConnectFailuresAndAServerThatDied) {
  auto failed = ended(Ending::connect_failed, 0s);
  failed.error = "Connection timed out";
  failed.error_number = ETIMEDOUT;
  auto observation = observe({failed});
  observation.server_exit = "killed by signal 11 (Segmentation fault)";
  const auto verdict = judge(observation, expect_silent(1));
  EXPECT_THAT(
      verdict.findings,
      ElementsAre(
          with_class(FindingClass::crash,
                     AllOf(has_code(codes::kServerExited),
                           Field(&Finding::error, "killed by signal 11 (Segmentation fault)"))),
          with_class(FindingClass::capacity,
                     AllOf(counted(codes::kConnectFailed, 1, 1),
                           Field(&Finding::error, "Connection timed out"),
                           Field(&Finding::limit, reports::ConnectLimit::server)))));
}

// A server that died under the scenario (the issue's: after 150 resets) is the server's
// failure, a crash with its signal and when the samples first saw it gone; the connections
// it then refused point at its death, not at a limit.
TEST(Judge, AServerThatDiedUnderTheScenarioIsACrashWithItsSignalAndTime) {
  const auto t0 = clients::Clock::now();
  std::vector<ConnectionRecord> records(200, ended(Ending::reset, 100ms));
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].connect_start = t0 + std::chrono::milliseconds(10 * i);
  }
  auto refused = ended(Ending::connect_failed, 0s);
  refused.error = "Connection refused";
  refused.error_number = ECONNREFUSED;
  refused.connect_start = t0 + 1600ms;
  std::fill(records.begin() + 160, records.end(), refused);
  auto observation = observe(records);
  observation.server_exit = "killed by signal 6 (Aborted)";
  const auto at = [&](Duration after, std::size_t processes, std::size_t fds) {
    fixtures::TimedSample s{.at = t0 + after, .sample = {}};
    s.sample.processes = processes;
    s.sample.fds = fds;
    return s;
  };
  // Settling before the clients, alive, then a dead child not yet reaped, then gone.
  observation.timeline = {at(-200ms, 1, 10), at(1400ms, 1, 160), at(1500ms, 1, 0),
                          at(1600ms, 0, 0)};
  const auto verdict = judge(observation, expect_silent(200));
  EXPECT_FALSE(verdict.passed);
  ASSERT_THAT(
      verdict.findings,
      Contains(with_class(FindingClass::crash, AllOf(has_code(codes::kServerExited),
                                                     Field(&Finding::measured, Optional(1.5))))));
  EXPECT_EQ(reports::text(verdict.findings.front()),
            "the server was killed by signal 6 (SIGABRT, Aborted) 1.5 s into the scenario: it "
            "died under the scenario (its log may say why), and what came after was judged "
            "against a server that was gone");
  EXPECT_THAT(verdict.findings,
              Contains(AllOf(counted(codes::kConnectFailed, 40, 200),
                             Field(&Finding::limit, reports::ConnectLimit::none))));
  // Its FDs after the run (none: it is gone) are not judged as given back or kept.
  EXPECT_THAT(verdict.findings, Not(Contains(has_code(codes::kFdsNotRecovered))));
  reports::Finding status{.code = codes::kServerExited, .error = "exited with status 3"};
  EXPECT_EQ(reports::text(status),
            "the server exited with status 3 during the scenario: it died under the scenario (its "
            "log may say why), and what came after was judged against a server that was gone");
}

// Processes of the server still running after it was stopped are one infrastructure
// finding naming each by PID and command.
TEST(Judge, NamesEveryProcessLeftRunningAfterTheServerWasStopped) {
  auto observation = observe({ended(Ending::close, 1s)});
  observation.leftovers = {{.pid = 4242, .command = "sleep 30"}, {.pid = 4243, .command = "x"}};
  const auto verdict = judge(observation, expect_silent(1));
  EXPECT_FALSE(verdict.passed);
  EXPECT_THAT(verdict.findings,
              Contains(with_class(
                  FindingClass::infrastructure,
                  AllOf(has_code(codes::kLeftoverProcess), Field(&Finding::count, Optional(2u)),
                        Field(&Finding::processes, ElementsAre("4242 sleep 30", "4243 x"))))));
  const auto leftover =
      *std::find_if(verdict.findings.begin(), verdict.findings.end(),
                    [](const auto& f) { return f.code == codes::kLeftoverProcess; });
  EXPECT_THAT(reports::text(leftover), ::testing::HasSubstr("4242 sleep 30"));
}

// Connect failures are grouped by error, each with the limit it points at.
TEST(Judge, GroupsConnectFailuresByTheLimitTheyPointAt) {
  auto no_fd = ended(Ending::connect_failed, 0s);
  no_fd.error = "Too many open files";
  no_fd.error_number = EMFILE;
  auto no_port = no_fd;
  no_port.error = "Cannot assign requested address";
  no_port.error_number = EADDRNOTAVAIL;
  const auto verdict = judge(observe({no_fd, no_port, no_fd}), expect_silent(3));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kConnectFailed, 1, 3),
                                Field(&Finding::error, "Cannot assign requested address"),
                                Field(&Finding::limit, reports::ConnectLimit::client_ports)),
                          AllOf(counted(codes::kConnectFailed, 2, 3),
                                Field(&Finding::error, "Too many open files"),
                                Field(&Finding::limit, reports::ConnectLimit::client_nofile))));
}

// The limit comes from the errno, not from the message's words (which a locale may change).
TEST(Judge, NamesTheLimitOfAConnectFailureByItsErrno) {
  auto refused = ended(Ending::connect_failed, 0s);
  refused.error = "Verbindungsaufbau abgelehnt";
  refused.error_number = ECONNREFUSED;
  auto unknown = refused;
  unknown.error = "Too many open files";  // the words alone name no limit
  unknown.error_number = 0;
  const auto verdict = judge(observe({refused, unknown}), expect_silent(2));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(Field(&Finding::error, "Too many open files"),
                                Field(&Finding::limit, reports::ConnectLimit::none)),
                          AllOf(Field(&Finding::error, "Verbindungsaufbau abgelehnt"),
                                Field(&Finding::limit, reports::ConnectLimit::server))));
}

TEST(Judge, MeasuresTheIdleDeadlineFromTheLastWholeResponse) {
  auto expectations = expect_silent(2);
  expectations.closure->since = Since::last_response;
  expectations.closure->endings = {ends::closed};
  auto in_time = ended(Ending::close, 1300ms);  // 1.0 s after its response at 0.3 s
  in_time.requests = 1;
  in_time.responses = {whole(200, 300ms)};
  auto cut_early = ended(Ending::close, 600ms);  // 0.3 s after its response
  cut_early.requests = 1;
  cut_early.responses = {whole(200, 300ms)};
  const auto verdict = judge(observe({in_time, cut_early}), expectations);
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kClosedEarly, 1, 2), figure(0.3, 0.75),
                                Field(&Finding::since, reports::Since::last_response))));
}

TEST(Judge, AConnectionClosedBeforeItsResponseCannotBeMeasuredFromIt) {
  auto expectations = expect_silent(1);
  expectations.closure->since = Since::last_response;
  const auto verdict = judge(observe({ended(Ending::close, 1s)}), expectations);
  EXPECT_THAT(
      verdict.findings,
      ElementsAre(AllOf(counted(codes::kEndedBeforeOrigin, 1, 1), Field(&Finding::ending, "close"),
                        Field(&Finding::since, reports::Since::last_response))));
}

// The next head's deadline runs from the second request head the client sent; a connection
// that never sent one cannot be measured from it.
TEST(Judge, MeasuresTheNextHeadDeadlineFromTheSecondRequestHeadSent) {
  auto expectations = expect_silent(3);
  expectations.closure->since = Since::second_send;
  expectations.closure->name = "header";
  auto in_time = ended(Ending::close, 1500ms);  // 1.0 s after its second head at 0.5 s
  in_time.sends = {{.at = 0ms, .bytes = 60}, {.at = 500ms, .bytes = 40}};
  auto from_response = ended(Ending::close, 1000ms);  // 0.5 s after it: from the response
  from_response.sends = in_time.sends;
  auto one_send = ended(Ending::close, 600ms);
  one_send.sends = {{.at = 0ms, .bytes = 60}};
  const auto verdict = judge(observe({in_time, from_response, one_send}), expectations);
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kEndedBeforeOrigin, 1, 3),
                                Field(&Finding::since, reports::Since::second_request_head)),
                          AllOf(counted(codes::kClosedEarly, 1, 3), figure(0.5, 0.75),
                                Field(&Finding::since, reports::Since::second_request_head),
                                Field(&Finding::deadline_name, "header"))));
}

TEST(Judge, ACutStreamIsAFindingWithItsEnding) {
  auto complete = ended(Ending::client_close, 3100ms);
  complete.requests = 1;
  complete.responses = {whole(200, 3s)};
  auto cut = ended(Ending::close, 1002ms);
  cut.requests = 1;
  cut.responses = {clients::Response{.status = 200}};  // head arrived, body never finished
  const auto verdict = judge(observe({complete, cut}), expect_completion(1));
  EXPECT_THAT(verdict.findings,
              ElementsAre(with_class(
                  FindingClass::deadline,
                  AllOf(counted(codes::kCutOff, 1, 2), figure(1.002, 1.0),
                        Field(&Finding::ending, "close"), Field(&Finding::responses, Optional(1u)),
                        Field(&Finding::status, Optional(200u))))));
}

TEST(Judge, AnExchangeShorterThanTheDeadlineProvesNothing) {
  auto quick = ended(Ending::client_close, 200ms);
  quick.requests = 1;
  quick.responses = {whole(200, 100ms)};
  auto also_quick = quick;
  const auto verdict = judge(observe({quick, also_quick}), expect_completion(1));
  EXPECT_THAT(verdict.findings,
              ElementsAre(with_class(FindingClass::infrastructure,
                                     AllOf(has_code(codes::kProvesNothing), figure(0.1, 1.0)))));
}

TEST(Judge, KeepaliveReuseNeedsBothResponses) {
  auto reused = ended(Ending::client_close, 1600ms);
  reused.requests = 2;
  reused.responses = {whole(200, 10ms), whole(200, 1510ms)};
  auto refused = ended(Ending::close, 1000ms);
  refused.requests = 2;
  refused.responses = {whole(200, 10ms)};
  const auto verdict = judge(observe({reused, refused}), expect_completion(2));
  EXPECT_THAT(verdict.findings,
              ElementsAre(AllOf(counted(codes::kCutOff, 1, 2), Field(&Finding::ending, "close"),
                                Field(&Finding::responses, Optional(2u)))));
}

// Failures with a server process at its RLIMIT_NOFILE: the finding names the limit.
TEST(Judge, NamesTheServersFdLimitWhenItWasReached) {
  auto observation = observe({ended(Ending::open, 2s)});
  observation.fds.server_limit = 1024;
  observation.fds.peak_in_one_process = 1020;
  EXPECT_THAT(judge(observation, expect_silent(1)).findings,
              Contains(with_class(FindingClass::capacity,
                                  AllOf(has_code(codes::kServerFdLimit), figure(1020, 1024)))));
  observation.fds.peak_in_one_process = 500;
  EXPECT_THAT(judge(observation, expect_silent(1)).findings,
              Not(Contains(has_code(codes::kServerFdLimit))));
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
              ElementsAre(with_class(
                  FindingClass::resources,
                  AllOf(has_code(codes::kCloseWait), Field(&Finding::count, Optional(3u))))));
  observation.timeline.back().sample.tcp->server.by_state = {};
  EXPECT_THAT(judge(observation, expectations).findings, IsEmpty());
}

}  // namespace
}  // namespace loiter::suites
