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

boost::json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                                    clients::Clock::time_point origin);

boost::json::value provenance_to_json(const fixtures::Provenance& provenance);

}  // namespace loiter::suites
