// One record per client connection: plain data, no formatting, no judgement.
// Every time is on the steady clock; durations are measured from that connection's own
// connect (the moment its handshake completed), never from the start of a run.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loiter/clients/boxed.hpp"

namespace loiter::clients {

using Clock = std::chrono::steady_clock;
using Duration = std::chrono::nanoseconds;

// How the connection ended, as the client observed it. The first four are what the server
// (or nobody) did; the last two are the client's own, deliberate endings.
enum class Ending {
  close,           // EOF: the server closed (FIN)
  reset,           // the server reset the connection (RST), or another transport error
  open,            // still open when the client's patience ran out
  connect_failed,  // never connected
  client_abort,    // the client reset the connection itself (SO_LINGER 0), by design
  client_close,    // the client closed its end first (FIN), by design
  alert,           // the server sent a fatal TLS alert (TlsRecord::alert), then closed
  // QUIC: the server forgot the connection without a word: a probe (a PING, or a second
  // Initial) had no answer within three PTOs; ended_at is when the probe went (H3Record).
  gone,
};

// "close", "reset", "open", "connect-failed", "client-abort", "client-close", "alert",
// "gone".
std::string_view to_string(Ending ending);

struct Send {
  Duration at{};  // since connect
  std::size_t bytes = 0;
};

// The header fields of one response, in arrival order, packed into one string ("name",
// NUL, "value", NUL, …): one allocation a response instead of a vector and two strings a
// field, since a held connection keeps its responses for as long as it is held. Beast
// rejects a NUL in a name or value, so the separator is unambiguous.
class Fields {
 public:
  using Field = std::pair<std::string_view, std::string_view>;

  class iterator {
   public:
    using value_type = Field;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(std::string_view rest) : rest_(rest) {}
    Field operator*() const;
    iterator& operator++();
    iterator operator++(int);
    bool operator==(const iterator& other) const { return rest_.data() == other.rest_.data(); }

   private:
    std::string_view rest_;  // from this field to the end
  };

  void add(std::string_view name, std::string_view value);
  void shrink_to_fit() { packed_.shrink_to_fit(); }
  iterator begin() const { return iterator(packed_); }
  iterator end() const { return iterator(std::string_view(packed_).substr(packed_.size())); }
  std::size_t size() const;
  bool empty() const { return packed_.empty(); }
  // All fields, for tests and reports.
  std::vector<Field> list() const { return {begin(), end()}; }

 private:
  std::string packed_;
};

// One response as it arrived: status line and header fields parsed with Beast, and how
// much of its body came.
struct Response {
  unsigned status = 0;
  std::string reason;
  Fields fields;
  Duration started{};                // since connect: its first byte arrived
  std::optional<Duration> complete;  // since connect: its last byte arrived (set once whole)
  std::size_t body_bytes = 0;        // body bytes received (counted, not kept)
};

// Bytes received by a moment (the slow reader's record of its own pace).
struct Progress {
  Duration at{};  // since connect
  std::size_t bytes = 0;
};

// A reader that stopped reading for a while (reader-pause): when, and how much of the
// response was still to come then, so a report can tell the stall was real.
struct ReadPause {
  Duration from{};   // since connect: the client stopped reading
  Duration until{};  // since connect: it read again (early when the server ended it first)
  // Since connect: when bytes last arrived while it read nothing (the unread bytes grew),
  // seen every watch interval: the server's writes made no progress after it.
  Duration filled{};
  // Response bytes the client had not received when it stopped (Content-Length less the
  // body bytes received): what the server still had to send; nullopt without a length.
  std::optional<std::size_t> unsent;
  bool ended_while_paused = false;  // the server's reset or FIN was seen during the pause

