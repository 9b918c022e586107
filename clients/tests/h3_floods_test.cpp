// The h3 floods (h3/floods.hpp) against ngtcp2's example server (gtlsserver, ngtcp2 0.12):
// each hands over to loiter's own 1-RTT packets and sends what it says, within its bounds.
// What ngtcp2 does with each is its own source's behaviour (lib/ngtcp2_conn.c, v0.12.1): it
// bounds unacknowledged RETIRE_CONNECTION_IDs (CONNECTION_ID_LIMIT_ERROR), out-of-order CRYPTO
// data (CRYPTO_BUFFER_EXCEEDED past 64 KiB), and answers PATH_CHALLENGEs and PINGs. The
// server is started by PID and always stopped (GtlsServer).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "gtlsserver_peer.hpp"
#include "loiter/clients/h3/floods.hpp"
#include "loiter/testing/wait.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using testing::GtlsServer;
using tcp = asio::ip::tcp;

using Spawn = void (*)(asio::io_context&, const H3FloodOptions&, std::vector<ConnectionRecord>&);

class H3Floods : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new GtlsServer({"--timeout=5s"}, {{"index.html", "<p>loiter</p>\n"}});
    ASSERT_TRUE(loiter::testing::wait_for([] { return h3_get(options().h3, 200ms).has_value(); },
                                          "gtlsserver's answer to a GET", 5s, 20ms));
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static H3FloodOptions options() {
    H3FloodOptions options;
    options.h3.fleet.target = tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port());
    options.h3.fleet.count = 1;
    options.h3.fleet.patience = 5s;
    options.h3.fleet.connect_timeout = 2s;
    options.h3.path = "/index.html";
    // Few frames, a long time: each flood reaches its count however slow the machine.
    options.duration = 3s;
    options.frames = 400;
    return options;
  }

  static ConnectionRecord run(Spawn spawn, const H3FloodOptions& options) {
    asio::io_context io;
    std::vector<ConnectionRecord> out;
    spawn(io, options, out);
    io.run();  // bounded: every connection ends by its patience
    EXPECT_EQ(out.size(), 1U);
    return out.empty() ? ConnectionRecord{} : out.front();
  }

  static inline GtlsServer* server_ = nullptr;
};

std::uint64_t close_code(const ConnectionRecord& r) { return r.h3->close ? r.h3->close->code : 0; }

TEST_F(H3Floods, ConnectionIdFloodIsClosedWithConnectionIdLimitError) {
  auto plenty = options();  // more than ngtcp2 reads before it closes (about a thousand)
  plenty.frames = 20'000;
  const auto r = run(&spawn_h3_connection_id_flood, plenty);
  EXPECT_TRUE(r.h3->acks_withheld);
  EXPECT_EQ(r.ending, Ending::close) << r.error;
  ASSERT_TRUE(r.h3->close);
  EXPECT_FALSE(r.h3->close->application);
  EXPECT_EQ(close_code(r), 0x09U) << "CONNECTION_ID_LIMIT_ERROR";
  ASSERT_TRUE(r.h3->frames_at_close);
  EXPECT_GT(*r.h3->frames_at_close, 0U);
  EXPECT_LT(*r.h3->frames_at_close, plenty.frames) << "it stopped when the server closed";
}

TEST_F(H3Floods, OutOfOrderCryptoIsClosedWithCryptoBufferExceeded) {
  const auto r = run(&spawn_h3_out_of_order, options());
  EXPECT_FALSE(r.h3->acks_withheld);
  EXPECT_EQ(r.ending, Ending::close) << r.error;
  EXPECT_EQ(close_code(r), 0x0dU) << "CRYPTO_BUFFER_EXCEEDED";
  EXPECT_GE(r.h3->streams_opened, 1U) << "a stream's far end of window among the frames";
}

TEST_F(H3Floods, RapidResetGoesPastTheInitialStreamCreditAndStopsAtItsFrames) {
  const auto r = run(&spawn_h3_rapid_reset, options());
  // gtlsserver grants a stream for each one closed: the flood's own bound ends it (or, on a
  // machine so busy that no MAX_STREAMS came for a second, the wait for more credit).
  EXPECT_TRUE(r.h3->frames_sent == options().frames || r.h3->credit_stalled) << r.h3->frames_sent;
  EXPECT_EQ(r.h3->frames_sent, 2 * r.h3->streams_opened) << "two frames a stream";
  EXPECT_GT(r.h3->streams_opened, 100U) << "past the initial MAX_STREAMS: more credit came";
  EXPECT_EQ(r.ending, Ending::client_close) << "the client closed after its linger";
}

TEST_F(H3Floods, PathChallengesAreAnsweredWhileEveryAckIsWithheld) {
  const auto r = run(&spawn_h3_path_challenge_flood, options());
  EXPECT_TRUE(r.h3->acks_withheld);
  EXPECT_EQ(r.h3->frames_sent, options().frames);
  EXPECT_GE(r.h3->path_responses_received, 1U);
  EXPECT_LT(r.h3->path_responses_received, r.h3->frames_sent) << "ngtcp2 keeps a few";
}

TEST_F(H3Floods, PingFloodSendsItsFramesOneAPacket) {
  const auto r = run(&spawn_h3_ping_flood, options());
  EXPECT_TRUE(r.h3->acks_withheld);
  EXPECT_EQ(r.h3->frames_sent, options().frames);
  EXPECT_GE(r.h3->datagrams_sent, options().frames) << "one PING a packet";
}

TEST_F(H3Floods, QpackFloodsFollowTheServersSettings) {
  // gtlsserver (nghttp3) allows a dynamic table, blocks up to 100 streams and sets no
  // field-section limit: the bomb's sections decode to 256 KiB and are answered; the blocked
  // streams reach its stream credit (100) and wait there; the encoder's inserts go on.
  const auto bomb = run(&spawn_h3_qpack_bomb, options());
  EXPECT_GT(bomb.h3->streams_opened, 0U);
  EXPECT_EQ(bomb.h3->frames_sent, bomb.h3->streams_opened) << "one bomb a stream";
  EXPECT_GT(bomb.h3->streams_answered, 0U);
  const auto blocked = run(&spawn_h3_qpack_blocked, options());
  EXPECT_EQ(blocked.h3->streams_opened, 100U);
  EXPECT_TRUE(blocked.h3->credit_stalled);
  EXPECT_EQ(blocked.h3->streams_answered, 0U) << "no insert ever came";
  // The inserts go on, as far as the encoder stream's window lets them: to the flood's count,
  // or until a second passed without more window (a server starved of CPU beside other tests
  // may take that long to extend it): never refused by a close.
  const auto encoder = run(&spawn_h3_encoder_stream_flood, options());
  EXPECT_GT(encoder.h3->frames_sent, 0U);
  EXPECT_TRUE(encoder.h3->frames_sent == options().frames || encoder.h3->credit_stalled)
      << encoder.h3->frames_sent;
  EXPECT_FALSE(encoder.h3->close.has_value());
  EXPECT_EQ(encoder.ending, Ending::client_close);
}

TEST_F(H3Floods, RefusesABatchOfZeroAndAPatienceShorterThanItsFlood) {
  asio::io_context io;
  std::vector<ConnectionRecord> out;
  auto zero = options();
  zero.batch = 0;
  EXPECT_THROW(spawn_h3_ping_flood(io, zero, out), std::invalid_argument);
  auto short_patience = options();
  short_patience.h3.fleet.patience = 4s;
  EXPECT_THROW(spawn_h3_ping_flood(io, short_patience, out), std::invalid_argument);
}

}  // namespace
}  // namespace loiter::clients
