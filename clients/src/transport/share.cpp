#include "loiter/clients/transport/share.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace loiter::clients {

std::size_t FleetShare::of(std::size_t count) const {
  return count / parts + (part < count % parts ? 1 : 0);
}

void require_valid(FleetShare share) {
  if (share.parts == 0 || share.part >= share.parts) {
    throw std::invalid_argument(
        fmt::format("a fleet share is part 0 … parts-1: part {} of {}", share.part, share.parts));
  }
}

}  // namespace loiter::clients
