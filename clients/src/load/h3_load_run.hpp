// The HTTP/3 exchange of the load engine (load_engine.hpp): its QUIC connections, each
// carrying many request streams, and the streams taken from the timeline. A link here is a
// connected UDP socket: its "connect" ends at once, and its opening is the QUIC handshake,
// the exchange's own (as HTTP/2's SETTINGS are), by the same deadline. h3_load.cpp takes and
// watches the streams, h3_load_open.cpp opens the connections, h3_load_quic.cpp drives ngtcp2
// (datagrams in and out, its timer, how a connection ends), h3_load_session.cpp speaks HTTP/3
// through nghttp3's client session.
// Streams are pooled objects: nothing is allocated per request once the run is warm.
#pragma once

#include <gnutls/gnutls.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <sys/socket.h>

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "load_engine.hpp"

namespace loiter::clients::load_detail {

struct H3Conn;

// One request as a stream: the ticket it carries and what its answer has brought so far.
struct H3Stream {
  Ticket ticket;
  RequestKind kind = RequestKind::pooled;
  H3Conn* conn = nullptr;  // null while it waits to go again (or for its fresh connection)
  std::int64_t id = -1;
  std::size_t slot = 0;  // its place in conn->streams
  Clock::time_point sent{}, deadline = kNever, answered{};
  unsigned status = 0;
  bool body_given = false;  // the body went to nghttp3 (whole: it lives in the options)
  bool noted = false;       // counted as dispatched (once, however often it goes)
  bool ended = false;       // the answer's end (its FIN) came
};

enum class H3Phase {
  closed,       // no socket
  handshaking,  // the first Initial sent: awaiting the handshake's end (by the deadline)
  ready,        // takes streams up to the server's MAX_STREAMS credit
  draining,     // takes no more (GOAWAY, replace_every, fresh): closed when its streams end
};

struct H3Run;

struct H3Conn : Link {
  H3Run* run = nullptr;
  ngtcp2_conn* quic = nullptr;
  gnutls_session_t session = nullptr;
  nghttp3_conn* http = nullptr;
  ngtcp2_crypto_conn_ref ref{};
  sockaddr_storage local{}, remote{};
  socklen_t local_size = 0, remote_size = 0;
  H3Phase phase = H3Phase::closed;
  bool fresh = false;              // a fresh-churn connection, for one stream
  bool replacing = false;          // draining after replace_every
  bool goaway = false;             // the server sent a GOAWAY
  std::int64_t goaway_id = 0;      // the first stream id it will not serve
  bool stateless_reset = false;    // the datagram being read was a stateless reset
  bool dirty = false;              // packets to write at the end of this wake
  std::size_t opened_streams = 0;  // on this connection (replace_every)
  // Its streams not yet over (a fresh connection's one, also before it is sent); a stream
  // counted (answered, failed, timed out, aborted) leaves at once, whatever ngtcp2 still does
  // with it.
  std::vector<H3Stream*> streams;
  Clock::time_point expiry = kNever;  // ngtcp2's next timer
};

// The engine with the HTTP/3 pool (one io_context thread: no locks).
struct H3Run : Engine {
  H3Run(Executor executor, const LoadOptions& o, LoadResult& result);
  ~H3Run() override;
  H3Run(const H3Run&) = delete;
  H3Run& operator=(const H3Run&) = delete;

  // The exchange (h3_load.cpp, h3_load_open.cpp, h3_load_quic.cpp, h3_load_session.cpp).
  void open_pool() override;              // every connection's handshake begun
  void opened(Link& link) override;       // not called: a QUIC link opens by its handshake
  void ready(Link& link) override;        // datagrams read into ngtcp2
  void open_failed(Link& link) override;  // opened again a little later
  void expired(Link& link) override;      // the handshake never ended: "handshake-failed"
  void watch(Clock::time_point now) override;     // ngtcp2's timers, streams' deadlines
  void dispatch(Clock::time_point now) override;  // streams turned back, then the due ones
  void flush() override;  // every touched connection's packets
  std::size_t in_flight() const override { return live; }
  bool starved(bool) const override { return no_slot; }
  bool opening() const override;
  void close_all() override;

