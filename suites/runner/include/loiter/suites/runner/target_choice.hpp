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

// A target as a run names it: the reference targets (reference, reference-tls,
// reference-h2c) tuned by deadlines and fault switches, or any other by name alone. What a
// check is given on its command line, and what a sharded run's plan keeps of it.
struct TargetChoice {
  std::string name = "reference";
  // The reference server's deadlines (s); unset: as its reference.toml declares them.
  std::optional<double> header_timeout, body_timeout, idle_timeout, send_timeout;
  std::vector<std::string> faults;  // the reference server's fault switches
};

// The target `choice` stands for. Throws std::invalid_argument for deadlines or faults given
// to a target other than the reference ones (it declares its own in its target file), and
// as resolve_target does.
fixtures::Target choose_target(const TargetChoice& choice);

// $LOITER_TARGET, or "reference" when it is unset.
std::string target_from_environment();

}  // namespace loiter::suites
