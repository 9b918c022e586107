// The client's own cost on its load (client_cost.hpp).
#include "client_cost.hpp"

#include <algorithm>
#include <chrono>

namespace loiter::clients::load_detail {

using namespace std::chrono_literals;

void CostMeter::start(Clock::time_point schedule_start) {
  span_.emplace();
  schedule_start_ = schedule_start;
  cpu_at_second_ = span_->cpu_at_start();
  // The pool opens ahead of the schedule: its cost goes to the first second.
  next_second_ = schedule_start + 1s;
}

void CostMeter::close_seconds(Clock::time_point now) {
  const double cpu = process_cpu_seconds();
  // A wake late by more than a second (a stopped process) spreads nothing: the CPU since the
  // last close goes to the second that just ended, the skipped ones keep 0.
  const auto k = static_cast<std::size_t>(std::max<Duration::rep>(1, (now - schedule_start_) / 1s));
  if (per_second_.size() < k) per_second_.resize(k, 0.0);
  per_second_[k - 1] += cpu - cpu_at_second_;
  cpu_at_second_ = cpu;
  next_second_ = schedule_start_ + std::chrono::seconds(k + 1);
}

ClientCost CostMeter::finish(std::vector<LoadSecond>& seconds) {
  if (!span_) return {};
  // One reading of the process's CPU for the whole and its last second: the seconds add up
  // to the whole exactly, however busy loiter's other threads are meanwhile.
  const double cpu = process_cpu_seconds();
  const auto cost = span_->until(cpu);
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
