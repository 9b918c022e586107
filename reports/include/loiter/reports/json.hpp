// report.json: the canonical, versioned machine format of a RunReport (reports/SCHEMA.md).
#pragma once

#include <boost/json/value.hpp>
#include <filesystem>
#include <ostream>
#include <string>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

boost::json::value to_json(const RunReport& report);

// Throws std::runtime_error naming the key that is missing or malformed, or a schema this
// version of loiter does not read.
RunReport run_report_from_json(const boost::json::value& document);

// Indented JSON, two spaces, one key per line; an array of numbers (a point) stays on one
// line; doubles as compact_text writes them. Ends with a newline.
void write_pretty(const boost::json::value& value, std::ostream& out);

// One line, doubles in their shortest round-trip form and never in scientific notation
// ("1.0012", not "1.0012E0"; "0.00001", not "1e-05").
std::string compact_text(const boost::json::value& value);

// report.json as written to disk (pretty).
std::string run_report_text(const RunReport& report);
// Reads a report.json, or the report.json of a run directory. Throws std::runtime_error
// naming the file and what is wrong.
RunReport read_run_report(const std::filesystem::path& path);

}  // namespace loiter::reports
