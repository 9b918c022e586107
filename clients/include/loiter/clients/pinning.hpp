// Pins the calling thread to CPUs: a ladder's load thread and its holder run on the CPUs
// the server was not given, so neither takes the server's.
#pragma once

#include <vector>

namespace loiter::clients {

// Pins this thread to `cpus` (pthread_setaffinity_np); nothing for an empty list. Throws
// std::runtime_error when the kernel refuses.
void pin_this_thread(const std::vector<int>& cpus);

}  // namespace loiter::clients
