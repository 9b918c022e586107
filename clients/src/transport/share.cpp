#include "loiter/clients/transport/share.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace loiter::clients {

namespace {

FleetShare& this_process() {
  static FleetShare share;
  return share;
}

}  // namespace

std::size_t FleetShare::of(std::size_t count) const {
  return count / parts + (part < count % parts ? 1 : 0);
}

void set_fleet_share(FleetShare share) {
  if (share.parts == 0 || share.part >= share.parts) {
    throw std::invalid_argument(
        fmt::format("a fleet share is part 0 … parts-1: part {} of {}", share.part, share.parts));
  }
  this_process() = share;
}

FleetShare fleet_share() { return this_process(); }

}  // namespace loiter::clients
