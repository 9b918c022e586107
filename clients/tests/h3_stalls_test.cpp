// The h3 client kinds against ngtcp2's own example HTTP/3 server (gtlsserver, GnuTLS), run
// on 127.0.0.1 with a self-signed certificate made for the test, an htdocs directory of its
// own and a 2 s idle timeout. The server is started by PID and always stopped (GtlsServer).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ip/udp.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gtlsserver_peer.hpp"
#include "loiter/clients/h3/stalls.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr std::size_t kLargeBytes = 64 * 1024;

using testing::GtlsServer;

class H3Stalls : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new GtlsServer({"--timeout=2s"}, {{"index.html", "<p>loiter</p>\n"},
                                                {"large.bin", std::string(kLargeBytes, 'x')}});
    // Ready once a GET is answered (its port is bound already).
    ASSERT_TRUE(loiter::testing::wait_for([] { return h3_get(options(), 200ms).has_value(); },
                                          "gtlsserver's answer to a GET", 5s, 20ms));
  }
  static void TearDownTestSuite() {
    delete server_;  // stops it
    server_ = nullptr;
  }

  static H3Options options() {
    H3Options options;
    options.fleet.target = tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port());
    options.fleet.count = 1;
    options.fleet.patience = 6s;
    options.fleet.connect_timeout = 2s;
    options.path = "/index.html";
    options.large_path = "/large.bin";
    options.long_path = "/large.bin";
    return options;
  }

  static std::vector<ConnectionRecord> run(void (*spawn)(asio::io_context&, const H3Options&,
                                                         std::vector<ConnectionRecord>&),
                                           const H3Options& options) {
    asio::io_context io;
    std::vector<ConnectionRecord> out;
    spawn(io, options, out);
    io.run();  // bounded: every connection ends by its patience
    return out;
  }

  static inline GtlsServer* server_ = nullptr;
};

TEST_F(H3Stalls, GetAnswersAFileAndAMissingPath) {
  std::string error;
  const auto start = Clock::now();
  EXPECT_EQ(h3_get(options(), 2s, &error), 200u) << error;
  EXPECT_LT(Clock::now() - start, 1s);  // a ready server answers at once
  H3Options missing = options();
  missing.path = "/missing";
  EXPECT_EQ(h3_get(missing, 2s, &error), 404u) << error;
}

TEST_F(H3Stalls, GetWithoutAServerFailsWithinItsTimeout) {
  H3Options nobody = options();
  nobody.fleet.target.port(GtlsServer::free_udp_port());
  std::string error;
  const auto start = Clock::now();
  EXPECT_FALSE(h3_get(nobody, 500ms, &error));
  EXPECT_LT(Clock::now() - start, 1500ms);
  EXPECT_FALSE(error.empty());
}

// The server's 2 s idle timeout: a probe 3 s after the client's last packet finds nothing
// (no ACK within three PTOs: gone); one 1 s after it is answered, and that connection closes
// itself.
TEST_F(H3Stalls, IdleProbeLateFindsTheConnectionGoneEarlyIsAnswered) {
  H3Options options = this->options();
  options.fleet.count = 2;
  options.fleet.patience = 8s;
  options.probe_after = 3s;
  options.early_probe_after = 1s;
  const auto records = run(spawn_h3_idle, options);
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    ASSERT_TRUE(record.h3);
    EXPECT_EQ(record.kind, kH3Idle);
    EXPECT_TRUE(record.h3->handshake_done);
    EXPECT_EQ(record.h3->alpn, "h3");
    EXPECT_EQ(record.h3->idle_advertised, Duration(2s));
    EXPECT_TRUE(record.h3->server_settings);
    ASSERT_EQ(record.h3->probes.size(), 1u);
    ASSERT_TRUE(record.h3->last_sent);
  }
  const auto& late = records[0];
  const auto quiet_late = late.h3->probes[0].at - *late.h3->last_sent;
  EXPECT_GE(quiet_late, 3s);
  EXPECT_LT(quiet_late, 3s + 200ms);
  EXPECT_EQ(late.ending, Ending::gone) << to_string(late.ending) << " " << late.error;
  EXPECT_FALSE(late.h3->probes[0].answered);
  EXPECT_EQ(late.ended_at, late.h3->probes[0].at);

  const auto& early = records[1];
  const auto quiet_early = early.h3->probes[0].at - *early.h3->last_sent;
  EXPECT_GE(quiet_early, 1s);
  EXPECT_LT(quiet_early, 1s + 200ms);
  EXPECT_EQ(early.ending, Ending::client_close) << to_string(early.ending) << " " << early.error;
  ASSERT_TRUE(early.h3->probes[0].answered);
  EXPECT_LT(*early.h3->probes[0].answered - early.h3->probes[0].at, 200ms);
}