  bool operator==(const ReadPause&) const = default;
};

// What a TLS connection's handshake did: when it completed, or how far it got.
struct TlsRecord {
  std::optional<Duration> handshake_done;  // since connect: the handshake completed
  std::size_t handshake_sent = 0;          // bytes the client sent before it completed (or ended)
  std::size_t handshake_received = 0;      // bytes the server sent meanwhile
  std::string version;                     // "TLSv1.3", once done
  std::string alpn;                        // the protocol the server chose; empty: none
  std::optional<unsigned> alert;  // a fatal alert from the server: its description (RFC 8446 6)

  bool operator==(const TlsRecord&) const = default;
};

// A GOAWAY the server sent (RFC 9113 6.8).
struct H2Goaway {
  Duration at{};                  // since connect
  std::uint32_t last_stream = 0;  // the last stream the server processed
  std::uint32_t code = 0;  // its error code: 0 NO_ERROR, 1 PROTOCOL_ERROR, 11 ENHANCE_YOUR_CALM
  std::size_t frames_sent = 0;  // the client's frames sent before it arrived

  bool operator==(const H2Goaway&) const = default;
};

// An HTTP/2 error code's name (RFC 9113 7): "NO_ERROR", "ENHANCE_YOUR_CALM", ...; "error
// 0x1a" for a code it does not name.
std::string h2_error_name(std::uint32_t code);

// A RST_STREAM the server sent.
struct H2Reset {
  Duration at{};  // since connect
  std::uint32_t stream = 0;
  std::uint32_t code = 0;

  bool operator==(const H2Reset&) const = default;
};

// What an HTTP/2 connection's frames said. Its responses (one per stream, in the order
// their HEADERS arrived) are ConnectionRecord::responses, as over HTTP/1.1.
struct H2Record {
  static constexpr std::size_t kKeptResets = 16;  // the first ones; reset_count counts all

  std::optional<Duration> server_settings;  // since connect: the server's first SETTINGS came
  std::optional<Duration> settings_ack;     // the server acknowledged the client's SETTINGS
  std::optional<H2Goaway> goaway;           // the first GOAWAY
  std::vector<H2Reset> resets;              // the first kKeptResets RST_STREAM frames
  std::size_t reset_count = 0;
  std::size_t frames_sent = 0;      // frames the client sent (a flood counts its own)
  std::size_t frames_received = 0;  // frames the server sent
  std::size_t window_updates = 0;   // WINDOW_UPDATE frames the client sent (zero-window twin)
  // h2-control: each answered request's latency, from its intended send time (not when it
  // could go out) to its whole response, in request order; ConnectionRecord::requests
  // counts every request it sent.
  std::vector<Duration> latencies;

  bool operator==(const H2Record&) const = default;
};

// A QUIC CONNECTION_CLOSE the server sent (RFC 9000 19.19).
struct H3Close {
  Duration at{};             // since connect
  std::uint64_t code = 0;    // its error code: a transport one, or an HTTP/3 one (application)
  bool application = false;  // frame type 0x1d: an HTTP/3 error code (RFC 9114 8.1)
  std::string reason;        // its reason phrase, if any (at most 64 bytes kept)

  bool operator==(const H3Close&) const = default;
};

// A request stream the server ended before answering it whole: RESET_STREAM (it stopped
// sending) or STOP_SENDING (it asked the client to stop), with its HTTP/3 code.
struct H3StreamEnd {
  Duration at{};  // since connect
  std::int64_t stream = 0;
  std::uint64_t code = 0;     // 0x10d H3_REQUEST_INCOMPLETE, 0x10c H3_REQUEST_CANCELLED, ...
  bool stop_sending = false;  // STOP_SENDING (else RESET_STREAM)

  bool operator==(const H3StreamEnd&) const = default;
};

// A probe: a PING (or, before the handshake, a second Initial) sent to learn whether the
// server still holds the connection; answered when its ACK came (a second Initial's: from
// the same server connection, acknowledging the first Initial too).
struct H3Probe {
  Duration at{};                     // since connect: sent
  std::optional<Duration> answered;  // since connect: its ACK arrived

