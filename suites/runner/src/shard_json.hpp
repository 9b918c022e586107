// shard.json's header as JSON and back (shard_json.cpp); the plan's own JSON and hash are
// in shard_files.hpp. Private to the runner.
#pragma once

#include <boost/json/value.hpp>

#include "loiter/suites/runner/shard_files.hpp"

namespace loiter::suites {

boost::json::value header_to_json(const ShardHeader& header);
// Throws std::invalid_argument (reports::described::ReadError) naming what is wrong.
ShardHeader header_from_json(const boost::json::value& json);

}  // namespace loiter::suites
