// The registry of threads that step aside for the runner's forks.
#include "loiter/suites/runner/quiet_threads.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace loiter::suites {

namespace {

std::vector<QuietForForks*>& registered() {
  static std::vector<QuietForForks*> threads;
  return threads;
}

}  // namespace

QuietForForks::QuietForForks(std::function<void()> stop, std::function<void()> restart)
    : stop_(std::move(stop)), restart_(std::move(restart)) {
  registered().push_back(this);
}

QuietForForks::~QuietForForks() { std::erase(registered(), this); }

void with_threads_stopped(const std::function<void()>& forks) {
  const auto restart_all = [] {
    for (auto* thread : registered()) thread->restart_();
  };
  for (auto* thread : registered()) thread->stop_();
  try {
    forks();
  } catch (...) {
    restart_all();
    throw;
  }
  restart_all();
}

}  // namespace loiter::suites
