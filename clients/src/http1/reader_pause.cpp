#include "loiter/clients/http1/reader_pause.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "loiter/clients/http1/requests.hpp"

namespace loiter::clients {

namespace {

std::size_t body_received(const ConnectionRecord& record) {
  return record.responses.empty() ? 0 : record.responses.front().body_bytes;
}

bool same_name(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) { return (x | 0x20) == (y | 0x20); });
}

// Content-Length less the body bytes received so far; nullopt without a length.
std::optional<std::size_t> unsent_of(const ConnectionRecord& record) {
  if (record.responses.empty()) return std::nullopt;
  const auto& response = record.responses.front();
  for (const auto& [name, value] : response.fields) {
    if (!same_name(name, "content-length")) continue;
    std::size_t length = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (ec != std::errc{}) return std::nullopt;
    return length - std::min(length, response.body_bytes);
  }
  return std::nullopt;
}

// Reads until `bytes` body bytes have come (or the response is whole, or it ended).
awaitable<void> read_a_little(Connection& connection, std::size_t bytes, Clock::time_point until) {
  const auto& record = connection.record();
  // Each turn reads what arrived or ends: bounded by `until`.
  while (connection.is_open() && Clock::now() < until && complete_responses(record) == 0 &&
         body_received(record) < bytes) {
    if (!co_await connection.read_at_most(bytes, until)) break;
  }
}

}  // namespace

awaitable<void> reader_pause_connection(Shared<ReaderPauseOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, options->kind);
  if (!co_await connection.connect(plan_for(*options, slot, options->receive_buffer))) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  const auto head = request_head({.path = options->path, .host = options->host});
  if (co_await connection.send(head, until, /*completes_request=*/true)) {
    co_await read_a_little(connection, options->read_first, until);
    if (connection.is_open() && complete_responses(slot.record) == 0 && Clock::now() < until) {
      auto& pause = slot.record.pause.emplace(
          ReadPause{.from = connection.since_connect(), .unsent = unsent_of(slot.record)});
      const auto resume = std::min(Clock::now() + options->pause, until);
      const auto watched = co_await connection.pause_watching(resume, options->watch_every);
      pause.ended_while_paused = watched.ended;
      pause.filled = watched.filled;
      pause.until = connection.since_connect();
      co_await connection.read_until(until, 1);
    }
    if (connection.is_open() && complete_responses(slot.record) > 0) connection.close_first();
  }
  Connection::hold_until_closed(std::move(connection), until);
}

void spawn_reader_pause(asio::io_context& io, const ReaderPauseOptions& options,
                        std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &reader_pause_connection, out);
}

}  // namespace loiter::clients