// A FIN on the client's control stream: the server closes the connection with
// H3_CLOSED_CRITICAL_STREAM (0x104, an application close).
TEST_F(H3Stalls, ControlStreamClosedGetsClosedCriticalStream) {
  const auto records = run(spawn_h3_control_close, options());
  const auto& record = records.at(0);
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::close) << to_string(record.ending) << " " << record.error;
  ASSERT_TRUE(record.h3->close);
  EXPECT_EQ(record.h3->close->code, 0x104u);
  EXPECT_TRUE(record.h3->close->application);
  EXPECT_LT(record.ended_at, 1s);
}

// The window opened 16 KiB every 20 ms: the 64 KiB response comes whole, in steps, and the
// client closes.
TEST_F(H3Stalls, WindowTrickleCompletesTheResponse) {
  H3Options options = this->options();
  options.initial_stream_window = 16 * 1024;
  options.window_increment = 16 * 1024;
  options.interval = 20ms;
  const auto records = run(spawn_h3_window_trickle, options);
  const auto& record = records.at(0);
  EXPECT_EQ(record.ending, Ending::client_close) << to_string(record.ending) << " " << record.error;
  ASSERT_EQ(record.responses.size(), 1u);
  const auto& response = record.responses[0];
  EXPECT_EQ(response.status, 200u);
  ASSERT_TRUE(response.complete);
  EXPECT_EQ(response.body_bytes, kLargeBytes);
  // Three openings at least (48 KiB beyond the first window), 20 ms apart.
  EXPECT_GE(*response.complete - response.started, 40ms);
  EXPECT_LT(record.ended_at, 3s);
}

// The stream's window held at 1 KiB: the 64 KiB response stops at what fits (its HEADERS
// and the start of its body); the PINGs every 500 ms keep the connection past the server's
// 2 s idle timeout, so it is still open when the client's patience ends.
TEST_F(H3Stalls, ZeroWindowHoldsTheResponseAndPingsKeepItOpen) {
  H3Options options = this->options();
  options.fleet.patience = 2500ms;
  options.initial_stream_window = 1024;
  options.keepalive = 500ms;
  const auto records = run(spawn_h3_zero_window, options);
  const auto& record = records.at(0);
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::open) << to_string(record.ending) << " " << record.error;
  EXPECT_GE(record.ended_at, 2500ms);
  EXPECT_LT(record.ended_at, 2500ms + 200ms);
  EXPECT_GE(record.h3->pings_sent, 4u);
  ASSERT_TRUE(record.h3->last_heard);
  EXPECT_GT(*record.h3->last_heard, 2s);  // the server still answered after its idle timeout
  ASSERT_EQ(record.responses.size(), 1u);
  EXPECT_EQ(record.responses[0].status, 200u);
  EXPECT_FALSE(record.responses[0].complete);
  EXPECT_GT(record.responses[0].body_bytes, 0u);
  EXPECT_LE(record.responses[0].body_bytes, 1024u);
}

