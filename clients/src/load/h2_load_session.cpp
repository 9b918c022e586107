// The HTTP/2 generator's side of each connection's nghttp2 client session: the request's
// header fields (made once: nghttp2 copies no name or value, and with its deflater's dynamic
// table held at 0 it indexes nothing, so each stream's block is static-table indexes and
// literals, a few hundred nanoseconds to encode), the session's callbacks (a stream's
// :status, its END_STREAM, the abort churn's reset, the server's SETTINGS and GOAWAY) and
// the outcome of each stream when nghttp2 closes it. nghttp2 keeps the protocol's duties:
// SETTINGS and PING acknowledged, the windows of both sides (a POST body is sent as the
// server's windows allow), and WINDOW_UPDATEs for what was read.
#include <fmt/format.h>

#include <climits>
#include <cstring>

#include "h2_load_run.hpp"
#include "mux_pool.hpp"

namespace loiter::clients::load_detail {

namespace {

// The connection's window: 2^31-1, so the server is never held back by the connection.
constexpr std::int32_t kH2WideWindow = INT32_MAX;
// Each stream's: 64 KiB (HTTP/2's initial 65,535, rounded), far above a regular answer, and
// nghttp2 opens it again as the client reads. An aborted request (the soak's churn asks 1
// MiB and resets the stream when its HEADERS come) has a window's worth on the wire before
// the RST_STREAM arrives, which the client reads and throws away: at 2^31-1 the whole body,
// about 75 MB/s at the soak's defaults over h2c (its copies were a fifth of the client's
// CPU); at 256 KiB still 19 MB/s; at 64 KiB under 5 MB/s. The server is still mid-response,
// held by the window, when the reset comes.
constexpr std::int32_t kH2StreamWindow = 64 * 1024;

// Each session's user data is its connection (which knows its run); each stream's, the
// stream.
H2Conn& h2_conn_of(void* user_data) { return *static_cast<H2Conn*>(user_data); }

H2Stream* h2_stream_of(nghttp2_session* session, std::int32_t id) {
  return static_cast<H2Stream*>(nghttp2_session_get_stream_user_data(session, id));
}

nghttp2_nv h2_field(const std::string& name, const std::string& value) {
  return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
          value.size(),
          NGHTTP2_NV_FLAG_NO_INDEX | NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE};
}

int h2_on_header(nghttp2_session* session, const nghttp2_frame* frame, const std::uint8_t* name,
                 std::size_t namelen, const std::uint8_t* value, std::size_t valuelen, std::uint8_t,
                 void*) {
  if (frame->hd.type != NGHTTP2_HEADERS || namelen != 7 || valuelen != 3 ||
      std::memcmp(name, ":status", 7) != 0) {
    return 0;
  }
  H2Stream* stream = h2_stream_of(session, frame->hd.stream_id);
  if (stream == nullptr || stream->status != 0) return 0;  // a trailer's, or an informational
  const unsigned status = (value[0] - '0') * 100u + (value[1] - '0') * 10u + (value[2] - '0');
  if (status >= 200) stream->status = status;  // 1xx: the final answer is still to come
  return 0;
}

void h2_on_goaway(H2Conn& conn, const nghttp2_goaway& goaway) {
  H2Run& run = *conn.run;
  ++run.out.goaways[h2_error_name(goaway.error_code)];
  if (!conn.goaway) ++run.out.server_closed;
  conn.goaway = true;
  conn.last_stream = goaway.last_stream_id;
  if (conn.phase == H2Phase::ready || conn.phase == H2Phase::settling) {
    conn.phase = H2Phase::draining;
  }
}

int h2_on_frame_recv(nghttp2_session* session, const nghttp2_frame* frame, void* user_data) {
  H2Conn& conn = h2_conn_of(user_data);
  H2Run& run = *conn.run;
  switch (frame->hd.type) {
    case NGHTTP2_SETTINGS:  // the server's first: the connection takes streams from now on
      if ((frame->hd.flags & NGHTTP2_FLAG_ACK) == 0 && conn.phase == H2Phase::settling) {
        conn.phase = conn.fresh ? H2Phase::draining : H2Phase::ready;
        conn.deadline = kNever;
        if (conn.fresh && !conn.streams.empty()) h2_submit(run, conn, *conn.streams[0]);
      }
      return 0;
    case NGHTTP2_GOAWAY:
      h2_on_goaway(conn, frame->goaway);
      return 0;
    case NGHTTP2_HEADERS:
    case NGHTTP2_DATA:
      break;
    default:
      return 0;
  }
  H2Stream* stream = h2_stream_of(session, frame->hd.stream_id);
  if (stream == nullptr || stream->done) return 0;
  if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
    stream->ended = true;
    stream->answered = run.read_at;
  }
  // abort: the answer has begun (its HEADERS came), and the client walks away from it.
  if (stream->kind == RequestKind::abort && stream->status != 0) {
    nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream->id, NGHTTP2_CANCEL);
    ++run.out.aborted;
    stream->done = true;
  }
  return 0;
}

