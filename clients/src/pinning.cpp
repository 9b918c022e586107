#include "loiter/clients/pinning.hpp"

#include <pthread.h>
#include <sched.h>

#include <stdexcept>

namespace loiter::clients {

void pin_this_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int cpu : cpus) CPU_SET(cpu, &set);
  if (const int error = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set); error != 0) {
    throw std::runtime_error("could not pin a thread of loiter's to its CPUs");
  }
}

}  // namespace loiter::clients
