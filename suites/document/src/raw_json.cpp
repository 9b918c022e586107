// The timeline and provenance of a run as JSON, for the run directory: every field of the
// plain data, no judgement. Their structs described, the codec (described_json.hpp) does the
// rest; a sample leaves out what it does not have.
#include "loiter/suites/document/raw_json.hpp"

#include <fmt/format.h>

#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <stdexcept>
#include <string_view>

#include "loiter/reports/described_json.hpp"

namespace loiter::fixtures {

// The accept queue's length and capacity beside each side's states; listeners, the server
// side's LISTEN count, is not written.
BOOST_DESCRIBE_STRUCT(TcpCounts, (), (server, client, accept_queue, backlog))
BOOST_DESCRIBE_STRUCT(UdpCounts, (),
                      (port, sockets, rx_queue, drops, rcvbuf_errors, in_errors))
BOOST_DESCRIBE_STRUCT(ResourceLimit, (), (soft, hard))
// Not its CPU and processes, which the timeline does not keep.
BOOST_DESCRIBE_STRUCT(ProcessSample, (),
                      (processes, fds, rss_kib, threads, fd_types, tcp, tcp_problem, udp,
                       udp_problem))
BOOST_DESCRIBE_STRUCT(Provenance, (),
                      (target, target_source, server_binary, server_sha256, command, environment,
                       environment_inherited, kernel, server_nofile, loiter_nofile, server_cpus,
                       client_cpus, online_cpus, containment, server_processes, server_threads,
                       loiter_version, build_type, problems))

}  // namespace loiter::fixtures

namespace loiter::reports::described {

using fixtures::ProcessSample;

// fd_types, tcp and udp when the probe counted them (left out, not null, when it did not),
// tcp_problem only without tcp, udp_problem only without udp; the server side's LISTEN count
// is read again from its states.
template <>
inline constexpr bool kLeavesOutNone<ProcessSample> = true;
template <>
inline constexpr auto kWhenSet<ProcessSample> =
    std::tuple(&ProcessSample::tcp_problem, &ProcessSample::udp_problem);
template <>
struct Amend<ProcessSample> {
  static void write(const ProcessSample& sample, json::object& out) {
    if (sample.tcp) out.erase("tcp_problem");
    if (sample.udp) out.erase("udp_problem");
  }
  static void read(const json::object&, ProcessSample& sample) {
    if (sample.tcp) sample.tcp->listeners = sample.tcp->server.of(fixtures::TcpState::listen);
  }
};

// Descriptors by type: {"socket": n, "pipe": n, "file": n, "anon_inode": n, "other": n}; a
// type not written counts 0.
template <>
struct Codec<fixtures::FdTypes> {
  static json::value write(const fixtures::FdTypes& types) {
    json::object out;
    for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
      out[fixtures::to_string(static_cast<fixtures::FdType>(t))] = types.by_type[t];
    }
    return out;
  }
  static fixtures::FdTypes read(const json::value& json) {
    if (!json.is_object()) throw ReadError("", "must be an object");
    fixtures::FdTypes types;
    for (std::size_t t = 0; t < fixtures::kFdTypeCount; ++t) {
      const auto name = fixtures::to_string(static_cast<fixtures::FdType>(t));
      const auto* count = json.get_object().if_contains(name);
      try {
        if (count != nullptr) types.by_type[t] = described::read<std::size_t>(*count);
      } catch (const ReadError& e) {
        throw e.under(name);
      }
    }
    return types;
  }
};

// One side's TCP states by name ({"ESTABLISHED": 5, "LISTEN": 2}), those with 0 left out; a
// name that is no TCP state is refused.
template <>
struct Codec<fixtures::TcpSideCounts> {
  static json::value write(const fixtures::TcpSideCounts& counts) {
    json::object out;
    for (std::size_t i = 1; i < fixtures::kTcpStateCount; ++i) {
      if (counts.by_state[i] == 0) continue;
      out[fixtures::to_string(static_cast<fixtures::TcpState>(i))] = counts.by_state[i];
    }
    return out;
  }
  static fixtures::TcpSideCounts read(const json::value& json) {
    if (!json.is_object()) throw ReadError("", "must be an object");
    fixtures::TcpSideCounts counts;
    for (const auto& [key, count] : json.get_object()) {
      std::size_t i = 1;
      while (i < fixtures::kTcpStateCount &&
             fixtures::to_string(static_cast<fixtures::TcpState>(i)) != key) {
        ++i;
      }
      if (i == fixtures::kTcpStateCount) throw ReadError(key, "is not a TCP state");
      try {
        counts.by_state[i] = described::read<std::size_t>(count);
      } catch (const ReadError& e) {
        throw e.under(key);
      }
    }
    return counts;
  }
};

}  // namespace loiter::reports::described

namespace loiter::suites {

namespace json = boost::json;
namespace described = reports::described;

json::object sample_to_json(const fixtures::ProcessSample& sample) {
  return described::write(sample).as_object();
}

fixtures::ProcessSample sample_from_json(const json::value& value) {
  try {
    return described::read<fixtures::ProcessSample>(value);
  } catch (const described::ReadError& e) {
    throw std::runtime_error(fmt::format("sample: {}", e.what()));
  }
}

json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                             clients::Clock::time_point origin) {
  json::array samples;
  for (const auto& s : timeline) {
    json::object sample{{"t", described::write(s.at - origin)}};  // then the sample's fields
    for (auto& [key, value] : sample_to_json(s.sample)) sample.emplace(key, std::move(value));
    samples.push_back(std::move(sample));
  }
  return json::object{{"unit", "t: s since the scenario's origin; rss in KiB"},
                      {"samples", std::move(samples)}};
}

std::optional<fixtures::FdTypes> fd_types_from_json(const json::value& sample) {
  const auto* field = sample.is_object() ? sample.get_object().if_contains("fd_types") : nullptr;
  if (field == nullptr) return std::nullopt;
  try {
    return described::read<std::optional<fixtures::FdTypes>>(*field);
  } catch (const described::ReadError& e) {
    throw std::runtime_error(fmt::format("timeline sample: {}", e.under("fd_types").what()));
  }
}

json::value provenance_to_json(const fixtures::Provenance& provenance) {
  return described::write(provenance);
}

}  // namespace loiter::suites
