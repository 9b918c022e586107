// judge: a pure function of plain data. The same Observation and Expectations give the same
// Verdict in the CLI and in gtest; it is unit-tested on canned observations.
#pragma once

#include "loiter/suites/observation.hpp"

namespace loiter::suites {

Verdict judge(const Observation& observation, const Expectations& expectations);

}  // namespace loiter::suites