  bool operator==(const H3Probe&) const = default;
};

// What the answer to h3-initial-stall's second Initial said of the half-open connection.
enum class H3Remembered : std::uint8_t {
  unknown,     // no second Initial was sent
  remembered,  // an ACK from the same server connection ID, covering the first Initial too
  forgotten,   // an answer as to a new connection (another connection ID, or only the new packet)
  silent,      // no answer within three PTOs
};

// What an HTTP/3 connection's packets said. QUIC has no connect before its handshake: the
// record's connect is the client's first Initial (connect_took 0), and every time in the
// record counts from it. Its responses (one per request stream) are
// ConnectionRecord::responses, as over HTTP/1.1 and HTTP/2.
struct H3Record {
  static constexpr std::size_t kKeptStreamEnds = 16;

  std::optional<Duration> handshake_done;  // since connect (the first Initial's send)
  std::string alpn;                        // the application protocol the server chose
  // The server's max_idle_timeout transport parameter; 0: it disabled its idle timeout.
  std::optional<Duration> idle_advertised;
  std::optional<Duration> server_settings;  // its SETTINGS frame arrived (control stream)
  std::optional<Duration> last_heard;       // the last packet from the server
  // The client's last packet before its probe (h3-idle: the quiet runs from it).
  std::optional<Duration> last_sent;
  std::optional<H3Close> close;          // the server's CONNECTION_CLOSE
  bool stateless_reset = false;          // a stateless reset ended it (RFC 9000 10.3)
  std::vector<H3StreamEnd> stream_ends;  // the first kKeptStreamEnds
  std::vector<H3Probe> probes;
  H3Remembered remembered = H3Remembered::unknown;  // h3-initial-stall
  std::size_t pings_sent = 0;                       // keep-alive PINGs (probes not counted)
  std::size_t datagrams_sent = 0;                   // UDP datagrams, both ways
  std::size_t datagrams_received = 0;
  std::size_t bytes_sent = 0;  // UDP payload bytes, both ways
  std::size_t bytes_received = 0;
  // h3-amplification: the server's bytes before the client's address was validated (all of
  // them: the client sends nothing after its one Initial), and the client's bytes then.
  std::size_t unvalidated_received = 0;
  std::size_t unvalidated_sent = 0;
  // The h3 floods (h3/floods.hpp), after their hand-over to loiter's own 1-RTT packets:
  std::size_t frames_sent = 0;  // the flood's frames (ACKs, and its opening streams, not counted)
  // frames_sent when the server's CONNECTION_CLOSE (or a stateless reset) was read.
  std::optional<std::size_t> frames_at_close;
  std::size_t streams_opened = 0;   // request streams a flood opened
  std::size_t streams_refused = 0;  // of them: reset or stopped by the server, or answered 4xx/5xx
  std::size_t streams_answered = 0; // of them: answered 2xx/3xx whole
  // The flood stopped early because the server gave it no credit (MAX_STREAMS, MAX_DATA)
  // for a whole second: the server refused what came next.
  bool credit_stalled = false;
  bool acks_withheld = false;  // the flood never acknowledged the server's packets
  // What the server sent back meanwhile, frame by frame (RETIRE_CONNECTION_ID for the
  // connection-ID flood, PATH_RESPONSE for the path-challenge flood, ...).
  std::size_t retire_frames_received = 0;
  std::size_t path_responses_received = 0;
  std::vector<Duration> latencies;  // h3-control: each GET's, from its intended send time

