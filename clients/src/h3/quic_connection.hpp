// One QUIC + HTTP/3 client connection on its own UDP socket: ngtcp2 (0.12) for QUIC, GnuTLS
// for its TLS 1.3 (ALPN "h3", no certificate check), nghttp3 (0.8) for the HTTP/3 control
// and QPACK streams and for the requests the kinds make through it. ngtcp2, nghttp3 and
// GnuTLS stay behind this class (their headers are included only by its .cpp files), so a
// port to ngtcp2 1.x touches this room's sources only.
//
// Driven by plain callbacks on the io_context, not coroutines: ngtcp2 wants "read a datagram,
// then write until nothing is left, then re-arm one timer", which a handful of handlers say
// directly. The object owns itself through the handlers it has pending (shared_from_this):
// once it has ended and its socket and timers are closed, the last handler lets it go.
//
// A kind is a subclass: it overrides the hooks (on_ready, on_response_complete,
// on_stream_ended, on_probe_answered) and uses the actions (submit_get, ping, ...). Every
// connection ends by its patience at the latest (Ending::open), its handshake by the fleet's
// connect_timeout (Ending::connect_failed).
#pragma once

#include <algorithm>
#include <array>
#include <boost/asio/ip/udp.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/h3/stalls.hpp"
#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/asio.hpp"
#include "loiter/clients/transport/fleet.hpp"

namespace loiter::clients::h3 {

using Udp = asio::ip::udp;
using UdpSocket = asio::basic_datagram_socket<Udp, Executor>;

// How the request streams' flow-control windows move.
enum class Window : std::uint8_t {
  automatic,  // extended by what was consumed (as any client does)
  held,       // never extended: the transport parameters' window is all the server gets
};

struct QuicGlue;  // ngtcp2's and GnuTLS's callbacks (quic_connection.cpp)
struct H3Glue;    // nghttp3's callbacks (h3_session.cpp)
struct ConnRef;   // how GnuTLS finds the ngtcp2 connection
struct KeyLog;    // GnuTLS's key log, for a flood's hand-over (hand_over.cpp)

class QuicConnection : public std::enable_shared_from_this<QuicConnection> {
 public:
  // `window`: held, the server's request streams get initial_stream_window bytes of
  // flow-control window from the transport parameters and no more unless the kind opens it.
  QuicConnection(Executor executor, std::shared_ptr<const H3Options> options, std::size_t index,
                 ConnectionRecord& record, std::string_view kind,
                 Window window = Window::automatic);
  QuicConnection(const QuicConnection&) = delete;
  QuicConnection& operator=(const QuicConnection&) = delete;
  virtual ~QuicConnection();

  // Opens the socket and sends the first Initial. On a local failure the record says
  // connect_failed and nothing is pending.
  void start();

 protected:
  // The handshake completed and the HTTP/3 session (control and QPACK streams) is bound;
  // its SETTINGS go out with the next write.
  virtual void on_ready() {}
  // A response on `stream` arrived whole (its FIN).
  virtual void on_response_complete(std::int64_t stream) { (void)stream; }
  // The server reset (RESET_STREAM) or stopped (STOP_SENDING) `stream`.
  virtual void on_stream_ended(std::int64_t stream) { (void)stream; }
  // The probe's PING was acknowledged.
  virtual void on_probe_answered() {}

  // The h3 floods (h3/floods.hpp): a kind that hands_over() gets no HTTP/3 session; once the
  // server confirmed the handshake (HANDSHAKE_DONE) the connection is handed over to the
  // kind's own 1-RTT packets (on_handed_over), ngtcp2 is neither fed nor asked again, every
  // datagram that comes goes to on_own_datagram, and at patience on_own_deadline() says
  // goodbye before the connection ends.
  struct HandOver {
    std::vector<std::uint8_t> client_secret;  // CLIENT_TRAFFIC_SECRET_0
    std::vector<std::uint8_t> server_secret;  // SERVER_TRAFFIC_SECRET_0
    bool chacha = false;                      // TLS_CHACHA20_POLY1305_SHA256 (else AES-128-GCM)
    std::vector<std::uint8_t> dcid;           // the server's connection ID ngtcp2 used
    std::size_t scid_length = 0;              // the client's connection IDs' length
    std::uint64_t scids_issued = 0;           // sequence numbers below are ngtcp2's
    std::uint64_t next_packet_number = 0;     // past any 1-RTT packet ngtcp2 sent
    std::uint64_t streams_bidi = 0;           // request streams the server allows now
    std::uint64_t max_data = 0;               // connection credit left
    std::uint64_t stream_window = 0;          // initial_max_stream_data_bidi_remote
    std::uint64_t uni_window = 0;             // initial_max_stream_data_uni
    std::uint64_t streams_uni = 0;            // initial_max_streams_uni
    std::optional<std::array<std::uint8_t, 16>> reset_token;  // for the server's first CID
    // The server's unidirectional streams' bytes so far (its control stream's SETTINGS).
    std::vector<std::pair<std::int64_t, std::string>> server_streams;
  };
  virtual bool hands_over() const { return false; }
  virtual void on_handed_over(HandOver hand_over) { (void)hand_over; }
  virtual void on_own_datagram(std::span<const std::uint8_t> datagram) { (void)datagram; }
  virtual void on_own_deadline() {}
  bool send_own(std::span<const std::uint8_t> datagram) {
    return send_datagram(datagram.data(), datagram.size());
  }
  bool handed_over() const { return handed_over_; }

