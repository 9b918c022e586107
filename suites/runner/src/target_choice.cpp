#include "loiter/suites/runner/target_choice.hpp"

#include <cstdlib>
#include <stdexcept>

#include "loiter/fixtures/target/target_file.hpp"

namespace loiter::suites {

fixtures::Target resolve_target(const std::string& name) { return choose_target({.name = name}); }

fixtures::Target choose_target(const TargetChoice& choice) {
  try {
    std::vector<fixtures::KeySetting> settings;
    for (const auto& text : choice.settings) settings.push_back(fixtures::parse_key_setting(text));
    return fixtures::with_faults(fixtures::find_target(choice.name, settings), choice.faults);
  } catch (const fixtures::TargetFileError& e) {
    throw std::invalid_argument(e.what());  // the user named it: a usage error
  }
}

std::string target_from_environment() {
  const char* name = std::getenv("LOITER_TARGET");
  return name != nullptr && *name != '\0' ? name : "reference";
}

}  // namespace loiter::suites
