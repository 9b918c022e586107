// Which target a run is about: a bundled name or a target file, as the CLI and the ctest
// registration (LOITER_TARGET) name it.
#pragma once

#include <string>

#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites {

// A bundled target ("reference", "nginx") or a target file. Throws std::invalid_argument
// naming the file, key and problem, or the known targets, when `name` is not usable.
fixtures::Target resolve_target(const std::string& name);

// $LOITER_TARGET, or "reference" when it is unset.
std::string target_from_environment();

}  // namespace loiter::suites
