// The catalogue over HTTP/3: what each request stream's stall expects of what the target
// declares under [h3] — the key and origin its findings name, and the 408 a target promises
// for a stalled HEADERS (header_408) or body (body_408), or else a reset (a 408 accepted).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalogue_lookup.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {
namespace catalogue_h3_test {  // named: unity batches put other tests' helpers beside these

using testing::closure_of;
using testing::words;
using namespace std::chrono_literals;
using fixtures::Target;
using ::testing::ElementsAre;

// An [h3] target with its stream deadlines and paths, resets on every stall.
Target h3() {
  Target target;
  target.name = "h3";
  target.h3 = fixtures::H3{.header = 2s, .body = 3s, .send = 4s};
  target.paths.health = "/health";
  target.paths.echo = "/echo";
  target.paths.large = "/large?bytes={bytes}";
  return target;
}

// Each stream stall names its [h3] key and the origin the key runs from.
TEST(H3Scenarios, EachStreamStallNamesItsKeyAndOrigin) {
  const auto t = h3();
  const auto trickle = closure_of("h3-headers-trickle", t);
  EXPECT_EQ(trickle.key, "[h3] header");
  EXPECT_EQ(trickle.since, Since::stream_open);
  EXPECT_EQ(trickle.deadline, 2s);
  EXPECT_EQ(trickle.progress, "header byte");
  EXPECT_TRUE(trickle.stream);
  EXPECT_EQ(closure_of("h3-headers-stall", t).key, "[h3] header");
  EXPECT_EQ(closure_of("h3-data-trickle", t).key, "[h3] body");
  EXPECT_EQ(closure_of("h3-data-trickle", t).since, Since::stream_headers);
  EXPECT_EQ(closure_of("h3-zero-window", t).key, "[h3] send");
  EXPECT_EQ(closure_of("h3-zero-window", t).since, Since::stream_request);
}

// Without a promised 408 a reset, the connection's end or a 408 ends a stall; with one, its
// 408 alone: a reset instead is a wrong ending. header_408 and body_408 each hold their own.
TEST(H3Scenarios, APromised408IsTheOnlyEndingOfItsStall) {
  auto t = h3();
  EXPECT_THAT(words(closure_of("h3-headers-stall", t).endings),
              ElementsAre("rst-stream", "408", "close", "reset"));
  t.h3->body_408 = true;
  EXPECT_THAT(words(closure_of("h3-data-trickle", t).endings), ElementsAre("408"));
  EXPECT_THAT(words(closure_of("h3-headers-stall", t).endings),
              ElementsAre("rst-stream", "408", "close", "reset"));
  t.h3->header_408 = true;
  EXPECT_THAT(words(closure_of("h3-headers-stall", t).endings), ElementsAre("408"));
  EXPECT_THAT(words(closure_of("h3-headers-trickle", t).endings), ElementsAre("408"));
  // The send deadline cuts a response under way: never a 408.
  EXPECT_THAT(words(closure_of("h3-zero-window", t).endings),
              ElementsAre("rst-stream", "408", "close", "reset"));
}

}  // namespace catalogue_h3_test
}  // namespace loiter::suites
