// The HTTP/2 exchange of the load engine (load_engine.hpp): its connections, each carrying
// many streams, and the streams taken from the timeline (h2_load.cpp takes and watches them,
// h2_load_conn.cpp reads and writes, h2_load_session.cpp speaks HTTP/2 through nghttp2's
// client session). Streams are pooled objects: nothing is allocated per request once the run
// is warm.
#pragma once

#include <nghttp2/nghttp2.h>

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "load_engine.hpp"

namespace loiter::clients::load_detail {

struct H2Conn;

// One request as a stream: the ticket it carries and what its answer has brought so far.
struct H2Stream {
  Ticket ticket;
  RequestKind kind = RequestKind::pooled;
  H2Conn* conn = nullptr;  // null while it waits for a slot (after a GOAWAY) or a fresh connect
  std::int32_t id = -1;
  std::size_t slot = 0;  // its place in conn->streams
  Clock::time_point sent{}, deadline = kNever, answered{};
  unsigned status = 0;
  std::size_t body_sent = 0;
  bool noted = false;  // counted as dispatched (once, however often it goes)
  bool ended = false;  // the answer's END_STREAM came
  bool done = false;   // already counted (aborted, timed out): its close counts nothing
};

enum class H2Phase {
  closed,    // no open link (none, or one being opened)
  settling,  // the preface sent: awaiting the server's SETTINGS before any stream
  ready,     // takes streams up to the server's MAX_CONCURRENT_STREAMS
  draining,  // takes no more (GOAWAY, replace_every, fresh): closed when its streams end
};

struct NgSessionFree {
  void operator()(nghttp2_session* session) const { nghttp2_session_del(session); }
};

struct H2Run;

struct H2Conn : Link {
  H2Run* run = nullptr;
  std::unique_ptr<nghttp2_session, NgSessionFree> session;
  H2Phase phase = H2Phase::closed;
  bool fresh = false;              // a fresh-churn connection, for one stream
  bool replacing = false;          // draining after replace_every
  bool goaway = false;             // the server sent a GOAWAY
  std::int32_t last_stream = 0;    // its last_stream_id
  bool dirty = false;              // frames to flush at the end of this wake
  std::size_t opened_streams = 0;  // on this socket (replace_every)
  std::vector<H2Stream*> streams;  // open on this socket (or pending, fresh)
  std::string out;                 // serialized frames the socket has not taken yet
  std::size_t out_sent = 0;
};

// The engine with the HTTP/2 pool (one io_context thread: no locks).
struct H2Run : Engine {
  H2Run(Executor executor, const LoadOptions& o, LoadResult& result);
  ~H2Run() override;
  H2Run(const H2Run&) = delete;
  H2Run& operator=(const H2Run&) = delete;

  // The exchange (h2_load.cpp, h2_load_conn.cpp, h2_load_session.cpp).
  void open_pool() override;              // every connection, taking streams once SETTINGS came
  void opened(Link& link) override;       // the preface and SETTINGS go, the server's awaited
  void ready(Link& link) override;        // what came read into the session
  void open_failed(Link& link) override;  // opened again a little later
  void expired(Link& link) override;      // SETTINGS never came: "no-settings"
  void watch(Clock::time_point now) override;     // streams' deadlines, reconnects
  void dispatch(Clock::time_point now) override;  // streams turned back, then the due ones
  void flush() override;  // every touched connection's frames in one send each
  std::size_t in_flight() const override { return live; }
  bool starved(bool) const override { return no_slot; }
  bool opening() const override;
  void close_all() override;

  bool churn = false;
  std::vector<std::unique_ptr<H2Conn>> conns;  // the pool
  std::vector<std::unique_ptr<H2Conn>> fresh;  // fresh-churn connections (reused objects)
  std::vector<std::unique_ptr<H2Stream>> stream_store;
  std::vector<H2Stream*> spare;  // streams free for the next request
  std::deque<H2Stream*> again;   // dispatched streams to go again (above a GOAWAY's last id)
  std::vector<H2Conn*> dirty;    // connections with frames to write this wake
  std::size_t live = 0;          // streams taken and not yet over
  std::size_t cursor = 0;        // round robin over the pool
  bool no_slot = false;          // a request found no stream slot this wake
  Clock::time_point read_at{};   // when the bytes being handled were read

  // The request's header fields (nghttp2 copies nothing: the strings live here).
  std::vector<std::string> header_text;
  std::vector<nghttp2_nv> headers, abort_headers;
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_option* session_option = nullptr;
  std::array<char, 64 * 1024> buffer;

  H2Stream* new_stream(const Ticket& ticket, RequestKind kind);
  // What the shared pool (mux_pool.hpp) asks of HTTP/2.
  bool can_take(const H2Conn& conn) const;
  void submit(H2Conn& conn, H2Stream& stream);
  void open(H2Conn& conn) { open_link(conn); }
  // The stream is over: off its connection and back among the spare ones.
  void drop_stream(H2Stream& stream);
};

// The connections (h2_load_conn.cpp).
void h2_flush(H2Run& run, H2Conn& conn);  // writes what the session has to send
void h2_mark_dirty(H2Run& run, H2Conn& conn);
// The connection ends: its unfinished streams count `kind` (or go again after a GOAWAY).
void h2_lose(H2Run& run, H2Conn& conn, const char* kind);
void h2_close(H2Run& run, H2Conn& conn);  // the socket and session gone, streams untouched
// A draining connection whose streams all ended is closed (and a pool one reopened).
void h2_retire_if_done(H2Run& run, H2Conn& conn);

// The HTTP/2 session (h2_load_session.cpp).
void h2_setup(H2Run& run);  // the callbacks, the session options and the request's fields
// A new session on a connected socket: preface, SETTINGS and the connection's window.
bool h2_start_session(H2Run& run, H2Conn& conn);
bool h2_can_take(const H2Conn& conn);
void h2_submit(H2Run& run, H2Conn& conn, H2Stream& stream);
// A stream past its deadline: counted as "timeout" and reset (CANCEL).
void h2_time_out(H2Run& run, H2Stream& stream);

}  // namespace loiter::clients::load_detail
