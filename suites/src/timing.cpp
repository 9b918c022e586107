#include "loiter/suites/timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace loiter::suites {

using namespace std::chrono_literals;

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

Timing timing(double scale) {
  const auto scaled = [scale](Duration d) {
    return std::chrono::duration_cast<Duration>(d * scale);
  };
  return Timing{.scale = scale,
                .slack = scaled(250ms),
                .recovery = scaled(5s),
                .recovery_stay = scaled(300ms),
                .settle_window = scaled(300ms),
                .settle_timeout = scaled(5s),
                .ready = scaled(10s),
                .connect = scaled(5s),
                .stop_grace = scaled(2s)};
}

Duration Timing::patience_for(Duration deadline) const {
  return std::max(2 * deadline, deadline + 2 * slack);
}

}  // namespace loiter::suites
