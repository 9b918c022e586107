// A JSON document read from a file, for every reader of loiter's documents (report.json,
// survey.json). Private to reports/.
#pragma once

#include <boost/json/value.hpp>
#include <filesystem>

namespace loiter::reports {

// Throws std::runtime_error naming the file: "cannot read FILE", "FILE: not JSON: why".
boost::json::value read_json_file(const std::filesystem::path& file);

}  // namespace loiter::reports
