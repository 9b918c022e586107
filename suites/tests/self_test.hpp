// The reference server as self-tests run it: short deadlines (1 s), faults as asked; over TLS
// (reference-tls, its handshake deadline 1 s too) when asked; over h2c (reference-h2c) or HTTP/2
// over TLS (reference-h2).
#pragma once

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/fixtures/target/target_file.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::suites::testing {

// The reference server with every deadline (header, body, idle, send) at `deadline`.
inline fixtures::Target self_test_reference_at(Duration deadline,
                                               std::vector<std::string> faults = {},
                                               bool tls = false, bool h2c = false, bool h2 = false) {
  return fixtures::reference_target({.header = deadline,
                                     .body = deadline,
                                     .idle = deadline,
                                     .send = deadline,
                                     .threads = 1,
                                     .faults = std::move(faults),
                                     .tls = tls,
                                     .h2c = h2c,
                                     .h2 = h2});
}

// At 1 s.
inline fixtures::Target self_test_reference(std::vector<std::string> faults = {}, bool tls = false,
                                            bool h2c = false, bool h2 = false) {
  using namespace std::chrono_literals;
  return self_test_reference_at(1s, std::move(faults), tls, h2c, h2);
}

// The reference server over h2c (fixtures/targets/reference-h2c.toml), 1 s deadlines.
inline fixtures::Target self_test_reference_h2c(std::vector<std::string> faults = {}) {
  return self_test_reference(std::move(faults), /*tls=*/false, /*h2c=*/true);
}

// The reference server over HTTP/2 on TLS (fixtures/targets/reference-h2.toml: ALPN h2, its
// handshake deadline 1 s), 1 s deadlines.
inline fixtures::Target self_test_reference_h2(std::vector<std::string> faults = {}) {
  return self_test_reference(std::move(faults), /*tls=*/false, /*h2c=*/false, /*h2=*/true);
}

// The reference server over HTTP/3 (fixtures/targets/reference-h3.toml), faults as asked: its
// h3 header, body, idle and send deadlines at 1 s; its handshake deadline the file's 2 s
// (no setting replaces it).
inline fixtures::Target self_test_reference_h3(std::vector<std::string> faults = {}) {
  using namespace std::chrono_literals;
  return fixtures::reference_target({.header = 1s,
                                     .body = 1s,
                                     .idle = 1s,
                                     .send = 1s,
                                     .threads = 1,
                                     .faults = std::move(faults),
                                     .h3 = true});
}

// The meta rows' timing: the suite's, with shorter waits for FDs that never come back. A
// planted fault either gives a connection's FD back at once (the reference server closes as
// it ends it) or never (leak-fd-on-reset, shutdown-without-close, close-wait-leak): 2 s of
// recovery and 1 s more of looking tell the two apart as well as 5 s and 10 s do, and a
// shorter wait can only add findings to a row, never take its own away. The slack, the
// window on both sides of every deadline, is the suite's.
inline Timing meta_timing() {
  using namespace std::chrono_literals;
  auto t = timing();
  t.recovery = std::chrono::duration_cast<Duration>(2s * t.scale);
  t.late_look = std::chrono::duration_cast<Duration>(1s * t.scale);
  return t;
}

// "findings:\n  [deadline] still-open: 100/100 connections still open ...", one a line.
inline std::string findings_of(const ScenarioResult& result) {
  std::string out = "findings:";
  for (const auto& f : result.verdict.findings) {
    out += fmt::format("\n  [{}] {}: {}", reports::to_string(f.klass), f.code, reports::text(f));
  }
  return out;
}

// One finding as the JSON line scripts/finding-examples reads: code, class, scenario, the
// reference-server fault the row planted (empty: none), its text; and `setup`, the broken
// set-up a harness example comes from in words, only when there is one.
inline std::string example_line(std::string_view code, std::string_view klass,
                                std::string_view scenario, std::string_view fault,
                                std::string_view text, std::string_view setup = {}) {
  boost::json::object line{
      {"code", code}, {"class", klass}, {"scenario", scenario}, {"fault", fault}, {"text", text}};
  if (!setup.empty()) line["setup"] = setup;
  return boost::json::serialize(line) + "\n";
}

// With LOITER_FINDING_EXAMPLES naming a file, `lines` appended to it. Each line one write to
// a file opened O_APPEND, so the rows' processes running at once never mix their lines.
inline void append_example_lines(const std::vector<std::string>& lines) {
  const char* path = std::getenv("LOITER_FINDING_EXAMPLES");
  if (path == nullptr || *path == '\0') return;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  for (const auto& line : lines) {
    if (::write(fd, line.data(), line.size()) < 0) break;
  }
  ::close(fd);
}

// With LOITER_FINDING_EXAMPLES naming a file, each finding of `result` as a JSON line (code,
// class, scenario, fault, text) appended to it: scripts/finding-examples runs the meta rows so
// and makes docs/findings.md of their words. `setup`: see example_line.
inline void keep_examples(const ScenarioResult& result, std::string_view fault,
                          std::string_view setup = {}) {
  std::vector<std::string> lines;
  for (const auto& f : result.verdict.findings) {
    lines.push_back(example_line(f.code, reports::to_string(f.klass), result.id, fault,
                                 reports::text(f), setup));
  }
  append_example_lines(lines);
}

// The same lines for the findings of a run document (report.json's text) that a `loiter`
// process wrote: what a test that runs the command line keeps. No fault is planted there.
inline void keep_report_examples(std::string_view report_json, std::string_view setup) {
  const auto document = boost::json::parse(report_json);  // outlives the loop over its parts
  std::vector<std::string> lines;
  for (const auto& scenario : document.at("scenarios").as_array()) {
    for (const auto& f : scenario.at("findings").as_array()) {
      lines.push_back(example_line(f.at("code").as_string(), f.at("class").as_string(),
                                   scenario.at("id").as_string(), "", f.at("text").as_string(),
                                   setup));
    }
  }
  append_example_lines(lines);
}

}  // namespace loiter::suites::testing
