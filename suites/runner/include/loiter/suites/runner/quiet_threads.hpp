// Threads that step aside while client processes are forked. A fork copies only the thread
// that calls it, so the runner forks client processes only while loiter runs one thread
// (ClientProcesses::start refuses otherwise). A thread of loiter's own that lives across
// scenarios (the progress line's ticker) registers here, and the runner stops it before
// its forks and starts it again after them. Registering, stopping and restarting happen on
// the thread that runs the scenarios.
#pragma once

#include <functional>

namespace loiter::suites {

// Registered while it lives.
class QuietForForks {
 public:
  // `stop` ends the thread and joins it; `restart` starts it again if it should be running.
  QuietForForks(std::function<void()> stop, std::function<void()> restart);
  ~QuietForForks();
  QuietForForks(const QuietForForks&) = delete;
  QuietForForks& operator=(const QuietForForks&) = delete;

 private:
  friend void with_threads_stopped(const std::function<void()>& forks);
  std::function<void()> stop_;
  std::function<void()> restart_;
};

// The runner's side: runs `forks` with every registered thread stopped, then restarts them
// (also when `forks` throws).
void with_threads_stopped(const std::function<void()>& forks);

}  // namespace loiter::suites
