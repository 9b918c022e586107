// The timeline and provenance of a run as JSON, for the run directory: every field of the
// plain data, no judgement.
#include "loiter/suites/document/raw_json.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <stdexcept>

#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

namespace json = boost::json;

namespace {

json::object tcp_side(const fixtures::TcpSideCounts& counts) {
  json::object out;
  for (std::size_t i = 1; i < fixtures::kTcpStateCount; ++i) {
    if (counts.by_state[i] == 0) continue;
    out[fixtures::to_string(static_cast<fixtures::TcpState>(i))] = counts.by_state[i];
  }
  return out;
}

json::object fd_types_to_json(const fixtures::FdTypes& types) {
  json::object out;
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) out[fixtures::to_string(static_cast<fixtures::FdType>(t))] = types.by_type[t];
  return out;
}

json::object sample_to_json(const fixtures::TimedSample& s, clients::Clock::time_point origin) {
  json::object out{{"t", in_seconds(s.at - origin)},
                   {"processes", s.sample.processes},
                   {"fds", s.sample.fds},
                   {"rss_kib", s.sample.rss_kib},
                   {"threads", s.sample.threads}};
  if (s.sample.fd_types) out["fd_types"] = fd_types_to_json(*s.sample.fd_types);
  if (s.sample.tcp) {
    out["tcp"] = json::object{{"server", tcp_side(s.sample.tcp->server)},
                              {"client", tcp_side(s.sample.tcp->client)},
                              {"accept_queue", s.sample.tcp->accept_queue},
                              {"backlog", s.sample.tcp->backlog}};
  } else if (!s.sample.tcp_problem.empty()) {
    out["tcp_problem"] = s.sample.tcp_problem;
  }
  return out;
}

json::value limit_to_json(const std::optional<fixtures::ResourceLimit>& limit) {
  if (!limit) return nullptr;
  const auto side = [](const std::optional<std::uint64_t>& v) {
    return v ? json::value(*v) : json::value(nullptr);
  };
  return json::object{{"soft", side(limit->soft)}, {"hard", side(limit->hard)}};
}

}  // namespace

json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                             clients::Clock::time_point origin) {
  json::array samples;
  for (const auto& s : timeline) samples.push_back(sample_to_json(s, origin));
  return json::object{{"unit", "t: s since the scenario's origin; rss in KiB"},
                      {"samples", std::move(samples)}};
}

std::optional<fixtures::FdTypes> fd_types_from_json(const json::value& sample) {
  const auto* field = sample.is_object() ? sample.get_object().if_contains("fd_types") : nullptr;
  if (field == nullptr || field->is_null()) return std::nullopt;
  if (!field->is_object()) throw std::runtime_error("timeline sample: fd_types is not an object");
  fixtures::FdTypes types;
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    const auto* count = field->get_object().if_contains(fixtures::to_string(static_cast<fixtures::FdType>(t)));
    if (count == nullptr) continue;  // a type not written counts 0
    if (!count->is_uint64() && !count->is_int64()) {
      throw std::runtime_error(
          fmt::format("timeline sample: fd_types.{} is not a count", fixtures::to_string(static_cast<fixtures::FdType>(t))));
    }
    types.by_type[t] = static_cast<std::size_t>(count->to_number<std::uint64_t>());
  }
  return types;
}

json::value provenance_to_json(const fixtures::Provenance& p) {
  json::array environment;
  for (const auto& [name, value] : p.environment)
    environment.push_back(json::array{json::string(name), json::string(value)});
  return json::object{{"target", p.target},
                      {"target_source", p.target_source},
                      {"server_binary", p.server_binary.string()},
                      {"server_sha256", p.server_sha256},
                      {"command", json::array(p.command.begin(), p.command.end())},
                      {"environment", std::move(environment)},
                      {"environment_inherited", p.environment_inherited},
                      {"kernel", p.kernel},
                      {"server_nofile", limit_to_json(p.server_nofile)},
                      {"loiter_nofile", limit_to_json(p.loiter_nofile)},
                      {"server_cpus", json::array(p.server_cpus.begin(), p.server_cpus.end())},
                      {"client_cpus", json::array(p.client_cpus.begin(), p.client_cpus.end())},
                      {"online_cpus", p.online_cpus},
                      {"server_processes", p.server_processes},
                      {"server_threads", p.server_threads},
                      {"loiter_version", p.loiter_version},
                      {"build_type", p.build_type},
                      {"problems", json::array(p.problems.begin(), p.problems.end())}};
}

}  // namespace loiter::suites
