// `loiter survey`'s measuring: probes a running server with a few connections of each
// stalled-client kind, each timed from its own origin, and reads what they saw into the
// survey document (reports/survey.hpp). The caller starts the server (or names one already
// running), makes the run directory and renders the survey; nothing here formats for a
// person beyond the document's own words. Plain data: no Asio in this header.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/reports/survey.hpp"

namespace loiter::suites {

struct SurveyRequest {
  std::string target;   // the survey's name for the server ("nginx", or "127.0.0.1:8080")
  std::string host;     // the server's address (loopback unless allowed_remote names it)
  unsigned short port = 0;
  bool allow_remote = false;  // --allow-remote: the one address off loopback is `host`
  // Over TLS (h1 over TLS, or h2 over TLS with alpn {"h2"}); the SNI sent, if any.
  bool tls = false;
  std::vector<std::string> alpn = {"http/1.1"};
  std::string server_name;
  bool h2 = false;  // HTTP/2 (h2c with prior knowledge, or over TLS)
  // HTTP/3 over QUIC to `port` on UDP (tls, h2 and alpn unused; server_name is the SNI and
  // :authority, empty: none sent and the host as :authority).
  bool h3 = false;
  bool floods = false;  // HTTP/2: also the four floods, one connection each (a third phase)
  // The paths probes request; empty: the probe that needs it is not run, with the reason.
  std::string health = "/health";  // any path answering 200 to a GET
  std::string echo;                // reads a POST body (body probes)
  std::string large;               // a large response ("{bytes}" filled in: send probes)
  std::size_t connections = 5;     // per probe
  std::chrono::nanoseconds max_wait = std::chrono::seconds(120);  // the cap on every wait
  std::chrono::nanoseconds slack = std::chrono::milliseconds(250);
  std::string loiter_version;
  std::string started;  // UTC text of the start
  std::function<bool()> cancelled;             // the user's Ctrl-C: stop, keep what was seen
  std::function<void(std::string_view)> told;  // a line as each phase starts (stderr)
};

// Runs every probe the protocol has, phase by phase (the later phases' paces and pauses
// come from the first's measured deadlines). Throws std::invalid_argument for a target
// off loopback without allow_remote, std::runtime_error when no connection could be made.
reports::Survey run_survey(const SurveyRequest& request);

}  // namespace loiter::suites
