// The client's own cost (client_cost.hpp).
#include "client_cost.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>

namespace loiter::clients::load_detail {

namespace {

double seconds_of(clockid_t clock) {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

double in_seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

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

void CostMeter::start(Clock::time_point now, Clock::time_point schedule_start) {
  started_ = now;
  schedule_start_ = schedule_start;
  wanted_at_start_ = thread_wanted_seconds();
  cpu_at_start_ = cpu_at_second_ = process_cpu_seconds();
  // The pool opens ahead of the schedule: its cost goes to the first second.
  next_second_ = schedule_start + 1s;
}

void CostMeter::close_seconds(Clock::time_point now) {
  const double cpu = process_cpu_seconds();
  // A wake late by more than a second (a stopped process) spreads nothing: the CPU since the
  // last close goes to the second that just ended, the skipped ones keep 0.
  const auto k = static_cast<std::size_t>(std::max<Duration::rep>(0, (now - schedule_start_) / 1s));
  if (per_second_.size() < k) per_second_.resize(k, 0.0);
  per_second_[k - 1] += cpu - cpu_at_second_;
  cpu_at_second_ = cpu;
  next_second_ = schedule_start_ + std::chrono::seconds(k + 1);
}

ClientCost CostMeter::finish(Clock::time_point now, std::vector<LoadSecond>& seconds) {
  ClientCost cost;
  const double wall = in_seconds(now - started_);
  const double cpu = process_cpu_seconds();
  cost.wall_s = wall;
  cost.cpu_s = cpu - cpu_at_start_;
  cost.load_busy = wall > 0 ? (thread_wanted_seconds() - wanted_at_start_) / wall : 0;
  // What the last, unfinished second spent (the drain after the schedule) goes to the
  // schedule's last second, as does any second closed past it.
  if (!seconds.empty()) {
    const auto last = seconds.size() - 1;
    for (std::size_t k = 0; k < per_second_.size(); ++k) {
      seconds[std::min(k, last)].client_cpu_s += per_second_[k];
    }
    seconds[std::min(per_second_.size(), last)].client_cpu_s += cpu - cpu_at_second_;
  }
  return cost;
}

}  // namespace loiter::clients::load_detail