  // Actions. Each writes what it queued at once.
  std::int64_t submit_get(const std::string& path, Window window);
  // A POST of `length` declared bytes whose body goes out one byte per release_byte().
  std::int64_t submit_trickle_post(const std::string& path, std::size_t length);
  void release_byte();
  // A bidirectional stream nghttp3 knows nothing of, with the first `released` of `bytes`
  // written on it (all of them by default; no FIN).
  std::int64_t open_raw_stream(std::string bytes,
                               std::size_t released = std::numeric_limits<std::size_t>::max());
  // Writes one more byte of raw `stream`'s bytes (none once all are released); a send of 1
  // byte in the record.
  void release_raw_byte(std::int64_t stream);
  // An ack-eliciting PING; `probe`: counted in h3.probes (else in pings_sent).
  void ping(bool probe);
  // Opens `stream`'s window and the connection's by `bytes`.
  void extend_window(std::int64_t stream, std::size_t bytes);
  // Ends the client's HTTP/3 control stream with a FIN (a critical stream closed).
  void finish_control_stream();
  // The client's CONNECTION_CLOSE (H3_NO_ERROR): Ending::client_close.
  void close_by_client();
  // Runs `action` at `at` (one pending action at a time: a new one replaces it).
  void at(Clock::time_point at, std::function<void()> action);
  void end(Ending ending, Clock::time_point at, std::string error = {});

  bool ended() const { return ended_; }
  Duration since_connect(Clock::time_point at) const { return at - record_.connect_start; }
  Clock::time_point last_sent() const { return last_sent_; }
  Duration pto() const;
  const H3Options& options() const { return *options_; }
  std::size_t index() const { return index_; }
  ConnectionRecord& record() { return record_; }
  H3Record& h3() { return *record_.h3; }
  const H3Record& h3() const { return *record_.h3; }
  // The response of `stream`, if its HEADERS came.
  const Response* response_of(std::int64_t stream) const;
  // The :status of a response's first HEADERS frame when its field section starts with a
  // static-table one (0 when it does not): enough for streams nghttp3 does not parse.
  static unsigned static_status(const std::uint8_t* data, std::size_t size);

 private:
  friend struct QuicGlue;
  friend struct H3Glue;
  friend struct KeyLog;

  struct Stream {
    std::int64_t id = -1;
    Window window = Window::automatic;
    bool raw = false;                     // not nghttp3's (h3-headers-stall, h3-headers-trickle)
    bool raw_blocked = false;             // its flow-control window is full
    std::optional<std::size_t> response;  // its index in record.responses
    // raw: its bytes, written from raw_written on. On the heap and never changed while the
    // connection lives: ngtcp2 0.12 does not copy stream data, it retransmits from the
    // application's buffer until acknowledged (a moved or erased string would resend garbage).
    // Only the first raw_released of them may go (a trickle releases one more at a time).
    std::shared_ptr<const std::string> raw_bytes;
    std::size_t raw_written = 0;
    std::size_t raw_released = 0;
    std::size_t raw_end() const {
      return raw_bytes ? std::min(raw_bytes->size(), raw_released) : 0;
    }
    bool raw_pending() const { return raw_written < raw_end(); }
    std::size_t raw_received = 0;
  };
  struct Vec {  // ngtcp2_vec's and nghttp3_vec's layout
    std::uint8_t* base = nullptr;
    std::size_t len = 0;
  };
  // What the next packet may carry of one stream.
  struct Chunk {
    enum class Source : std::uint8_t { none, raw, control_fin, http3 };
    Source source = Source::none;
    std::int64_t stream = -1;
    bool fin = false;
    bool error = false;
    std::array<Vec, 16> vec{};
    std::size_t count = 0;
  };
  // A stream event seen inside ngtcp2's callbacks, handed to the kind after the packet was
  // read (a kind may close the connection, which ngtcp2 does not allow from a callback).
  struct Event {
    std::int64_t stream = -1;
    bool complete = false;  // a whole response (else the server ended the stream)
  };

