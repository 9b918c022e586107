// Runs a scenario's clients (and its regular traffic, if any) to their end, into the
// observation's connections (and load). In this process when its connections fit one
// process's RLIMIT_NOFILE; otherwise, for a scenario without regular traffic, split over
// as many forked client processes as they need (connection i of every fleet in process
// i % K, on one shared timeline), whose records come back over pipes and are merged so the
// observation reads as one process's. Private to the runner.
#pragma once

#include "explanations.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {

// Client processes one run may use at most (100,000 connections take 6 at 20,000 each).
inline constexpr std::size_t kMostClientProcesses = 32;

// Harness faults (a limit, a client process that fails or dies) throw std::runtime_error
// naming them; the user's interrupt stops the clients early (their records so far kept in
// one process, none when split).
void drive(const Scenario& scenario, const fixtures::ServerUnderTest& sut,
           const Expectations& expected, const Timing& timing, const ScenarioParameters& parameters,
           Observation& observation, OpenWatch& watch);

}  // namespace loiter::suites
