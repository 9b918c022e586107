// A measured time as a small inline <svg>: its min, median and max as dots on a seconds axis
// from 0 to the survey's max wait; connections still open as a bar over the whole axis.
// Private to reports/.
#pragma once

#include <string>

#include "loiter/reports/survey.hpp"

namespace loiter::reports::svg {

// Empty for a measure not measured.
std::string survey_strip(const SurveyMeasure& measure, double max_wait, const std::string& id);

}  // namespace loiter::reports::svg
