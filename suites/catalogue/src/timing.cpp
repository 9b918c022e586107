#include "loiter/suites/catalogue/timing.hpp"

#include <algorithm>

#include "loiter/clients/time_scale.hpp"

namespace loiter::suites {

using namespace std::chrono_literals;

double time_scale() { return clients::time_scale(); }

Timing timing(double scale) {
  const auto scaled = [scale](Duration d) {
    return std::chrono::duration_cast<Duration>(d * scale);
  };
  return Timing{.scale = scale,
                .slack = scaled(250ms),
                .recovery = scaled(5s),
                .recovery_stay = scaled(300ms),
                .late_look = scaled(10s),
                .settle_window = scaled(300ms),
                .settle_timeout = scaled(5s),
                .connect = scaled(5s),
                .stop_grace = scaled(2s)};
}

Duration Timing::patience_for(Duration deadline) const {
  return std::max(2 * deadline, deadline + 2 * slack);
}

}  // namespace loiter::suites
