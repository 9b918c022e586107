// The raw observations of a run as JSON, for the run directory: one object per connection
// (records/<scenario>.jsonl), the sampled timeline (timeline/<scenario>.json) and the
// provenance of each server. Times are seconds: on the scenario's origin (see
// observation_origin) for moments, since the connection's own connect within a record.
#pragma once

#include <boost/json/value.hpp>

#include "loiter/clients/record.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/sampler.hpp"

namespace loiter::suites {

boost::json::value record_to_json(const clients::ConnectionRecord& record,
                                  clients::Clock::time_point origin);

// The record record_to_json() wrote, back (ending_label, derived, is not read). A record's
// kind is kept for the life of the process, as the clients' static kind strings are.
// Throws std::invalid_argument naming what is missing or malformed.
clients::ConnectionRecord record_from_json(const boost::json::value& json,
                                           clients::Clock::time_point origin);

boost::json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                                    clients::Clock::time_point origin);

boost::json::value provenance_to_json(const fixtures::Provenance& provenance);

}  // namespace loiter::suites