  bool operator==(const H3Record&) const = default;
};

// "H3_REQUEST_INCOMPLETE", "H3_CLOSED_CRITICAL_STREAM", "NO_ERROR" (application: false),
// "PROTOCOL_VIOLATION", ...; "error 0x1a" for a code it does not name.
std::string h3_error_name(std::uint64_t code, bool application = true);

struct ConnectionRecord {
  std::string_view kind;  // the client behaviour, e.g. "silent" (a static string)
  std::string source;     // "127.0.0.2:40312"
  Clock::time_point connect_start{};
  Duration connect_took{};  // from connect start to handshake completion (or failure)
  std::vector<Send> sends;
  std::size_t requests = 0;            // complete requests among the sends
  std::optional<Duration> first_byte;  // since connect
  std::size_t bytes_received = 0;
  std::vector<Response> responses;  // in arrival order
  std::vector<Progress> progress;   // slow readers only: bytes received after each read
  // Filled by a few kinds only, so boxed (8 bytes each when empty, see boxed.hpp).
  Boxed<ReadPause> pause;  // reader-pause only
  Boxed<TlsRecord> tls;    // TLS connections only
  Boxed<H2Record> h2;      // HTTP/2 connections only
  Boxed<H3Record> h3;      // HTTP/3 (QUIC) connections only
  Ending ending = Ending::open;
  Duration ended_at{};       // since connect: when the ending was observed (or done)
  Duration client_closed{};  // since connect: when the client closed its socket
  std::string error;         // the transport error, for reset and connect_failed
  int error_number = 0;      // its errno (ECONNREFUSED, EMFILE, ...); 0: none, or not an OS error

  Clock::time_point connected() const { return connect_start + connect_took; }
  // The response that came with the ending: one the server sent beyond the requests the
  // client completed (a 408 to a stalled head or body); null if every response answered a
  // request.
  const Response* unsolicited_response() const;
  // The last response whose body arrived whole, if any.
  const Response* last_complete_response() const;
};

// How many responses arrived whole.
std::size_t complete_responses(const ConnectionRecord& record);

// What ended a connection or, over HTTP/2, the stream a closure is about: what an
// expectation allows, compared as a value; a report prints it ("408+close", "rst-stream").
struct EndingLabel {
  // Over HTTP/2 the stream may end before its connection: answered whole, or reset.
  enum class Stream : std::uint8_t { none, answered, reset };

  Ending ending = Ending::open;  // the connection's ending (open for a stream's own end)
  // The status of the response that came with the ending, unasked (a 408), or of the whole
  // answer that ended a stream; 0: none.
  unsigned status = 0;
  bool goaway = false;  // the server's GOAWAY came before its ending (its code in record.h2)
  Stream stream = Stream::none;

  bool operator==(const EndingLabel&) const = default;
};

// The labels expectations are written in.
namespace ends {
constexpr EndingLabel of(Ending ending) { return {.ending = ending}; }
inline constexpr EndingLabel closed = of(Ending::close);  // "close"
inline constexpr EndingLabel reset = of(Ending::reset);   // "reset"
inline constexpr EndingLabel alert = of(Ending::alert);   // "alert"
// A response before the server's ending: with_status(408, Ending::close) is "408+close".
constexpr EndingLabel with_status(unsigned status, Ending ending) {
  return {.ending = ending, .status = status};
}
// The server's GOAWAY before its ending: goaway(Ending::close) is "goaway+close".
constexpr EndingLabel goaway(Ending ending) { return {.ending = ending, .goaway = true}; }
// HTTP/2: the stream answered whole before the connection ended ("408").
constexpr EndingLabel stream_answered(unsigned status) {
  return {.status = status, .stream = EndingLabel::Stream::answered};
}
// HTTP/2: the server reset the stream (RST_STREAM) before the connection ended ("rst-stream").
inline constexpr EndingLabel stream_reset = {.stream = EndingLabel::Stream::reset};
}  // namespace ends

// How the record's connection ended, as the server ended it: a GOAWAY before the server's
// ending (HTTP/2) leads it, else an unsolicited response before it (a 408).
EndingLabel ending_of(const ConnectionRecord& record);

// "408+close", "close", "reset", "200+reset", "open", "connect-failed", "client-abort",
// "client-close", "goaway+close", "408" (a stream answered), "rst-stream".
std::string to_string(const EndingLabel& label);
std::ostream& operator<<(std::ostream& out, const EndingLabel& label);  // to_string's words

// to_string(ending_of(record)).
std::string ending_label(const ConnectionRecord& record);

}  // namespace loiter::clients
