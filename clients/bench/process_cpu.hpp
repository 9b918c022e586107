// What the bench programs measure of their own process: CPU time used so far (user +
// system, getrusage), for "client CPU while holding" and "client µs per request".
#pragma once

#include <sys/resource.h>

namespace loiter::clients::bench {

inline double cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace loiter::clients::bench
