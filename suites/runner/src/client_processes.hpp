// Client processes forked from this one, each sending lines back over its own pipe. The
// owner of every one of them: stop() ends them by PID (SIGTERM, then SIGKILL after a grace),
// reap() waits for them, and the destructor kills and reaps any not reaped yet, so no client
// process outlives this object, whatever path (an exception too) leaves it. Private to
// the runner.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/fixtures/os/fd.hpp"

namespace loiter::suites {

class ClientProcesses {
 public:
  ClientProcesses() = default;
  ~ClientProcesses();
  ClientProcesses(const ClientProcesses&) = delete;
  ClientProcesses& operator=(const ClientProcesses&) = delete;

  // Forks a client process that runs body(fd), writing its lines to fd, and leaves with
  // _exit(what body returned) (1 if it throws): no destructor of this process's objects
  // runs in it. It ignores SIGINT (the parent decides when it stops) and dies with the
  // parent (PR_SET_PDEATHSIG). Throws fixtures::HarnessError when this process runs more
  // than one thread (a fork copies only the caller: start client processes before any
  // thread), or when it cannot make the pipe or fork.
  void start(const std::function<int(int fd)>& body);

  std::size_t size() const { return children_.size(); }
  pid_t pid(std::size_t process) const { return children_[process].pid; }

  enum class Pumped { ended, stopped, timed_out };

  // Reads every pipe until each has ended (ended), until `stop()` says so (stopped), or
  // until `until` (timed_out), calling on_line(process, line) for each whole line (without
  // its '\n') and tick() about every `tick_every`.
  Pumped pump(const std::function<void(std::size_t process, std::string_view line)>& on_line,
              const std::function<void()>& tick, const std::function<bool()>& stop,
              std::chrono::steady_clock::time_point until,
              std::chrono::milliseconds tick_every = std::chrono::milliseconds(50));

  // SIGTERM to each process not reaped yet; SIGKILL to those still there after `grace`;
  // then reaps them all.
  void stop(std::chrono::milliseconds grace);

  // Waits for every process (on its exit, see fixtures::wait_for_exit), at most `within` in all, then
  // SIGKILLs and reaps those still there; how each ended: empty for exit status 0, else
  // "exited with status 1", "was killed by signal 9". Throws std::runtime_error when a
  // process cannot be watched.
  std::vector<std::string> reap(std::chrono::milliseconds within);

 private:
  struct Child {
    pid_t pid = -1;
    fixtures::Fd lines;  // the read end of its pipe; closed once it ended
    std::string buffer;  // a line not yet whole
    bool reaped = false;
    bool lost = false;  // waitpid() had no such child (someone else reaped it)
    int status = 0;
  };

  bool reap_one(Child& child, bool block);
  void read_from(std::size_t process, const std::function<void(std::size_t, std::string_view)>&);

  std::vector<Child> children_;
};

}  // namespace loiter::suites
