// h2-partial-preface and h2-no-settings-ack: stalls in the connection's opening, before any
// stream. The server must give up on a client that never completes its preface, and (RFC
// 9113 6.5.3) may end one that never acknowledges its SETTINGS.
#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "steps.hpp"

namespace loiter::clients {

namespace {

constexpr std::size_t kPartialPreface = 16;  // of the preface's 24 bytes

// h2-partial-preface: the preface's first bytes only.
awaitable<void> send_partial_preface(Connection& connection, const H2Options&, const Slot&,
                                     Clock::time_point until) {
  co_await connection.send(h2::kPreface.substr(0, kPartialPreface), until);
}

// h2-no-settings-ack: the whole opening; the server's SETTINGS is then left unacknowledged.
awaitable<void> send_opening(Connection& connection, const H2Options&, const Slot& slot,
                             Clock::time_point until) {
  co_await h2::send_frames(connection, slot.record, h2::opening(), until);
}

}  // namespace

void spawn_h2_partial_preface(asio::io_context& io, const H2Options& options,
                              std::vector<ConnectionRecord>& out) {
  h2::spawn_h2_holding_kind(io, options, kH2PartialPreface, &send_partial_preface, out,
                            /*answer_control=*/false);
}

void spawn_h2_no_settings_ack(asio::io_context& io, const H2Options& options,
                              std::vector<ConnectionRecord>& out) {
  h2::spawn_h2_holding_kind(io, options, kH2NoSettingsAck, &send_opening, out,
                            /*answer_control=*/false);
}

}  // namespace loiter::clients
