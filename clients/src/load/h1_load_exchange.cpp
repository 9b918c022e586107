// One request on its connection: written at once (the socket takes a request whole, as a
// rule), then its answer read as readiness comes, parsed by Beast and timed by the kernel's
// receive timestamp when the generator read it later than it came; then what the request's
// kind does with the connection (keep it, close it, wait for the server's FIN, reset it).
#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>
#include <cstring>

#include "h1_load_run.hpp"
#include "load_socket.hpp"

namespace loiter::clients::load_detail {

namespace {

using boost::system::error_code;

// Reads into the connection's buffer; `at` is when those bytes arrived.
SocketIo read_more(H1Conn& conn, Clock::time_point& at) {
  return read_some(conn.fd, conn.tls.get(), conn.buffer.data() + conn.filled,
                   conn.buffer.size() - conn.filled, at);
}

// A failed request: counted by kind, its connection closed.
void note_error(H1Run& run, H1Conn& conn, const char* kind) {
  ++run.out.errors[kind];
  ++run.second_of(conn.ticket->due).failed;
  close_conn(run, conn);
  release(run, conn);
}

// Puts what the buffer holds into the parser; keeps what it did not consume.
error_code parse_buffered(H1Conn& conn) {
  error_code ec;
  auto& parser = *conn.parser;
  const std::size_t used = parser.put(asio::buffer(conn.buffer.data(), conn.filled), ec);
  std::memmove(conn.buffer.data(), conn.buffer.data() + used, conn.filled - used);
  conn.filled -= used;
  if (ec == boost::beast::http::error::need_more) ec = {};
  if (!ec && !parser.is_done() && conn.filled == conn.buffer.size()) {
    ec = boost::beast::http::error::header_limit;  // a head that does not fit the buffer
  }
  return ec;
}

// After a whole answer (not server_close): what the request's kind does with its
// connection. `server_ended`: the answer ran to the server's close.
void after_answer(H1Run& run, H1Conn& conn, bool server_ended, bool keep_alive) {
  if (conn.kind == RequestKind::fresh) {
    if (!server_ended) ++run.out.fresh_closed;
    close_conn(run, conn);
  } else if (server_ended || !keep_alive) {  // the server said Connection: close
    close_conn(run, conn);
  } else if (run.options.churn.replace_every > 0 &&
             ++conn.served >= run.options.churn.replace_every) {
    close_conn(run, conn);
    ++run.out.replaced;
  }
}

// The answer is whole: tallied, then the connection goes where its kind says. server_close:
// an answer that says "Connection: close" is followed by the server's FIN, awaited by the
// deadline (bytes past the answer are dropped); one that keeps the connection (HTTP/1.1's
// default) is closed by the client at once and counted as kept.
void answered(H1Run& run, H1Conn& conn, Clock::time_point at, bool at_eof) {
  const auto now = Clock::now();
  note_response(run, *conn.ticket, conn.sent, std::clamp(at, conn.sent, now),
                conn.parser->status());
  const bool keep_alive = conn.parser->keep_alive();
  if (conn.kind != RequestKind::server_close) {
    after_answer(run, conn, at_eof, keep_alive);
    return release(run, conn);
  }
  if (at_eof) ++run.out.server_closed;
  if (!at_eof && keep_alive) ++run.out.close_kept;
  if (at_eof || keep_alive) {
    close_conn(run, conn);
    return release(run, conn);
  }
  conn.phase = H1Phase::closing;
  conn.filled = 0;
  on_ready(run, conn);  // the FIN may be in already
}

// Reads until the answer is whole, the socket has nothing more for now, or it fails.
void read_answer(H1Run& run, H1Conn& conn) {
  Clock::time_point at = conn.sent;
  for (;;) {  // bounded by what has arrived: each turn consumes bytes or returns
    if (conn.filled > 0) {
      if (parse_buffered(conn)) return note_error(run, conn, "bad-response");
      if (conn.parser->is_done()) return answered(run, conn, at, false);
    }
    const SocketIo read = read_more(conn, at);
    conn.filled += read.bytes;
    if (!read.ec) continue;
    if (read.ec == asio::error::would_block) return;
    if (read.ec == asio::error::eof && conn.parser->got_some()) {
      error_code eof_ec;
      conn.parser->put_eof(eof_ec);  // a body that runs to the close ends here
      if (!eof_ec && conn.parser->is_done()) return answered(run, conn, at, true);
    }
    return note_error(run, conn, io_error_kind(read.ec));
  }
}

// abort: once the first bytes of the answer are in (all of it, maybe), the client resets
// the connection. No byte before an error or the deadline: the request failed.
void abort_once_answered(H1Run& run, H1Conn& conn) {
  Clock::time_point at;
  const SocketIo read = read_more(conn, at);
  if (read.ec == asio::error::would_block) return;
  if (read.bytes == 0) return note_error(run, conn, io_error_kind(read.ec));
  reset_conn(run, conn);
  ++run.out.aborted;
  release(run, conn);
}

// server_close, answered: reads (and drops) until the server's FIN.
void await_server_close(H1Run& run, H1Conn& conn) {
  for (;;) {  // bounded by what has arrived
    Clock::time_point at;
    conn.filled = 0;
    const SocketIo read = read_more(conn, at);
    if (!read.ec) continue;
    if (read.ec == asio::error::would_block) return;
    if (read.ec == asio::error::eof) ++run.out.server_closed;
    close_conn(run, conn);
    return release(run, conn);
  }
}

// The request was written whole: the answer is awaited.
void written(H1Run& run, H1Conn& conn) {
  note_sent(run, *conn.ticket, conn.sent);
  conn.parser.emplace();
  if (run.head) conn.parser->skip(true);
  conn.phase = conn.kind == RequestKind::abort ? H1Phase::aborting : H1Phase::reading;
  if (conn.stirred) {  // it had news while idle: the server's FIN, maybe
    conn.stirred = false;
    on_ready(run, conn);
  }
}

// Writes what the socket takes now; the rest when it is writable again. Over TLS the whole
// request goes in one SSL_write (one record, as a rule). Not written: not dispatched.
void write_more(H1Run& run, H1Conn& conn) {
  const std::string& request = run.request_for(conn.kind);
  const SocketIo sent = send_some(conn.fd, conn.tls.get(), request.data() + conn.written,
                                  request.size() - conn.written);
  conn.written += sent.bytes;
  if (sent.ec == asio::error::would_block) return;  // the next edge goes on
  if (sent.ec) {
    ++run.out.errors[io_error_kind(sent.ec)];
    close_conn(run, conn);
    return release(run, conn);
  }
  if (conn.written == request.size()) written(run, conn);
}

}  // namespace

void start_exchange(H1Run& run, H1Conn& conn) {
  conn.sent = Clock::now();
  conn.deadline = conn.sent + run.options.request_timeout;
  conn.written = 0;
  conn.phase = H1Phase::writing;
  write_more(run, conn);
}

void on_ready(H1Run& run, H1Conn& conn) {
  switch (conn.phase) {
    case H1Phase::writing:
      return write_more(run, conn);
    case H1Phase::reading:
      return read_answer(run, conn);
    case H1Phase::aborting:
      return abort_once_answered(run, conn);
    case H1Phase::closing:
      return await_server_close(run, conn);
    case H1Phase::idle:
      conn.stirred = true;  // looked at when it is next used
      return;
    case H1Phase::closed:
      return;
  }
}

void expire(H1Run& run, H1Conn& conn) {
  switch (conn.phase) {
    case H1Phase::writing:
      ++run.out.errors["timeout"];
      close_conn(run, conn);
      return release(run, conn);
    case H1Phase::reading:
    case H1Phase::aborting:
      return note_error(run, conn, "timeout");
    case H1Phase::closing:  // announced its close, sent no FIN
      ++run.out.close_kept;
      close_conn(run, conn);
      return release(run, conn);
    case H1Phase::idle:
    case H1Phase::closed:
      return;
  }
}

void release(H1Run& run, H1Conn& conn) {
  conn.ticket.reset();
  conn.deadline = kNever;
  conn.retry_at = kNever;
  conn.parser.reset();
  if (conn.parked) unpark(run, conn);
  conn.phase = conn.state == LinkState::open ? H1Phase::idle : H1Phase::closed;
  --run.busy;
  run.free.push_back(&conn);
}

}  // namespace loiter::clients::load_detail
