// report.json on disk: indented for people and diffs, read back from a file or run directory.
#include <fmt/format.h>

#include <boost/json.hpp>
#include <sstream>
#include <string>

#include "json_file.hpp"
#include "loiter/reports/json.hpp"

namespace loiter::reports {

namespace {

namespace json = boost::json;

// Scalars, arrays of scalars (a series' points) or small objects of scalars (a figure):
// kept on one line.
bool flat(const json::value& value, int depth = 0) {
  if (value.is_array()) {
    if (depth > 1) return false;
    for (const auto& item : value.get_array()) {
      if (!flat(item, depth + 1)) return false;
    }
  } else if (value.is_object()) {
    if (depth > 1 || value.get_object().size() > 4) return false;
    for (const auto& [key, item] : value.get_object()) {
      if (item.is_array() || item.is_object()) return false;
    }
  }
  return true;
}

// A double in its shortest round-trip digits, in fixed notation: 0.00001, not 1e-05 (the
// digits are fmt's, only the point moves, so the value reads back the same).
std::string fixed_double(double value) {
  const auto text = fmt::format("{}", value);
  const auto e = text.find('e');
  if (e == std::string::npos) return text;
  const bool negative = text.front() == '-';
  std::string digits = text.substr(negative ? 1 : 0, e - (negative ? 1 : 0));
  const auto dot = digits.find('.');
  const auto whole = static_cast<long>(dot == std::string::npos ? digits.size() : dot);
  if (dot != std::string::npos) digits.erase(dot, 1);
  const long point = whole + std::stol(text.substr(e + 1));
  const auto size = static_cast<long>(digits.size());
  std::string fixed;
  if (point <= 0) {
    fixed = "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  } else if (point >= size) {
    fixed = digits + std::string(static_cast<std::size_t>(point - size), '0');
  } else {
    fixed = digits.substr(0, static_cast<std::size_t>(point)) + "." +
            digits.substr(static_cast<std::size_t>(point));
  }
  return negative ? "-" + fixed : fixed;
}

// Like json::serialize, with doubles in their shortest round-trip form and fixed notation
// ("1.0012", not "1.0012E0"; "0.00001", not "1e-05").
void write_flat(const json::value& value, std::ostream& out) {
  if (value.is_double()) {
    out << fixed_double(value.get_double());
  } else if (value.is_array()) {
    out << "[";
    const char* separator = "";
    for (const auto& item : value.get_array()) {
      out << separator;
      write_flat(item, out);
      separator = ",";
    }
    out << "]";
  } else if (value.is_object()) {
    out << "{";
    const char* separator = "";
    for (const auto& [key, item] : value.get_object()) {
      out << separator << json::serialize(json::string(key)) << ": ";
      write_flat(item, out);
      separator = ", ";
    }
    out << "}";
  } else {
    out << json::serialize(value);
  }
}

void write_at(const json::value& value, std::ostream& out, int depth) {
  const std::string indent(static_cast<std::size_t>(2 * (depth + 1)), ' ');
  const std::string closing(static_cast<std::size_t>(2 * depth), ' ');
  if (flat(value)) {
    write_flat(value, out);
  } else if (value.is_object()) {
    out << "{\n";
    bool first = true;
    for (const auto& [key, item] : value.get_object()) {
      out << (first ? "" : ",\n") << indent << json::serialize(json::string(key)) << ": ";
      write_at(item, out, depth + 1);
      first = false;
    }
    out << "\n" << closing << "}";
  } else if (value.is_array()) {
    out << "[\n";
    bool first = true;
    for (const auto& item : value.get_array()) {
      out << (first ? "" : ",\n") << indent;
      write_at(item, out, depth + 1);
      first = false;
    }
    out << "\n" << closing << "]";
  }
}

}  // namespace

void write_pretty(const json::value& value, std::ostream& out) {
  write_at(value, out, 0);
  out << "\n";
}

std::string compact_text(const json::value& value) {
  std::ostringstream out;
  write_flat(value, out);
  return out.str();
}

std::string run_report_text(const RunReport& report) {
  std::ostringstream out;
  write_pretty(to_json(report), out);
  return out.str();
}

RunReport read_run_report(const std::filesystem::path& path) {
  const auto file = std::filesystem::is_directory(path) ? path / "report.json" : path;
  const auto document = read_json_file(file);
  try {
    return run_report_from_json(document);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  }
}

}  // namespace loiter::reports