  bool setup_tls();
  bool setup_quic();
  void release_tls();
  std::uint64_t stream_window() const;
  std::uint64_t timestamp();
  std::uint64_t idle_floor() const;
  void receive();
  void on_datagram(std::size_t size);
  void deliver_events();
  void write();
  bool send_datagram(const std::uint8_t* data, std::size_t size);
  void send_close(std::uint64_t code);
  void arm_expiry();
  void on_expiry();
  void on_deadline();
  void on_read_error(int rv);
  void fail(std::string error);
  Stream* stream(std::int64_t id);
  Response& response_for(Stream& stream);
  void on_stream_end(std::int64_t id, std::uint64_t code, bool stop_sending);
  void keep_server_stream(std::int64_t id, std::uint64_t offset, const std::uint8_t* data,
                          std::size_t size);
  void check_probe();
  // The HTTP/3 half (h3_session.cpp).
  void add_http3_callbacks(void* callbacks);  // ngtcp2_callbacks*
  bool setup_http3();
  void close_http3();
  int h3_read(std::int64_t id, const std::uint8_t* data, std::size_t size, bool fin);
  void h3_consumed(std::int64_t id, std::size_t bytes);
  void http3_stream_end(std::int64_t id);
  std::int64_t open_stream();
  // After nghttp3_conn_submit_request returned `submitted`: the request's send recorded and
  // written, true; or (not 0) the connection ended as a reset, false.
  bool sent_request(int submitted);
  Chunk next_chunk();
  bool wrote(const Chunk& chunk, std::size_t bytes);
  void blocked(const Chunk& chunk, bool data_blocked);

  Executor executor_;
  std::shared_ptr<const H3Options> options_;
  std::size_t index_;
  ConnectionRecord& record_;
  UdpSocket socket_;
  Timer expiry_;    // ngtcp2's next timer
  Timer deadline_;  // the handshake's timeout, then patience
  Timer action_;    // the kind's next step
  std::function<void()> pending_action_;
  std::vector<std::uint8_t> in_;
  Udp::endpoint local_;
  Udp::endpoint remote_;

  void* conn_ = nullptr;     // ngtcp2_conn*
  void* session_ = nullptr;  // gnutls_session_t
  void* http3_ = nullptr;  // nghttp3_conn*
  std::unique_ptr<ConnRef> conn_ref_;
  std::int64_t control_stream_ = -1;
  bool fin_control_ = false;
  bool control_finished_ = false;

  std::vector<Stream> streams_;
  std::vector<Event> events_;
  Window window_;
  std::optional<std::uint64_t> http3_error_;  // an HTTP/3 error in what the server sent
  std::size_t trickle_released_ = 0;          // body bytes the trickle may give nghttp3
  std::size_t trickle_given_ = 0;
  std::int64_t trickle_stream_ = -1;

  // The clock ngtcp2 sees: real time less skew_, never past ngtcp2's own idle deadline (see
  // timestamp()).
  std::uint64_t skew_ = 0;
  std::uint64_t last_fed_ = 0;
  std::uint64_t idle_timeout_ = 0;  // ngtcp2's: min(the client's, the server's); 0: none
  std::uint64_t idle_base_ = 0;     // ngtcp2's idle timer restarted no earlier than this
  bool pinged_since_read_ = false;
  bool ping_pending_ = false;  // ping(): the keep-alive is on until one datagram went

  Clock::time_point last_sent_{};
  std::optional<Clock::time_point> probe_sent_;
  bool probe_answered_ = false;
  bool handshake_done_ = false;
  bool handshake_confirmed_ = false;
  bool stateless_reset_ = false;
  bool ended_ = false;
  // hands_over(): the traffic secrets GnuTLS's key log gave, the cipher, the server's
  // unidirectional stream bytes, and whether the hand-over happened.
  std::vector<std::uint8_t> client_secret_;
  std::vector<std::uint8_t> server_secret_;
  bool chacha_ = false;
  std::vector<std::pair<std::int64_t, std::string>> server_streams_;
  bool handed_over_ = false;
  void hand_over();
  // A flood's TLS session (hand_over.cpp): the two suites its packets have, and the key log
  // that gives their secrets; GnuTLS's return code.
  int set_hand_over_tls(void* session);
};

// The fleet body: waits for the slot's start, then starts the connection `make` builds.
using Make = std::shared_ptr<QuicConnection> (*)(Executor, std::shared_ptr<const H3Options>,
                                                 std::size_t, ConnectionRecord&);
void spawn_h3_kind(asio::io_context& io, const H3Options& options, Make make,
                   std::vector<ConnectionRecord>& out);
// The same for connections `factory` builds (slot index, its record) on `fleet`'s slots.
using ConnectionFactory =
    std::function<std::shared_ptr<QuicConnection>(Executor, std::size_t, ConnectionRecord&)>;
void spawn_h3_connections(asio::io_context& io, const FleetSpec& fleet, ConnectionFactory factory,
                          std::vector<ConnectionRecord>& out);

// A request's field section: its QPACK bytes with static-table references only (no dynamic
// table: Required Insert Count 0), for a stream written by hand (h3-headers-stall,
// h3-headers-trickle); with `padding`, a last field x-loiter-pad of that many bytes of value,
// so a trickle has bytes enough for its patience.
std::string qpack_get_section(std::string_view authority, std::string_view path,
                              std::size_t padding = 0);
// An HTTP/3 frame header: its type and length as QUIC variable-length integers.
std::string frame_header(std::uint64_t type, std::uint64_t length);

}  // namespace loiter::clients::h3
