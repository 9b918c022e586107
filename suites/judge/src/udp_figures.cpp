#include "loiter/suites/judge/udp_figures.hpp"

#include <algorithm>

namespace loiter::suites {

namespace {

// last - first, or 0 where the count fell (a socket gone takes its drops with it).
std::uint64_t rise(std::uint64_t first, std::uint64_t last) { return last > first ? last - first : 0; }

}  // namespace

std::optional<UdpFigures> udp_figures(const std::vector<fixtures::TimedSample>& timeline) {
  const fixtures::UdpCounts* first = nullptr;
  const fixtures::UdpCounts* last = nullptr;
  const fixtures::UdpCounts* first_found = nullptr;  // the first and last that found a socket
  const fixtures::UdpCounts* last_found = nullptr;
  UdpFigures figures;
  for (const auto& taken : timeline) {
    const auto& udp = taken.sample.udp;
    if (!udp) continue;
    if (first == nullptr) first = &*udp;
    last = &*udp;
    figures.port = udp->port;
    figures.sockets = std::max(figures.sockets, udp->sockets);
    figures.peak_rx_queue = std::max(figures.peak_rx_queue, udp->rx_queue);
    if (udp->sockets == 0) continue;
    if (first_found == nullptr) first_found = &*udp;
    last_found = &*udp;
  }
  if (first == nullptr) return std::nullopt;
  if (first_found != nullptr) figures.drops = rise(first_found->drops, last_found->drops);
  figures.rcvbuf_errors = rise(first->rcvbuf_errors, last->rcvbuf_errors);
  figures.in_errors = rise(first->in_errors, last->in_errors);
  return figures;
}

}  // namespace loiter::suites
