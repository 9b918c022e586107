// What the h2 stall kinds share: the connect (over TLS, ALPN must have chosen h2), the
// client's opening, frames sent and counted in record.h2->frames_sent, one request's
// HEADERS.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "loiter/clients/h2/hpack.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "loiter/clients/http1/kind.hpp"

namespace loiter::clients::h2 {

// The window the client announces so a response never waits on it: the largest there is.
inline constexpr std::uint32_t kLargeWindow = 0x7fff'ffff;
inline constexpr std::uint32_t kDefaultWindow = 65'535;

// Bytes of frames, and how many frames they are.
struct Frames {
  std::string bytes;
  std::size_t count = 0;
  std::size_t window_updates = 0;

  Frames& add(std::string_view frame_bytes);
};

// The preface, then SETTINGS (no push; INITIAL_WINDOW_SIZE the largest, or 0 when the
// window is kept shut) and, unless shut, a connection WINDOW_UPDATE to the largest window.
// The preface is not a frame and is not counted.
Frames opening(bool window_shut = false);

// Connects at the slot and starts speaking h2 (answering the server's SETTINGS and PINGs
// unless !answer_control). Over TLS the handshake must have chosen "h2": otherwise the
// client closes the connection (client_close) and record.error says what was chosen.
awaitable<bool> connect_h2(Connection& connection, const H2Options& options, const Slot& slot,
                           bool answer_control = true);

// Over TLS, whether the handshake chose "h2": if not, the client closes the connection
// (client_close) and record.error says what was chosen. True on a cleartext connection.
bool alpn_chose_h2(Connection& connection, ConnectionRecord& record);

// spawn_holding_kind for an h2 kind: each connection connects with connect_h2
// (`answer_control`), then takes `steps`, then is held.
void spawn_h2_holding_kind(asio::io_context& io, const H2Options& options, std::string_view kind,
                           HoldingSteps<H2Options> steps, std::vector<ConnectionRecord>& out,
                           bool answer_control = true);

// Sends `frames`, counting them (and WINDOW_UPDATEs among them) in record.h2 (`record` is
// the connection's own, slot.record).
awaitable<bool> send_frames(Connection& connection, ConnectionRecord& record, const Frames& frames,
                            Clock::time_point until, bool completes_request = false);

// One request's HEADERS on `stream`: its block (from the connection's one encoder), END_STREAM
// unless a body follows, END_HEADERS unless `end_headers` is false.
std::string request(Encoder& encoder, const H2Options& options, std::uint32_t stream,
                    std::string_view method, std::string_view path, bool end_stream,
                    const HeaderList& extra = {}, bool end_headers = true);

}  // namespace loiter::clients::h2