  bool churn = false;
  std::vector<std::unique_ptr<H3Conn>> conns;  // the pool
  std::vector<std::unique_ptr<H3Conn>> fresh;  // fresh-churn connections (reused objects)
  std::vector<std::unique_ptr<H3Stream>> stream_store;
  std::vector<H3Stream*> spare;  // streams free for the next request
  std::deque<H3Stream*> again;   // dispatched streams to go again (refused, above a GOAWAY)
  std::vector<H3Conn*> dirty;    // connections with packets to write this wake
  std::size_t live = 0;          // streams taken and not yet over
  std::size_t cursor = 0;        // round robin over the pool
  bool no_slot = false;          // a request found no stream slot this wake
  Clock::time_point read_at{};   // when the datagram being handled arrived

  gnutls_certificate_credentials_t credentials = nullptr;  // one for every connection
  std::string authority;
  std::vector<nghttp3_nv> headers, abort_headers;
  std::string content_length;
  std::array<std::uint8_t, 64 * 1024> buffer{};  // one datagram read at a time

  H3Stream* new_stream(const Ticket& ticket, RequestKind kind);
  // What the shared pool (mux_pool.hpp) asks of HTTP/3.
  bool can_take(const H3Conn& conn) const;
  void submit(H3Conn& conn, H3Stream& stream);
  void open(H3Conn& conn);
  // Off its connection (its callbacks, still to come from ngtcp2 and nghttp3, find it no more).
  void detach_stream(H3Stream& stream);
  // The stream is over (counted): off its connection and back among the spare ones.
  void drop_stream(H3Stream& stream);
};

// Each QUIC and HTTP/3 session's user data is its connection (which knows its run); each
// stream's, the stream.
inline H3Conn& h3_conn_of(void* user_data) { return *static_cast<H3Conn*>(user_data); }

// The QUIC side: the opening (h3_load_open.cpp) and the packets (h3_load_quic.cpp).
// What the opening (h3_load_open.cpp) and the packets (h3_load_quic.cpp) share: the largest
// UDP payload either side sends (the client's max_udp_payload_size), ngtcp2's clock, and a
// connection's path.
inline constexpr std::size_t kH3MaxDatagram = 1452;
std::uint64_t h3_quic_now();
ngtcp2_path h3_path_of(H3Conn& conn);

bool h3_setup(H3Run& run);  // the shared credentials and the request's fields
// A new socket and QUIC connection for `conn`, its first Initial written.
void h3_open(H3Run& run, H3Conn& conn);
void h3_mark_dirty(H3Run& run, H3Conn& conn);
void h3_write(H3Run& run, H3Conn& conn);  // every packet ngtcp2 and nghttp3 have to send
// ngtcp2's timer, if it is due by `now`: its loss recovery, delayed acks, idle timeout.
void h3_expire(H3Run& run, H3Conn& conn, Clock::time_point now);
// The connection ends: its unfinished streams count `kind`, or go again: those a GOAWAY said
// the server never began, and with `again_unanswered` every one whose answer had not begun.
void h3_lose(H3Run& run, H3Conn& conn, const char* kind, bool again_unanswered = false);
void h3_close(H3Run& run, H3Conn& conn);  // the socket and sessions gone, streams untouched
// The client's CONNECTION_CLOSE (H3_NO_ERROR), then h3_close.
void h3_say_goodbye(H3Run& run, H3Conn& conn);
// A draining connection whose streams all ended is closed (and a pool one reopened).
void h3_retire_if_done(H3Run& run, H3Conn& conn);

// The HTTP/3 session (h3_load_session.cpp).
void h3_add_stream_callbacks(ngtcp2_callbacks& callbacks);
bool h3_start_session(H3Run& run, H3Conn& conn);  // nghttp3 and its three unidirectional streams
bool h3_can_take(const H3Conn& conn);
void h3_submit(H3Run& run, H3Conn& conn, H3Stream& stream);
// A stream past its deadline: counted as "timeout" and reset (H3_REQUEST_CANCELLED).
void h3_time_out(H3Run& run, H3Stream& stream);
// Fed a stream's bytes from ngtcp2; false: the server broke HTTP/3.
bool h3_read_stream(H3Conn& conn, std::int64_t id, const std::uint8_t* data, std::size_t size,
                    bool fin);

}  // namespace loiter::clients::load_detail
