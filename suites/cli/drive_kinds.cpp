// The client kinds of `loiter drive`, as the runner lists them.
#include "drive_kinds.hpp"

#include "loiter/suites/runner/drive_kind.hpp"

namespace loiter::cli {

bool is_paced(const std::string& name) {
  const auto kind = suites::drive_kind_info(name);
  return kind && kind->paced;
}

bool takes_pause(const std::string& name) {
  const auto kind = suites::drive_kind_info(name);
  return kind && kind->pauses;
}

bool takes_path(const std::string& name) {
  const auto kind = suites::drive_kind_info(name);
  return kind && kind->has_path;
}

std::string kinds_that(bool (*takes)(const std::string&)) {
  std::string names;
  for (const auto& kind : suites::drive_kinds()) {
    const std::string name(kind.name);
    if (takes(name)) names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& kind : suites::drive_kinds()) names.emplace_back(kind.name);
  return names;
}

}  // namespace loiter::cli
