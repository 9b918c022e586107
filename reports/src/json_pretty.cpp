// report.json on disk: indented for people and diffs, read back from a file or run directory.
#include <fmt/format.h>

#include <boost/json.hpp>
#include <fstream>
#include <sstream>

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

// Like json::serialize, with doubles in their shortest round-trip form ("1.0012", not
// "1.0012E0").
void write_flat(const json::value& value, std::ostream& out) {
  if (value.is_double()) {
    out << fmt::format("{}", value.get_double());
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
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code error;
  const auto document = json::parse(text.str(), error);
  if (error) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", file.string(), error.message()));
  }
  try {
    return run_report_from_json(document);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  }
}

}  // namespace loiter::reports
