#include "loiter/suites/runner/target_choice.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "loiter/fixtures/target/target_file.hpp"

namespace loiter::suites {

namespace {

std::optional<fixtures::Duration> seconds(const std::optional<double>& s) {
  if (!s) return std::nullopt;
  return std::chrono::duration_cast<fixtures::Duration>(std::chrono::duration<double>(*s));
}

}  // namespace

fixtures::Target resolve_target(const std::string& name) {
  if (name == "reference") return fixtures::reference_target();  // = targets/reference.toml
  if (name == "reference-tls") return fixtures::reference_target({.tls = true});
  try {
    return fixtures::find_target(name);
  } catch (const fixtures::TargetFileError& e) {
    throw std::invalid_argument(e.what());  // the user named it: a usage error
  }
}

// The reference server takes faults and deadlines from the run; any other target declares
// its own in its target file.
fixtures::Target choose_target(const TargetChoice& choice) {
  const bool tuned = !choice.faults.empty() || choice.header_timeout || choice.body_timeout ||
                     choice.idle_timeout || choice.send_timeout;
  const bool tls = choice.name == "reference-tls";
  const bool h2c = choice.name == "reference-h2c";
  if (choice.name != "reference" && !tls && !h2c) {
    if (tuned) {
      throw std::invalid_argument(
          "--fault and --*-timeout apply to the reference targets only (reference, "
          "reference-tls, reference-h2c); another target declares its deadlines in its "
          "target file");
    }
    return resolve_target(choice.name);
  }
  return fixtures::reference_target({.header = seconds(choice.header_timeout),
                                     .body = seconds(choice.body_timeout),
                                     .idle = seconds(choice.idle_timeout),
                                     .send = seconds(choice.send_timeout),
                                     .faults = choice.faults,
                                     .tls = tls,
                                     .h2c = h2c});
}

std::string target_from_environment() {
  const char* name = std::getenv("LOITER_TARGET");
  return name != nullptr && *name != '\0' ? name : "reference";
}

}  // namespace loiter::suites
