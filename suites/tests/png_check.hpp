// Whether a PNG file holds a picture: a valid signature and header, and image data with
// more than a handful of distinct byte values (a blank page has one or two). zlib only.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace loiter::suites::testing {

// nullopt when the PNG looks like a picture; otherwise what is wrong with it.
std::optional<std::string> png_problem(const std::filesystem::path& path);

}  // namespace loiter::suites::testing
