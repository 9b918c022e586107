// report.json's plots: series of points and marks. Private to reports/.
#pragma once

#include <boost/json/value.hpp>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::json_plot {

boost::json::value to_json(const Plot& plot);
// Throws std::runtime_error naming the scenario, plot and key that is malformed.
Plot plot_from_json(const boost::json::value& value, std::string_view scenario);

}  // namespace loiter::reports::json_plot
