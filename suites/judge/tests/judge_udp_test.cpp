// The server's UDP socket beside an HTTP/3 verdict: what it dropped during the scenario,
// from the sampled timeline (udp_figures), and the findings about connections that ended
// gone, which name those drops (and the machine's RcvbufErrors) where they rose, and only
// then.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "judge_test_names.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/judge/udp_figures.hpp"

namespace loiter::suites {
namespace judge_udp_test {  // named: unity batches put other tests' helpers beside these

using namespace judge_test_names;
using fixtures::UdpCounts;

// A sample whose UDP view found `sockets` of the server's on port 8443.
fixtures::TimedSample udp_sample(std::size_t sockets, std::uint64_t rx_queue,
                                 std::uint64_t drops, std::uint64_t rcvbuf_errors) {
  fixtures::TimedSample taken;
  taken.sample.processes = 1;
  taken.sample.udp = UdpCounts{.port = 8443,
                               .sockets = sockets,
                               .rx_queue = rx_queue,
                               .drops = drops,
                               .rcvbuf_errors = rcvbuf_errors,
                               .in_errors = rcvbuf_errors + 1};
  return taken;
}

TEST(UdpFigures, ThePeakQueueAndWhatRoseFromTheFirstSampleToTheLast) {
  const auto figures =
      udp_figures({udp_sample(1, 0, 100, 2000), udp_sample(1, 212992, 100, 2000),
                   udp_sample(1, 4608, 107, 2009)});
  ASSERT_TRUE(figures);
  EXPECT_EQ(figures->port, 8443);
  EXPECT_EQ(figures->sockets, 1u);
  EXPECT_EQ(figures->peak_rx_queue, 212992u);
  EXPECT_EQ(figures->drops, 7u);  // 107 - 100: not what the socket dropped before
  EXPECT_EQ(figures->rcvbuf_errors, 9u);
  EXPECT_EQ(figures->in_errors, 9u);
}

TEST(UdpFigures, NoneWithoutAUdpViewAndNoRiseFromASocketGone) {
  EXPECT_FALSE(udp_figures({fixtures::TimedSample{}}));
  EXPECT_FALSE(udp_figures({}));
  // The socket's drops only over the samples that found it; a sum that fell is no rise.
  const auto gone = udp_figures(
      {udp_sample(0, 0, 0, 10), udp_sample(2, 0, 40, 10), udp_sample(1, 0, 30, 10)});
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->sockets, 2u);
  EXPECT_EQ(gone->drops, 0u);
  EXPECT_EQ(gone->rcvbuf_errors, 0u);
}

// An h3-idle connection quiet from 50 ms whose probe at 1.675 s (before the 2 s deadline's
// window) had no answer: ended gone, a probe-unanswered finding.
ConnectionRecord gone_early() {
  ConnectionRecord record;
  record.kind = "h3-idle";
  record.h3 = clients::H3Record{.handshake_done = 20ms, .idle_advertised = 2s, .last_sent = 50ms};
  record.h3->probes.push_back({.at = 1675ms, .answered = std::nullopt});
  record.ending = Ending::gone;
  record.ended_at = 1675ms;
  return record;
}

Verdict judged(std::vector<ConnectionRecord> records,
               std::vector<fixtures::TimedSample> timeline) {
  Observation o{.scenario = "h3-idle", .connections = std::move(records)};
  o.timeline = std::move(timeline);
  o.fds.recovered = true;
  const Expectations e{.connections = o.connections.size(),
                       .patience = 5s,
                       .h3 = H3Expectation{.deadline = 2s,
                                           .since = Since::quiet,
                                           .slack = 250ms,
                                           .name = "idle"},
                       .fds_after = 0,
                       .recovery = 5s};
  return judge(o, e);
}

const reports::Finding& only(const Verdict& v, const char* code) {
  const auto found = std::ranges::find(v.findings, std::string(code), &reports::Finding::code);
  EXPECT_NE(found, v.findings.end()) << code;
  return *found;
}

TEST(JudgeUdp, ConnectionsGoneWhileTheServersSocketDroppedSaySo) {
  const auto v = judged({gone_early()}, {udp_sample(1, 0, 100, 50), udp_sample(1, 0, 107, 57)});
  const auto& f = only(v, codes::kProbeUnanswered);
  EXPECT_EQ(f.udp_drops, 7u);
  EXPECT_EQ(f.udp_rcvbuf_errors, 7u);
  EXPECT_THAT(reports::text(f),
              HasSubstr("; the server's UDP socket dropped 7 datagrams meanwhile (receive queue "
                        "full; the machine's UDP RcvbufErrors rose by 7): these endings may be "
                        "the socket's, not the server's deadline"));
}

TEST(JudgeUdp, ConnectionsGoneWithoutADropSayNothingOfTheSocket) {
  const auto v = judged({gone_early()}, {udp_sample(1, 0, 100, 50), udp_sample(1, 9000, 100, 50)});
  const auto& f = only(v, codes::kProbeUnanswered);
  EXPECT_EQ(f.udp_drops, std::nullopt);
  EXPECT_EQ(f.udp_rcvbuf_errors, std::nullopt);
  EXPECT_THAT(reports::text(f), Not(HasSubstr("UDP")));
  // No UDP view at all (not sampled): the same.
  EXPECT_EQ(only(judged({gone_early()}, {}), codes::kProbeUnanswered).udp_drops, std::nullopt);
}

// The machine's RcvbufErrors rose but not the server's socket's drops: another socket's
// queue, or the server's between two samples it was not found in; said as the machine's.
TEST(JudgeUdp, OnlyTheMachinesRcvbufErrorsRisingIsSaidAsTheMachines) {
  const auto v = judged({gone_early()}, {udp_sample(1, 0, 100, 50), udp_sample(1, 0, 100, 53)});
  const auto& f = only(v, codes::kProbeUnanswered);
  EXPECT_EQ(f.udp_drops, 0u);
  EXPECT_EQ(f.udp_rcvbuf_errors, 3u);
  EXPECT_THAT(reports::text(f),
              AllOf(HasSubstr("the machine's UDP RcvbufErrors rose by 3 meanwhile"),
                    HasSubstr("these endings may be the socket's"),
                    Not(HasSubstr("the server's UDP socket dropped"))));
}

// A finding about connections the server still answered is not about a dropped datagram.
TEST(JudgeUdp, AFindingAboutConnectionsStillAnsweredIsLeftAsItIs) {
  auto late = gone_early();
  late.h3->probes.front() = {.at = 2300ms, .answered = 2301ms};
  late.ending = Ending::client_close;
  const auto v = judged({late}, {udp_sample(1, 0, 100, 50), udp_sample(1, 0, 107, 57)});
  const auto& f = only(v, codes::kProbeAnswered);
  EXPECT_EQ(f.udp_drops, std::nullopt);
  EXPECT_THAT(reports::text(f), Not(HasSubstr("UDP")));
}

}  // namespace judge_udp_test
}  // namespace loiter::suites
