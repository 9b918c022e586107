#include "loiter/suites/runner/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace loiter::suites {

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void on_interrupt(int signal) {
  if (stop_requested.exchange(true)) {
    ::signal(signal, SIG_DFL);  // the second time: default action, i.e. end now
    ::raise(signal);
  }
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM}) ::sigaction(signal, &action, nullptr);
}

bool interrupted() { return stop_requested.load(); }

}  // namespace loiter::suites
