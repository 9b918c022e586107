// What a scenario saw and what it expected: plain data, the only input of judge().
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/fixtures/sampler.hpp"
#include "loiter/suites/timing.hpp"

namespace loiter::suites {

struct FdObservation {
  std::size_t baseline = 0;
  bool baseline_settled = false;
  std::size_t peak = 0;
  std::size_t after = 0;  // the last value seen while waiting for recovery
  bool recovered = false;
  std::optional<Duration> recovered_after;  // from the end of the clients' run
};

struct Observation {
  std::string scenario;
  std::vector<clients::ConnectionRecord> connections;
  FdObservation fds;
  std::vector<fixtures::TimedSample> timeline;
  std::optional<std::string> server_exit;  // the server ended during the scenario
};

// The server must end each connection within [deadline - slack, deadline + slack] of the
// connection's own connect, in one of the allowed ways.
struct ClosureExpectation {
  Duration deadline{};
  Duration slack{};
  Duration patience{};               // how long clients waited
  std::vector<std::string> endings;  // allowed ending labels: "close", "408+close"
};

struct Expectations {
  std::size_t connections = 0;
  ClosureExpectation closure;
  std::size_t fds_after = 0;  // FDs the server may hold once recovered, above baseline
  Duration recovery{};
};

struct Verdict {
  bool passed = true;
  std::vector<std::string> findings;  // what failed, and by how much
};

}  // namespace loiter::suites
