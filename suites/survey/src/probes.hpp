// The probes of a survey, by protocol and phase: each a few connections of one client kind
// with the settings the earlier phases' measures call for, and how its records are read.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"
#include "loiter/suites/survey/survey_run.hpp"
#include "read_measures.hpp"
#include "server_side.hpp"

namespace loiter::suites::survey {

struct Probe {
  MeasureHead head;
  std::function<void(clients::asio::io_context&, std::vector<clients::ConnectionRecord>&)> spawn;
  // Whether a connection has nothing more to tell (besides ending): the server's side
  // closed it, or its response came whole.
  std::function<bool(const clients::ConnectionRecord&, const ServerSide&)> settled;
  // Its records read into the measure, once the phase is over.
  std::function<reports::SurveyMeasure(const std::vector<clients::ConnectionRecord>&,
                                       const ServerSide&)>
      read;
  // Whether the probe as a whole has nothing more to learn, whatever each connection says
  // (a bracket once closed); unset: only each connection's `settled` tells.
  std::function<bool(const std::vector<clients::ConnectionRecord>&)> done;
  std::string not_measured;  // set: the probe is not run, and this is why
  std::vector<clients::ConnectionRecord> records;
};

// What every probe shares.
struct ProbeContext {
  const SurveyRequest& request;
  clients::FleetSpec fleet;  // count, patience (the cap), target, TLS
  double slack = 0;
  double max_wait = 0;
};

// Phase one: each stall on its own (header, body, idle, send; TLS handshake; HTTP/2; HTTP/3).
std::vector<Probe> first_probes(const ProbeContext& context);
// Phase two: progress and reuse, paced by phase one's measures.
std::vector<Probe> second_probes(const ProbeContext& context, const reports::Survey& first);
// Over HTTP/3 (request.h3), phases one and two: h3_first's brackets narrowed by h3_second
// (probes_h3.cpp); first_probes() and second_probes() call them.
std::vector<Probe> h3_first(const ProbeContext& context);
std::vector<Probe> h3_second(const ProbeContext& context, const reports::Survey& first);
// Phase three, with floods asked for: each flood on one connection (HTTP/2's, or over
// HTTP/3 h3_flood_probes', probes_h3_floods.cpp).
std::vector<Probe> flood_probes(const ProbeContext& context);
std::vector<Probe> h3_flood_probes(const ProbeContext& context);
// After both: what a progress probe extends, exposures.
void conclude(reports::Survey& survey, double slack, double max_wait);

}  // namespace loiter::suites::survey
