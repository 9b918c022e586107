#include "loiter/clients/time_scale.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace loiter::clients {

double time_scale() {
  const char* text = std::getenv("LOITER_TIME_SCALE");
  if (text == nullptr || *text == '\0') return 1.0;
  char* end = nullptr;
  const double scale = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(scale > 0.0 && scale <= 100.0)) {
    throw std::invalid_argument(
        fmt::format("LOITER_TIME_SCALE='{}' is not a number in (0, 100]", text));
  }
  return scale;
}

}  // namespace loiter::clients
