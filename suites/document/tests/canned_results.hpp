// Canned scenario results of each kind the run document distinguishes, for tests of what
// to_report() writes: a plain closure scenario, a load scenario, a load with connection
// churn and edge windows, a fleet split over client processes that must not be cut, and a
// soak.
#pragma once

#include "loiter/suites/runner/run.hpp"

namespace loiter::suites::testing {

// silent: four connections (close, 408+close, reset, still open), FDs not back, TCP sampled.
ScenarioResult plain_result();
// idle-under-load: two kinds closed in time beside regular traffic, FDs back.
ScenarioResult load_result();
// soak: regular traffic with churn (4 aborted of 100 dispatched, 90 answered 2xx, 3 fresh,
// 2 server-closed, 5 replaced) and edge windows (10 answers in 2 ms / 5 ms); the client's
// cost measured (20 µs a request in the first second, 30 in the last).
ScenarioResult churn_load_result();
// The same over HTTP/2: the server ended two pool connections with GOAWAY NO_ERROR.
ScenarioResult h2_churn_load_result();
// The same over HTTP/3: two pool connections ended by the server's idle timeout, one by its
// CONNECTION_CLOSE H3_NO_ERROR.
ScenarioResult h3_churn_load_result();
// held-capacity over three client processes: one connection answered twice, one reset.
ScenarioResult split_fleet_result();
// The same in loiter's own process, its fleet's thread measured (busy 0.1234, 0.5 s of CPU
// over 4 s).
ScenarioResult held_in_process_result();
// soak: 8 s of traffic from 1 s, sampled each second to 10 s, FDs by type counted: sockets
// and connections grow by one a second (60/min), RSS by 1 MiB a second; pipes, anon_inodes
// and a file steady.
ScenarioResult soak_result();
// h3-idle over HTTP/3: two connections gone at an early probe while the server's UDP socket
// (found on port 8443) dropped 7 datagrams and the machine's RcvbufErrors rose by 9; its
// receive queue at most 212,992 bytes.
ScenarioResult h3_udp_result();

}  // namespace loiter::suites::testing
