// The flood family over HTTP/3: each h3 flood runs only on an [h3] target that declares
// [h3.flood] with its kind; what the judge holds each kind to (must it end, may refused
// streams end it, the close codes its RFC names); the patience and the bound the control
// client is judged by; and the refusal (exit 2) of an h3 flood asked for on an [h3] target
// without the declaration.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalogue_lookup.hpp"
#include "loiter/clients/h3/floods.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {
namespace catalogue_flood_h3_test {  // named: unity batches put other tests' helpers beside these

using namespace std::chrono_literals;
using fixtures::Target;
using ::testing::ElementsAre;
using testing::expect;
using ::testing::HasSubstr;
using ::testing::Optional;
using testing::scenario;

// Each h3 flood, as its scenario id and the kind [h3.flood] lists.
const std::vector<std::pair<std::string_view, std::string_view>> kFloods = {
    {"h3-rapid-reset", "rapid-reset"},       {"h3-connection-id", "connection-id"},
    {"h3-path-challenge", "path-challenge"}, {"h3-qpack-bomb", "qpack-bomb"},
    {"h3-qpack-blocked", "qpack-blocked"},   {"h3-encoder-stream", "encoder-stream"},
    {"h3-out-of-order", "out-of-order"},     {"h3-ping-flood", "ping"}};

// An [h3] target promising every h3 flood within 500 frames, RSS 256 MiB, p99 150 ms.
Target h3_flood() {
  Target target;
  target.name = "h3";
  target.source = "h3.toml";
  target.h3 = fixtures::H3{};
  target.h3->flood =
      fixtures::H3Flood{.frames = 500,
                        .rss = std::uint64_t{256} << 20,
                        .p99 = 150ms,
                        .kinds = {fixtures::kH3FloodKinds.begin(), fixtures::kH3FloodKinds.end()}};
  target.promises.load_p99 = 900ms;
  return target;
}

// Family flood, never by default; skipped without [h3], without [h3.flood], or where its
// kinds leave the flood out, naming the table; an [h2] target's flood table is not theirs.
TEST(H3FloodScenarios, RunOnlyWhereTheTargetDeclaresTheirKind) {
  for (const auto& [id, name] : kFloods) {
    const auto& s = scenario(id);
    EXPECT_EQ(s.family, "flood") << id;
    EXPECT_FALSE(runs_by_default(id)) << id;
    EXPECT_EQ(s.unmet_need(h3_flood()), std::nullopt) << id;
    Target h2;
    h2.h2 = fixtures::H2{.flood = fixtures::H2Flood{.kinds = {"ping"}}};
    EXPECT_THAT(s.unmet_need(h2), Optional(HasSubstr("does not speak HTTP/3"))) << id;
    auto bare = h3_flood();
    bare.h3->flood.reset();
    EXPECT_THAT(s.unmet_need(bare), Optional(HasSubstr("no [h3.flood] in its target file"))) << id;
    auto other = h3_flood();
    other.h3->flood->kinds = {name == "ping" ? "rapid-reset" : "ping"};
    EXPECT_THAT(s.unmet_need(other),
                Optional(HasSubstr(fmt::format("[h3.flood] kinds leave out \"{}\"", name))))
        << id;
    auto no_health = h3_flood();
    no_health.paths.health.reset();
    EXPECT_THAT(s.unmet_need(no_health), Optional(HasSubstr("health"))) << id;
  }
}

// The expectation: the floods and the control client, the declared frames, the [h3.flood]
// p99 (else load_p99), RSS, and the h3-control client; the patience covers the control's
// lead, the flood and the grace after it.
TEST(H3FloodScenarios, ExpectTheDeclaredBoundBesideTheControlClient) {
  auto target = h3_flood();
  const auto e = expect("h3-rapid-reset", target);
  EXPECT_EQ(e.connections, 11u);
  ASSERT_TRUE(e.flood.has_value());
  EXPECT_EQ(e.flood->kind, "h3-rapid-reset");
  EXPECT_EQ(e.flood->control_kind, "h3-control");
  EXPECT_EQ(e.flood->frames, 500u);
  EXPECT_EQ(e.flood->p99, 150ms);
  EXPECT_EQ(e.flood->rss, std::uint64_t{256} << 20);
  EXPECT_GE(e.patience, 300ms + 2s + 1500ms);
  EXPECT_EQ(e.fds_after, 0u);
  target.h3->flood->p99.reset();
  EXPECT_EQ(expect("h3-rapid-reset", target).flood->p99, 900ms);
}

// Must-end kinds and bounded ones, and the close codes each kind's RFC names.
TEST(H3FloodScenarios, EachKindHasItsRulesAndCloseCodes) {
  const auto target = h3_flood();
  const auto rules = [&](std::string_view id) { return *expect(id, target).flood; };
  const QuicCode excessive{.code = 0x107, .application = true};
  const QuicCode rejected{.code = 0x10b, .application = true};
  const QuicCode no_error{.code = 0x100, .application = true};
  for (const auto id :
       {"h3-rapid-reset", "h3-connection-id", "h3-qpack-bomb", "h3-qpack-blocked"}) {
    EXPECT_TRUE(rules(id).must_end) << id;
  }
  for (const auto id :
       {"h3-path-challenge", "h3-encoder-stream", "h3-out-of-order", "h3-ping-flood"}) {
    EXPECT_FALSE(rules(id).must_end) << id;
  }
  for (const auto& [id, name] : kFloods) {  // the one list: the survey reads it too
    EXPECT_EQ(rules(id).must_end, clients::h3_flood_must_end(id)) << id;
  }
  EXPECT_TRUE(rules("h3-qpack-bomb").refusals_end);
  EXPECT_FALSE(rules("h3-rapid-reset").refusals_end);
  EXPECT_THAT(rules("h3-rapid-reset").close_codes, ElementsAre(excessive, rejected, no_error));
  EXPECT_THAT(rules("h3-qpack-bomb").close_codes, ElementsAre(excessive, rejected, no_error));
  EXPECT_THAT(rules("h3-connection-id").close_codes,
              ElementsAre(QuicCode{.code = 0x09}, QuicCode{.code = 0x0a}));
  EXPECT_THAT(rules("h3-qpack-blocked").close_codes,
              ElementsAre(QuicCode{.code = 0x200, .application = true}));
  EXPECT_THAT(rules("h3-out-of-order").close_codes,
              ElementsAre(QuicCode{.code = 0x0d}, QuicCode{.code = 0x03}));
  for (const auto id : {"h3-path-challenge", "h3-encoder-stream", "h3-ping-flood"}) {
    EXPECT_FALSE(rules(id).close_codes.empty()) << id;
  }
  // The h2 floods keep HTTP/2's rules: must end, no QUIC codes.
  Target h2;
  h2.h2 = fixtures::H2{.flood = fixtures::H2Flood{.kinds = {"ping"}}};
  const auto h2_rules = *expect("h2-ping-flood", h2).flood;
  EXPECT_TRUE(h2_rules.must_end);
  EXPECT_TRUE(h2_rules.close_codes.empty());
}

// An h3 flood asked for on an [h3] target without [h3.flood] is refused naming the key, by id
// or by family; one asked for by id whose kind is left out names h3.flood.kinds; by family, a
// kind left out is skipped. Nothing is refused where the flood is declared, on another
// protocol's target, or when no h3 flood is asked for.
TEST(H3FloodScenarios, AnUndeclaredFloodAskedForIsRefused) {
  auto bare = h3_flood();
  bare.h3->flood.reset();
  EXPECT_THAT(asked_flood_problem({"h3-ping-flood"}, {}, bare),
              Optional(HasSubstr("h3.toml: key 'h3.flood': --scenario h3-ping-flood asks for an "
                                 "HTTP/3 flood, but the target declares no [h3.flood]")));
  EXPECT_THAT(asked_flood_problem({}, {"flood"}, bare),
              Optional(HasSubstr("key 'h3.flood': --family flood asks for the HTTP/3 floods")));
  EXPECT_EQ(asked_flood_problem({"h3-idle"}, {"h3"}, bare), std::nullopt);
  EXPECT_EQ(asked_flood_problem({}, {}, bare), std::nullopt);
  auto some = h3_flood();
  some.h3->flood->kinds = {"ping", "qpack-bomb"};
  EXPECT_THAT(asked_flood_problem({"h3-ping-flood", "h3-connection-id"}, {}, some),
              Optional(HasSubstr("h3.toml: key 'h3.flood.kinds': --scenario h3-connection-id "
                                 "asks for the flood \"connection-id\", which the target's "
                                 "[h3.flood] kinds leave out (it lists ping, qpack-bomb)")));
  EXPECT_EQ(asked_flood_problem({"h3-ping-flood"}, {"flood"}, some), std::nullopt);
  EXPECT_EQ(asked_flood_problem({}, {"flood"}, h3_flood()), std::nullopt);
  Target h2;
  h2.h2 = fixtures::H2{};
  EXPECT_EQ(asked_flood_problem({"h3-ping-flood", "h2-ping-flood"}, {"flood"}, h2), std::nullopt);
}

}  // namespace catalogue_flood_h3_test
}  // namespace loiter::suites
