// What loiter spends over a span of its run, measured on the thread that runs it: the
// thread's want of a CPU (its time on one plus its time runnable but waiting for one,
// /proc/thread-self/schedstat, so a thread starved of its core by other processes counts as
// busy, as it is) and loiter's whole process's CPU. The load engine measures its load with it
// (LoadResult::client), a scenario's drive the thread of its waiting connections.
#pragma once

#include "loiter/clients/load/load_result.hpp"

namespace loiter::clients {

// This thread's time on a CPU plus its time waiting for one so far, s (its CPU time alone
// where the kernel keeps no schedstat).
double thread_wanted_seconds();
// This process's CPU time so far (every thread, user + system), s.
double process_cpu_seconds();

class CostSpan {
 public:
  CostSpan();  // from now, on this thread
  ClientCost until_now() const { return until(process_cpu_seconds()); }  // on the same thread
  // The same, with the process's CPU as the caller read it (one reading shared with its
  // other uses).
  ClientCost until(double cpu_now) const;
  double cpu_at_start() const { return cpu_; }  // process_cpu_seconds() as it started

 private:
  Clock::time_point started_;
  double wanted_ = 0, cpu_ = 0;
};

}  // namespace loiter::clients
