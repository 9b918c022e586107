// QuicConnection's read / write / timer loop and how a connection ends: datagrams read into
// ngtcp2 (and what they bring delivered), packets written, ngtcp2's expiry and the kind's own
// deadline, PINGs and the probe, CONNECTION_CLOSE, and the record's ending.
#include <fmt/format.h>
#include <ngtcp2/ngtcp2.h>

#include <algorithm>

#include "quic_clock.hpp"
#include "quic_connection.hpp"

namespace loiter::clients::h3 {

using namespace quic_clock;

void QuicConnection::receive() {
  socket_.async_receive(asio::buffer(in_), [self = shared_from_this()](boost::system::error_code ec,
                                                                       std::size_t size) {
    if (self->ended_) return;
    if (ec) {
      // ICMP port unreachable comes back as ECONNREFUSED on a connected UDP socket: the
      // server is not there (or gone). Before the handshake that is a failed connect.
      if (ec == asio::error::connection_refused && !self->handshake_done_) {
        self->record_.error_number = ec.value();
        self->end(Ending::connect_failed, Clock::now(), ec.message());
        return;
      }
      if (ec == asio::error::connection_refused) {
        self->receive();  // a late ICMP after the server went: the probe's wait decides
        return;
      }
      self->record_.error_number = ec.value();
      self->end(Ending::reset, Clock::now(), ec.message());
      return;
    }
    self->on_datagram(size);
    if (!self->ended_) self->receive();
  });
}

void QuicConnection::on_datagram(std::size_t size) {
  const auto now = Clock::now();
  H3Record& h3 = this->h3();
  ++h3.datagrams_received;
  h3.bytes_received += size;
  h3.last_heard = since_connect(now);
  if (handed_over_) {
    on_own_datagram(std::span<const std::uint8_t>(in_.data(), size));
    return;
  }
  auto* local = const_cast<sockaddr*>(reinterpret_cast<const sockaddr*>(local_.data()));
  auto* remote = const_cast<sockaddr*>(reinterpret_cast<const sockaddr*>(remote_.data()));
  const ngtcp2_path path{{local, static_cast<ngtcp2_socklen>(local_.size())},
                         {remote, static_cast<ngtcp2_socklen>(remote_.size())},
                         nullptr};
  const ngtcp2_pkt_info info{};
  const std::uint64_t ts = timestamp();
  const int rv = ngtcp2_conn_read_pkt(quic(conn_), &path, &info, in_.data(), size, ts);
  if (rv != 0) {
    on_read_error(rv);
    return;
  }
  idle_base_ = ts;  // a packet read: ngtcp2 restarted its idle timer at it
  release_tls();
  pinged_since_read_ = false;
  deliver_events();
  if (ended_) return;
  if (hands_over()) {
    // A flood: no HTTP/3 session; its own packets once the server confirmed the handshake.
    if (handshake_confirmed_) {
      hand_over();
      return;
    }
    write();
    return;
  }
  if (handshake_done_ && http3_ == nullptr) {
    if (!setup_http3()) return;
    deadline_.expires_at(record_.connect_start + options_->fleet.patience);
    deadline_.async_wait([self = shared_from_this()](boost::system::error_code e) {
      if (!e) self->on_deadline();
    });
    write();
    if (ended_) return;
    on_ready();
    if (ended_) return;
  }
  check_probe();
  if (ended_) return;
  write();
}

void QuicConnection::deliver_events() {
  // Bounded: the events of one packet; a hook that ends the connection stops the rest.
  std::vector<Event> events;
  events.swap(events_);
  for (const Event& event : events) {
    if (ended_) return;
    if (event.complete) {
      on_response_complete(event.stream);
    } else {
      on_stream_ended(event.stream);
    }
  }
}

void QuicConnection::check_probe() {
  if (!probe_sent_ || probe_answered_) return;
  // The probe is answered once nothing the client sent is unacknowledged: its PING's ACK
  // came (the quiet before it left nothing else in flight).
  ngtcp2_conn_stat stat{};
  ngtcp2_conn_get_conn_stat(quic(conn_), &stat);
  if (stat.bytes_in_flight != 0) return;
  probe_answered_ = true;
  if (!h3().probes.empty()) h3().probes.back().answered = since_connect(Clock::now());
  on_probe_answered();
}

void QuicConnection::on_read_error(int rv) {
  const auto now = Clock::now();
  if (http3_error_) {
    // The server broke HTTP/3 (nghttp3 refused its bytes): the client closes with that code.
    send_close(*http3_error_);
    end(Ending::reset, now);
    return;
  }
  if (rv == NGTCP2_ERR_DRAINING || rv == NGTCP2_ERR_CLOSING) {
    if (stateless_reset_) {
      h3().stateless_reset = true;
      end(handshake_done_ ? Ending::reset : Ending::connect_failed, now, "stateless reset");
      return;
    }
    ngtcp2_connection_close_error error{};
    ngtcp2_conn_get_connection_close_error(quic(conn_), &error);
    H3Close close{.at = since_connect(now),
                  .code = error.error_code,
                  .application = error.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION};
    if (error.reason != nullptr) {
      close.reason.assign(reinterpret_cast<const char*>(error.reason),
                          std::min<std::size_t>(error.reasonlen, 64));
    }
    const std::string text =
        fmt::format("CONNECTION_CLOSE {}", h3_error_name(close.code, close.application));
    h3().close = std::move(close);
    if (handshake_done_) {
      end(Ending::close, now);
    } else {
      end(Ending::connect_failed, now, text);
    }
    return;
  }
  if (rv == NGTCP2_ERR_DROP_CONN) {
    end(handshake_done_ ? Ending::reset : Ending::connect_failed, now,
        "ngtcp2: connection dropped");
    return;
  }
  const std::string text = rv == NGTCP2_ERR_CRYPTO
                               ? fmt::format("TLS alert {}", ngtcp2_conn_get_tls_alert(quic(conn_)))
                               : fmt::format("ngtcp2_conn_read_pkt: {}", ngtcp2_strerror(rv));
  end(handshake_done_ ? Ending::reset : Ending::connect_failed, now, text);
}

bool QuicConnection::send_datagram(const std::uint8_t* data, std::size_t size) {
  const auto now = Clock::now();
  if (record_.connect_start == Clock::time_point{}) record_.connect_start = now;
  boost::system::error_code ec;
  socket_.send(asio::buffer(data, size), 0, ec);
  if (ec == asio::error::would_block || ec == asio::error::connection_refused) {
    return true;  // lost, as a datagram may be: QUIC's recovery sends it again
  }
  if (ec) {
    record_.error_number = ec.value();
    end(handshake_done_ ? Ending::reset : Ending::connect_failed, now, ec.message());
    return false;
  }
  H3Record& h3 = this->h3();
  ++h3.datagrams_sent;
  h3.bytes_sent += size;
  last_sent_ = now;
  return true;
}

void QuicConnection::write() {
  if (ended_ || conn_ == nullptr || handed_over_) return;
  std::array<std::uint8_t, kMaxDatagram> out{};
  ngtcp2_path_storage storage;
  ngtcp2_path_storage_zero(&storage);
  ngtcp2_pkt_info info{};
  // Bounded: at most 64 datagrams a call (the rest go at the next expiry or read).
  for (int i = 0; i < 64 && !ended_; ++i) {
    Chunk chunk = next_chunk();
    if (chunk.error) return;
    ngtcp2_ssize written = 0;
    std::uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
    if (chunk.fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
    const ngtcp2_ssize n = ngtcp2_conn_writev_stream(
        quic(conn_), &storage.path, &info, out.data(), out.size(), &written, flags, chunk.stream,
        reinterpret_cast<const ngtcp2_vec*>(chunk.vec.data()), chunk.count, timestamp());
    if (n < 0) {
      if (n == NGTCP2_ERR_WRITE_MORE) {
        if (!wrote(chunk, static_cast<std::size_t>(written))) return;
        continue;
      }
      if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED || n == NGTCP2_ERR_STREAM_SHUT_WR ||
          n == NGTCP2_ERR_STREAM_NOT_FOUND) {
        blocked(chunk, n == NGTCP2_ERR_STREAM_DATA_BLOCKED);
        continue;
      }
      end(handshake_done_ ? Ending::reset : Ending::connect_failed, Clock::now(),
          fmt::format("ngtcp2_conn_writev_stream: {}", ngtcp2_strerror(static_cast<int>(n))));
      return;
    }
    if (written >= 0 && !wrote(chunk, static_cast<std::size_t>(written))) return;
    if (n == 0) break;
    if (!send_datagram(out.data(), static_cast<std::size_t>(n))) return;
    if (ping_pending_) {
      // The PING went in this datagram: one, not one a datagram (the 1 ns keep-alive would
      // expire again before every packet of this write).
      ngtcp2_conn_set_keep_alive_timeout(quic(conn_), 0);
      ping_pending_ = false;
    }
  }
  arm_expiry();
}

void QuicConnection::arm_expiry() {
  if (ended_ || handed_over_) return;
  std::uint64_t expiry = ngtcp2_conn_get_expiry(quic(conn_));
  // ngtcp2's idle deadline (at or after the floor) does not wake it (see timestamp()).
  if (handshake_done_ && idle_timeout_ != 0 && expiry >= idle_floor()) expiry = UINT64_MAX;
  if (expiry == UINT64_MAX) {
    expiry_.cancel();
    return;
  }
  expiry_.expires_at(real_time(expiry + skew_));
  expiry_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec && !self->ended_) self->on_expiry();
  });
}

