// JUnit XML over run documents: escaping, then a testsuite per run, a testcase per scenario.
#include "loiter/reports/junit.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <filesystem>

#include "loiter/reports/markup.hpp"

namespace loiter::reports {

namespace {

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

void render_junit(const std::vector<MatrixRun>& runs, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (const auto& run : runs) out << testsuite(run);
  out << "</testsuites>\n";
}

std::string xml_escape(std::string_view text) {
  return escape_markup(text, Breaks::referenced);
}

}  // namespace loiter::reports
