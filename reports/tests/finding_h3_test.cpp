// text() over HTTP/3: a deadline the target declares under [h3] is named by its key and
// value, from its own origin (the stream's open, its HEADERS, the request, the first Initial),
// never "after connect" or "the request head"; a request stream's finding counts streams.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loiter/reports/finding.hpp"

namespace loiter::reports {
namespace finding_h3_test {  // named: unity batches put other tests' helpers beside these

using ::testing::HasSubstr;

Finding h3_finding(const char* code, Since since, std::string key) {
  return {.code = code,
          .scenario = "h3-headers-trickle",
          .klass = FindingClass::deadline,
          .count = 3,
          .of = 50,
          .measured = 6.1,
          .bound = 2.0,
          .unit = "s",
          .since = since,
          .deadline = 2.0,
          .slack = 0.25,
          .deadline_name = "header",
          .deadline_key = std::move(key)};
}

TEST(FindingText, AnH3StreamStillOpenNamesTheKeyFromTheStreamsOpen) {
  EXPECT_EQ(text(h3_finding(codes::kStillOpen, Since::stream_open, "[h3] header")),
            "3/50 streams stayed open 6.100 s from the stream's open, past [h3] header = 2.000 s: "
            "the server had not ended them when the client stopped watching");
}

TEST(FindingText, AnH3StreamClosedLateNamesTheKeyAndItsOrigin) {
  auto f = h3_finding(codes::kClosedLate, Since::stream_headers, "[h3] body");
  f.bound = 2.25;
  EXPECT_EQ(text(f),
            "3/50 streams ended late, 6.100 s after the stream's HEADERS (after 2.250 s): past "
            "[h3] body = 2.000 s ± 0.250 s from the stream's HEADERS");
  f.code = codes::kClosedEarly;
  f.since = Since::stream_request;
  f.deadline_key = "[h3] send";
  f.measured = 0.5;
  f.bound = 1.75;
  EXPECT_THAT(text(f), HasSubstr("ended early, 0.500 s after the request"));
  EXPECT_THAT(text(f), HasSubstr("(before 1.750 s): before [h3] send = 2.000 s ± 0.250 s"));
}

TEST(FindingText, AnH3HeadersTrickleOutlivedSaysProgressExtendedTheDeadline) {
  auto f = h3_finding(codes::kOutlivedByProgress, Since::stream_open, "[h3] header");
  f.progress = "header byte";
  f.progress_by_deadline = 5;
  f.measured = 9.0;
  EXPECT_EQ(text(f),
            "3/50 streams stayed open past [h3] header = 2.000 s from the stream's open while "
            "header bytes kept arriving: up to 5 header bytes by the deadline, the last 9.000 s "
            "after the stream's open: the deadline was extended by progress (or the server keeps "
            "none: a stall without progress tells which)");
}

TEST(FindingText, AnH3ProbeNamesTheKeyOfTheHandshakeAndIdleDeadlines) {
  auto late = h3_finding(codes::kProbeAnswered, Since::first_initial, "[h3] handshake");
  late.measured = 2.125;
  EXPECT_EQ(text(late),
            "3/50 connections still answered a probe sent 2.125 s after the connection's first "
            "Initial, past [h3] handshake = 2.000 s: the server still held them");
  auto early = h3_finding(codes::kProbeUnanswered, Since::quiet, "[h3] idle");
  early.measured = 1.625;
  early.bound = 1.75;
  EXPECT_THAT(text(early), HasSubstr("before the window of [h3] idle = 2.000 s ± 0.250 s opened"));
}

}  // namespace finding_h3_test
}  // namespace loiter::reports