// Half a HEADERS frame on a request stream: the frame header (type 0x01 and the section's
// whole length) and half of the QPACK section, sent once. gtlsserver has no timeout for it
// (its idle timeout alone, which the PINGs keep from firing): open when patience ends.
TEST_F(H3Stalls, HeadersStallSendsHalfAHeadersFrameAndIsLeftOpen) {
  H3Options options = this->options();
  options.fleet.patience = 1200ms;
  options.keepalive = 300ms;
  const auto records = run(spawn_h3_headers_stall, options);
  const auto& record = records.at(0);
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::open) << to_string(record.ending) << " " << record.error;
  EXPECT_EQ(record.requests, 1u);
  // The section for "/index.html" at "localhost": 2 prefix bytes, :method and :scheme
  // indexed (1 byte each), :path and :authority literals with name references (2 + 11 and
  // 2 + 9 bytes): 29 bytes; sent: 0x01, 29, then 14 of them.
  ASSERT_EQ(record.sends.size(), 1u);
  EXPECT_EQ(record.sends[0].bytes, 2u + 29u / 2);
  EXPECT_TRUE(record.responses.empty());
  EXPECT_GE(record.h3->pings_sent, 3u);
}

// A HEADERS frame trickled: its type and length (2 bytes) first, then a byte of its 28-byte
// section (2 prefix bytes, :method and :scheme 1 each, :path 2 + 11, :authority 2 + 9) every
// 20 ms, never the last: 27 of them over the 1.2 s patience's 60 steps, then nothing more. gtlsserver waits for the rest: open when patience ends.
TEST_F(H3Stalls, HeadersTrickleSendsEveryByteButTheLast) {
  H3Options options = this->options();
  options.fleet.patience = 1200ms;
  options.keepalive = 300ms;
  options.interval = 20ms;
  options.header_padding = 0;
  const auto records = run(spawn_h3_headers_trickle, options);
  const auto& record = records.at(0);
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::open) << to_string(record.ending) << " " << record.error;
  EXPECT_EQ(record.requests, 1u);
  ASSERT_EQ(record.sends.size(), 1u + 27u);
  EXPECT_EQ(record.sends[0].bytes, 2u);
  for (std::size_t i = 1; i < record.sends.size(); ++i) {
    EXPECT_EQ(record.sends[i].bytes, 1u) << i;
    EXPECT_GT(record.sends[i].at, record.sends[i - 1].at) << i;
  }
  EXPECT_TRUE(record.responses.empty());
}

// Without a padding given, the section carries a filler field long enough for a byte every
// interval to last the patience: at 20 ms, past the 27 bytes an unpadded section could give,
// and still sending when patience ends.
TEST_F(H3Stalls, HeadersTrickleIsPaddedToLastItsPatience) {
  H3Options options = this->options();
  options.fleet.patience = 1200ms;
  options.keepalive = 300ms;
  options.interval = 20ms;
  const auto records = run(spawn_h3_headers_trickle, options);
  const auto& record = records.at(0);
  EXPECT_EQ(record.ending, Ending::open) << to_string(record.ending) << " " << record.error;
  EXPECT_GT(record.sends.size(), 1u + 27u);
  ASSERT_FALSE(record.sends.empty());
  EXPECT_GT(record.sends.back().at, 1000ms);
}

// A POST declaring 4 bytes whose body comes a byte every 100 ms: three bytes, never the
// fourth. gtlsserver waits for the rest: open when patience ends.
TEST_F(H3Stalls, DataTrickleNeverSendsTheLastByte) {
  H3Options options = this->options();
  options.fleet.patience = 1200ms;
  options.echo_path = "/index.html";
  options.body_bytes = 4;
  options.interval = 100ms;
  const auto records = run(spawn_h3_data_trickle, options);
  const auto& record = records.at(0);
  ASSERT_TRUE(record.h3);
  EXPECT_EQ(record.ending, Ending::open) << to_string(record.ending) << " " << record.error;
  ASSERT_EQ(record.sends.size(), 4u);  // the request, then three one-byte sends
  for (std::size_t i = 1; i < record.sends.size(); ++i) EXPECT_EQ(record.sends[i].bytes, 1u);
  EXPECT_GE(record.sends[3].at - record.sends[1].at, 200ms - 20ms);
  EXPECT_TRUE(record.responses.empty());
}

}  // namespace
}  // namespace loiter::clients
