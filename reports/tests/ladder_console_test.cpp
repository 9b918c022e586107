// The ladder's console tables match their golden files line by line; columns are aligned,
// every step says its limit, the knee is a sentence, and nothing is coloured.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "golden.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "sample_ladder.hpp"

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string ladder_console(const Ladder& ladder) {
  std::ostringstream out;
  render_console(ladder, out);
  return out.str();
}

TEST(LadderConsole, ALadderMatchesGolden) {
  const auto text = ladder_console(testing::sample_ladder());
  EXPECT_EQ(text, testing::golden_or_update("ladder_console.txt", text));
}

TEST(LadderConsole, AComparisonMatchesGolden) {
  const auto text = ladder_console(testing::sample_comparison());
  EXPECT_EQ(text, testing::golden_or_update("ladder_compare_console.txt", text));
}

// Characters as a terminal shows them (µ is one column).
std::size_t column_of(const std::string& line, const std::string& what) {
  const auto at = line.find(what);
  if (at == std::string::npos) return at;
  std::size_t columns = 0;
  for (std::size_t i = 0; i < at; ++i)
    columns += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
  return columns;
}

// Numbers end under the end of their heading; the limit starts under "limit"; no line ends
// in spaces.
TEST(LadderConsole, ColumnsAreAlignedWithoutTrailingSpaces) {
  std::istringstream in(ladder_console(testing::sample_ladder()));
  std::size_t p99_end = std::string::npos, limit = std::string::npos;
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    EXPECT_FALSE(!line.empty() && line.back() == ' ') << line;
    if (line.starts_with("step ")) {
      p99_end = column_of(line, "p99 ms") + 6;
      limit = column_of(line, "limit");
    }
    if (line.starts_with("20,000/s ")) {
      EXPECT_EQ(column_of(line, "4.75") + 4, p99_end) << line;
      EXPECT_EQ(column_of(line, "within"), limit) << line;
      ++rows;
    }
    if (line.starts_with("50,000/s ")) {
      EXPECT_EQ(column_of(line, "180") + 3, p99_end) << line;
      EXPECT_EQ(column_of(line, "client limit"), limit) << line;
      ++rows;
    }
  }
  EXPECT_EQ(rows, 2);
}

TEST(LadderConsole, SaysWhatEachStepAndTheKneeMean) {
  const auto text = ladder_console(testing::sample_ladder());
  EXPECT_THAT(text, ::testing::StartsWith("loiter 0.1.0 ladder of nginx over HTTP/1.1"));
  EXPECT_THAT(text, HasSubstr("3 trials × 5 s per step, p99 bound 200 ms; server on CPU 0, "
                              "client on CPU 1"));
  EXPECT_THAT(text, Not(HasSubstr("tolerance")));
  EXPECT_THAT(text, HasSubstr("64 conn "));
  EXPECT_THAT(text, HasSubstr("    note: dispatched 41,200/s of 50,000/s"));
  EXPECT_THAT(text, HasSubstr("knee: 20,000/s (p99 within 200 ms with everything answered); "
                              "above it: 50,000/s: client limit"));
  EXPECT_THAT(text, HasSubstr("problems:\n  - trial 7"));
  EXPECT_THAT(text, Not(HasSubstr("interrupted")));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

// A step over the bound says so, and a side whose first step is not within has no knee.
TEST(LadderConsole, OverTheBoundAndNoKnee) {
  auto ladder = testing::sample_ladder();
  auto& side = ladder.sides[0];
  side.steps[0].within = false;
  side.steps[0].p99_ms = 250;
  side.knee.reset();
  side.knee_note = "5,000/s: p99 250 ms over the 200 ms bound";
  const auto text = ladder_console(ladder);
  EXPECT_THAT(text, HasSubstr("over p99"));
  EXPECT_THAT(text, HasSubstr("no knee: 5,000/s: p99 250 ms over the 200 ms bound"));
  side.steps[1].limit = Limit::server;
  EXPECT_THAT(ladder_console(ladder), HasSubstr("server limit"));
}

TEST(LadderConsole, AComparisonHasItsPairedFiguresAndTolerance) {
  const auto text = ladder_console(testing::sample_comparison());
  EXPECT_THAT(text, HasSubstr("nginx-1.24 (baseline) against nginx-1.26 (candidate) over "
                              "HTTP/2 (h2c)"));
  EXPECT_THAT(text, HasSubstr("5 pairs of trials × 5 s per step, alternated ABBA, p99 bound "
                              "200 ms, tolerance 5%; 1 CPU: not pinned"));
  EXPECT_THAT(text, HasSubstr("the candidate is worse on 1 of 4 figures"));
  EXPECT_THAT(text, HasSubstr("    pairs: +21.0%, +18.3%, +25.5%, +30.0%, +15.2%"));
  EXPECT_THAT(text, ::testing::ContainsRegex("p99 +1.5 ms +1.81 ms +\\+21.0% +\\+21.0% +"
                                             "\\[\\+15.2%, \\+30.0%\\] at 93.8% +worse"));
  EXPECT_THAT(text, HasSubstr("interrupted: partial"));
  auto over_h3 = testing::sample_comparison();
  for (auto& side : over_h3.sides) side.protocol = "h3";
  EXPECT_THAT(ladder_console(over_h3), HasSubstr("(candidate) over HTTP/3 over QUIC"));
}

// The change of the two medians and the median of the pairs' changes can differ in sign
// (each pair's change is of its own trials): both are shown, each under its own name.
TEST(LadderConsole, TheMediansChangeAndThePairsMedianChangeAreBothShownAndNamed) {
  auto ladder = testing::sample_comparison();
  auto& figure = ladder.comparison.at(0);
  figure.baseline_median = 65'501;
  figure.candidate_median = 64'449;
  figure.median_change = 0.003;
  const auto text = ladder_console(ladder);
  EXPECT_THAT(text, HasSubstr("medians: the candidate's median against the baseline's; "
                              "pairs: the median of the pairs' changes (the verdict's)"));
  EXPECT_THAT(text, ::testing::ContainsRegex(" -1.6% +\\+0.3% "));
}

}  // namespace
}  // namespace loiter::reports
