// The catalogue over TLS: which deadline judges a stalled handshake or head and where it runs
// from (kit::stall_deadline), and why a scenario is skipped when the target declares none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalogue_lookup.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {
namespace {

using testing::closure_of;
using testing::scenario;
using testing::words;
using namespace std::chrono_literals;
using fixtures::HeaderFrom;
using fixtures::Target;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;

Target cleartext() {
  Target target;
  target.name = "plain";
  target.deadlines.header = 2s;
  target.deadlines.idle = 3s;
  target.promises.on_header_timeout = fixtures::OnTimeout::close;
  return target;
}

Target over_tls(std::optional<Duration> handshake, HeaderFrom header_from) {
  auto target = cleartext();
  target.tls = fixtures::Tls{.handshake = handshake, .header_from = header_from};
  return target;
}

const std::vector<std::string_view> kTls = {"tls-record-header", "tls-half-hello",
                                            "tls-hello-trickle", "tls-handshake-silent"};
const std::vector<std::string_view> kHandshakeStalls = {"tls-record-header", "tls-half-hello",
                                                        "tls-hello-trickle"};

// The tls family is in the catalogue, and skipped on a cleartext target, saying why.
TEST(TlsScenarios, AreSkippedOnACleartextTarget) {
  for (const auto id : kTls) {
    EXPECT_EQ(scenario(id).family, "tls");
    EXPECT_THAT(scenario(id).unmet_need(cleartext()), Optional(HasSubstr("[tls]"))) << id;
  }
}

// A stalled handshake with no handshake deadline, and a header deadline that starts only once
// the handshake is done, has nothing to be judged by; the completed handshake still has.
TEST(TlsScenarios, SkipHandshakeStallsWhenNoDeclaredDeadlineStartsAtConnect) {
  const auto target = over_tls(std::nullopt, HeaderFrom::handshake);
  for (const auto id : kHandshakeStalls) {
    EXPECT_THAT(scenario(id).unmet_need(target), Optional(HasSubstr("header_from"))) << id;
  }
  EXPECT_THAT(scenario("silent").unmet_need(target), Optional(HasSubstr("header_from")));
  EXPECT_EQ(scenario("tls-handshake-silent").unmet_need(target), std::nullopt);
  EXPECT_EQ(scenario("partial-header").unmet_need(target), std::nullopt);
}

// Without a header deadline or a handshake deadline, every TLS scenario is skipped.
TEST(TlsScenarios, SkipWhenTheTargetDeclaresNoDeadlineAtAll) {
  auto target = over_tls(std::nullopt, HeaderFrom::connect);
  target.deadlines.header.reset();
  for (const auto id : kTls) {
    EXPECT_THAT(scenario(id).unmet_need(target), Optional(HasSubstr("deadline"))) << id;
  }
}

// A declared handshake deadline judges every stalled handshake (silent too: it sends no
// hello), from connect, with a close or an alert and never a 408.
TEST(TlsDeadlines, AStalledHandshakeIsJudgedByTheHandshakeDeadlineWhenDeclared) {
  const auto target = over_tls(1500ms, HeaderFrom::handshake);
  for (const auto id : {"tls-record-header", "tls-half-hello", "tls-hello-trickle", "silent"}) {
    EXPECT_EQ(scenario(id).unmet_need(target), std::nullopt) << id;
    const auto closure = closure_of(id, target);
    EXPECT_EQ(closure.since, Since::connect) << id;
    EXPECT_EQ(closure.deadline, 1500ms) << id;
    EXPECT_EQ(closure.name, "handshake") << id;
    EXPECT_THAT(words(closure.endings), ::testing::IsSupersetOf({"close", "alert"})) << id;
    EXPECT_THAT(words(closure.endings), ::testing::Not(::testing::Contains("408+close"))) << id;
  }
  EXPECT_EQ(closure_of("tls-hello-trickle", target).progress, "hello byte");
  EXPECT_THAT(words(closure_of("tls-record-header", target).endings),
              ElementsAre("close", "alert"));
}

// Where the header deadline runs from connect, it covers the handshake too.
TEST(TlsDeadlines, WithoutAHandshakeDeadlineTheHeaderDeadlineFromConnectJudgesTheHandshake) {
  const auto target = over_tls(std::nullopt, HeaderFrom::connect);
  for (const auto id : {"tls-record-header", "tls-half-hello", "tls-hello-trickle", "silent",
                        "tls-handshake-silent", "partial-header", "header-trickle"}) {
    const auto closure = closure_of(id, target);
    EXPECT_EQ(closure.since, Since::connect) << id;
    EXPECT_EQ(closure.deadline, 2s) << id;
    EXPECT_EQ(closure.name, "header") << id;
  }
}

// Where the header deadline runs from the handshake's end, heads are judged from there.
TEST(TlsDeadlines, HeadsAreJudgedFromTheHandshakeWhenTheHeaderDeadlineStartsThere) {
  const auto target = over_tls(1s, HeaderFrom::handshake);
  for (const auto id :
       {"tls-handshake-silent", "partial-header", "header-trickle", "header-lines"}) {
    const auto closure = closure_of(id, target);
    EXPECT_EQ(closure.since, Since::handshake) << id;
    EXPECT_EQ(closure.deadline, 2s) << id;
  }
  EXPECT_THAT(words(closure_of("tls-handshake-silent", target).endings),
              ElementsAre("close", "408+close"));
}

// On a cleartext target nothing changes: the header deadline from connect, unnamed.
TEST(TlsDeadlines, CleartextHeadsKeepTheHeaderDeadlineFromConnect) {
  for (const auto id : {"silent", "partial-header", "header-trickle", "header-lines"}) {
    const auto closure = closure_of(id, cleartext());
    EXPECT_EQ(closure.since, Since::connect) << id;
    EXPECT_EQ(closure.deadline, 2s) << id;
    EXPECT_EQ(closure.name, "") << id;
  }
  EXPECT_THAT(words(closure_of("silent", cleartext()).endings), ElementsAre("close", "408+close"));
}

// idle-under-load's silent third is a handshake stall over TLS, its stalled heads not.
TEST(TlsDeadlines, IdleUnderLoadJudgesItsSilentAndStalledThirdsAsTheirStalls) {
  const auto target = over_tls(1s, HeaderFrom::handshake);
  const auto expected = scenario("idle-under-load").expect(target, timing(1.0), {.count = 9});
  ASSERT_EQ(expected.kind_closures.size(), 3u);
  EXPECT_EQ(expected.kind_closures[0].since, Since::connect);
  EXPECT_EQ(expected.kind_closures[0].deadline, 1s);
  EXPECT_EQ(expected.kind_closures[1].since, Since::handshake);
  EXPECT_EQ(expected.kind_closures[1].deadline, 2s);
  EXPECT_EQ(expected.kind_closures[2].since, Since::last_response);
}

}  // namespace
}  // namespace loiter::suites
