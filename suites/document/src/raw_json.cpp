// The timeline and provenance of a run as JSON, for the run directory: every field of the
// plain data, no judgement.
#include "loiter/suites/document/raw_json.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <stdexcept>
#include <string_view>

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

// A count under `key` of an object: a non-negative integer. Throws std::runtime_error
// naming the key (after `prefix`, "tcp.").
std::size_t count_at(const json::value& object, std::string_view key,
                     std::string_view prefix = "") {
  const auto* field = object.get_object().if_contains(key);
  if (field == nullptr)
    throw std::runtime_error(fmt::format("sample: {}{} is missing", prefix, key));
  if (field->is_uint64()) return static_cast<std::size_t>(field->get_uint64());
  if (field->is_int64() && field->get_int64() >= 0)
    return static_cast<std::size_t>(field->get_int64());
  throw std::runtime_error(fmt::format("sample: {}{} is not a count", prefix, key));
}

json::object fd_types_to_json(const fixtures::FdTypes& types) {
  json::object out;
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t)
    out[fixtures::to_string(static_cast<fixtures::FdType>(t))] = types.by_type[t];
  return out;
}

json::value limit_to_json(const std::optional<fixtures::ResourceLimit>& limit) {
  if (!limit) return nullptr;
  const auto side = [](const std::optional<std::uint64_t>& v) {
    return v ? json::value(*v) : json::value(nullptr);
  };
  return json::object{{"soft", side(limit->soft)}, {"hard", side(limit->hard)}};
}

// Each of a side's states from its name; a name not known is a problem with the file.
fixtures::TcpSideCounts tcp_side_from_json(const json::value& side, std::string_view name) {
  if (!side.is_object())
    throw std::runtime_error(fmt::format("sample: tcp.{} is not an object", name));
  fixtures::TcpSideCounts counts;
  for (const auto& [key, count] : side.get_object()) {
    std::size_t i = 1;
    while (i < fixtures::kTcpStateCount &&
           fixtures::to_string(static_cast<fixtures::TcpState>(i)) != key)
      ++i;
    if (i == fixtures::kTcpStateCount) {
      throw std::runtime_error(
          fmt::format("sample: tcp.{}.{} is not a TCP state", name, std::string_view(key)));
    }
    counts.by_state[i] = count_at(side, key, fmt::format("tcp.{}.", name));
  }
  return counts;
}

}  // namespace

json::object sample_to_json(const fixtures::ProcessSample& sample) {
  json::object out{{"processes", sample.processes},
                   {"fds", sample.fds},
                   {"rss_kib", sample.rss_kib},
                   {"threads", sample.threads}};
  if (sample.fd_types) out["fd_types"] = fd_types_to_json(*sample.fd_types);
  if (sample.tcp) {
    out["tcp"] = json::object{{"server", tcp_side(sample.tcp->server)},
                              {"client", tcp_side(sample.tcp->client)},
                              {"accept_queue", sample.tcp->accept_queue},
                              {"backlog", sample.tcp->backlog}};
  } else if (!sample.tcp_problem.empty()) {
    out["tcp_problem"] = sample.tcp_problem;
  }
  return out;
}

fixtures::ProcessSample sample_from_json(const json::value& value) {
  if (!value.is_object()) throw std::runtime_error("sample: not an object");
  fixtures::ProcessSample sample{.processes = count_at(value, "processes"),
                                 .fds = count_at(value, "fds"),
                                 .rss_kib = count_at(value, "rss_kib"),
                                 .threads = count_at(value, "threads")};
  sample.fd_types = fd_types_from_json(value);
  const auto& object = value.get_object();
  if (const auto* tcp = object.if_contains("tcp"); tcp != nullptr && !tcp->is_null()) {
    if (!tcp->is_object()) throw std::runtime_error("sample: tcp is not an object");
    fixtures::TcpCounts counts;
    for (const auto* side : {"server", "client"}) {
      const auto* field = tcp->get_object().if_contains(side);
      if (field == nullptr)
        throw std::runtime_error(fmt::format("sample: tcp.{} is missing", side));
      (side == std::string_view("server") ? counts.server : counts.client) =
          tcp_side_from_json(*field, side);
    }
    counts.listeners = counts.server.of(fixtures::TcpState::listen);  // each listener is one
    counts.accept_queue = count_at(*tcp, "accept_queue", "tcp.");
    counts.backlog = count_at(*tcp, "backlog", "tcp.");
    sample.tcp = counts;
  }
  if (const auto* problem = object.if_contains("tcp_problem"); problem != nullptr) {
    if (!problem->is_string()) throw std::runtime_error("sample: tcp_problem is not a string");
    sample.tcp_problem = std::string(problem->get_string());
  }
  return sample;
}

json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                             clients::Clock::time_point origin) {
  json::array samples;
  for (const auto& s : timeline) {
    json::object sample{{"t", in_seconds(s.at - origin)}};
    for (auto& [key, value] : sample_to_json(s.sample)) sample.emplace(key, std::move(value));
    samples.push_back(std::move(sample));
  }
  return json::object{{"unit", "t: s since the scenario's origin; rss in KiB"},
                      {"samples", std::move(samples)}};
}

std::optional<fixtures::FdTypes> fd_types_from_json(const json::value& sample) {
  const auto* field = sample.is_object() ? sample.get_object().if_contains("fd_types") : nullptr;
  if (field == nullptr || field->is_null()) return std::nullopt;
  if (!field->is_object()) throw std::runtime_error("timeline sample: fd_types is not an object");
  fixtures::FdTypes types;
  for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
    const auto* count =
        field->get_object().if_contains(fixtures::to_string(static_cast<fixtures::FdType>(t)));
    if (count == nullptr) continue;  // a type not written counts 0
    if (!count->is_uint64() && !count->is_int64()) {
      throw std::runtime_error(fmt::format("timeline sample: fd_types.{} is not a count",
                                           fixtures::to_string(static_cast<fixtures::FdType>(t))));
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
                      {"containment", p.containment},
                      {"server_processes", p.server_processes},
                      {"server_threads", p.server_threads},
                      {"loiter_version", p.loiter_version},
                      {"build_type", p.build_type},
                      {"problems", json::array(p.problems.begin(), p.problems.end())}};
}

}  // namespace loiter::suites
