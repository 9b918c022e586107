// YAML from JSON values through yaml-cpp's emitter: block style, every string value
// double-quoted (so no YAML 1.1 reader takes "on", "1" or "null" for anything but a string),
// non-ASCII escaped as \u (so no reader folds U+2028 or NEL), doubles with their '.'.
#include "yaml_emit.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

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
// nothing a reader could take for a number, an indicator or a comment. Other keys are quoted.
bool plain_key(std::string_view key) {
  if (key.empty() || special_word(key)) return false;
  const auto first = static_cast<unsigned char>(key.front());
  if (!std::isalpha(first) && first != '_') return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '.' || c == '/' || c == '-';
  });
}

// A double as YAML 1.1 reads back a float: always with a '.' ("5.0", "1.0e+20").
std::string number(double d) {
  if (std::isnan(d)) return ".nan";
  if (std::isinf(d)) return d > 0 ? ".inf" : "-.inf";
  auto text = fmt::format("{}", d);  // shortest round trip: "0.5", "5", "1e+20"
  if (text.find('.') != std::string::npos) return text;
  const auto e = text.find('e');
  return e == std::string::npos ? text + ".0" : text.insert(e, ".0");
}

void emit(YAML::Emitter& out, const json::value& value) {
  switch (value.kind()) {
    case json::kind::object:
      if (value.get_object().empty()) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      out << YAML::BeginMap;
      for (const auto& [key, item] : value.get_object()) {
        out << YAML::Key;
        if (plain_key(key)) {
          out << std::string(key);
        } else {
          out << YAML::DoubleQuoted << std::string(key);
        }
        out << YAML::Value;
        emit(out, item);
      }
      out << YAML::EndMap;
      return;
    case json::kind::array:
      if (value.get_array().empty()) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      out << YAML::BeginSeq;
      for (const auto& item : value.get_array()) emit(out, item);
      out << YAML::EndSeq;
      return;
    case json::kind::string:
      out << YAML::DoubleQuoted << std::string(value.get_string());
      return;
    case json::kind::double_:
      out << number(value.get_double());  // a valid plain scalar: written plain
      return;
    case json::kind::int64:
      out << value.get_int64();
      return;
    case json::kind::uint64:
      out << value.get_uint64();
      return;
    case json::kind::bool_:
      out << value.get_bool();
      return;
    case json::kind::null:
      out << YAML::Null;
      return;
  }
}

void comment_lines(std::string& out, const std::vector<std::string>& comment) {
  for (const auto& block : comment) {
    std::size_t from = 0;
    for (;;) {
      const auto end = block.find('\n', from);
      const auto line = std::string_view(block).substr(from, end - from);
      out += line.empty() ? "#\n" : fmt::format("# {}\n", line);
      if (end == std::string::npos) break;
      from = end + 1;
    }
  }
}

}  // namespace

std::string yaml_quoted(std::string_view text) {
  YAML::Emitter out;
  out.SetOutputCharset(YAML::EscapeNonAscii);
  out << YAML::DoubleQuoted << std::string(text);
  return out.c_str();
}

std::string to_yaml(const json::value& value) {
  YAML::Emitter out;
  out.SetOutputCharset(YAML::EscapeNonAscii);
  out.SetBoolFormat(YAML::TrueFalseBool);
  out.SetSeqFormat(YAML::Block);
  out.SetMapFormat(YAML::Block);
  out.SetIndent(2);
  emit(out, value);
  if (!out.good()) throw std::logic_error(fmt::format("YAML emitter: {}", out.GetLastError()));
  return std::string(out.c_str()) + "\n";
}

std::string yaml_stream(const std::vector<std::string>& header,
                        const std::vector<YamlDocument>& documents) {
  std::string out;
  comment_lines(out, header);
  for (const auto& document : documents) {
    out += "---\n";
    comment_lines(out, document.comment);
    out += to_yaml(document.value);
  }
  return out;
}

}  // namespace loiter::cli
