// Which target a run is about: a bundled name or a target file, as the CLI and the ctest
// registration (LOITER_TARGET) name it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites {

// A bundled target ("reference", "nginx") or a target file. Throws std::invalid_argument
// naming the file, key and problem, or the known targets, when `name` is not usable.
fixtures::Target resolve_target(const std::string& name);

// A target as a run names it: a bundled name or a target file, its keys set (--set), and
// the reference server's fault switches. What a check is given on its command line, and
// what a sharded run's plan keeps of it.
struct TargetChoice {
  std::string name = "reference";
  // "table.key=value" each, applied in order to the target file (fixtures::KeySetting).
  std::vector<std::string> settings;
  std::vector<std::string> faults;  // the reference server's fault switches
};

// The target `choice` stands for. Throws std::invalid_argument naming a setting refused
// (an unknown table or key, a value of the wrong type), faults given to a target that does
// not run the reference server, and as resolve_target does.
fixtures::Target choose_target(const TargetChoice& choice);

// $LOITER_TARGET, or "reference" when it is unset.
std::string target_from_environment();

}  // namespace loiter::suites
