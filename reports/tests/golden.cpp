// Golden files: read, or rewritten when LOITER_UPDATE_GOLDEN is set.
#include "golden.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace loiter::reports::testing {

std::string read_golden(const std::string& name) {
  std::ifstream in(std::string(LOITER_GOLDEN_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string golden_or_update(const std::string& name, const std::string& actual) {
  const char* update = std::getenv("LOITER_UPDATE_GOLDEN");
  if (update != nullptr && *update != '\0') {
    std::ofstream(std::string(LOITER_GOLDEN_DIR) + "/" + name) << actual;
  }
  return read_golden(name);
}

}  // namespace loiter::reports::testing
