// The h2 kinds' shared steps (see steps.hpp).
#include "steps.hpp"

#include <fmt/format.h>

#include "loiter/clients/h2/frames.hpp"

namespace loiter::clients::h2 {

Frames& Frames::add(std::string_view frame_bytes) {
  bytes += frame_bytes;
  ++count;
  window_updates +=
      frame_bytes.size() > 3 && frame_bytes[3] == static_cast<char>(Type::window_update);
  return *this;
}

Frames opening(bool window_shut) {
  Frames out;
  out.bytes = std::string(kPreface);
  out.add(settings(
      {{setting::enable_push, 0}, {setting::initial_window_size, window_shut ? 0 : kLargeWindow}}));
  if (!window_shut) out.add(window_update(0, kLargeWindow - kDefaultWindow));
  return out;
}

awaitable<bool> connect_h2(Connection& connection, const H2Options& options, const Slot& slot,
                           bool answer_control) {
  const bool connected = co_await connect_at_slot(connection, options, slot);
  if (!connected) co_return false;
  connection.speak_h2(answer_control);
  co_return alpn_chose_h2(connection, slot.record);
}

bool alpn_chose_h2(Connection& connection, ConnectionRecord& record) {
  const auto& tls = record.tls;
  if (!tls || tls->alpn == "h2") return true;
  record.error = tls->alpn.empty()
                     ? std::string("TLS: the server chose no ALPN protocol, not h2")
                     : fmt::format("TLS: the server chose ALPN \"{}\", not h2", tls->alpn);
  connection.close_first();
  return false;
}

void spawn_h2_holding_kind(asio::io_context& io, const H2Options& options, std::string_view kind,
                           HoldingSteps<H2Options> steps, std::vector<ConnectionRecord>& out,
                           bool answer_control) {
  spawn_holding_kind(
      io, options, kind, steps, out,
      [answer_control](Connection& connection, const H2Options& h2_options, const Slot& slot) {
        return connect_h2(connection, h2_options, slot, answer_control);
      });
}

awaitable<bool> send_frames(Connection& connection, ConnectionRecord& record, const Frames& frames,
                            Clock::time_point until, bool completes_request) {
  const bool sent = co_await connection.send(frames.bytes, until, completes_request);
  if (sent) {
    record.h2->frames_sent += frames.count;
    record.h2->window_updates += frames.window_updates;
  }
  co_return sent;
}

std::string request(Encoder& encoder, const H2Options& options, std::uint32_t stream,
                    std::string_view method, std::string_view path, bool end_stream,
                    const HeaderList& extra, bool end_headers) {
  const auto block = encoder.encode(
      request_headers(method, path, options.authority, options.fleet.tls != nullptr, extra));
  return headers(stream, block, end_stream, end_headers);
}

}  // namespace loiter::clients::h2
