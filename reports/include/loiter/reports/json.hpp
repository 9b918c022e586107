// report.json: the canonical, versioned machine format of a RunReport.
#pragma once

#include <boost/json/value.hpp>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports {

boost::json::value to_json(const RunReport& report);

// Throws std::runtime_error naming the key that is missing or malformed, or a schema this
// version of loiter does not read.
RunReport run_report_from_json(const boost::json::value& document);

}  // namespace loiter::reports
