// The reference server as self-tests run it: short deadlines (1 s), faults as asked.
#pragma once

#include <fmt/ranges.h>

#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/runner/run.hpp"

namespace loiter::suites::testing {

inline fixtures::Target self_test_reference(std::vector<std::string> faults = {}) {
  using namespace std::chrono_literals;
  return fixtures::reference_target(
      {.header = 1s, .body = 1s, .idle = 1s, .threads = 1, .faults = std::move(faults)});
}

inline std::string findings_of(const ScenarioResult& result) {
  return fmt::format("findings:\n  {}", fmt::join(result.verdict.findings, "\n  "));
}

}  // namespace loiter::suites::testing
