// JUnit XML from a denial ladder (reports/JUNIT.md, "loiter ladder --held"): a comparison's
// kinds first, failing where the candidate's knee is lower; then a testsuite per side, a
// testcase per kind, never failing: a denial ladder measures where a server is denied, and
// only a comparison judges (as `loiter ladder` exits 1 only there).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "denial_words.hpp"
#include "ladder_words.hpp"
#include "loiter/reports/denial_render.hpp"
#include "loiter/reports/junit.hpp"

namespace loiter::reports {

// Named, not anonymous: a unity batch shares one anonymous namespace with junit.cpp and
// ladder_junit.cpp.
namespace denial_junit {

namespace words = denial_words;
namespace numbers = ladder_words;

std::string attribute(std::string_view name, std::string_view value) {
  return fmt::format(" {}=\"{}\"", name, xml_escape(value));
}

std::string property(std::string_view name, std::string_view value) {
  return fmt::format("      <property{}{}/>\n", attribute("name", name), attribute("value", value));
}

std::string suite_open(std::string_view name, std::size_t tests, std::size_t failures,
                       const Denial& denial) {
  return fmt::format("  <testsuite{}{}{}{}{}{}>\n", attribute("name", name),
                     attribute("tests", std::to_string(tests)),
                     attribute("failures", std::to_string(failures)), attribute("errors", "0"),
                     attribute("skipped", "0"), attribute("timestamp", denial.started));
}

// What every testsuite carries of the whole run.
std::string run_properties(const Denial& denial) {
  std::string out = property("loiter-version", denial.loiter_version);
  out += property("settings", words::settings(denial));
  for (const auto& problem : denial.problems) out += property("problem", problem);
  if (denial.interrupted) out += property("interrupted", "partial");
  return out;
}

// A step in one line: "500 held (500/498 open): reopens 41.5/s, 12,000 B/s; 2xx 41.0%, p99
// 812 ms, errors 1,180; FDs 514/1,024, accept queue 128/128, server busy 12%: denied: ...".
std::string step_line(const DenialStep& s) {
  return fmt::format(
      "{} held ({} open): reopens {}/s, {} B/s; 2xx {}, p99 {} ms, errors {}; FDs {}, accept "
      "queue {}, server busy {}: {}",
      numbers::count(double(s.held)), words::reached(s), numbers::figure(s.connects_per_s),
      numbers::figure(s.bytes_per_s), words::share(s), numbers::figure(s.p99_ms),
      numbers::count(double(s.errors)), words::fds(s), words::queue(s),
      numbers::busy(s.server_busy), words::verdict(s));
}

std::string kind_case(const DenialKind& kind, const DenialSide& side) {
  auto out = fmt::format("    <testcase{}{}>\n", attribute("name", kind.kind),
                         attribute("classname", "loiter.denial." + side.target));
  auto text = words::kind_line(kind);
  for (const auto& s : kind.steps) text += "\n" + step_line(s);
  out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(text));
  return out + "    </testcase>\n";
}

std::string side_suite(const DenialSide& side, const Denial& denial) {
  auto out = suite_open(words::side_name(side), side.kinds.size(), 0, denial);
  out += "    <properties>\n";
  out += property("target", side.target);
  out += property("role", side.role);
  out += property("protocol", side.protocol);
  if (!side.server_binary.empty()) out += property("server-binary", side.server_binary);
  if (!side.server_sha256.empty()) out += property("server-sha256", side.server_sha256);
  if (side.control) out += property("control", words::control(side));
  for (const auto& kind : side.kinds) out += property("knee", words::kind_line(kind));
  out += run_properties(denial) + "    </properties>\n";
  for (const auto& kind : side.kinds) out += kind_case(kind, side);
  return out + "  </testsuite>\n";
}

std::string comparison_case(const DenialComparison& c) {
  auto out = fmt::format("    <testcase{}{}>\n", attribute("name", c.kind),
                         attribute("classname", "loiter.denial.comparison"));
  const auto sentence = words::comparison_sentence(c);
  if (c.change == KneeChange::lower) {
    out += fmt::format("      <failure{}{}>{}</failure>\n", attribute("message", sentence),
                       attribute("type", "lower"),
                       xml_escape("the candidate is denied by fewer held " + c.kind +
                                  " connections than the baseline"));
  } else {
    out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(sentence));
  }
  return out + "    </testcase>\n";
}

std::string comparison_suite(const Denial& denial) {
  std::string who;
  for (const auto& side : denial.sides) {
    who += (who.empty() ? "" : " against ") + words::side_name(side);
  }
  const auto lower = static_cast<std::size_t>(
      std::ranges::count(denial.comparison, KneeChange::lower, &DenialComparison::change));
  auto out = suite_open("comparison: " + who, denial.comparison.size(), lower, denial);
  out += "    <properties>\n" + run_properties(denial) + "    </properties>\n";
  for (const auto& c : denial.comparison) out += comparison_case(c);
  return out + "  </testsuite>\n";
}

}  // namespace denial_junit

void render_junit(const Denial& denial, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  if (!denial.comparison.empty()) out << denial_junit::comparison_suite(denial);
  for (const auto& side : denial.sides) out << denial_junit::side_suite(side, denial);
  out << "</testsuites>\n";
}

}  // namespace loiter::reports
