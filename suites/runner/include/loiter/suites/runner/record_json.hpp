// A connection record as JSON and back: every field of the plain record, no judgement. The
// run directory keeps one a line (records/<scenario>.jsonl); a client process sends its
// records to its parent this way. Times are seconds: on the scenario's origin (see
// observation_origin) for moments, since the connection's own connect within a record.
#pragma once

#include <boost/json/value.hpp>

#include "loiter/clients/record.hpp"

namespace loiter::suites {

boost::json::value record_to_json(const clients::ConnectionRecord& record,
                                  clients::Clock::time_point origin);

// The record record_to_json() wrote, back (ending_label, derived, is not read). A record's
// kind is kept for the life of the process, as the clients' static kind strings are.
// Throws std::invalid_argument naming what is missing or malformed.
clients::ConnectionRecord record_from_json(const boost::json::value& json,
                                           clients::Clock::time_point origin);

}  // namespace loiter::suites
