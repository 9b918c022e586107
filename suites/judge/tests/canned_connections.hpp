// Canned connection records and the observations and expectations around them, for the
// judge's tests: a silent fleet observed with its FDs back, one whole response, a
// completion of N responses.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites::testing {

using namespace std::chrono_literals;
using clients::ConnectionRecord;
using clients::Ending;

// A response of `status` whole at `complete` (since connect).
inline clients::Response whole(unsigned status, Duration complete) {
  clients::Response response;
  response.status = status;
  response.complete = complete;
  return response;
}

// A silent connection that ended as `ending` at `at` (since connect).
inline ConnectionRecord ended(Ending ending, Duration at) {
  ConnectionRecord record;
  record.kind = "silent";
  record.ending = ending;
  record.ended_at = at;
  return record;
}

// The records of a run whose FDs came back (baseline 5, peak 105).
inline Observation observe(std::vector<ConnectionRecord> records) {
  return {.scenario = "silent",
          .connections = std::move(records),
          .fds = {.baseline = 5,
                  .baseline_settled = true,
                  .peak = 105,
                  .after = 5,
                  .recovered = true,
                  .recovered_after = 10ms},
          .timeline = {},
          .server_exit = std::nullopt};
}

// Two connections that must each get `responses` whole 200s, outliving 1 s.
// A flood scenario's observation: its records, the server's FDs back at their baseline and,
// where `rss_kib` is not 0, one sample of the server at that RSS.
inline Observation flood_observation(std::string scenario, std::vector<ConnectionRecord> records,
                                     std::size_t rss_kib = 0) {
  Observation o{.scenario = std::move(scenario), .connections = std::move(records)};
  o.fds = {.baseline = 5, .baseline_settled = true, .peak = 7, .after = 5, .recovered = true};
  if (rss_kib != 0) {
    fixtures::TimedSample s{};
    s.sample.processes = 1;
    s.sample.rss_kib = rss_kib;
    o.timeline.push_back(s);
  }
  return o;
}

inline Expectations expect_completion(std::size_t responses) {
  return {
      .connections = 2,
      .patience = 5s,
      .closure = std::nullopt,
      .completion = CompletionExpectation{.responses = responses, .status = 200, .outlives = 1s},
      .fds_after = 0,
      .recovery = 5s};
}

}  // namespace loiter::suites::testing
