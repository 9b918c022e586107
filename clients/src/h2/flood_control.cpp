// h2-control: the client beside a flood that shows what the server still serves. On a
// fresh connection, one GET every interval for the duration, on an absolute schedule from
// its connect: request k is due at connected + k × interval, and its latency runs from then,
// so a request the client could not send on time (the connection's window, the server not
// reading) still counts from its intended time, and no slow answer hides the ones behind it
// (no coordinated omission). Responses are read between the sends.
#include "flood_steps.hpp"
#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/hpack.hpp"

namespace loiter::clients {

namespace {

// At most this many requests unanswered at once: a server's SETTINGS_MAX_CONCURRENT_STREAMS
// is no fewer than 100 where RFC 9113 5.1.2 is followed (nginx 128, h2o and Apache 100, Go
// and Caddy 250), and a stream past it is a protocol error of the client's, which the server
// may end the connection for. A request held back for a free stream still counts its latency
// from its intended time.
constexpr std::size_t kMostOpen = 100;

// Each answered request's latency from its intended send time (request k at k × interval
// since connect; the responses in the order their HEADERS came, one a request).
void note_latencies(ConnectionRecord& record, Duration interval) {
  auto& latencies = record.h2->latencies;
  latencies.clear();
  for (std::size_t k = 0; k < record.responses.size() && k < record.requests; ++k) {
    const auto& complete = record.responses[k].complete;
    if (!complete) continue;
    latencies.push_back(*complete - interval * static_cast<long>(k));
  }
}

awaitable<void> control_connection(Shared<FloodOptions> options, Slot slot) {
  auto connection = connection_for(co_await asio::this_coro::executor, *options, slot, kH2Control);
  const bool opened = co_await h2::open_flood(connection, *options, slot);
  if (!opened) co_return;
  auto& record = slot.record;
  const auto start = connection.connected();
  const auto until = start + options->fleet.patience;
  h2::Encoder encoder;
  const auto fields =
      h2::request_headers("GET", options->path, options->authority, options->fleet.tls != nullptr);
  std::uint32_t stream = 1;
  // Each turn sends request k at its due time (at once when late): bounded by the duration.
  for (std::size_t k = 0; connection.is_open(); ++k, stream += 2) {
    const auto due = start + options->interval * static_cast<long>(k);
    if (due >= start + options->duration) break;
    if (Clock::now() < due) co_await connection.read_until(due);
    if (connection.is_open() && record.requests >= complete_responses(record) + kMostOpen) {
      co_await connection.read_until(until, record.requests - kMostOpen + 1);
      if (record.requests >= complete_responses(record) + kMostOpen) break;  // patience ran out
    }
    if (!connection.is_open()) break;
    if (auto owed = connection.take_h2_owed(); !owed.empty()) co_await connection.send(owed, until);
    const bool sent = co_await connection.send(
        h2::headers(stream, encoder.encode(fields), /*end_stream=*/true), until,
        /*completes_request=*/true);
    if (!sent) break;
    ++record.h2->frames_sent;
  }
  // The last answers: until every request is answered or patience runs out.
  if (connection.is_open()) co_await connection.read_until(until, record.requests);
  note_latencies(record, options->interval);
  if (connection.is_open()) connection.close_first();
}

}  // namespace

void spawn_h2_control(asio::io_context& io, const FloodOptions& options,
                      std::vector<ConnectionRecord>& out) {
  h2::spawn_flood(io, options, &control_connection, out);
}

}  // namespace loiter::clients
