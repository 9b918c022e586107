// denial.json: the canonical, versioned machine format of a Denial (reports/SCHEMA.md,
// "denial.json (loiter-denial/1)"), and reading it back so a stored denial ladder renders
// again.
#pragma once

#include <boost/json/value.hpp>
#include <filesystem>

#include "loiter/reports/denial.hpp"

namespace loiter::reports {

boost::json::value to_json(const Denial& denial);

// Throws std::runtime_error naming the key that is missing or malformed and where it is
// ("denial: sides[0].kinds[1].steps[2]: missing key 'held'"), or a schema this loiter does
// not read.
Denial denial_from_json(const boost::json::value& document);

// Reads a denial.json, or the denial.json of a directory. Throws std::runtime_error naming
// the file and what is wrong.
Denial read_denial(const std::filesystem::path& path);
// Whether `path` is a denial document (a denial.json, or a directory holding one, of schema
// loiter-denial/...): what `loiter report` may tell it by. Never throws.
bool is_denial(const std::filesystem::path& path);

}  // namespace loiter::reports
