// h2-partial-preface and h2-no-settings-ack: stalls in the connection's opening, before any
// stream. The server must give up on a client that never completes its preface, and (RFC
// 9113 6.5.3) may end one that never acknowledges its SETTINGS.
#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "steps.hpp"

namespace loiter::clients {

namespace {

constexpr std::size_t kPartialPreface = 16;  // of the preface's 24 bytes

awaitable<void> partial_preface_connection(Shared<H2Options> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2PartialPreface);
  if (!co_await h2::connect_h2(connection, *options, slot, /*answer_control=*/false)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  co_await connection.send(h2::kPreface.substr(0, kPartialPreface), until);
  Connection::hold_until_closed(std::move(connection), until);
}

awaitable<void> no_settings_ack_connection(Shared<H2Options> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2NoSettingsAck);
  if (!co_await h2::connect_h2(connection, *options, slot, /*answer_control=*/false)) co_return;
  const auto until = connection.connected() + options->fleet.patience;
  co_await h2::send_frames(connection, slot.record, h2::opening(), until);
  Connection::hold_until_closed(std::move(connection), until);
}

}  // namespace

void spawn_h2_partial_preface(asio::io_context& io, const H2Options& options,
                              std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &partial_preface_connection, out);
}

void spawn_h2_no_settings_ack(asio::io_context& io, const H2Options& options,
                              std::vector<ConnectionRecord>& out) {
  spawn_kind(io, options, &no_settings_ack_connection, out);
}

}  // namespace loiter::clients
