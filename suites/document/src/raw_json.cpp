// The timeline and provenance of a run as JSON, for the run directory: every field of the
// plain data, no judgement. Their structs described, the codec (described_json.hpp) does the
// rest; a sample's form (raw_file::Sample) leaves out what it does not have.
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
BOOST_DESCRIBE_STRUCT(ResourceLimit, (), (soft, hard))
BOOST_DESCRIBE_STRUCT(Provenance, (),
                      (target, target_source, server_binary, server_sha256, command, environment,
                       environment_inherited, kernel, server_nofile, loiter_nofile, server_cpus,
                       client_cpus, online_cpus, containment, server_processes, server_threads,
                       loiter_version, build_type, problems))

}  // namespace loiter::fixtures

namespace loiter::suites::raw_file {

// A sample's fields as the files keep them: fd_types and tcp when the probe counted them
// (left out, not null, when it did not), tcp_problem only without tcp.
struct Sample {
  std::size_t processes = 0, fds = 0, rss_kib = 0, threads = 0;
  std::optional<fixtures::FdTypes> fd_types;
  std::optional<fixtures::TcpCounts> tcp;
  std::optional<std::string> tcp_problem;
};
BOOST_DESCRIBE_STRUCT(Sample, (), (processes, fds, rss_kib, threads, fd_types, tcp, tcp_problem))

}  // namespace loiter::suites::raw_file

namespace loiter::reports::described {

template <>
inline constexpr bool kLeavesOutNone<suites::raw_file::Sample> = true;

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
  const bool problem = !sample.tcp && !sample.tcp_problem.empty();
  return described::write(raw_file::Sample{.processes = sample.processes,
                                           .fds = sample.fds,
                                           .rss_kib = sample.rss_kib,
                                           .threads = sample.threads,
                                           .fd_types = sample.fd_types,
                                           .tcp = sample.tcp,
                                           .tcp_problem = problem
                                                              ? std::optional(sample.tcp_problem)
                                                              : std::nullopt})
      .as_object();
}

fixtures::ProcessSample sample_from_json(const json::value& value) {
  raw_file::Sample file;
  try {
    file = described::read<raw_file::Sample>(value);
  } catch (const described::ReadError& e) {
    throw std::runtime_error(fmt::format("sample: {}", e.what()));
  }
  fixtures::ProcessSample sample{.processes = file.processes,
                                 .fds = file.fds,
                                 .rss_kib = file.rss_kib,
                                 .threads = file.threads,
                                 .fd_types = file.fd_types,
                                 .tcp = file.tcp,
                                 .tcp_problem = file.tcp_problem.value_or("")};
  if (sample.tcp) sample.tcp->listeners = sample.tcp->server.of(fixtures::TcpState::listen);
  return sample;
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
