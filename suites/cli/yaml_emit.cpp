// YAML from JSON values, block style: mappings as "key: value", sequences as "- item" with
// a mapping item's first key on the dash's line, strings double-quoted.
#include "yaml_emit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cctype>
#include <cmath>

namespace loiter::cli {

namespace json = boost::json;

namespace {

// Words a YAML 1.1 reader (PyYAML) takes for booleans or null when plain.
constexpr std::array<std::string_view, 11> kSpecialWords = {
    "y", "n", "yes", "no", "true", "false", "on", "off", "null", "~", "nan"};

bool special_word(std::string_view key) {
  std::string lower(key);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::find(kSpecialWords.begin(), kSpecialWords.end(), lower) != kSpecialWords.end();
}

// A letter or '_' first, then letters, digits, '_', '.', '/', '-' ("app.kubernetes.io/name"):
// nothing a reader could take for a number, an indicator or a comment.
bool plain_key(std::string_view key) {
  if (key.empty() || special_word(key)) return false;
  const auto first = static_cast<unsigned char>(key.front());
  if (!std::isalpha(first) && first != '_') return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '.' || c == '/' || c == '-';
  });
}

// The code point of a valid 2- or 3-byte UTF-8 sequence at `text[i]`, and its length; 0
// length otherwise (4-byte sequences and invalid bytes pass through unchanged).
std::pair<char32_t, std::size_t> utf8_at(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const auto continuation = [&](std::size_t k) {
    return i + k < text.size() && (byte(k) & 0xC0) == 0x80;
  };
  if ((byte(0) & 0xE0) == 0xC0 && continuation(1)) {
    return {static_cast<char32_t>(((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F)), 2};
  }
  if ((byte(0) & 0xF0) == 0xE0 && continuation(1) && continuation(2)) {
    return {static_cast<char32_t>(((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) |
                                  (byte(2) & 0x3F)),
            3};
  }
  return {0, 0};
}

// C1 controls (NEL among them), the line and paragraph separators and the BOM: a YAML
// reader folds or refuses them raw inside a scalar.
bool escaped_code_point(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0xFEFF;
}

std::string number(double d) {
  if (std::isnan(d)) return ".nan";
  if (std::isinf(d)) return d > 0 ? ".inf" : "-.inf";
  auto text = fmt::format("{}", d);  // shortest round trip: "0.5", "5", "1e+20"
  if (text.find('.') != std::string::npos) return text;
  const auto e = text.find('e');  // a YAML 1.1 float needs its '.': "5.0", "1.0e+20"
  return e == std::string::npos ? text + ".0" : text.insert(e, ".0");
}

std::string scalar(const json::value& value) {
  switch (value.kind()) {
    case json::kind::string:
      return yaml_quoted(value.get_string());
    case json::kind::bool_:
      return value.get_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(value.get_int64());
    case json::kind::uint64:
      return std::to_string(value.get_uint64());
    case json::kind::double_:
      return number(value.get_double());
    case json::kind::null:
      return "null";
    case json::kind::array:
      return "[]";  // only empty containers are scalars here
    case json::kind::object:
      return "{}";
  }
  return "null";
}

bool nested(const json::value& value) {
  return (value.is_object() && !value.get_object().empty()) ||
         (value.is_array() && !value.get_array().empty());
}

std::string key_text(std::string_view key) {
  return plain_key(key) ? std::string(key) : yaml_quoted(key);
}

// The lines of `value`, unindented.
std::vector<std::string> lines_of(const json::value& value) {
  std::vector<std::string> out;
  if (!nested(value)) {
    out.push_back(scalar(value));
  } else if (value.is_object()) {
    for (const auto& [key, item] : value.get_object()) {
      if (!nested(item)) {
        out.push_back(fmt::format("{}: {}", key_text(key), scalar(item)));
        continue;
      }
      out.push_back(key_text(key) + ":");
      for (const auto& line : lines_of(item)) out.push_back("  " + line);
    }
  } else {
    for (const auto& item : value.get_array()) {
      const auto inner = lines_of(item);
      for (std::size_t i = 0; i < inner.size(); ++i) {
        out.push_back((i == 0 ? "- " : "  ") + inner[i]);
      }
    }
  }
  return out;
}

}  // namespace

std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      default:
        break;
    }
    if (u < 0x20 || u == 0x7F) {
      out += fmt::format("\\u{:04x}", u);
      continue;
    }
    if (u >= 0x80) {
      const auto [code_point, length] = utf8_at(text, i);
      if (length != 0 && escaped_code_point(code_point)) {
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(code_point));
        i += length - 1;
        continue;
      }
    }
    out += c;
  }
  return out + "\"";
}

std::string to_yaml(const json::value& value) {
  std::string out;
  for (const auto& line : lines_of(value)) out += line + "\n";
  return out;
}

std::string yaml_stream(const std::vector<std::string>& header,
                        const std::vector<YamlDocument>& documents) {
  const auto comment = [](const std::string& text, std::string& out) {
    std::size_t start = 0;
    while (true) {  // each line of a comment its own "# " line
      const auto end = text.find('\n', start);
      const auto line = std::string_view(text).substr(start, end - start);
      out += line.empty() ? "#\n" : fmt::format("# {}\n", line);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  };
  std::string out;
  for (const auto& line : header) comment(line, out);
  for (const auto& document : documents) {
    out += "---\n";
    for (const auto& line : document.comment) comment(line, out);
    out += to_yaml(document.value);
  }
  return out;
}

}  // namespace loiter::cli
