// The run document's head, from the target as loiter ran it.
#include "loiter/suites/document/run_head.hpp"

#include <algorithm>
#include <utility>

#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

reports::RunReport run_head(std::string loiter_version, const fixtures::Target& target,
                            std::string started_at) {
  return {.loiter_version = std::move(loiter_version),
          .target = target.name,
          .target_description = target.description,
          .target_tls = target_tls(target),
          .target_protocol = target_protocol(target),
          .started_at = std::move(started_at),
          .scenarios = {}};
}

reports::RunReport run_head(std::string loiter_version, std::string address,
                            std::string started_at) {
  return {.loiter_version = std::move(loiter_version),
          .target = std::move(address),
          .started_at = std::move(started_at),
          .scenarios = {}};
}

namespace {

std::string protocol_name(ScenarioProtocol protocol) {
  switch (protocol) {
    case ScenarioProtocol::h2:
      return "HTTP/2";
    case ScenarioProtocol::h3:
      return "HTTP/3";
    case ScenarioProtocol::any:
      return "HTTP/1.1 or HTTP/2";
    case ScenarioProtocol::every:
      return "HTTP/1.1, HTTP/2 or HTTP/3";
    case ScenarioProtocol::tls:
      return "HTTP/1.1 over TLS";
    case ScenarioProtocol::http1:
      break;
  }
  return "HTTP/1.1";
}

}  // namespace

std::vector<const Scenario*> leave_out_other_protocols(std::vector<const Scenario*> scenarios,
                                                       const fixtures::Target& target,
                                                       reports::RunReport& report) {
  std::vector<const Scenario*> kept;
  const auto& entries = catalogue_entries();
  for (const auto* scenario : scenarios) {
    const auto why = protocol_unmet(scenario->id, target);
    if (!why) {
      kept.push_back(scenario);
      continue;
    }
    const auto entry = std::ranges::find(entries, scenario->id, &CatalogueEntry::id);
    const auto protocol = protocol_name(entry->protocol);
    auto group = std::ranges::find(report.left_out, protocol, &reports::LeftOut::protocol);
    if (group == report.left_out.end()) {
      group = report.left_out.insert(report.left_out.end(), {.protocol = protocol, .why = *why});
    }
    group->ids.emplace_back(scenario->id);
    if (std::ranges::find(group->families, entry->family) == group->families.end()) {
      group->families.emplace_back(entry->family);
    }
  }
  return kept;
}

std::string target_protocol(const fixtures::Target& target) {
  if (target.h3) return "h3";
  if (!target.h2) return "http/1.1";
  return target.tls ? "h2" : "h2c";
}

std::optional<reports::TargetTls> target_tls(const fixtures::Target& target) {
  if (!target.tls) return std::nullopt;
  const auto& tls = *target.tls;
  return reports::TargetTls{
      .alpn = tls.alpn,
      .server_name = tls.server_name,
      .handshake_s = tls.handshake ? std::optional(in_seconds(*tls.handshake)) : std::nullopt,
      .header_from = std::string(fixtures::to_string(tls.header_from))};
}

}  // namespace loiter::suites
