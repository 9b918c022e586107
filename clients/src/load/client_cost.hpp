// What the client itself spends on its load, measured by the engine on the load's own thread
// (the one that runs its wakes): the thread's want of a CPU (its time on one plus its time
// runnable but waiting for one, so a load thread starved of its core by other processes
// counts as busy, as it is) and loiter's whole process's CPU, over the load and second by
// second of its schedule. The ladder's "client limit" and a scenario's client share read it.
#pragma once

#include <vector>

#include "loiter/clients/load/load_result.hpp"

namespace loiter::clients::load_detail {

// This thread's time on a CPU plus its time waiting for one so far, s
// (/proc/thread-self/schedstat; its CPU time alone where the kernel keeps no schedstat).
double thread_wanted_seconds();
// This process's CPU time so far (every thread, user + system), s.
double process_cpu_seconds();

class CostMeter {
 public:
  // On the load's thread, as its engine starts.
  void start(Clock::time_point now, Clock::time_point schedule_start);
  // Once a wake (cheap: a comparison but once a second): each second of the schedule that
  // has passed gets loiter's CPU during it.
  void tick(Clock::time_point now) {
    if (now >= next_second_) close_seconds(now);
  }
  // On the load's thread, as the engine ends: the whole load's cost, and the per-second CPU
  // into `seconds` (the schedule's; a second the load did not reach keeps 0).
  ClientCost finish(Clock::time_point now, std::vector<LoadSecond>& seconds);

 private:
  void close_seconds(Clock::time_point now);

  Clock::time_point started_{}, schedule_start_{};
  Clock::time_point next_second_ = Clock::time_point::max();
  double wanted_at_start_ = 0, cpu_at_start_ = 0, cpu_at_second_ = 0;
  std::vector<double> per_second_;  // loiter's CPU in second k of the schedule, s
};

}  // namespace loiter::clients::load_detail
