// What the client itself spends on its load, measured by the engine on the load's own thread
// (the one that runs its wakes): the whole load's CostSpan (cost_span.hpp), and loiter's
// process CPU second by second of its schedule. The ladder's "client limit" and a scenario's
// client share read it.
#pragma once

#include <optional>
#include <vector>

#include "loiter/clients/cost_span.hpp"

namespace loiter::clients::load_detail {

class CostMeter {
 public:
  // On the load's thread, as its engine starts.
  void start(Clock::time_point schedule_start);
  // Once a wake (cheap: a comparison but once a second): each second of the schedule that
  // has passed gets loiter's CPU during it.
  void tick(Clock::time_point now) {
    if (now >= next_second_) close_seconds(now);
  }
  // On the load's thread, as the engine ends: the whole load's cost, and the per-second CPU
  // into `seconds` (the schedule's; a second the load did not reach keeps 0).
  ClientCost finish(std::vector<LoadSecond>& seconds);

 private:
  void close_seconds(Clock::time_point now);

  std::optional<CostSpan> span_;
  Clock::time_point schedule_start_{};
  Clock::time_point next_second_ = Clock::time_point::max();
  double cpu_at_second_ = 0;
  std::vector<double> per_second_;  // loiter's CPU in second k of the schedule, s
};

}  // namespace loiter::clients::load_detail
