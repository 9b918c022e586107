// The HTTP/3 generator's side of each connection's nghttp3 client session: its control and
// QPACK streams, the requests submitted (the fields made once in h3_setup; nghttp3 copies
// none of them), each stream's :status and end, the server's resets and GOAWAY, and what was
// read given back to ngtcp2's flow control. A stream is counted the moment its outcome is
// known (its FIN, the server's RESET_STREAM, its timeout, the abort churn's reset) and leaves
// its connection then; ngtcp2 and nghttp3 may still call back about it, and find it no more
// (a callback's stream is taken only if it is still this connection's under that id).
#include <algorithm>
#include <cstring>

#include "h3_load_run.hpp"
#include "mux_pool.hpp"

namespace loiter::clients::load_detail {

namespace {

constexpr std::uint64_t kRequestRejected = 0x010b;   // H3_REQUEST_REJECTED
constexpr std::uint64_t kRequestCancelled = 0x010c;  // H3_REQUEST_CANCELLED

// The stream a callback is about, if it is still this connection's request under `id`.
H3Stream* h3_stream_of(H3Conn& conn, std::int64_t id, void* stream_user_data) {
  auto* stream = static_cast<H3Stream*>(stream_user_data);
  if (stream == nullptr || stream->conn != &conn || stream->id != id) return nullptr;
  return stream;
}

void h3_consumed(H3Conn& conn, std::int64_t id, std::size_t bytes) {
  ngtcp2_conn_extend_max_stream_offset(conn.quic, id, bytes);
  ngtcp2_conn_extend_max_offset(conn.quic, bytes);
}

// The server ended the stream before its answer did: counted by its code.
void h3_reset_by_server(H3Conn& conn, H3Stream& stream, std::uint64_t code) {
  H3Run& run = *conn.run;
  ++run.out.errors[code == kRequestRejected ? std::string("refused")
                                            : "rst:" + h3_error_name(code)];
  ++run.second_of(stream.ticket.due).failed;
  run.drop_stream(stream);
  h3_mark_dirty(run, conn);
}

// The client walks away from an answer that has begun (the abort churn).
void h3_abort_stream(H3Conn& conn, H3Stream& stream) {
  H3Run& run = *conn.run;
  ngtcp2_conn_shutdown_stream(conn.quic, stream.id, kRequestCancelled);
  ++run.out.aborted;
  run.drop_stream(stream);
  h3_mark_dirty(run, conn);
}

// ngtcp2's stream callbacks.

int h3_on_acked_stream_data_offset(ngtcp2_conn*, std::int64_t id, std::uint64_t, std::uint64_t size,
                             void* user_data, void*) {
  H3Conn& conn = h3_conn_of(user_data);
  if (conn.http == nullptr) return 0;
  return nghttp3_conn_add_ack_offset(conn.http, id, size) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int h3_on_stream_close(ngtcp2_conn* quic, std::uint32_t flags, std::int64_t id, std::uint64_t code,
                 void* user_data, void* stream_user_data) {
  H3Conn& conn = h3_conn_of(user_data);
  if ((flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) == 0) code = 0x0100;  // H3_NO_ERROR
  if (conn.http != nullptr) {
    const int rv = nghttp3_conn_close_stream(conn.http, id, code);
    if (rv != 0 && rv != NGHTTP3_ERR_STREAM_NOT_FOUND) return NGTCP2_ERR_CALLBACK_FAILURE;
  }
  if (!ngtcp2_conn_is_local_stream(quic, id) && (id & 0x2) != 0) {
    ngtcp2_conn_extend_max_streams_uni(quic, 1);
  }
  // Closed with no answer's end and no reset seen: the server's close all the same.
  if (H3Stream* stream = h3_stream_of(conn, id, stream_user_data)) {
    h3_reset_by_server(conn, *stream, code);
  }
  return 0;
}

int h3_on_stream_reset(ngtcp2_conn*, std::int64_t id, std::uint64_t, std::uint64_t code,
                 void* user_data, void* stream_user_data) {
  H3Conn& conn = h3_conn_of(user_data);
  if (conn.http != nullptr) nghttp3_conn_shutdown_stream_read(conn.http, id);
  if (H3Stream* stream = h3_stream_of(conn, id, stream_user_data)) {
    h3_reset_by_server(conn, *stream, code);
  }
  return 0;
}

int h3_on_extend_max_stream_data(ngtcp2_conn*, std::int64_t id, std::uint64_t, void* user_data, void*) {
  H3Conn& conn = h3_conn_of(user_data);
  if (conn.http != nullptr) nghttp3_conn_unblock_stream(conn.http, id);
  return 0;
}

// nghttp3's callbacks.

int h3_on_recv_data(nghttp3_conn*, std::int64_t id, const std::uint8_t*, std::size_t size,
              void* user_data, void*) {
  h3_consumed(h3_conn_of(user_data), id, size);
  return 0;
}

int h3_on_deferred_consume(nghttp3_conn*, std::int64_t id, std::size_t size, void* user_data, void*) {
  h3_consumed(h3_conn_of(user_data), id, size);
  return 0;
}

int h3_on_recv_header(nghttp3_conn*, std::int64_t id, std::int32_t token, nghttp3_rcbuf*,
                nghttp3_rcbuf* value, std::uint8_t, void* user_data, void* stream_user_data) {
  H3Stream* stream = h3_stream_of(h3_conn_of(user_data), id, stream_user_data);
  if (stream == nullptr || token != NGHTTP3_QPACK_TOKEN__STATUS || stream->status != 0) return 0;
  const nghttp3_vec v = nghttp3_rcbuf_get_buf(value);
  if (v.len != 3) return 0;
  const unsigned status = (v.base[0] - '0') * 100u + (v.base[1] - '0') * 10u + (v.base[2] - '0');
  if (status >= 200) stream->status = status;  // 1xx: the final answer is still to come
  return 0;
}

int h3_on_end_headers(nghttp3_conn*, std::int64_t id, int, void* user_data, void* stream_user_data) {
  H3Conn& conn = h3_conn_of(user_data);
  H3Stream* stream = h3_stream_of(conn, id, stream_user_data);
  // abort: the answer has begun (its HEADERS came), and the client walks away from it.
  if (stream != nullptr && stream->kind == RequestKind::abort && stream->status != 0) {
    h3_abort_stream(conn, *stream);
  }
  return 0;
}

int h3_on_end_stream(nghttp3_conn*, std::int64_t id, void* user_data, void* stream_user_data) {
  H3Conn& conn = h3_conn_of(user_data);
  H3Stream* stream = h3_stream_of(conn, id, stream_user_data);
  if (stream == nullptr) return 0;
  H3Run& run = *conn.run;
  note_response(run, stream->ticket, stream->sent, std::max(run.read_at, stream->sent),
                stream->status);
  run.drop_stream(*stream);
  h3_mark_dirty(run, conn);  // a draining connection may retire
  return 0;
}

int h3_on_stop_sending(nghttp3_conn*, std::int64_t id, std::uint64_t code, void* user_data, void*) {
  const int rv = ngtcp2_conn_shutdown_stream_read(h3_conn_of(user_data).quic, id, code);
  return rv == 0 || rv == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
}

int h3_on_reset_stream(nghttp3_conn*, std::int64_t id, std::uint64_t code, void* user_data, void*) {
  const int rv = ngtcp2_conn_shutdown_stream_write(h3_conn_of(user_data).quic, id, code);
  return rv == 0 || rv == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
}

// The server's GOAWAY: no stream from `id` on is served; the connection takes no more.
int h3_on_shutdown(nghttp3_conn*, std::int64_t id, void* user_data) {
  H3Conn& conn = h3_conn_of(user_data);
  H3Run& run = *conn.run;
  ++run.out.goaways["GOAWAY"];
  if (!conn.goaway) ++run.out.server_closed;
  conn.goaway = true;
  conn.goaway_id = id;
  if (conn.phase == H3Phase::ready) conn.phase = H3Phase::draining;
  return 0;
}

// The request's body: whole, from the options (it outlives every stream).
nghttp3_ssize h3_on_read_body(nghttp3_conn*, std::int64_t, nghttp3_vec* vec, std::size_t,
                        std::uint32_t* flags, void* user_data, void* stream_user_data) {
  const std::string& body = h3_conn_of(user_data).run->options.body;
  *flags |= NGHTTP3_DATA_FLAG_EOF;
  auto* stream = static_cast<H3Stream*>(stream_user_data);
  if (stream == nullptr || stream->body_given) return 0;
  stream->body_given = true;
  vec[0].base = reinterpret_cast<std::uint8_t*>(const_cast<char*>(body.data()));
  vec[0].len = body.size();
  return 1;
}

}  // namespace

void h3_add_stream_callbacks(ngtcp2_callbacks& callbacks) {
  callbacks.acked_stream_data_offset = h3_on_acked_stream_data_offset;
  callbacks.stream_close = h3_on_stream_close;
  callbacks.stream_reset = h3_on_stream_reset;
  callbacks.extend_max_stream_data = h3_on_extend_max_stream_data;
}

bool h3_start_session(H3Run&, H3Conn& conn) {
  std::int64_t control = -1, encoder = -1, decoder = -1;
  if (ngtcp2_conn_open_uni_stream(conn.quic, &control, nullptr) != 0 ||
      ngtcp2_conn_open_uni_stream(conn.quic, &encoder, nullptr) != 0 ||
      ngtcp2_conn_open_uni_stream(conn.quic, &decoder, nullptr) != 0) {
    return false;  // the server allows too few unidirectional streams
  }
  nghttp3_callbacks callbacks{};
  callbacks.recv_data = h3_on_recv_data;
  callbacks.deferred_consume = h3_on_deferred_consume;
  callbacks.recv_header = h3_on_recv_header;
  callbacks.end_headers = h3_on_end_headers;
  callbacks.end_stream = h3_on_end_stream;
  callbacks.stop_sending = h3_on_stop_sending;
  callbacks.reset_stream = h3_on_reset_stream;
  callbacks.shutdown = h3_on_shutdown;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  return nghttp3_conn_client_new(&conn.http, &callbacks, &settings, nghttp3_mem_default(),
                                 &conn) == 0 &&
         nghttp3_conn_bind_control_stream(conn.http, control) == 0 &&
         nghttp3_conn_bind_qpack_streams(conn.http, encoder, decoder) == 0;
}

bool h3_read_stream(H3Conn& conn, std::int64_t id, const std::uint8_t* data, std::size_t size,
                    bool fin) {
  if (conn.http == nullptr) return true;
  const nghttp3_ssize used = nghttp3_conn_read_stream(conn.http, id, data, size, fin);
  if (used < 0) return false;  // the server broke HTTP/3
  h3_consumed(conn, id, static_cast<std::size_t>(used));
  return true;
}

bool h3_can_take(const H3Conn& conn) {
  return conn.phase == H3Phase::ready && ngtcp2_conn_get_streams_bidi_left(conn.quic) > 0;
}

void h3_submit(H3Run& run, H3Conn& conn, H3Stream& stream) {
  std::int64_t id = -1;
  if (ngtcp2_conn_open_bidi_stream(conn.quic, &id, &stream) != 0) {
    // No credit after all: this connection takes no more until the server gives some.
    if (conn.fresh) conn.streams.clear();  // its one stream goes elsewhere
    stream.conn = nullptr;
    run.again.push_front(&stream);
    return;
  }
  const auto& fields = stream.kind == RequestKind::abort ? run.abort_headers : run.headers;
  const nghttp3_data_reader body{h3_on_read_body};
  stream.status = 0;
  stream.body_given = false;
  stream.sent = Clock::now();
  stream.deadline = stream.sent + run.options.request_timeout;
  stream.id = id;
  stream.conn = &conn;
  if (nghttp3_conn_submit_request(conn.http, id, fields.data(), fields.size(),
                                  run.options.body.empty() ? nullptr : &body, &stream) != 0) {
    stream.conn = nullptr;
    ++run.out.errors["protocol"];
    ++run.second_of(stream.ticket.due).failed;
    run.drop_stream(stream);
    return;
  }
  mux::submitted(run, conn, stream);
  h3_mark_dirty(run, conn);
}

bool H3Run::can_take(const H3Conn& conn) const { return h3_can_take(conn); }

void H3Run::submit(H3Conn& conn, H3Stream& stream) { h3_submit(*this, conn, stream); }

void H3Run::open(H3Conn& conn) { h3_open(*this, conn); }

void h3_time_out(H3Run& run, H3Stream& stream) {
  ++run.out.errors["timeout"];
  ++run.second_of(stream.ticket.due).failed;
  if (H3Conn* conn = stream.conn; conn != nullptr && conn->quic != nullptr && stream.id >= 0) {
    ngtcp2_conn_shutdown_stream(conn->quic, stream.id, kRequestCancelled);
    h3_mark_dirty(run, *conn);
  }
  run.drop_stream(stream);
}

}  // namespace loiter::clients::load_detail
