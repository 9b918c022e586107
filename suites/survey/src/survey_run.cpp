#include "loiter/suites/survey/survey_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "loiter/clients/transport/targets.hpp"
#include "loiter/clients/transport/tls.hpp"
#include "probes.hpp"

namespace loiter::suites {

namespace {

using survey::Probe;
using survey::ProbeContext;
using survey::ServerSide;
using Clock = clients::Clock;

// How often a phase looks at its connections and the server's side of them.
constexpr auto kLook = std::chrono::milliseconds(50);
// Five connections of a probe open within 250 ms.
constexpr double kOpenRate = 20.0;
// A phase ends by itself this long after its last connection's wait ran out.
constexpr auto kPhaseGrace = std::chrono::seconds(5);

// The order measures are shown in.
constexpr std::array kOrder = {
    "header-silent",     "header-partial",  "header-bytes",   "header-lines",
    "body-partial",      "body-trickle",    "idle",           "idle-reused",
    "next-head",         "send-stopped",    "send-slow",      "tls-handshake",
    "tls-hello-trickle", "tls-header-from", "h2-preface",     "h2-settings-ack",
    "h2-headers-no-end", "h2-idle",         "h2-rapid-reset", "h2-continuation-flood",
    "h2-settings-flood", "h2-ping-flood",   "h3-handshake",   "h3-idle",
    "h3-header",         "h3-header-trickle", "h3-body",      "h3-send",
    "h3-control-close"};

double in_seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

clients::tcp::endpoint endpoint_of(const SurveyRequest& request) {
  boost::system::error_code error;
  const auto address = clients::asio::ip::make_address(request.host, error);
  if (error) {
    throw std::invalid_argument(fmt::format("'{}' is not an IP address", request.host));
  }
  return {address, request.port};
}

clients::FleetSpec fleet_of(const SurveyRequest& request) {
  clients::FleetSpec fleet{.target = endpoint_of(request),
                           .count = request.connections,
                           .patience = request.max_wait,
                           .pacing = {.start = Clock::now(), .per_second = kOpenRate}};
  if (request.allow_remote) fleet.allowed_remote = fleet.target.address();
  if (request.tls && !request.h3) {
    fleet.tls =
        clients::make_tls_client({.alpn = request.alpn, .server_name = request.server_name});
  }
  clients::require_spawnable(fleet);
  return fleet;
}

bool told_to_stop(const SurveyRequest& request) { return request.cancelled && request.cancelled(); }

// Runs the probes' connections together until each has nothing more to tell, the wait
// runs out, or the user stops it. Returns false when stopped by the user.
bool run_phase(std::vector<Probe>& probes, const SurveyRequest& request, ServerSide& server) {
  clients::asio::io_context io(1);
  for (auto& probe : probes) {
    if (probe.not_measured.empty()) probe.spawn(io, probe.records);
  }
  const auto give_up = Clock::now() + request.max_wait + kPhaseGrace +
                       std::chrono::seconds(static_cast<long>(
                           static_cast<double>(request.connections) / kOpenRate + 1));
  bool stopped = false;
  while (!io.stopped()) {
    io.run_for(kLook);
    server.look();
    if (told_to_stop(request)) {
      stopped = true;
      break;
    }
    const bool all_settled = std::ranges::all_of(probes, [&](const Probe& probe) {
      if (probe.done && probe.done(probe.records)) return true;
      return std::ranges::all_of(probe.records, [&](const clients::ConnectionRecord& record) {
        return record.connect_start != Clock::time_point{} && probe.settled(record, server);
      });
    });
    if (all_settled || Clock::now() > give_up) break;
  }
  io.stop();
  return !stopped;
}

// Each probe's measure; a later phase's measure of the same id (a bracket narrowed) replaces
// the earlier one.
void read_phase(std::vector<Probe>& probes, const ServerSide& server, reports::Survey& survey) {
  for (auto& probe : probes) {
    auto measure = probe.not_measured.empty()
                       ? probe.read(probe.records, server)
                       : survey::not_measured(probe.head, probe.not_measured);
    auto same = std::ranges::find(survey.measures, measure.id, &reports::SurveyMeasure::id);
    if (same == survey.measures.end()) {
      survey.measures.push_back(std::move(measure));
    } else {
      *same = std::move(measure);
    }
  }
}

bool none_connected(const std::vector<Probe>& probes) {
  return std::ranges::all_of(probes, [](const Probe& probe) {
    return std::ranges::all_of(probe.records, [](const clients::ConnectionRecord& record) {
      return record.ending == clients::Ending::connect_failed;
    });
  });
}

std::string first_error(const std::vector<Probe>& probes) {
  for (const auto& probe : probes) {
    for (const auto& record : probe.records) {
      if (!record.error.empty()) return record.error;
    }
  }
  return "no connection was made";
}

void order(reports::Survey& survey) {
  const auto rank = [](const reports::SurveyMeasure& m) {
    return std::ranges::find(kOrder, m.id) - kOrder.begin();
  };
  std::ranges::stable_sort(survey.measures, {}, rank);
}

}  // namespace

reports::Survey run_survey(const SurveyRequest& request) {
  const auto started = Clock::now();
  const auto address = fixtures::IpAddress::parse(request.host);
  if (!address) throw std::invalid_argument(fmt::format("'{}' is not an IP address", request.host));
  const fixtures::TcpEndpoint endpoint(*address, request.port);
  reports::Survey survey{.loiter_version = request.loiter_version,
                         .target = request.target,
                         .endpoint = endpoint.to_string(),
                         .protocol = request.h3    ? reports::SurveyProtocol::h3
                                     : request.h2  ? reports::SurveyProtocol::h2
                                     : request.tls ? reports::SurveyProtocol::tls
                                                   : reports::SurveyProtocol::http1,
                         .tls = request.tls && !request.h3,
                         .started = request.started,
                         .connections = request.connections,
                         .max_wait = in_seconds(request.max_wait),
                         .slack = in_seconds(request.slack)};
  const ProbeContext context{.request = request,
                             .fleet = fleet_of(request),
                             .slack = survey.slack,
                             .max_wait = survey.max_wait};
  ServerSide server(endpoint);
  const auto tell = [&](std::string_view line) {
    if (request.told) request.told(line);
  };

  auto first = survey::first_probes(context);
  tell(fmt::format("survey {}: {} probes of {} connections each, every wait capped at {}",
                   survey.endpoint, first.size(), request.connections,
                   survey::seconds_text(survey.max_wait)));
  const bool finished = run_phase(first, request, server);
  if (none_connected(first)) {
    throw std::runtime_error(
        fmt::format("no connection to {} could be made: {}", survey.endpoint, first_error(first)));
  }
  read_phase(first, server, survey);
  if (finished) {
    auto second = survey::second_probes(context, survey);
    if (!second.empty()) {
      tell(request.h3 ? fmt::format("progress, and the brackets narrowed between the first "
                                    "answers: {} probes",
                                    second.size())
                      : fmt::format("progress and reuse: {} probes, paced by the deadlines just "
                                    "measured",
                                    second.size()));
      survey.interrupted = !run_phase(second, request, server);
      read_phase(second, server, survey);
    }
    if (auto floods = survey::flood_probes(context); !floods.empty() && !survey.interrupted) {
      tell(fmt::format("floods: {} probes, one connection each", floods.size()));
      survey.interrupted = !run_phase(floods, request, server);
      read_phase(floods, server, survey);
    }
  } else {
    survey.interrupted = true;
  }
  if (server.blind()) {
    survey.problems.push_back(
        "the kernel's view of the server's sockets (sock_diag) could not be read: a server's "
        "close behind unread bytes is not seen, SYN_RECV is not told apart");
  }
  survey::conclude(survey, survey.slack, survey.max_wait);
  order(survey);
  survey.duration = in_seconds(Clock::now() - started);
  return survey;
}

}  // namespace loiter::suites
