// The Asio names every client uses, in one place.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace loiter::clients {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using asio::awaitable;

// Completion token that returns errors as values: network outcomes are data, not exceptions.
inline constexpr auto as_values = asio::as_tuple(asio::use_awaitable);

}  // namespace loiter::clients
