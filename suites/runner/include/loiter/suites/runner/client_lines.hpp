// What a client process sends back to the process that forked it, one JSON object a line
// over a pipe: each record of its share of the fleets, with the record's fleet and index;
// then one last line with the fleets' sizes and how many records it sent; or, if it failed,
// its error. Times are seconds on the shared timeline's origin (as in raw_json.hpp), which
// both processes know. The parent merges every process's records back into whole fleets.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "loiter/clients/record.hpp"

namespace loiter::suites {

struct FleetRecord {
  std::size_t fleet = 0;  // which of the scenario's fleets, in the order it spawned them
  std::size_t index = 0;  // the connection's index within its fleet
  clients::ConnectionRecord record;
};

// The last line of a client process that ran to its end.
struct ShareEnd {
  std::vector<std::size_t> fleets;  // each fleet's whole size (every process's share)
  std::size_t records = 0;          // record lines this process sent before
};

struct ShareError {
  std::string message;
};

using ClientLine = std::variant<FleetRecord, ShareEnd, ShareError>;

// One line each, ending in '\n'.
std::string record_line(std::size_t fleet, std::size_t index,
                        const clients::ConnectionRecord& record, clients::Clock::time_point origin);
std::string end_line(const ShareEnd& end);
std::string error_line(std::string_view message);

// One line (without its '\n'); throws std::invalid_argument when it is none of the above.
ClientLine parse_client_line(std::string_view line, clients::Clock::time_point origin);

// The fleets, each in index order, from every process's records (in any order): fleet f
// holds the records sent for it, so a record never sent leaves its fleet short (which the
// judge reports). Throws std::invalid_argument on a record sent twice.
std::deque<std::vector<clients::ConnectionRecord>> merge_fleets(std::vector<FleetRecord> records,
                                                                std::size_t fleets);

}  // namespace loiter::suites