int h2_on_stream_close(nghttp2_session* session, std::int32_t id, std::uint32_t code,
                       void* user_data) {
  H2Conn* conn = &h2_conn_of(user_data);
  H2Run& run = *conn->run;
  H2Stream* stream = h2_stream_of(session, id);  // nghttp2 still holds it here
  if (stream == nullptr || stream->conn != conn) return 0;
  if (stream->done) {
    run.drop_stream(*stream);
  } else if (code == NGHTTP2_NO_ERROR && stream->ended) {
    note_response(run, stream->ticket, stream->sent, std::max(stream->answered, stream->sent),
                  stream->status);
    if (conn->fresh) ++run.out.fresh_closed;
    run.drop_stream(*stream);
  } else if (conn->goaway && id > conn->last_stream) {
    // Above the GOAWAY's last stream: the server never began it. It goes again elsewhere.
    mux::leave_connection(*stream);
    run.again.push_back(stream);
  } else {
    ++run.out.errors[code == NGHTTP2_REFUSED_STREAM ? std::string("refused")
                                                    : "rst:" + h2_error_name(code)];
    ++run.second_of(stream->ticket.due).failed;
    run.drop_stream(*stream);
  }
  h2_mark_dirty(run, *conn);  // its retirement is looked at once the wake's reads are done
  return 0;
}

ssize_t h2_read_body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                     std::uint32_t* flags, nghttp2_data_source* source, void* user_data) {
  const std::string& body = h2_conn_of(user_data).run->options.body;
  auto* stream = static_cast<H2Stream*>(source->ptr);
  const std::size_t n = std::min(length, body.size() - stream->body_sent);
  std::memcpy(buf, body.data() + stream->body_sent, n);
  stream->body_sent += n;
  if (stream->body_sent == body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
  return static_cast<ssize_t>(n);
}

}  // namespace

void h2_setup(H2Run& run) {
  const auto& o = run.options;
  run.header_text = {
      ":method",        o.method,
      ":scheme",        o.tls ? "https" : "http",
      ":authority",     fmt::format("{}:{}", o.server.address().to_string(), o.server.port()),
      ":path",          o.path,
      ":path",          o.churn.abort_path.empty() ? o.path : o.churn.abort_path,
      "content-length", std::to_string(o.body.size())};
  const auto& t = run.header_text;
  for (std::size_t i = 0; i < 6; i += 2) {
    run.headers.push_back(h2_field(t[i], t[i + 1]));
    run.abort_headers.push_back(h2_field(t[i], t[i + 1]));
  }
  run.headers.push_back(h2_field(t[6], t[7]));
  run.abort_headers.push_back(h2_field(t[8], t[9]));
  if (!o.body.empty()) {
    run.headers.push_back(h2_field(t[10], t[11]));
    run.abort_headers.push_back(h2_field(t[10], t[11]));
  }
  nghttp2_session_callbacks_new(&run.callbacks);
  nghttp2_session_callbacks_set_on_header_callback(run.callbacks, h2_on_header);
  nghttp2_session_callbacks_set_on_frame_recv_callback(run.callbacks, h2_on_frame_recv);
  nghttp2_session_callbacks_set_on_stream_close_callback(run.callbacks, h2_on_stream_close);
  nghttp2_option_new(&run.session_option);
  nghttp2_option_set_max_deflate_dynamic_table_size(run.session_option, 0);
}

bool h2_start_session(H2Run& run, H2Conn& conn) {
  nghttp2_session* session = nullptr;
  if (nghttp2_session_client_new2(&session, run.callbacks, &conn, run.session_option) != 0) {
    return false;
  }
  conn.session.reset(session);
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}, {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, kH2StreamWindow}};
  return nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings, 2) == 0 &&
         nghttp2_session_set_local_window_size(session, NGHTTP2_FLAG_NONE, 0, kH2WideWindow) == 0;
}

bool h2_can_take(const H2Conn& conn) {
  if (conn.phase != H2Phase::ready) return false;
  const auto most = nghttp2_session_get_remote_settings(conn.session.get(),
                                                        NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
  return conn.streams.size() < most;
}

void h2_submit(H2Run& run, H2Conn& conn, H2Stream& stream) {
  const auto& fields = stream.kind == RequestKind::abort ? run.abort_headers : run.headers;
  nghttp2_data_provider body{.source = {.ptr = &stream}, .read_callback = h2_read_body};
  stream.body_sent = 0;
  stream.status = 0;
  stream.ended = false;
  stream.sent = Clock::now();
  stream.deadline = stream.sent + run.options.request_timeout;
  const std::int32_t id =
      nghttp2_submit_request(conn.session.get(), nullptr, fields.data(), fields.size(),
                             run.options.body.empty() ? nullptr : &body, &stream);
  if (id < 0) {  // out of stream ids, as a rule: this connection takes no more
    conn.phase = H2Phase::draining;
    if (conn.fresh) conn.streams.clear();  // its one stream goes elsewhere
    stream.conn = nullptr;
    run.again.push_front(&stream);
    return;
  }
  stream.id = id;
  mux::submitted(run, conn, stream);
  h2_mark_dirty(run, conn);
}

bool H2Run::can_take(const H2Conn& conn) const { return h2_can_take(conn); }

void H2Run::submit(H2Conn& conn, H2Stream& stream) { h2_submit(*this, conn, stream); }

void h2_time_out(H2Run& run, H2Stream& stream) {
  ++run.out.errors["timeout"];
  ++run.second_of(stream.ticket.due).failed;
  stream.done = true;
  if (stream.conn == nullptr) return run.drop_stream(stream);  // never went again
  nghttp2_submit_rst_stream(stream.conn->session.get(), NGHTTP2_FLAG_NONE, stream.id,
                            NGHTTP2_CANCEL);
  h2_mark_dirty(run, *stream.conn);
}

}  // namespace loiter::clients::load_detail
