// A whole file read or written at once (the run and shard directories' JSON).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace loiter::suites {

// Throws std::runtime_error naming the path when it cannot be read.
std::string read_file(const std::filesystem::path& path);
// Writes `text` to `path`; throws std::runtime_error naming the path on failure.
void write_file(const std::filesystem::path& path, std::string_view text);

}  // namespace loiter::suites
