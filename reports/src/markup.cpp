// The markup escape: well-formed UTF-8 kept, the five special characters as references,
// what XML cannot carry as U+FFFD.
#include "loiter/reports/markup.hpp"

#include <cstddef>

namespace loiter::reports {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence at text[i] (a valid XML character), or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t length = lead >= 0xF0 && lead <= 0xF4   ? 4
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xC2 && lead <= 0xDF ? 2
                                                            : 0;
  if (length == 0 || i + length > text.size()) return 0;
  char32_t code = lead & (0x7F >> length);  // the lead byte's payload bits
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  const bool excluded = code == 0xFFFE || code == 0xFFFF || code > 0x10FFFF;
  return code < least[length] || surrogate || excluded ? 0 : length;
}

}  // namespace

std::string escape_markup(std::string_view text, Breaks breaks) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      const auto length = utf8_length(text, i);
      out += length == 0 ? kReplacement : text.substr(i, length);
      i += length == 0 ? 1 : length;
      continue;
    }
    ++i;
    switch (c) {
      case '&':
        out += "&amp;";
        continue;
      case '<':
        out += "&lt;";
        continue;
      case '>':
        out += "&gt;";
        continue;
      case '"':
        out += "&quot;";
        continue;
      case '\'':
        out += "&#39;";
        continue;
      case '\t':
      case '\n':
      case '\r':
        if (breaks == Breaks::kept) {
          out += c;
        } else {
          out += "&#" + std::to_string(byte) + ";";
        }
        continue;
      default:
        out += byte < 0x20 || byte == 0x7F ? kReplacement : std::string_view(&c, 1);
    }
  }
  return out;
}

}  // namespace loiter::reports
