// Many connections of one behaviour, opened at a steady rate on one io_context.
// Connection i starts at `start + i / per_second` on an absolute timeline, so opening is
// paced evenly, not fired in bursts. Records land in `out[i]`; io_context::run() returns
// once every connection has ended (each is bounded by its own patience).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "loiter/clients/asio.hpp"
#include "loiter/clients/record.hpp"

namespace loiter::clients {

struct Pacing {
  Clock::time_point start = Clock::now();
  double per_second = 2000.0;
};

using ConnectionBody = std::function<awaitable<ConnectionRecord>(std::size_t index)>;

void spawn_fleet(asio::io_context& io, std::size_t count, Pacing pacing, ConnectionBody body,
                 std::vector<ConnectionRecord>& out);

}  // namespace loiter::clients
