// The reference server as self-tests run it: short deadlines (1 s), faults as asked; over TLS
// (reference-tls, its handshake deadline 1 s too) when asked.
#pragma once

#include <fmt/format.h>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::suites::testing {

inline fixtures::Target self_test_reference(std::vector<std::string> faults = {},
                                            bool tls = false) {
  using namespace std::chrono_literals;
  return fixtures::reference_target({.header = 1s,
                                     .body = 1s,
                                     .idle = 1s,
                                     .send = 1s,
                                     .threads = 1,
                                     .faults = std::move(faults),
                                     .tls = tls});
}

// "findings:\n  [deadline] still-open: 100/100 connections still open ...", one a line.
inline std::string findings_of(const ScenarioResult& result) {
  std::string out = "findings:";
  for (const auto& f : result.verdict.findings) {
    out += fmt::format("\n  [{}] {}: {}", reports::to_string(f.klass), f.code, reports::text(f));
  }
  return out;
}

}  // namespace loiter::suites::testing
