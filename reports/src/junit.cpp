// JUnit XML over run documents: escaping, then a testsuite per run, a testcase per scenario.
#include "loiter/reports/junit.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <filesystem>

namespace loiter::reports {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence at text[i] (a valid XML character), or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t length = lead >= 0xF0 && lead <= 0xF4   ? 4
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xC2 && lead <= 0xDF ? 2
                                                            : 0;
  if (length == 0 || i + length > text.size()) return 0;
  char32_t code = lead & (0x7F >> length);  // the lead byte's payload bits
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  const bool excluded = code == 0xFFFE || code == 0xFFFF || code > 0x10FFFF;
  return code < least[length] || surrogate || excluded ? 0 : length;
}

std::string attribute(std::string_view name, std::string_view value) {
  return fmt::format(" {}=\"{}\"", name, xml_escape(value));
}

// Every finding, a line each: "[deadline] still-open: 3/4 connections still open ...".
std::string findings_body(const ScenarioReport& scenario) {
  std::string body;
  if (!scenario.note.empty()) body += xml_escape(scenario.note) + "\n";
  for (const auto& finding : scenario.findings) {
    body += xml_escape(
                fmt::format("[{}] {}: {}", to_string(finding.klass), finding.code, text(finding))) +
            "\n";
  }
  return body;
}

// <failure> or <error> with every finding in the body. The message: a failure's first
// finding's sentence, an error's note (the harness's words), else the other; the type:
// the first finding's "<class>/<code>", else `fallback`.
std::string problem(std::string_view element, const ScenarioReport& scenario,
                    std::string_view fallback) {
  const auto* first = scenario.findings.empty() ? nullptr : &scenario.findings.front();
  const std::string sentence = first != nullptr ? text(*first) : "";
  const bool note_first = element == "error" || sentence.empty();
  auto message = note_first ? scenario.note : sentence;
  if (message.empty()) message = note_first ? sentence : scenario.note;
  if (message.empty()) message = fallback;
  const auto type = first != nullptr ? fmt::format("{}/{}", to_string(first->klass), first->code)
                                     : std::string(fallback);
  return fmt::format("      <{}{}{}>{}</{}>\n", element, attribute("message", message),
                     attribute("type", type), findings_body(scenario), element);
}

std::string testcase(const ScenarioReport& scenario, const RunReport& report) {
  auto out = fmt::format("    <testcase{}{}", attribute("name", scenario.id),
                         attribute("classname", "loiter." + report.target));
  switch (scenario.status) {
    case Status::pass:
    case Status::info:
      return out + "/>\n";
    case Status::skip:
      out += fmt::format(">\n      <skipped{}/>\n", attribute("message", scenario.note));
      break;
    case Status::fail:
      out += ">\n" + problem("failure", scenario, "fail");
      break;
    case Status::error:
      out += ">\n" + problem("error", scenario, "harness-error");
      break;
  }
  return out + "    </testcase>\n";
}

std::string property(std::string_view name, std::string_view value) {
  return fmt::format("      <property{}{}/>\n", attribute("name", name), attribute("value", value));
}

std::string testsuite(const MatrixRun& run) {
  const auto& report = run.report;
  std::size_t failures = 0, errors = 0, skipped = 0;
  for (const auto& scenario : report.scenarios) {
    failures += scenario.status == Status::fail ? 1 : 0;
    errors += scenario.status == Status::error ? 1 : 0;
    skipped += scenario.status == Status::skip ? 1 : 0;
  }
  auto out = fmt::format(
      "  <testsuite{}{}{}{}{}{}>\n", attribute("name", report.target),
      attribute("tests", std::to_string(report.scenarios.size())),
      attribute("failures", std::to_string(failures)), attribute("errors", std::to_string(errors)),
      attribute("skipped", std::to_string(skipped)), attribute("timestamp", report.started_at));
  out += "    <properties>\n";
  out += property("run-directory", run.directory.string());
  out += property("report-html", (run.directory / "report.html").string());
  out += property("target", report.target);
  if (!report.target_version.empty()) out += property("target-version", report.target_version);
  out += property("loiter-version", report.loiter_version);
  if (!report.not_run.empty()) out += property("not-run", report.not_run);
  out += "    </properties>\n";
  for (const auto& scenario : report.scenarios) out += testcase(scenario, report);
  return out + "  </testsuite>\n";
}

}  // namespace

std::string junit_xml(const std::vector<MatrixRun>& runs) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (const auto& run : runs) out += testsuite(run);
  return out + "</testsuites>\n";
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      const auto length = utf8_length(text, i);
      out += length == 0 ? kReplacement : text.substr(i, length);
      i += length == 0 ? 1 : length;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += byte < 0x20 || byte == 0x7F ? kReplacement : std::string_view(&c, 1);
    }
    ++i;
  }
  return out;
}

}  // namespace loiter::reports
