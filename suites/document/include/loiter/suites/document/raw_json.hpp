// The raw observations of a run as JSON, for the run directory, beside the records
// (runner/record_json.hpp): the sampled timeline (timeline/<scenario>.json) and the
// provenance of each server. Times are seconds on the scenario's origin (see
// observation_origin).
#pragma once

#include <boost/json/value.hpp>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/fixtures/probe/sampler.hpp"
#include "loiter/fixtures/provenance.hpp"

namespace loiter::suites {

boost::json::value timeline_to_json(const std::vector<fixtures::TimedSample>& timeline,
                                    clients::Clock::time_point origin);

boost::json::value provenance_to_json(const fixtures::Provenance& provenance);

}  // namespace loiter::suites
