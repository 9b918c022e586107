// The h2 stall kinds send exactly their stall, frame by frame, as a scripted HTTP/2 peer
// reads it; each answers the server's SETTINGS and PINGs (but h2-no-settings-ack), records
// the server's GOAWAY and responses, and ends as the server ended it.
#include <gtest/gtest.h>

#include "drive.hpp"
#include "h2_peer.hpp"
#include "loiter/clients/h2/hpack.hpp"
#include "loiter/clients/h2/stalls.hpp"
#include "tls_peer.hpp"

namespace loiter::clients {
namespace {

using namespace testing;
using h2::Type;

H2Options options_for(const H2Peer& peer) {
  return {.fleet = {.target = peer.endpoint(), .count = 1, .patience = scaled(2s)}};
}

// For the kinds that open a shut window: GET /large, its window opened 1024 bytes every 30 ms.
H2Options window_trickle_options(const H2Peer& peer) {
  auto options = options_for(peer);
  options.large_path = "/large";
  options.interval = 30ms;
  options.window_increment = 1024;
  return options;
}

// The value of `id` in a SETTINGS frame's payload.
std::optional<std::uint32_t> setting_of(const h2::Frame* settings, std::uint16_t id) {
  if (settings == nullptr) return std::nullopt;
  for (const auto& [key, value] : h2::parse_settings(settings->payload).value_or(h2::Settings{})) {
    if (key == id) return value;
  }
  return std::nullopt;
}

// 16 bytes of the preface and nothing else; the server's close is recorded as it came.
TEST(H2Stalls, PartialPrefaceSendsSixteenBytesThenWaits) {
  H2Peer peer({.close_after = 150ms, .goaway = false});
  const auto record = drive(spawn_h2_partial_preface, options_for(peer)).at(0);
  const auto seen = peer.connections().at(0);
  EXPECT_EQ(seen.raw, h2::kPreface.substr(0, 16));
  EXPECT_EQ(record.ending, Ending::close);
  EXPECT_GE(record.ended_at, 150ms - kTolerance);  // not before the peer closed
  ASSERT_TRUE(record.h2);
  EXPECT_EQ(record.h2->frames_sent, 0u);
}

// Preface, SETTINGS (a large window) and a connection WINDOW_UPDATE; the server's SETTINGS
// is never acknowledged, and its GOAWAY names the ending.
TEST(H2Stalls, NoSettingsAckNeverAcknowledgesTheServersSettings) {
  H2Peer peer({.ping = true, .close_after = 150ms});
  const auto record = drive(spawn_h2_no_settings_ack, options_for(peer)).at(0);
  const auto seen = peer.connections().at(0);
  ASSERT_TRUE(seen.preface);
  ASSERT_EQ(seen.frames.size(), 2u);
  EXPECT_TRUE(seen.frames[0].is(Type::settings));
  EXPECT_EQ(setting_of(&seen.frames[0], h2::setting::initial_window_size), 0x7fffffffu);
  EXPECT_TRUE(seen.frames[1].is(Type::window_update));
  EXPECT_EQ(seen.frames[1].stream, 0u);
  ASSERT_TRUE(record.h2);
  EXPECT_TRUE(record.h2->server_settings);
  EXPECT_TRUE(record.h2->settings_ack);  // the peer acknowledged the client's
  EXPECT_EQ(record.h2->frames_sent, 2u);
  ASSERT_TRUE(record.h2->goaway);
  EXPECT_EQ(record.h2->goaway->code, h2::code::no_error);
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// One GET served whole (status and body from the frames), the server's SETTINGS and PING
// answered, then idle until the server's GOAWAY and close.
TEST(H2Stalls, IdleIsServedOnceThenRecordsTheGoaway) {
  H2Peer peer({.ping = true, .body = 5, .close_after = 150ms});
  const auto record = drive(spawn_h2_idle, options_for(peer)).at(0);
  const auto seen = peer.connections().at(0);
  const auto* request = seen.first(Type::headers);
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->stream, 1u);
  EXPECT_EQ(request->flags & (h2::flag::end_stream | h2::flag::end_headers),
            h2::flag::end_stream | h2::flag::end_headers);
  h2::Decoder decoder;
  const auto fields = decoder.decode(request->payload);
  ASSERT_TRUE(fields);
  EXPECT_EQ(fields->at(3), (std::pair<std::string, std::string>{":path", "/health"}));
  EXPECT_EQ(seen.count(Type::settings), 2u);  // its own and the ACK of the peer's
  const auto* pong = seen.first(Type::ping);
  ASSERT_NE(pong, nullptr);
  EXPECT_EQ(pong->flags, h2::flag::ack);
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.responses[0].status, 200u);
  EXPECT_EQ(record.responses[0].body_bytes, 5u);
  EXPECT_TRUE(record.responses[0].complete);
  EXPECT_EQ(record.requests, 1u);
  EXPECT_EQ(record.h2->frames_sent, 5u);  // SETTINGS, WINDOW_UPDATE, HEADERS, 2 ACKs
  ASSERT_TRUE(record.h2->goaway);
  EXPECT_EQ(record.h2->goaway->last_stream, 1u);
  EXPECT_EQ(ending_label(record), "goaway+close");
  // The peer closes 150 ms after its answer: after the answer arrived, and at least 150 ms
  // after connect (when the client read the answer depends on this machine's scheduling).
  EXPECT_GT(record.ended_at, *record.responses[0].complete);
  EXPECT_GE(record.ended_at, 150ms - kTolerance);
}

// A HEADERS frame without END_HEADERS, and no CONTINUATION after it.
TEST(H2Stalls, HeadersNoEndNeverEndsTheHeaderBlock) {
  H2Peer peer({.ping = true, .close_after = 200ms});
  const auto record = drive(spawn_h2_headers_no_end, options_for(peer)).at(0);
  const auto seen = peer.connections().at(0);
  const auto* request = seen.first(Type::headers);
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->flags & h2::flag::end_headers, 0);
  EXPECT_EQ(seen.count(Type::continuation), 0u);
  // Nothing after it (RFC 9113 6.10): the ACKs of the peer's SETTINGS and PING, which came
  // together, went before it.
  EXPECT_TRUE(seen.frames.back().is(Type::headers));
  EXPECT_EQ(seen.count(Type::settings), 2u);
  EXPECT_EQ(seen.count(Type::ping), 1u);
  EXPECT_TRUE(record.responses.empty());
  EXPECT_EQ(record.requests, 0u);
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// A POST declaring body_bytes, then one DATA byte per interval, never the last, never
// END_STREAM.
TEST(H2Stalls, DataTrickleSendsAByteAnIntervalNeverTheLast) {
  H2Peer peer({.answer = false, .close_after = 400ms});
  auto options = options_for(peer);
  options.echo_path = "/echo";
  options.body_bytes = 5;
  options.interval = 40ms;
  const auto record = drive(spawn_h2_data_trickle, options).at(0);
  const auto seen = peer.connections().at(0);
  const auto* request = seen.first(Type::headers);
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->flags & h2::flag::end_stream, 0);
  h2::Decoder decoder;
  const auto fields = decoder.decode(request->payload);
  ASSERT_TRUE(fields);
  EXPECT_EQ(fields->at(0).second, "POST");
  EXPECT_EQ(fields->back(), (std::pair<std::string, std::string>{"content-length", "5"}));
  EXPECT_EQ(seen.count(Type::data), 4u);
  for (const auto& frame : seen.frames) {
    if (!frame.is(Type::data)) continue;
    EXPECT_EQ(frame.payload.size(), 1u);
    EXPECT_EQ(frame.flags, 0);
  }
  EXPECT_EQ(record.h2->frames_sent, 3u + 1u + 4u);  // opening, HEADERS, SETTINGS ACK, DATA
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// An h2-data-trickle without a body path is refused before anything connects.
TEST(H2Stalls, DataTrickleNeedsAnEchoPath) {
  H2Peer peer({});
  EXPECT_THROW(drive(spawn_h2_data_trickle, options_for(peer)), std::invalid_argument);
}

// INITIAL_WINDOW_SIZE 0 and no connection WINDOW_UPDATE: the response's HEADERS comes, no
// DATA can; the server's close ends it with the response incomplete.
TEST(H2Stalls, ZeroWindowKeepsTheWindowShut) {
  H2Peer peer({.body = 3000, .close_after = 200ms});
  auto options = options_for(peer);
  options.large_path = "/large";
  const auto record = drive(spawn_h2_zero_window, options).at(0);
  const auto seen = peer.connections().at(0);
  EXPECT_EQ(setting_of(seen.first(Type::settings), h2::setting::initial_window_size), 0u);
  EXPECT_EQ(seen.count(Type::window_update), 0u);
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.responses[0].status, 200u);
  EXPECT_EQ(record.responses[0].body_bytes, 0u);
  EXPECT_FALSE(record.responses[0].complete);
  EXPECT_EQ(record.h2->window_updates, 0u);
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// Its twin opens the window window_increment bytes an interval on the stream and the
// connection, until the response is whole, and no more.
TEST(H2Stalls, WindowTrickleOpensTheWindowUntilTheResponseIsWhole) {
  H2Peer peer({.body = 3000, .close_after = 300ms});
  auto options = window_trickle_options(peer);
  const auto record = drive(spawn_h2_window_trickle, options).at(0);
  const auto seen = peer.connections().at(0);
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.responses[0].body_bytes, 3000u);
  EXPECT_TRUE(record.responses[0].complete);
  // 3 steps at least (a step more when the peer's DATA is late), stream and connection each.
  EXPECT_GE(seen.count(Type::window_update), 6u);
  EXPECT_EQ(seen.count(Type::window_update) % 2, 0u);
  EXPECT_EQ(record.h2->window_updates, seen.count(Type::window_update));
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// h2-slow-reader: stream 1's window opened window_increment at a time until whole, and
// meanwhile a GET of path on streams 3, 5, ... every beside_every, each given a window of its
// own and answered: every stream asked for is whole.
TEST(H2Stalls, SlowReaderAsksBesideStreamsWhileItsWindowOpens) {
  H2Peer peer({.body = 3000, .close_after = 300ms});
  auto options = window_trickle_options(peer);
  options.beside_every = 40ms;
  const auto record = drive(spawn_h2_slow_reader, options).at(0);
  const auto seen = peer.connections().at(0);
  std::vector<std::uint32_t> streams;
  for (const auto& frame : seen.frames) {
    if (frame.is(Type::headers)) streams.push_back(frame.stream);
  }
  ASSERT_GE(streams.size(), 2u) << "no stream beside the long one";
  for (std::size_t i = 0; i < streams.size(); ++i) EXPECT_EQ(streams[i], 1 + 2 * i);
  EXPECT_EQ(record.requests, streams.size());
  ASSERT_EQ(record.responses.size(), streams.size());
  for (const auto& response : record.responses) EXPECT_TRUE(response.complete);
  EXPECT_EQ(record.h2->reset_count, 0u);
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// h2-long-response and h2-stream need the long exchange's path, h2-slow-reader a large one.
TEST(H2Stalls, LongStreamsNeedTheirPaths) {
  H2Peer peer({});
  EXPECT_THROW(drive(spawn_h2_long_response, options_for(peer)), std::invalid_argument);
  EXPECT_THROW(drive(spawn_h2_stream, options_for(peer)), std::invalid_argument);
  EXPECT_THROW(drive(spawn_h2_slow_reader, options_for(peer)), std::invalid_argument);
}

// Stream 1 served, stream 3 reuse_after its completion, served too, then held.
TEST(H2Stalls, StreamReuseAsksAgainAfterTheGap) {
  H2Peer peer({.close_after = 200ms});
  auto options = options_for(peer);
  options.reuse_after = 100ms;
  const auto record = drive(spawn_h2_stream_reuse, options).at(0);
  const auto seen = peer.connections().at(0);
  ASSERT_EQ(seen.count(Type::headers), 2u);
  std::vector<std::size_t> requests;
  for (std::size_t i = 0; i < seen.frames.size(); ++i) {
    if (seen.frames[i].is(Type::headers)) requests.push_back(i);
  }
  EXPECT_EQ(seen.frames[requests[1]].stream, 3u);
  ASSERT_EQ(record.responses.size(), 2u);
  EXPECT_TRUE(record.responses[1].complete);
  const auto gap = record.responses[1].started - *record.responses[0].complete;
  EXPECT_GE(gap, 100ms);  // asked no earlier than reuse_after (its answer came later still)
  EXPECT_LT(gap, 100ms + scaled(200ms));
  EXPECT_EQ(record.requests, 2u);
  EXPECT_EQ(ending_label(record), "goaway+close");
}

// Over TLS a server whose ALPN chose http/1.1 is not spoken h2 to: the client closes and
// says why.
TEST(H2Stalls, OverTlsAnAlpnOtherThanH2EndsTheConnection) {
  TlsPeer peer({});
  auto options =
      H2Options{.fleet = {.target = peer.endpoint(), .count = 1, .patience = scaled(2s)}};
  options.fleet.tls = make_tls_client({.alpn = {"h2", "http/1.1"}});
  const auto record = drive(spawn_h2_idle, options).at(0);
  EXPECT_EQ(record.ending, Ending::client_close);
  EXPECT_NE(record.error.find("http/1.1"), std::string::npos) << record.error;
  EXPECT_TRUE(record.sends.empty());
}

}  // namespace
}  // namespace loiter::clients
