// loiter-hold-bench's figures: what one client process measured (counted from its records,
// plus its own memory and CPU), how a worker hands them to the parent (one text line each),
// and how the parent sums and prints them. Plain data; printing is separate from counting.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"

namespace loiter::clients::bench {

struct Figures {
  std::size_t count = 0, connected = 0, first_ok = 0, recheck_ok = 0, held = 0;
  std::size_t server_close = 0, reset = 0, timeout = 0;
  std::map<std::string, std::size_t> connect_errors;  // error text -> connections
  std::map<std::string, std::size_t> reset_errors;
  long long first_start_ns = 0, last_connected_ns = 0;
  long rss_base_kib = 0, rss_held_kib = 0, rss_recheck_kib = 0;
  long long heap_base_b = 0, heap_held_b = 0;  // malloc'd bytes in use (mallinfo2)
  double cpu_hold_s = 0, hold_s = 0;

  std::size_t failed() const;
};

// Counts one process's records. `recheck`: held-recheck connections (a first request and a
// re-check, then the client's own close); otherwise silent ones (held = open at the end).
void count_records(const std::vector<ConnectionRecord>& records, bool recheck, Figures& figures);

// One line per worker on its stdout, and back.
std::string to_text(const Figures& figures);
bool from_text(const std::string& text, Figures& figures);

Figures combine(const std::vector<Figures>& parts);

// The table: one row per process (when several) and a `total` row, then failures by reason.
// The `total` row's columns are stable: scripts read them.
void print_table(const std::vector<Figures>& parts, bool recheck);

}  // namespace loiter::clients::bench
