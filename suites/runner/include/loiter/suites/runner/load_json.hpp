// The regular traffic's result as JSON and back, whole: every count, and every latency
// histogram as its buckets (LatencyHistogram::Parts), so shards of one run merge exactly.
// Times are integer nanoseconds: moments on `origin` (the run's shared start), spans as
// they are.
#pragma once

#include <boost/json/value.hpp>

#include "loiter/clients/load/load_result.hpp"

namespace loiter::suites {

boost::json::value load_to_json(const clients::LoadResult& load, clients::Clock::time_point origin);

// Throws std::invalid_argument naming what is missing or malformed.
clients::LoadResult load_from_json(const boost::json::value& json,
                                   clients::Clock::time_point origin);

// Adds `part` (another shard's result of the same schedule) into `sum`: counts add, histograms
// merge, maxima take the larger, the span takes the widest (earliest start, latest end),
// seconds add second by second (their p50/p99/max read again from the merged histograms).
// max_sends_in_one_ms stays the largest of one shard's: no shard knows another's milliseconds.
void merge_load(clients::LoadResult& sum, const clients::LoadResult& part);

}  // namespace loiter::suites
