// loiter's own cost over a span of its run (cost_span.hpp).
#include "loiter/clients/cost_span.hpp"

#include <time.h>

#include <cstdio>

namespace loiter::clients {

namespace {

double seconds_of(clockid_t clock) {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace

double thread_wanted_seconds() {
  if (std::FILE* in = std::fopen("/proc/thread-self/schedstat", "re")) {
    unsigned long long on_cpu = 0, waiting = 0;
    const int read = std::fscanf(in, "%llu %llu", &on_cpu, &waiting);
    std::fclose(in);
    if (read == 2) return static_cast<double>(on_cpu + waiting) / 1e9;
  }
  return seconds_of(CLOCK_THREAD_CPUTIME_ID);
}

double process_cpu_seconds() { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }

CostSpan::CostSpan()
    : started_(Clock::now()), wanted_(thread_wanted_seconds()), cpu_(process_cpu_seconds()) {}

ClientCost CostSpan::until(double cpu_now) const {
  const double wall = std::chrono::duration<double>(Clock::now() - started_).count();
  return {.wall_s = wall,
          .busy = wall > 0 ? (thread_wanted_seconds() - wanted_) / wall : 0,
          .cpu_s = cpu_now - cpu_};
}

}  // namespace loiter::clients
