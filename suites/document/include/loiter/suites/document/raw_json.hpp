// The raw observations of a run as JSON, for the run directory, beside the records
// (runner/record_json.hpp): the sampled timeline (timeline/<scenario>.json) and the
// provenance of each server. Times are seconds on the scenario's origin (see
// observation_origin).
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/fixtures/probe/sampler.hpp"
#include "loiter/fixtures/provenance.hpp"

namespace loiter::suites {

// One sample's fields: {processes, fds, rss_kib, threads, fd_types (when the probe counted
// them: {"socket": n, "pipe": n, "file": n, "anon_inode": n, "other": n}), tcp ({"server":
// {state: n}, "client": {state: n}, accept_queue, backlog}; states with 0 left out) or
// tcp_problem, udp (an HTTP/3 server's UDP sockets on its port: {port, sockets, rx_queue,
// drops, rcvbuf_errors, in_errors}) or udp_problem}. Not per_process.
boost::json::object sample_to_json(const fixtures::ProcessSample& sample);

// sample_to_json read back (TcpCounts::listeners is the server side's LISTEN count; per_process
// stays empty). Throws std::runtime_error naming the key that is missing or not what it must be.
fixtures::ProcessSample sample_from_json(const boost::json::value& sample);

// {"unit", "samples": [{t, then the sample's fields as sample_to_json writes them}]}.
boost::json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                                    clients::Clock::time_point origin);

// A timeline sample's "fd_types" read back; nullopt where the sample has none. Throws
// std::runtime_error naming the key when it is not an object of counts.
std::optional<fixtures::FdTypes> fd_types_from_json(const boost::json::value& sample);

boost::json::value provenance_to_json(const fixtures::Provenance& provenance);

}  // namespace loiter::suites
