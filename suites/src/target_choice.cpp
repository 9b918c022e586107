#include "loiter/suites/target_choice.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace loiter::suites {

fixtures::Target resolve_target(const std::string& name) {
  if (name == "reference") return fixtures::reference_target();
  throw std::invalid_argument(fmt::format("unknown target '{}': known targets: reference", name));
}

std::string target_from_environment() {
  const char* name = std::getenv("LOITER_TARGET");
  return name != nullptr && *name != '\0' ? name : "reference";
}

}  // namespace loiter::suites