void QuicConnection::on_expiry() {
  if (handed_over_) return;
  const int rv = ngtcp2_conn_handle_expiry(quic(conn_), timestamp());
  if (rv != 0) {
    const auto now = Clock::now();
    if (rv == NGTCP2_ERR_HANDSHAKE_TIMEOUT) {
      end(Ending::connect_failed, now, "handshake timed out");
    } else {
      end(handshake_done_ ? Ending::reset : Ending::connect_failed, now,
          fmt::format("ngtcp2_conn_handle_expiry: {}", ngtcp2_strerror(rv)));
    }
    return;
  }
  write();
}

void QuicConnection::on_deadline() {
  if (ended_) return;
  if (!handshake_done_) {
    end(Ending::connect_failed, Clock::now(), "handshake timed out");
    return;
  }
  // Patience: nothing ended it. The client says goodbye (so the server need not wait out
  // its own timeout), but the record keeps what the server did: nothing.
  if (handed_over_) {
    on_own_deadline();
  } else {
    send_close(0x0100 /* H3_NO_ERROR */);
  }
  record_.client_closed = since_connect(Clock::now());
  end(Ending::open, Clock::now());
}

void QuicConnection::send_close(std::uint64_t code) {
  if (conn_ == nullptr || handed_over_ || !handshake_done_ || ngtcp2_conn_is_in_closing_period(quic(conn_)) ||
      ngtcp2_conn_is_in_draining_period(quic(conn_))) {
    return;
  }
  std::array<std::uint8_t, kMaxDatagram> out{};
  ngtcp2_path_storage storage;
  ngtcp2_path_storage_zero(&storage);
  ngtcp2_pkt_info info{};
  ngtcp2_connection_close_error error;
  ngtcp2_connection_close_error_default(&error);
  ngtcp2_connection_close_error_set_application_error(&error, code, nullptr, 0);
  const ngtcp2_ssize n = ngtcp2_conn_write_connection_close(
      quic(conn_), &storage.path, &info, out.data(), out.size(), &error, timestamp());
  if (n > 0) send_datagram(out.data(), static_cast<std::size_t>(n));
}

