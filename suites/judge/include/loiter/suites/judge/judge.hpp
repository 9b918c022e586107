// judge: a pure function of plain data. The same Observation and Expectations give the same
// Verdict in the CLI and in gtest; it is unit-tested on canned observations.
#pragma once

#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites {

Verdict judge(const Observation& observation, const Expectations& expectations);

// The moment a connection's deadline runs from, since its connect; nullopt if the record
// has no such moment (no whole response to measure an idle deadline from, say).
std::optional<Duration> deadline_origin(const clients::ConnectionRecord& record, Since since);

}  // namespace loiter::suites
