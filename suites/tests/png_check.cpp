// A PNG is a picture when its inflated image data has more than a few distinct byte values.
#include "png_check.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <array>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

namespace loiter::suites::testing {

namespace {

std::uint32_t big_endian(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}

// The concatenated IDAT chunks; empty if the file is not a PNG.
std::vector<unsigned char> image_data(const std::vector<unsigned char>& file) {
  static constexpr std::array<unsigned char, 8> kSignature{0x89, 'P',  'N',  'G',
                                                           '\r', '\n', 0x1a, '\n'};
  std::vector<unsigned char> data;
  if (file.size() < 8 || !std::equal(kSignature.begin(), kSignature.end(), file.begin()))
    return data;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    const std::size_t length = big_endian(&file[at]);
    if (at + 12 + length > file.size()) break;
    if (std::string_view(reinterpret_cast<const char*>(&file[at + 4]), 4) == "IDAT") {
      data.insert(data.end(), file.begin() + static_cast<long>(at + 8),
                  file.begin() + static_cast<long>(at + 8 + length));
    }
    at += 12 + length;
  }
  return data;
}

}  // namespace

std::optional<std::string> png_problem(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fmt::format("cannot read {}", path.string());
  const std::vector<unsigned char> file{std::istreambuf_iterator<char>(in), {}};
  const auto compressed = image_data(file);
  if (compressed.empty()) return fmt::format("{} is not a PNG with image data", path.string());
  std::vector<unsigned char> pixels(64u << 20);
  uLongf size = static_cast<uLongf>(pixels.size());
  const int status =
      uncompress(pixels.data(), &size, compressed.data(), static_cast<uLong>(compressed.size()));
  if (status != Z_OK && status != Z_BUF_ERROR)
    return fmt::format("{}: cannot inflate", path.string());
  std::array<bool, 256> seen{};
  std::size_t distinct = 0;
  for (uLongf i = 0; i < size; ++i) distinct += !std::exchange(seen[pixels[i]], true);
  if (distinct < 24)
    return fmt::format("{} looks blank ({} distinct byte values)", path.string(), distinct);
  return std::nullopt;
}

}  // namespace loiter::suites::testing
