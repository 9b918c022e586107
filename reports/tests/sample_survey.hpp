// A canned survey for the survey's reporter tests: every kind of row (measured, none within
// the wait, progress that extends a deadline with its exposure, mixed endings, a deadline's
// origin, not measured), problems, interrupted; every field set somewhere.
#pragma once

#include "loiter/reports/survey.hpp"

namespace loiter::reports::testing {
Survey sample_survey();
}
