// Whether a PNG file holds a picture: a valid signature and header, and image data with
// more than a handful of distinct byte values (a blank page has one or two); and whether
// given colours appear in it (8-bit RGB or RGBA, not interlaced, as chromium writes). zlib
// only.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace loiter::suites::testing {

// nullopt when the PNG looks like a picture; otherwise what is wrong with it.
std::optional<std::string> png_problem(const std::filesystem::path& path);

// nullopt when each colour ("#rrggbb") covers at least `pixels` pixels of the picture
// (within 2 of each channel); otherwise which colour is missing, and how much of it there is.
std::optional<std::string> png_colour_problem(const std::filesystem::path& path,
                                              const std::vector<std::string>& colours,
                                              std::size_t pixels);

}  // namespace loiter::suites::testing
