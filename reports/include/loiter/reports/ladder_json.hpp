// ladder.json: the canonical, versioned machine format of a Ladder (reports/SCHEMA.md,
// "ladder.json (loiter-ladder/1)"), and reading it back so a stored ladder renders again.
#pragma once

#include <boost/json/value.hpp>
#include <filesystem>

#include "loiter/reports/ladder.hpp"

namespace loiter::reports {

boost::json::value to_json(const Ladder& ladder);

// Throws std::runtime_error naming the key that is missing or malformed and where it is
// ("ladder: sides[0].steps[2]: missing key 'rate'"), or a schema this loiter does not read.
Ladder ladder_from_json(const boost::json::value& document);

// Reads a ladder.json, or the ladder.json of a directory. Throws std::runtime_error naming
// the file and what is wrong.
Ladder read_ladder(const std::filesystem::path& path);
// Whether `path` is a ladder document (a ladder.json, or a directory holding one, of schema
// loiter-ladder/...): what `loiter report` and `loiter compare` tell it by.
bool is_ladder(const std::filesystem::path& path);

}  // namespace loiter::reports
