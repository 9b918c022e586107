// The denial ladder's console text matches its golden files; each side says every kind's
// knee in a line, each kind's steps are aligned columns with what stands out under a step,
// a comparison tabulates the knees; nothing is coloured and no line ends in spaces.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "golden.hpp"
#include "loiter/reports/denial_render.hpp"
#include "sample_denial.hpp"

namespace loiter::reports {
// Named, not anonymous: the unity batch shares one anonymous namespace among the test files.
namespace denial_console_test {

using ::testing::HasSubstr;
using ::testing::Not;

std::string denial_console(const Denial& denial) {
  std::ostringstream out;
  render_console(denial, out);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line that starts with `start`; "" when none does.
std::string line_starting(const std::string& text, const std::string& start) {
  for (const auto& line : lines_of(text)) {
    if (line.starts_with(start)) return line;
  }
  return "";
}

TEST(DenialConsole, ADenialMatchesGolden) {
  const auto text = denial_console(testing::sample_denial());
  EXPECT_EQ(text, testing::golden_or_update("denial_console.txt", text));
}

TEST(DenialConsole, AComparisonMatchesGolden) {
  const auto text = denial_console(testing::sample_denial_comparison());
  EXPECT_EQ(text, testing::golden_or_update("denial_compare_console.txt", text));
}

TEST(DenialConsole, TheHeaderSaysTheTargetAndTheSettings) {
  const auto lines = lines_of(denial_console(testing::sample_denial()));
  ASSERT_GE(lines.size(), 2U);
  EXPECT_EQ(lines[0], "loiter 0.1.0 denial ladder of nginx over HTTP/1.1 (2026-12-04T09:00:00Z)");
  EXPECT_EQ(lines[1],
            "regular traffic 2,000/s for 5 s a step; denied under 99% 2xx or over p99 200 ms; "
            "server on CPU 0, client on CPU 1; took 61.5 s");
}

// A line per kind: where it was denied and why, or how far it was not.
TEST(DenialConsole, EachKindsKneeIsALine) {
  const auto text = denial_console(testing::sample_denial());
  EXPECT_THAT(text, HasSubstr("\ndenied at 500 silent (accept-queue: accept queue 128/128)\n"
                              "not denied up to 10,000 header-trickle\n"));
  auto unrun = testing::sample_denial();
  unrun.sides[0].kinds[1].steps.clear();
  unrun.sides[0].kinds[1].highest = 0;
  EXPECT_THAT(denial_console(unrun), HasSubstr("\nheader-trickle: not run\n"));
}

// The control step (the regular traffic alone) is a line of its own; where it was denied,
// the kinds were not run and their knees are 0.
TEST(DenialConsole, SaysTheControlStepAndAKindNotRunForIt) {
  EXPECT_THAT(denial_console(testing::sample_denial()),
              HasSubstr("\ncontrol, the regular traffic alone: 2xx 100.0%, p99 1.1 ms, errors 0; "
                        "server FDs 14/16,384, accept queue 0/128, busy 6%: served\n"));
  auto denied = testing::sample_denial_comparison();
  auto& control = *denied.sides[0].control;
  control.denied = true;
  control.succeeded = 1200;
  control.why = "2xx 12.0% < 99%";
  control.cause = DenialCause::cpu;
  control.cause_note = "server busy 97%";
  for (auto& kind : denied.sides[0].kinds) {
    kind.steps.clear();
    kind.knee = 0;
    kind.highest = 0;
  }
  denied.comparison[0].baseline_knee = 0;
  const auto text = denial_console(denied);
  EXPECT_THAT(text, HasSubstr("control, the regular traffic alone: 2xx 12.0%, p99 1.25 ms, "
                              "errors 0; server FDs 14/16,384, accept queue 0/128, busy 6%: "
                              "denied: 2xx 12.0% < 99%; cpu: server busy 97%\n"));
  EXPECT_THAT(text, HasSubstr("\nsilent: not run: the regular traffic alone was denied\n"));
  EXPECT_THAT(text, Not(HasSubstr("silent on nginx-1.24")));  // no steps: no table
  EXPECT_THAT(line_starting(text, "silent  "), HasSubstr("  0 (control)  "));
}

// Columns end under their headings' ends; the verdict says why and the cause.
TEST(DenialConsole, StepsAreAlignedColumnsWithTheirVerdicts) {
  const auto text = denial_console(testing::sample_denial());
  const auto heading = line_starting(text, "held");
  const auto denied = line_starting(text, " 500 ");
  ASSERT_FALSE(heading.empty());
  ASSERT_FALSE(denied.empty()) << text;
  EXPECT_EQ(denied.find("41.0%") + 5, heading.find("2xx") + 3) << denied;
  EXPECT_EQ(denied.find("514/16,384") + 10, heading.find("FDs/limit") + 9) << denied;
  EXPECT_EQ(denied.find("128/128") + 7, heading.find("accept queue") + 12) << denied;
  EXPECT_EQ(denied.find("denied:"), heading.find("verdict"));
  EXPECT_THAT(denied,
              ::testing::EndsWith("denied: 2xx 41.0% < 99%; accept-queue: accept queue 128/128"));
  EXPECT_THAT(denied, HasSubstr("500/495"));  // reached/low
  EXPECT_THAT(denied, HasSubstr("812"));      // p99 ms
  EXPECT_THAT(line_starting(text, " 100 "), ::testing::EndsWith("served"));
  // A limit not read: the peak alone.
  EXPECT_THAT(line_starting(text, "10,000 "), HasSubstr("  10,014  "));
}

// What stands out of a step is said under it: its errors by kind, connects that failed,
// loiter's own holder at its limit.
TEST(DenialConsole, WhatStandsOutIsUnderTheStep) {
  const auto text = denial_console(testing::sample_denial());
  EXPECT_THAT(text, HasSubstr("\n    errors: connect 5,870, timeout 30\n"));
  EXPECT_THAT(text, HasSubstr("\n    7 of 550 connects attempted never connected\n"));
  EXPECT_THAT(text, HasSubstr("\n    loiter's holder wanted a CPU 97% of the time\n"));
  EXPECT_THAT(text, Not(HasSubstr("regular traffic wanted a CPU")));
}

TEST(DenialConsole, AComparisonTabulatesTheKnees) {
  const auto text = denial_console(testing::sample_denial_comparison());
  EXPECT_THAT(text, HasSubstr("\ncandidate against baseline: the candidate is denied sooner "
                              "on 1 of 3 kinds\n"));
  EXPECT_EQ(line_starting(text, "kind "), "kind            baseline knee  candidate knee  change");
  EXPECT_EQ(line_starting(text, "silent  "),
            "silent                    500             250  lower");
  EXPECT_EQ(line_starting(text, "slow-reader  "),
            "slow-reader           > 1,000         > 1,000  same");
  EXPECT_EQ(line_starting(text, "idle-keepalive  "),
            "idle-keepalive          2,000         > 1,000  not-comparable");
  EXPECT_THAT(text, HasSubstr("nginx-1.24 (baseline) against nginx-1.26 (candidate) over "
                              "HTTP/2 (h2c)"));
  EXPECT_THAT(text, HasSubstr("denied at 2,000 idle-keepalive (connection-cap: accept queue "
                              "128/128 with 2,014 of 16,384 descriptors)"));
  EXPECT_THAT(text, ::testing::EndsWith("\ninterrupted: partial\n"));
}

TEST(DenialConsole, HasNoColourNorTrailingSpacesAndSaysItsProblems) {
  for (const auto& denial : {testing::sample_denial(), testing::sample_denial_comparison()}) {
    const auto text = denial_console(denial);
    EXPECT_THAT(text, Not(HasSubstr("\x1b[")));
    for (const auto& line : lines_of(text)) {
      EXPECT_FALSE(!line.empty() && line.back() == ' ') << line;
    }
  }
  EXPECT_THAT(denial_console(testing::sample_denial()),
              ::testing::EndsWith("\nproblems:\n  - step 3: the server took 2.1 s to start\n"));
}

}  // namespace denial_console_test
}  // namespace loiter::reports
