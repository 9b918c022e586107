// A PNG is a picture when its inflated image data has more than a few distinct byte values;
// its colours are counted on the unfiltered pixels.
#include "png_check.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <array>
#include <cstdlib>
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

struct Header {
  std::uint32_t width = 0, height = 0;
  unsigned depth = 0, colour_type = 0, interlace = 0;
};

// The IHDR chunk, which a PNG holds first.
std::optional<Header> header_of(const std::vector<unsigned char>& file) {
  if (file.size() < 33 || std::string_view(reinterpret_cast<const char*>(&file[12]), 4) != "IHDR")
    return std::nullopt;
  return Header{big_endian(&file[16]), big_endian(&file[20]), file[24], file[25], file[28]};
}

unsigned char paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<unsigned char>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Undoes each row's filter in place (PNG's filters 0-4); false on an unknown filter.
bool unfilter(std::vector<unsigned char>& raw, std::size_t rows, std::size_t stride,
              std::size_t bpp) {
  for (std::size_t y = 0; y < rows; ++y) {
    unsigned char* row = &raw[y * (stride + 1)];
    const unsigned char* prev = y == 0 ? nullptr : row - (stride + 1);
    const unsigned filter = row[0];
    for (std::size_t x = 1; x <= stride; ++x) {
      const int a = x > bpp ? row[x - bpp] : 0, b = prev ? prev[x] : 0;
      const int c = prev && x > bpp ? prev[x - bpp] : 0;
      const int add = filter == 0   ? 0
                      : filter == 1 ? a
                      : filter == 2 ? b
                      : filter == 3 ? (a + b) / 2
                      : filter == 4 ? paeth(a, b, c)
                                    : -1;
      if (add < 0) return false;
      row[x] = static_cast<unsigned char>(row[x] + add);
    }
  }
  return true;
}

std::array<int, 3> rgb_of(const std::string& hex) {
  const auto channel = [&](std::size_t at) {
    return static_cast<int>(std::strtol(hex.substr(at, 2).c_str(), nullptr, 16));
  };
  return {channel(1), channel(3), channel(5)};
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

std::optional<std::string> png_colour_problem(const std::filesystem::path& path,
                                              const std::vector<std::string>& colours,
                                              std::size_t pixels) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<unsigned char> file{std::istreambuf_iterator<char>(in), {}};
  const auto header = header_of(file);
  if (!header || header->depth != 8 || (header->colour_type != 2 && header->colour_type != 6) ||
      header->interlace != 0)
    return fmt::format("{}: not an 8-bit RGB(A), non-interlaced PNG", path.string());
  const std::size_t bpp = header->colour_type == 6 ? 4 : 3, stride = header->width * bpp;
  const auto compressed = image_data(file);
  std::vector<unsigned char> raw(header->height * (stride + 1));
  uLongf size = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &size, compressed.data(), static_cast<uLong>(compressed.size())) !=
          Z_OK ||
      size != raw.size() || !unfilter(raw, header->height, stride, bpp))
    return fmt::format("{}: cannot decode its image data", path.string());
  for (const auto& colour : colours) {
    const auto want = rgb_of(colour);
    std::size_t seen = 0;
    for (std::size_t y = 0; y < header->height; ++y) {
      for (std::size_t x = 0; x < header->width; ++x) {
        const unsigned char* p = &raw[y * (stride + 1) + 1 + x * bpp];
        seen += std::abs(p[0] - want[0]) <= 2 && std::abs(p[1] - want[1]) <= 2 &&
                std::abs(p[2] - want[2]) <= 2;
      }
    }
    if (seen < pixels)
      return fmt::format("{}: {} covers {} pixels, fewer than {}", path.string(), colour, seen,
                         pixels);
  }
  return std::nullopt;
}

}  // namespace loiter::suites::testing
