// Steps several client kinds share, built on Connection. Each keeps a read outstanding
// while it waits, so the server's ending is recorded whenever it comes.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "loiter/clients/transport/connection.hpp"
#include "loiter/clients/transport/fleet.hpp"

namespace loiter::clients {

// Sends `count` bytes one at a time, byte k at schedule.at(k), reading while it waits.
// Stops early when the server ends the connection, a send fails, or at `until`. With
// `completes_request`, the last byte completes a request.
awaitable<void> trickle(Connection& connection, Schedule schedule, std::size_t count,
                        std::function<char(std::size_t)> byte_at, Clock::time_point until,
                        bool completes_request);

// The same, a piece at a time: piece k (sent whole, in one write) at schedule.at(k).
awaitable<void> trickle_pieces(Connection& connection, Schedule schedule, std::size_t count,
                               std::function<std::string(std::size_t)> piece_at,
                               Clock::time_point until, bool completes_request);

// Sends `head` as a complete request `requests` times on one connection: each after the
// previous response is whole and `gap` has passed since, reading all the while. True if
// every response arrived whole before `until` and the connection is still open.
awaitable<bool> exchange_requests(Connection& connection, std::string_view head,
                                  std::size_t requests, Duration gap, Clock::time_point until);

// Sends `bytes` (if any), then reads until `at`. True if the connection is still open then.
awaitable<bool> send_then_wait(Connection& connection, std::string_view bytes, Clock::time_point at,
                               Clock::time_point until);

// How a client ends a connection itself: a normal close (FIN) or an abort (RST).
enum class GiveUp { fin, rst };

// Sends a partial `head`, reads until `at`, then ends the connection itself as `how` —
// unless the server ended it first — and records whatever server ending follows.
awaitable<void> give_up_mid_head(Connection connection, std::string_view head, Clock::time_point at,
                                 Clock::time_point until, GiveUp how);

}  // namespace loiter::clients
