// QuicConnection's HTTP/3 half: the nghttp3 client session (its control and QPACK streams,
// the requests submitted through it, the responses it parses), the streams written by hand
// beside it, and which bytes go into the next packet.
#include <fmt/format.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>

#include <charconv>

#include "quic_connection.hpp"

namespace loiter::clients::h3 {

namespace {

ngtcp2_conn* conn_of(void* conn) { return static_cast<ngtcp2_conn*>(conn); }
nghttp3_conn* http(void* conn) { return static_cast<nghttp3_conn*>(conn); }

nghttp3_nv field(std::string_view name, std::string_view value) {
  return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
          value.size(), NGHTTP3_NV_FLAG_NONE};
}

// The trickled body's bytes: nghttp3 keeps pointers into it until they are acknowledged.
constexpr std::uint8_t kBodyByte[1] = {'x'};

}  // namespace

// nghttp3's callbacks, and ngtcp2's stream callbacks that feed nghttp3.
struct H3Glue {
  static QuicConnection& of(void* user_data) { return *static_cast<QuicConnection*>(user_data); }

  // ngtcp2 side.
  static int acked_stream_data_offset(ngtcp2_conn*, std::int64_t id, std::uint64_t,
                                      std::uint64_t size, void* user_data, void*) {
    auto& c = of(user_data);
    const auto* s = c.stream(id);
    if (c.http3_ == nullptr || (s != nullptr && s->raw)) return 0;
    return nghttp3_conn_add_ack_offset(http(c.http3_), id, size) == 0 ? 0
                                                                      : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  static int stream_close(ngtcp2_conn* conn, std::uint32_t flags, std::int64_t id,
                          std::uint64_t code, void* user_data, void*) {
    auto& c = of(user_data);
    if ((flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) == 0) code = NGHTTP3_H3_NO_ERROR;
    const auto* s = c.stream(id);
    // The control stream the client ended itself (h3-control-close) closes once its FIN is
    // acknowledged: nghttp3 would call that a critical stream closed by the client (an
    // error of its own); what counts is the server's answer.
    const bool own_control = id == c.control_stream_ && c.control_finished_;
    if (c.http3_ != nullptr && (s == nullptr || !s->raw) && !own_control) {
      const int rv = nghttp3_conn_close_stream(http(c.http3_), id, code);
      if (rv != 0 && rv != NGHTTP3_ERR_STREAM_NOT_FOUND) return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    if (!ngtcp2_conn_is_local_stream(conn, id) && (id & 0x2) != 0) {
      ngtcp2_conn_extend_max_streams_uni(conn, 1);
    }
    return 0;
  }

  static int extend_max_stream_data(ngtcp2_conn*, std::int64_t id, std::uint64_t, void* user_data,
                                    void*) {
    auto& c = of(user_data);
    if (auto* s = c.stream(id); s != nullptr && s->raw) {
      s->raw_blocked = false;
      return 0;
    }
    if (c.http3_ != nullptr) nghttp3_conn_unblock_stream(http(c.http3_), id);
    return 0;
  }

  // nghttp3 side.
  static int recv_data(nghttp3_conn*, std::int64_t id, const std::uint8_t*, std::size_t size,
                       void* user_data, void*) {
    auto& c = of(user_data);
    if (auto* s = c.stream(id)) {
      c.response_for(*s).body_bytes += size;
      c.record_.bytes_received += size;
    }
    c.h3_consumed(id, size);
    return 0;
  }

  static int deferred_consume(nghttp3_conn*, std::int64_t id, std::size_t consumed, void* user_data,
                              void*) {
    of(user_data).h3_consumed(id, consumed);
    return 0;
  }

  static int begin_headers(nghttp3_conn*, std::int64_t id, void* user_data, void*) {
    auto& c = of(user_data);
    if (auto* s = c.stream(id)) c.response_for(*s);
    return 0;
  }

  static int recv_header(nghttp3_conn*, std::int64_t id, std::int32_t token, nghttp3_rcbuf* name,
                         nghttp3_rcbuf* value, std::uint8_t, void* user_data, void*) {
    auto& c = of(user_data);
    auto* s = c.stream(id);
    if (s == nullptr) return 0;
    Response& response = c.response_for(*s);
    const nghttp3_vec n = nghttp3_rcbuf_get_buf(name);
    const nghttp3_vec v = nghttp3_rcbuf_get_buf(value);
    const std::string_view text(reinterpret_cast<const char*>(v.base), v.len);
    if (token == NGHTTP3_QPACK_TOKEN__STATUS) {
      unsigned status = 0;
      std::from_chars(text.data(), text.data() + text.size(), status);
      response.status = status;
    } else {
      response.fields.add(std::string_view(reinterpret_cast<const char*>(n.base), n.len), text);
    }
    return 0;
  }

  static int end_stream(nghttp3_conn*, std::int64_t id, void* user_data, void*) {
    auto& c = of(user_data);
    if (auto* s = c.stream(id)) {
      c.response_for(*s).complete = c.since_connect(Clock::now());
      c.events_.push_back({id, /*complete=*/true});
    }
    return 0;
  }

  static int stop_sending(nghttp3_conn*, std::int64_t id, std::uint64_t code, void* user_data,
                          void*) {
    const int rv = ngtcp2_conn_shutdown_stream_read(conn_of(of(user_data).conn_), id, code);
    return rv == 0 || rv == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
  }

  static int reset_stream(nghttp3_conn*, std::int64_t id, std::uint64_t code, void* user_data,
                          void*) {
    const int rv = ngtcp2_conn_shutdown_stream_write(conn_of(of(user_data).conn_), id, code);
    return rv == 0 || rv == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
  }

  // The trickled body: one byte for each one released, then "would block" until the next;
  // never the end (no EOF flag).
  static nghttp3_ssize read_trickle(nghttp3_conn*, std::int64_t, nghttp3_vec* vec, std::size_t,
                                    std::uint32_t*, void* user_data, void*) {
    auto& c = of(user_data);
    if (c.trickle_given_ >= c.trickle_released_) return NGHTTP3_ERR_WOULDBLOCK;
    ++c.trickle_given_;
    vec[0].base = const_cast<std::uint8_t*>(kBodyByte);
    vec[0].len = 1;
    return 1;
  }
};

void QuicConnection::add_http3_callbacks(void* callbacks) {
  auto* cb = static_cast<ngtcp2_callbacks*>(callbacks);
  cb->acked_stream_data_offset = &H3Glue::acked_stream_data_offset;
  cb->stream_close = &H3Glue::stream_close;
  cb->extend_max_stream_data = &H3Glue::extend_max_stream_data;
}

bool QuicConnection::setup_http3() {
  std::int64_t control = -1;
  std::int64_t encoder = -1;
  std::int64_t decoder = -1;
  if (ngtcp2_conn_open_uni_stream(conn_of(conn_), &control, nullptr) != 0 ||
      ngtcp2_conn_open_uni_stream(conn_of(conn_), &encoder, nullptr) != 0 ||
      ngtcp2_conn_open_uni_stream(conn_of(conn_), &decoder, nullptr) != 0) {
    end(Ending::reset, Clock::now(), "the server allows too few unidirectional streams");
    return false;
  }
  nghttp3_callbacks callbacks{};
  callbacks.recv_data = &H3Glue::recv_data;
  callbacks.deferred_consume = &H3Glue::deferred_consume;
  callbacks.begin_headers = &H3Glue::begin_headers;
  callbacks.recv_header = &H3Glue::recv_header;
  callbacks.end_stream = &H3Glue::end_stream;
  callbacks.stop_sending = &H3Glue::stop_sending;
  callbacks.reset_stream = &H3Glue::reset_stream;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  nghttp3_conn* conn = nullptr;
  if (nghttp3_conn_client_new(&conn, &callbacks, &settings, nghttp3_mem_default(), this) != 0) {
    end(Ending::reset, Clock::now(), "nghttp3_conn_client_new failed");
    return false;
  }
  http3_ = conn;
  if (nghttp3_conn_bind_control_stream(conn, control) != 0 ||
      nghttp3_conn_bind_qpack_streams(conn, encoder, decoder) != 0) {
    end(Ending::reset, Clock::now(), "nghttp3: binding the control streams failed");
    return false;
  }
  control_stream_ = control;
  return true;
}

void QuicConnection::close_http3() {
  if (http3_ != nullptr) nghttp3_conn_del(http(http3_));
  http3_ = nullptr;
}

int QuicConnection::h3_read(std::int64_t id, const std::uint8_t* data, std::size_t size, bool fin) {
  if (auto* s = stream(id); s != nullptr && s->raw) {
    // A stream written by hand: the server's bytes are counted, its status read from the
    // first HEADERS if it is a static-table one (a 408 to the stall), its FIN seen.
    Response& response = response_for(*s);
    if (s->raw_received == 0) response.status = static_status(data, size);
    s->raw_received += size;
    record_.bytes_received += size;
    if (fin) {
      response.complete = since_connect(Clock::now());
      events_.push_back({id, /*complete=*/true});
    }
    return 0;
  }
  if (http3_ == nullptr) return 0;
  const nghttp3_ssize consumed = nghttp3_conn_read_stream(http(http3_), id, data, size, fin);
  if (consumed < 0) {
    // An HTTP/3 error in what the server sent: the connection is closed with its code.
    http3_error_ = nghttp3_err_infer_quic_app_error_code(static_cast<int>(consumed));
    record_.error =
        fmt::format("nghttp3_conn_read_stream: {}", nghttp3_strerror(static_cast<int>(consumed)));
    return -1;
  }
  h3_consumed(id, static_cast<std::size_t>(consumed));
  return 0;
}

void QuicConnection::h3_consumed(std::int64_t id, std::size_t bytes) {
  if (const auto* s = stream(id); s != nullptr && s->window == Window::held) return;
  ngtcp2_conn_extend_max_stream_offset(conn_of(conn_), id, bytes);
  ngtcp2_conn_extend_max_offset(conn_of(conn_), bytes);
}

void QuicConnection::http3_stream_end(std::int64_t id) {
  if (http3_ == nullptr) return;
  if (const auto* s = stream(id); s != nullptr && s->raw) return;
  nghttp3_conn_shutdown_stream_read(http(http3_), id);
}

QuicConnection::Chunk QuicConnection::next_chunk() {
  Chunk chunk;
  for (auto& s : streams_) {
    if (s.raw && !s.raw_blocked && s.raw_pending()) {
      chunk.source = Chunk::Source::raw;
      chunk.stream = s.id;
      // ngtcp2 takes a non-const pointer but never writes through it.
      auto* rest = const_cast<char*>(s.raw_bytes->data()) + s.raw_written;
      chunk.vec[0] = {reinterpret_cast<std::uint8_t*>(rest), s.raw_end() - s.raw_written};
      chunk.count = 1;
      return chunk;
    }
  }
  if (fin_control_ && !control_finished_) {
    chunk.source = Chunk::Source::control_fin;
    chunk.stream = control_stream_;
    chunk.fin = true;
    return chunk;
  }
  if (http3_ != nullptr && ngtcp2_conn_get_max_data_left(conn_of(conn_)) > 0) {
    int fin = 0;
    const nghttp3_ssize count = nghttp3_conn_writev_stream(
        http(http3_), &chunk.stream, &fin, reinterpret_cast<nghttp3_vec*>(chunk.vec.data()),
        chunk.vec.size());
    if (count < 0) {
      end(Ending::reset, Clock::now(),
          fmt::format("nghttp3_conn_writev_stream: {}", nghttp3_strerror(static_cast<int>(count))));
      chunk.error = true;
      return chunk;
    }
    chunk.source = Chunk::Source::http3;
    chunk.count = static_cast<std::size_t>(count);
    chunk.fin = fin != 0;
  }
  return chunk;
}

bool QuicConnection::wrote(const Chunk& chunk, std::size_t bytes) {
  switch (chunk.source) {
    case Chunk::Source::raw:
      if (auto* s = stream(chunk.stream)) s->raw_written += bytes;
      return true;
    case Chunk::Source::control_fin:
      control_finished_ = true;
      return true;
    case Chunk::Source::http3:
      if (chunk.stream >= 0 &&
          nghttp3_conn_add_write_offset(http(http3_), chunk.stream, bytes) != 0) {
        end(Ending::reset, Clock::now(), "nghttp3_conn_add_write_offset failed");
        return false;
      }
      return true;
    case Chunk::Source::none:
      return true;
  }
  return true;
}

void QuicConnection::blocked(const Chunk& chunk, bool data_blocked) {
  switch (chunk.source) {
    case Chunk::Source::raw:
      if (auto* s = stream(chunk.stream)) {
        s->raw_blocked = true;
        if (!data_blocked && s->raw_bytes) s->raw_written = s->raw_bytes->size();
      }
      return;
    case Chunk::Source::control_fin:
      control_finished_ = true;
      return;
    case Chunk::Source::http3:
      if (data_blocked) {
        nghttp3_conn_block_stream(http(http3_), chunk.stream);
      } else {
        nghttp3_conn_shutdown_stream_write(http(http3_), chunk.stream);
      }
      return;
    case Chunk::Source::none:
      return;
  }
}

std::int64_t QuicConnection::open_stream() {
  std::int64_t id = -1;
  if (ended_ || http3_ == nullptr) return -1;
  if (ngtcp2_conn_open_bidi_stream(conn_of(conn_), &id, nullptr) != 0) return -1;
  ++record_.requests;
  return id;
}

bool QuicConnection::sent_request(int submitted) {
  if (submitted != 0) {
    end(Ending::reset, Clock::now(), "nghttp3_conn_submit_request failed");
    return false;
  }
  record_.sends.push_back(Send{.at = since_connect(Clock::now())});
  write();
  return true;
}

std::int64_t QuicConnection::submit_get(const std::string& path, Window window) {
  const std::int64_t id = open_stream();
  if (id < 0) return id;
  streams_.push_back(Stream{.id = id, .window = window});
  const std::string& authority = options_->authority;
  const nghttp3_nv fields[] = {field(":method", "GET"), field(":scheme", "https"),
                               field(":authority", authority), field(":path", path),
                               field("user-agent", "loiter")};
  const int submitted =
      nghttp3_conn_submit_request(http(http3_), id, fields, std::size(fields), nullptr, nullptr);
  return sent_request(submitted) ? id : -1;
}

std::int64_t QuicConnection::submit_trickle_post(const std::string& path, std::size_t length) {
  const std::int64_t id = open_stream();
  if (id < 0) return id;
  streams_.push_back(Stream{.id = id});
  trickle_stream_ = id;
  const std::string& authority = options_->authority;
  const std::string declared = std::to_string(length);
  const nghttp3_nv fields[] = {field(":method", "POST"),       field(":scheme", "https"),
                               field(":authority", authority), field(":path", path),
                               field("user-agent", "loiter"),  field("content-length", declared)};
  const nghttp3_data_reader reader{&H3Glue::read_trickle};
  const int submitted =
      nghttp3_conn_submit_request(http(http3_), id, fields, std::size(fields), &reader, nullptr);
  return sent_request(submitted) ? id : -1;
}

void QuicConnection::release_byte() {
  if (ended_ || trickle_stream_ < 0) return;
  ++trickle_released_;
  nghttp3_conn_resume_stream(http(http3_), trickle_stream_);
  record_.sends.push_back(Send{.at = since_connect(Clock::now()), .bytes = 1});
  write();
}

std::int64_t QuicConnection::open_raw_stream(std::string bytes, std::size_t released) {
  const std::int64_t id = open_stream();
  if (id < 0) return id;
  const std::size_t size = std::min(bytes.size(), released);
  streams_.push_back(Stream{.id = id,
                            .raw = true,
                            .raw_bytes = std::make_shared<const std::string>(std::move(bytes)),
                            .raw_released = size});
  record_.sends.push_back(Send{.at = since_connect(Clock::now()), .bytes = size});
  write();
  return id;
}

void QuicConnection::release_raw_byte(std::int64_t id) {
  auto* s = stream(id);
  if (ended_ || s == nullptr || !s->raw || s->raw_released >= s->raw_bytes->size()) return;
  ++s->raw_released;
  record_.sends.push_back(Send{.at = since_connect(Clock::now()), .bytes = 1});
  write();
}

void QuicConnection::extend_window(std::int64_t id, std::size_t bytes) {
  if (ended_) return;
  ngtcp2_conn_extend_max_stream_offset(conn_of(conn_), id, bytes);
  ngtcp2_conn_extend_max_offset(conn_of(conn_), bytes);
  write();
}

void QuicConnection::finish_control_stream() {
  if (ended_ || control_stream_ < 0) return;
  fin_control_ = true;
  write();
}

// The status of a response's first HEADERS frame when its field section starts with a
// static-table :status (an indexed line, or a literal with that name and a short value):
// enough to see a 408 or a 400 on a stream nghttp3 does not parse. 0 when it is not so.
unsigned QuicConnection::static_status(const std::uint8_t* data, std::size_t size) {
  // Static table entries with a :status value (RFC 9204 Appendix A).
  static constexpr std::pair<std::uint8_t, unsigned> kIndexed[] = {
      {24, 103}, {25, 200}, {26, 304}, {27, 404}, {28, 503}, {63, 100}, {64, 204},
      {65, 206}, {66, 302}, {67, 400}, {68, 403}, {69, 421}, {70, 425}, {71, 500}};
  // Frame type 0x01, a one- or two-byte length, then the prefix (two bytes when no dynamic
  // table is used), then the first field line.
  if (size < 4 || data[0] != 0x01) return 0;
  std::size_t at = (data[1] & 0xc0) == 0 ? 2 : (data[1] & 0xc0) == 0x40 ? 3 : 0;
  if (at == 0 || at + 3 > size) return 0;
  at += 2;  // Required Insert Count 0, Delta Base 0
  const std::uint8_t line = data[at];
  if ((line & 0xc0) == 0xc0) {  // indexed, static: 11xxxxxx
    const std::uint8_t index = line & 0x3f;
    for (const auto& [i, status] : kIndexed) {
      if (i == index) return status;
    }
    return 0;
  }
  if ((line & 0xf0) == 0x50) {  // literal with a static name reference (4-bit prefix)
    std::size_t pos = at + 1;
    unsigned index = line & 0x0f;
    if (index == 0x0f && pos < size) index += data[pos++] & 0x7f;
    if (pos + 4 > size) return 0;
    const unsigned value_length = data[pos] & 0x7f;
    if ((data[pos] & 0x80) != 0 || value_length != 3) return 0;  // Huffman: not read
    unsigned status = 0;
    std::from_chars(reinterpret_cast<const char*>(data + pos + 1),
                    reinterpret_cast<const char*>(data + pos + 4), status);
    return index == 24 || (index >= 63 && index <= 71) ? status : 0;
  }
  return 0;
}

}  // namespace loiter::clients::h3
