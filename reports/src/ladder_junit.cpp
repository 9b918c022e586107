// JUnit XML from a ladder (reports/JUNIT.md, "loiter ladder"): a comparison's paired figures
// first, failing where the candidate is worse; then a testsuite per side, a testcase per
// step, never failing: a ladder measures, and a step loiter's own client could not drive is
// skipped (it says nothing of the server).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "ladder_words.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/reports/ladder_render.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with junit.cpp.
namespace ladder_junit {

namespace words = ladder_words;

std::string attribute(std::string_view name, std::string_view value) {
  return fmt::format(" {}=\"{}\"", name, xml_escape(value));
}

std::string property(std::string_view name, std::string_view value) {
  return fmt::format("      <property{}{}/>\n", attribute("name", name), attribute("value", value));
}

std::string suite_open(std::string_view name, std::size_t tests, std::size_t failures,
                       std::size_t skipped, const Ladder& ladder) {
  return fmt::format("  <testsuite{}{}{}{}{}{}>\n", attribute("name", name),
                     attribute("tests", std::to_string(tests)),
                     attribute("failures", std::to_string(failures)), attribute("errors", "0"),
                     attribute("skipped", std::to_string(skipped)),
                     attribute("timestamp", ladder.started));
}

// What every testsuite carries of the whole run.
std::string run_properties(const Ladder& ladder) {
  std::string out = property("loiter-version", ladder.loiter_version);
  out += property("settings", words::settings(ladder));
  for (const auto& problem : ladder.problems) out += property("problem", problem);
  if (ladder.interrupted) out += property("interrupted", "partial");
  return out;
}

// A step's figures, for its <system-out>.
std::string step_figures(const LadderStep& s, double bound) {
  auto text = fmt::format(
      "requested {}/s, dispatched {}/s, 2xx {}/s, non-2xx {}, errors {}; p50 {} ms, p99 {} ms; "
      "server CPU {} µs/request, RSS {} MiB, FDs {}; client busy {}",
      words::rate(s.requested_rate), words::rate(s.dispatched_rate), words::rate(s.succeeded_rate),
      words::count(double(s.non_2xx)), words::count(double(s.errors)), words::figure(s.p50_ms),
      words::figure(s.p99_ms), words::figure(s.server_cpu_us_per_request),
      words::figure(s.server_rss_peak_mib), words::count(s.server_fds_peak),
      words::busy(s.client_busy));
  if (const auto mark = words::mark(s, bound); mark != "-") text += ": " + mark;
  if (!s.note.empty()) text += "\n" + s.note;
  return text;
}

std::string step_case(const LadderStep& s, const LadderSide& side, double bound) {
  const auto name = fmt::format("{} {}", to_string(s.kind), words::step_long(s));
  auto out = fmt::format("    <testcase{}{}>\n", attribute("name", name),
                         attribute("classname", "loiter.ladder." + side.target));
  if (s.limit == Limit::client || s.limit == Limit::both) {
    out += fmt::format("      <skipped{}/>\n",
                       attribute("message", "loiter's client ran out: " +
                                                (s.note.empty() ? words::mark(s, bound) : s.note)));
  }
  out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(step_figures(s, bound)));
  return out + "    </testcase>\n";
}

std::string side_suite(const LadderSide& side, const Ladder& ladder) {
  const auto skipped = static_cast<std::size_t>(std::ranges::count_if(
      side.steps,
      [](const LadderStep& s) { return s.limit == Limit::client || s.limit == Limit::both; }));
  auto out = suite_open(words::side_name(side), side.steps.size(), 0, skipped, ladder);
  out += "    <properties>\n";
  out += property("target", side.target);
  out += property("role", side.role);
  out += property("protocol", side.protocol);
  if (!side.server_binary.empty()) out += property("server-binary", side.server_binary);
  if (!side.server_sha256.empty()) out += property("server-sha256", side.server_sha256);
  out += property("knee", words::knee(side, ladder.p99_bound_ms));
  out += run_properties(ladder) + "    </properties>\n";
  for (const auto& s : side.steps) out += step_case(s, side, ladder.p99_bound_ms);
  return out + "  </testsuite>\n";
}

std::string figure_case(const PairedFigure& f, double tolerance) {
  const auto name = fmt::format("{} at {}", f.figure, f.step);
  auto out = fmt::format("    <testcase{}{}>\n", attribute("name", name),
                         attribute("classname", "loiter.ladder.comparison"));
  const auto sentence = words::paired_sentence(f, tolerance);
  auto body = fmt::format("pairs: {}\nbaseline: {}\ncandidate: {}", words::pairs(f),
                          words::values(f, f.baseline), words::values(f, f.candidate));
  if (!f.note.empty()) body += "\nnote: " + f.note;
  if (f.verdict == PairedVerdict::worse) {
    out += fmt::format("      <failure{}{}>{}</failure>\n", attribute("message", sentence),
                       attribute("type", "worse"), xml_escape(body));
  } else {
    out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(sentence + "\n" + body));
  }
  return out + "    </testcase>\n";
}

std::string comparison_suite(const Ladder& ladder) {
  std::string who;
  for (const auto& side : ladder.sides) {
    who += (who.empty() ? "" : " against ") + words::side_name(side);
  }
  const auto worse = static_cast<std::size_t>(std::ranges::count_if(
      ladder.comparison, [](const PairedFigure& f) { return f.verdict == PairedVerdict::worse; }));
  auto out = suite_open("comparison: " + who, ladder.comparison.size(), worse, 0, ladder);
  out += "    <properties>\n";
  out += property("tolerance", words::percent(ladder.tolerance));
  out += run_properties(ladder) + "    </properties>\n";
  for (const auto& f : ladder.comparison) out += figure_case(f, ladder.tolerance);
  return out + "  </testsuite>\n";
}

}  // namespace ladder_junit

void render_junit(const Ladder& ladder, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  if (!ladder.comparison.empty()) out << ladder_junit::comparison_suite(ladder);
  for (const auto& side : ladder.sides) out << ladder_junit::side_suite(side, ladder);
  out << "</testsuites>\n";
}

}  // namespace loiter::reports
