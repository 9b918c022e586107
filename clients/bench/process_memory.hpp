// What the bench programs measure of their own memory: VmRSS (KiB, /proc/self/status; -1
// if unread) and the bytes malloc has handed out and not had back (mallinfo2: small blocks
// and mmapped ones), which leaves out the holes an opening left in the heap that VmRSS
// still counts.
#pragma once

#include <malloc.h>

#include <fstream>
#include <string>

namespace loiter::clients::bench {

inline long vm_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

inline long long heap_in_use_b() {
  const auto info = ::mallinfo2();
  return static_cast<long long>(info.uordblks + info.hblkhd);
}

}  // namespace loiter::clients::bench
