// Golden files: expected output kept in tests/golden/, compared whole. Set
// LOITER_UPDATE_GOLDEN=1 to rewrite them from the current output (then review the diff).
#pragma once

#include <string>

namespace loiter::reports::testing {

std::string read_golden(const std::string& name);
// The golden text, or the actual text after writing it when LOITER_UPDATE_GOLDEN is set.
std::string golden_or_update(const std::string& name, const std::string& actual);

}  // namespace loiter::reports::testing