void QuicConnection::close_by_client() {
  if (ended_) return;
  send_close(0x0100 /* H3_NO_ERROR */);
  const auto now = Clock::now();
  record_.client_closed = since_connect(now);
  end(Ending::client_close, now);
}

void QuicConnection::ping(bool probe) {
  if (ended_ || !handshake_done_) return;
  // ngtcp2 0.12 has no call for a PING: its keep-alive timer, set to 1 ns for one datagram,
  // has the next packet carry one (alone, when nothing else is due), then is switched off.
  const auto now = Clock::now();
  ngtcp2_conn_set_keep_alive_timeout(quic(conn_), 1);
  ping_pending_ = true;  // write() switches it off again after the first datagram
  const std::uint64_t before = last_fed_;
  write();
  ping_pending_ = false;
  ngtcp2_conn_set_keep_alive_timeout(quic(conn_), 0);
  if (!pinged_since_read_) {
    // Its first ack-eliciting packet since the last read restarted ngtcp2's idle timer; the
    // PING went with the first write, at or after `before`.
    idle_base_ = before;
    pinged_since_read_ = true;
  }
  if (ended_) return;
  if (probe) {
    h3().probes.push_back(H3Probe{.at = since_connect(now)});
    probe_sent_ = now;
    probe_answered_ = false;
  } else {
    ++h3().pings_sent;
  }
}

Duration QuicConnection::pto() const {
  return Duration(static_cast<std::int64_t>(ngtcp2_conn_get_pto(quic(conn_))));
}

void QuicConnection::at(Clock::time_point at, std::function<void()> action) {
  if (ended_) return;
  pending_action_ = std::move(action);
  action_.expires_at(at);
  action_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->ended_ || !self->pending_action_) return;
    auto run = std::move(self->pending_action_);
    self->pending_action_ = nullptr;
    run();
  });
}

void QuicConnection::fail(std::string error) {
  if (record_.connect_start == Clock::time_point{}) record_.connect_start = Clock::now();
  end(Ending::connect_failed, Clock::now(), std::move(error));
}

void QuicConnection::end(Ending ending, Clock::time_point at, std::string error) {
  if (ended_) return;
  ended_ = true;
  if (record_.connect_start == Clock::time_point{}) record_.connect_start = at;
  record_.ending = ending;
  record_.ended_at = since_connect(at);
  if (!error.empty()) record_.error = std::move(error);
  if (ending == Ending::connect_failed) record_.connect_took = at - record_.connect_start;
  pending_action_ = nullptr;
  expiry_.cancel();
  deadline_.cancel();
  action_.cancel();
  boost::system::error_code ignored;
  socket_.close(ignored);
  for (auto& response : record_.responses) response.fields.shrink_to_fit();
}

}  // namespace loiter::clients::h3
