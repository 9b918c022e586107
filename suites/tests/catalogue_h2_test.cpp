// The catalogue over HTTP/2 (and idle-under-load over HTTP/3): which protocol's scenarios a
// target runs, why an h2 scenario is skipped, and the expectations each derives from what
// the target declares (the preface or the header deadline, goaway_on_idle, the
// no-settings-ack window, the stream deadlines).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "catalogue_lookup.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/catalogue/target_clients.hpp"

namespace loiter::suites {
namespace {

using testing::closure_of;
using testing::expect;
using testing::scenario;
using testing::words;
using namespace std::chrono_literals;
using fixtures::Target;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Optional;
using ::testing::UnorderedElementsAre;

const std::vector<std::string_view> kH2 = {
    "h2-partial-preface", "h2-no-settings-ack", "h2-idle",           "h2-headers-no-end",
    "h2-data-trickle",    "h2-zero-window",     "h2-window-trickle", "h2-stream-reuse"};

// What nginx over h2c declares, with a body deadline over the whole body and {bytes}.
Target h2c() {
  Target target;
  target.name = "h2c";
  target.h2 = fixtures::H2{};
  target.paths.echo = "/echo";
  target.paths.large = "/large?bytes={bytes}";
  target.deadlines.header = 2s;
  target.deadlines.body = 2s;
  target.deadlines.idle = 3s;
  target.promises.on_header_timeout = fixtures::OnTimeout::close;
  target.promises.on_body_timeout = fixtures::OnTimeout::close;
  target.promises.send_timeout = 2s;
  target.promises.send_timeout_resets_on_progress = true;
  return target;
}

Target http1() {
  auto target = h2c();
  target.h2.reset();
  return target;
}

// The h2 family is in the catalogue, runs on an h2c target, and is skipped on an HTTP/1.1
// one, saying why.
TEST(H2Scenarios, RunOnlyOnATargetThatSpeaksHttp2) {
  for (const auto id : kH2) {
    EXPECT_EQ(scenario(id).family, "h2") << id;
    EXPECT_EQ(scenario(id).unmet_need(h2c()), std::nullopt) << id;
    EXPECT_THAT(scenario(id).unmet_need(http1()), Optional(HasSubstr("[h2]"))) << id;
  }
}

// The must-not-cut exchanges with an h2 form: streams beside others on an [h2] target.
const std::vector<std::string_view> kNotCutEither = {"slow-reader", "long-response", "stream"};
// Every scenario with an h2 form: those, the load (h2 waiting connections beside h2 streams)
// and held-capacity (a second stream as the re-check).
const std::vector<std::string_view> kEither = {"slow-reader",     "long-response", "stream",
                                               "idle-under-load", "soak",          "held-capacity"};

// Every other family is HTTP/1.1: skipped on an [h2] target, in cleartext or over TLS (but
// the scenarios that have an h2 form).
TEST(H2Scenarios, Http1FamiliesAreSkippedOnAnH2Target) {
  auto over_tls = h2c();
  over_tls.tls = fixtures::Tls{.alpn = {"h2"}};
  for (const auto& s : catalogue()) {
    if (s.family == "h2" || s.family == "flood" || s.family == "h3") continue;
    if (std::ranges::find(kEither, s.id) != kEither.end()) continue;
    EXPECT_THAT(s.unmet_need(h2c()), Optional(HasSubstr("speaks HTTP/2 (h2c)"))) << s.id;
    EXPECT_THAT(s.unmet_need(over_tls), Optional(HasSubstr("h2 over TLS"))) << s.id;
  }
  EXPECT_EQ(scenario("silent").unmet_need(http1()), std::nullopt);
}

// stream, long-response and slow-reader run on an h2 target as on an HTTP/1.1 one, skipped
// only for their own needs: over HTTP/2 the health path (the streams beside the long one),
// and for slow-reader a window that can be paced (h2-window-trickle's needs).
TEST(H2Scenarios, NotCutExchangesRunOverHttp2AsStreamsBesideOthers) {
  auto target = h2c();
  target.paths.health = "/health";
  target.paths.stream = "/stream";
  target.paths.long_response = "/long";
  auto plain = target;
  plain.h2.reset();
  for (const auto id : kNotCutEither) {
    EXPECT_EQ(scenario(id).family, "not-cut") << id;
    EXPECT_EQ(scenario(id).unmet_need(target), std::nullopt) << id;
    EXPECT_EQ(scenario(id).unmet_need(plain), std::nullopt) << id;
  }
  auto no_health = target;
  no_health.paths.health.reset();
  for (const auto id : kEither) {
    EXPECT_THAT(scenario(id).unmet_need(no_health), Optional(HasSubstr("health"))) << id;
  }
  auto fixed_size = target;
  fixed_size.paths.large = "/large";
  EXPECT_THAT(scenario("slow-reader").unmet_need(fixed_size), Optional(HasSubstr("{bytes}")));
  // Over h2 the slow reader is h2-window-trickle's plan: it must outlive the longest deadline.
  const auto expected = expect("slow-reader", target);
  ASSERT_TRUE(expected.completion.has_value());
  EXPECT_EQ(expected.completion->outlives, 3s);
  EXPECT_EQ(expect("stream", target).completion->outlives,
            expect("stream", plain).completion->outlives);
}

// Each h2 scenario is skipped for its own need, named.
TEST(H2Scenarios, AreSkippedForTheirOwnNeeds) {
  auto target = h2c();
  target.deadlines.idle.reset();
  EXPECT_THAT(scenario("h2-idle").unmet_need(target), Optional(HasSubstr("idle")));
  EXPECT_THAT(scenario("h2-stream-reuse").unmet_need(target), Optional(HasSubstr("idle")));
  target = h2c();
  target.deadlines.body_resets_on_progress = true;
  EXPECT_THAT(scenario("h2-data-trickle").unmet_need(target), Optional(HasSubstr("between reads")));
  target.paths.echo.reset();
  EXPECT_THAT(scenario("h2-data-trickle").unmet_need(target), Optional(HasSubstr("echo")));
  target = h2c();
  target.promises.send_timeout.reset();
  EXPECT_THAT(scenario("h2-zero-window").unmet_need(target), Optional(HasSubstr("send")));
  EXPECT_THAT(scenario("h2-window-trickle").unmet_need(target), Optional(HasSubstr("send")));
  target = h2c();
  target.paths.large = "/large";  // a static file: its size unknown
  EXPECT_EQ(scenario("h2-zero-window").unmet_need(target), std::nullopt);
  EXPECT_THAT(scenario("h2-window-trickle").unmet_need(target), Optional(HasSubstr("{bytes}")));
  target = h2c();
  target.promises.send_timeout_resets_on_progress = false;
  EXPECT_THAT(scenario("h2-window-trickle").unmet_need(target),
              Optional(HasSubstr("whole response")));
  target = h2c();
  target.deadlines.header.reset();
  EXPECT_THAT(scenario("h2-partial-preface").unmet_need(target), Optional(HasSubstr("preface")));
  EXPECT_THAT(scenario("h2-headers-no-end").unmet_need(target), Optional(HasSubstr("header")));
  target.deadlines.idle.reset();
  EXPECT_THAT(scenario("h2-no-settings-ack").unmet_need(target),
              Optional(HasSubstr("neither a header nor an idle")));
}

// A declared preface deadline judges the cut preface; without one, the header deadline.
TEST(H2Deadlines, APartialPrefaceIsJudgedByThePrefaceDeadlineElseTheHeaderOne) {
  auto target = h2c();
  auto closure = closure_of("h2-partial-preface", target);
  EXPECT_EQ(closure.since, Since::connect);
  EXPECT_EQ(closure.deadline, 2s);
  EXPECT_EQ(closure.name, "header");
  EXPECT_THAT(words(closure.endings), UnorderedElementsAre("close", "goaway+close", "reset"));
  target.h2->preface = 500ms;
  target.deadlines.header.reset();
  EXPECT_EQ(scenario("h2-partial-preface").unmet_need(target), std::nullopt);
  closure = closure_of("h2-partial-preface", target);
  EXPECT_EQ(closure.deadline, 500ms);
  EXPECT_EQ(closure.name, "preface");
}

// Unacknowledged SETTINGS: not closed before the earlier of the header and idle deadlines,
// closed by the later one; one of them alone is the deadline.
TEST(H2Deadlines, NoSettingsAckSpansTheHeaderAndIdleDeadlines) {
  auto target = h2c();
  target.deadlines.idle = 5s;
  const auto t = timing(1.0);
  const auto expected = expect("h2-no-settings-ack", target);
  const auto& closure = *expected.closure;
  EXPECT_EQ(closure.since, Since::connect);
  EXPECT_EQ(closure.deadline - closure.slack, 2s - t.slack);
  EXPECT_EQ(closure.deadline + closure.slack, 5s + t.slack);
  EXPECT_EQ(closure.name, "header-or-idle");
  EXPECT_GE(expected.patience, 5s + 2 * t.slack);
  target.deadlines.idle.reset();
  const auto alone = closure_of("h2-no-settings-ack", target);
  EXPECT_EQ(alone.deadline, 2s);
  EXPECT_EQ(alone.slack, t.slack);
}

// An idle connection gets GOAWAY before its close, unless the target says it sends none;
// its one response must come whole first.
TEST(H2Deadlines, IdleEndingsFollowGoawayOnIdle) {
  auto target = h2c();
  for (const auto id : {"h2-idle", "h2-stream-reuse"}) {
    const auto expected = expect(id, target);
    EXPECT_EQ(expected.closure->since, Since::last_response) << id;
    EXPECT_EQ(expected.closure->deadline, 3s) << id;
    EXPECT_THAT(words(expected.closure->endings), ElementsAre("goaway+close")) << id;
    ASSERT_TRUE(expected.completion.has_value()) << id;
    EXPECT_EQ(expected.completion->status, 200u) << id;
  }
  EXPECT_EQ(expect("h2-idle", target).completion->responses, 1u);
  EXPECT_EQ(expect("h2-stream-reuse", target).completion->responses, 2u);
  target.h2->goaway_on_idle = false;
  EXPECT_THAT(words(closure_of("h2-idle", target).endings),
              UnorderedElementsAre("goaway+close", "close"));
}

// A header block never ended: the header deadline from connect, over the stream: its
// RST_STREAM, or GOAWAY or not and close or reset.
TEST(H2Deadlines, HeadersWithoutEndAreJudgedByTheHeaderDeadline) {
  const auto closure = closure_of("h2-headers-no-end", h2c());
  EXPECT_EQ(closure.since, Since::connect);
  EXPECT_EQ(closure.deadline, 2s);
  EXPECT_TRUE(closure.stream);
  EXPECT_THAT(words(closure.endings),
              ::testing::IsSupersetOf({"rst-stream", "goaway+close", "close", "reset"}));
}

// The stream deadlines end the stream: a trickled body at the body deadline from the request
// (DATA bytes are its progress), a shut window at the send deadline from the request.
TEST(H2Deadlines, StreamStallsAreJudgedFromTheRequestOverTheStream) {
  auto target = h2c();
  auto trickle = closure_of("h2-data-trickle", target);
  EXPECT_TRUE(trickle.stream);
  EXPECT_EQ(trickle.since, Since::first_send);
  EXPECT_EQ(trickle.deadline, 2s);
  EXPECT_EQ(trickle.progress, "data byte");
  EXPECT_THAT(words(trickle.endings), Contains("rst-stream"));
  target.promises.on_body_timeout = fixtures::OnTimeout::respond_408;
  EXPECT_THAT(words(closure_of("h2-data-trickle", target).endings), ElementsAre("408", "reset"));
  const auto shut = closure_of("h2-zero-window", target);
  EXPECT_TRUE(shut.stream);
  EXPECT_EQ(shut.since, Since::first_send);
  EXPECT_EQ(shut.deadline, 2s);
  EXPECT_EQ(shut.name, "send");
  EXPECT_THAT(words(shut.endings),
              ::testing::IsSupersetOf({"rst-stream", "goaway+close", "close"}));
  EXPECT_THAT(words(shut.endings), Not(Contains("408")));
}

// The window opened a little at a time must outlive the send deadline and the request-wait
// ones, and the client waits long enough for it to finish.
TEST(H2Deadlines, AWindowTrickleMustCompleteOutlivingTheSendAndRequestWaitDeadlines) {
  auto target = h2c();
  target.deadlines.idle = 4s;
  const auto expected = expect("h2-window-trickle", target);
  EXPECT_FALSE(expected.closure.has_value());
  ASSERT_TRUE(expected.completion.has_value());
  EXPECT_EQ(expected.completion->responses, 1u);
  EXPECT_EQ(expected.completion->status, 200u);
  EXPECT_EQ(expected.completion->outlives, 4s);
  EXPECT_GT(expected.patience, 6s);  // half as long again as what it outlives, and a margin
}

// idle-under-load on an [h2] target: its waiting thirds are the h2 stalls, each judged as
// its h2-family twin (the preface from connect, the header block's stream, the idle
// connection's GOAWAY from its answer), beside regular traffic with its p99 bound; without
// an idle deadline it is skipped, saying so.
TEST(H2Scenarios, IdleUnderLoadWaitsWithTheH2StallsOnAnH2Target) {
  auto target = h2c();
  target.paths.health = "/health";
  target.promises.load_p99 = 200ms;
  const auto expected = expect("idle-under-load", target);
  std::vector<std::string> kinds;
  for (const auto& c : expected.kind_closures) kinds.push_back(c.kind);
  EXPECT_THAT(kinds, ElementsAre("h2-partial-preface", "h2-headers-no-end", "h2-idle"));
  EXPECT_EQ(expected.kind_closures[0].deadline, 2s);
  EXPECT_TRUE(expected.kind_closures[1].stream);
  EXPECT_EQ(expected.kind_closures[2].since, Since::last_response);
  EXPECT_EQ(expected.kind_closures[2].deadline, 3s);
  ASSERT_TRUE(expected.load.has_value());
  EXPECT_EQ(expected.load->p99, 200ms);
  target.deadlines.idle.reset();
  EXPECT_THAT(scenario("idle-under-load").unmet_need(target), Optional(HasSubstr("idle")));
}

// idle-under-load on an [h3] target: its waiting thirds are the h3 stalls, the cut Initials
// and the idle connections judged by probes against their own deadlines, the stalled HEADERS
// by its stream's end; its regular traffic goes over HTTP/3 to the [h3] port; without a
// handshake deadline it is skipped, saying so.
TEST(H2Scenarios, IdleUnderLoadWaitsWithTheH3StallsOnAnH3Target) {
  Target target;
  target.name = "h3";
  target.h3 = fixtures::H3{.port = 8443,
                           .handshake = 3s,
                           .idle_advertised = 4s,
                           .idle = 4s,
                           .header = 2s};
  target.paths.health = "/health";
  target.promises.load_p99 = 200ms;
  EXPECT_EQ(scenario("idle-under-load").unmet_need(target), std::nullopt);
  EXPECT_EQ(protocol_unmet("idle-under-load", target), std::nullopt);
  const auto expected = expect("idle-under-load", target);
  ASSERT_EQ(expected.kind_closures.size(), 1u);
  EXPECT_EQ(expected.kind_closures[0].kind, "h3-headers-stall");
  EXPECT_TRUE(expected.kind_closures[0].stream);
  EXPECT_EQ(expected.kind_closures[0].deadline, 2s);
  ASSERT_EQ(expected.kind_h3.size(), 2u);
  EXPECT_EQ(expected.kind_h3[0].kind, "h3-initial-stall");
  EXPECT_EQ(expected.kind_h3[0].deadline, 3s);
  EXPECT_EQ(expected.kind_h3[1].kind, "h3-idle");
  EXPECT_EQ(expected.kind_h3[1].since, Since::quiet);
  EXPECT_EQ(expected.kind_h3[1].idle_advertised, 4s);
  ASSERT_TRUE(expected.load.has_value());
  EXPECT_EQ(expected.load->p99, 200ms);
  EXPECT_GT(expected.patience, 4s);  // the longest of the three deadlines, and the probes'
  clients::LoadOptions regular{.server = clients::tcp::endpoint({}, 80)};
  speak_to(target, regular);
  EXPECT_EQ(regular.protocol, clients::LoadProtocol::h3);
  EXPECT_EQ(regular.server.port(), 8443);
  target.h3->handshake.reset();
  EXPECT_THAT(scenario("idle-under-load").unmet_need(target), Optional(HasSubstr("handshake")));
}

}  // namespace
}  // namespace loiter::suites
