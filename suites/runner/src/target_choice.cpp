#include "loiter/suites/runner/target_choice.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

#include "loiter/fixtures/target/target_file.hpp"

namespace loiter::suites {

fixtures::Target resolve_target(const std::string& name) {
  if (name == "reference") return fixtures::reference_target();  // = targets/reference.toml
  if (name == "reference-tls") return fixtures::reference_target({.tls = true});
  try {
    return fixtures::find_target(name);
  } catch (const fixtures::TargetFileError& e) {
    throw std::invalid_argument(e.what());  // the user named it: a usage error
  }
}

std::string target_from_environment() {
  const char* name = std::getenv("LOITER_TARGET");
  return name != nullptr && *name != '\0' ? name : "reference";
}

}  // namespace loiter::suites
