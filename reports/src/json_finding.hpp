// report.json's findings: one object per finding, its sentence written beside its data.
// Private to reports/.
#pragma once

#include <boost/json/value.hpp>
#include <string_view>

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::json_finding {

boost::json::value to_json(const Finding& finding);

// A loiter-run/3 finding (an object). Throws std::runtime_error naming the scenario and key
// that is malformed.
Finding finding_from_json(const boost::json::value& value, std::string_view scenario);

// A loiter-run/2 finding: a sentence with no code ("text"), its class guessed from the
// scenario's status (an error is the harness's; any other failure, a deadline's).
Finding finding_from_sentence(std::string sentence, std::string_view scenario, Status status);

}  // namespace loiter::reports::json_finding
