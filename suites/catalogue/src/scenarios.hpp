// The catalogue's scenarios by family (one file each). Private to the catalogue.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "loiter/clients/h3/stalls.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites {

std::vector<Scenario> header_scenarios();  // silent, partial-header, header-trickle, header-lines
std::vector<Scenario> body_scenarios();    // partial-body, body-trickle
std::vector<Scenario> keepalive_scenarios();  // idle-keepalive, keepalive-reuse
std::vector<Scenario> abort_scenarios();      // rst-abort, fin-close
std::vector<Scenario> not_cut_scenarios();    // slow-reader, long-response, stream, websocket
std::vector<Scenario> load_scenarios();       // idle-under-load, soak
Scenario soak_scenario();
std::vector<Scenario> capacity_scenarios();  // held-capacity
std::vector<Scenario> send_scenarios();      // reader-pause
// tls-record-header, tls-half-hello, tls-hello-trickle, tls-handshake-silent
std::vector<Scenario> tls_scenarios();
// h2-partial-preface, h2-no-settings-ack, h2-idle, h2-headers-no-end, h2-data-trickle,
// h2-zero-window, h2-window-trickle, h2-stream-reuse
std::vector<Scenario> h2_scenarios();
// h2-rapid-reset, h2-continuation-flood, h2-settings-flood, h2-ping-flood (never in the
// default run: see choose_scenarios)
std::vector<Scenario> flood_scenarios();
// h3-initial-stall, h3-amplification, h3-idle, h3-headers-stall, h3-headers-trickle,
// h3-data-trickle, h3-zero-window, h3-window-trickle, h3-control-stream-close,
// h3-long-response, h3-stream
std::vector<Scenario> h3_scenarios();
// h3-rapid-reset, h3-connection-id, h3-path-challenge, h3-qpack-bomb, h3-qpack-blocked,
// h3-encoder-stream, h3-out-of-order, h3-ping-flood: the flood family over HTTP/3 (never in
// the default run either)
std::vector<Scenario> flood_h3_scenarios();

// What the h3 family shares with the scenarios that run over HTTP/3 beside their other
// protocols (idle-under-load's waiting thirds): scenarios_h3.cpp.
namespace h3_family {
// The options every h3 kind shares: the fleet on the target's UDP port, its SNI, the health path.
clients::H3Options h3_options(const DriveContext& c);
// The h3 deadline called `name`, or the reason to skip.
std::optional<std::string> need_h3_deadline(const std::optional<Duration>& deadline,
                                            std::string_view name);
// Probes on both sides of a deadline the server may keep silently.
Duration early_probe(Duration deadline, const Timing& timing);
Duration late_probe(Duration deadline, const Timing& timing);
// What a patience adds for a probe's answer (three PTOs).
Duration probe_wait(const Timing& timing);
// A stalled request stream's closure at `deadline` ([h3] `name`) from `since`.
Expectations stream_closure(Since since, Duration deadline, std::string name, std::string progress,
                            bool answers_408, const Timing& timing, const ScenarioParameters& p);
}  // namespace h3_family

}  // namespace loiter::suites
