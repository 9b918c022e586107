#include "loiter/clients/transport/connection.hpp"

#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <optional>
#include <span>

#include "loiter/clients/transport/targets.hpp"
#include "transport/deadlines.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients {

using boost::system::error_code;

namespace {

// Received bytes land here and are fed to the parser at once: a held connection owns no
// receive buffer of its own. One buffer per thread, as one io_context runs on one thread.
std::span<char> scratch() {
  thread_local std::array<char, 64 * 1024> buffer;
  return buffer;
}

error_code prepare(Socket& socket, const ConnectPlan& plan) {
  error_code ec;
  socket.open(plan.target.protocol(), ec);
  // Each send leaves at once, as recorded: no Nagle delay behind an unacknowledged byte.
  if (!ec) socket.set_option(tcp::no_delay(true), ec);
  if (!ec && plan.receive_buffer > 0) {
    // Before connect, so the window the client advertises is small from the handshake on.
    socket.set_option(asio::socket_base::receive_buffer_size(plan.receive_buffer), ec);
  }
  if (!ec) ec = bind_source(socket, plan.target, plan.source);
  // Non-blocking from the start: the connect below needs it, and Asio's own reads and
  // writes then never block (one ioctl, not Asio's before the connect and ours after).
  if (!ec) socket.non_blocking(true, ec);
  return ec;
}

// The connect's outcome once the kernel has one: null while it is still under way (the
// handshake not done), else the socket's error (success once connected). One poll(), and
// getsockopt(SO_ERROR) once done.
std::optional<error_code> connect_outcome(Socket& socket) {
  pollfd p{.fd = socket.native_handle(), .events = POLLOUT, .revents = 0};
  if (::poll(&p, 1, 0) == 0) return std::nullopt;
  int error = 0;
  socklen_t length = sizeof error;
  if (::getsockopt(socket.native_handle(), SOL_SOCKET, SO_ERROR, &error, &length) != 0)
    error = errno;
  return error_code(error, asio::error::get_system_category());
}

// A non-blocking connect. On loopback the kernel runs both ends' handshake within the
// connect() call, so it is nearly always done when connect() returns: then no readiness
// wait, deadline-queue entry or event-loop round trip is spent on it. Otherwise waits for
// writability, cancelled by the io_context's deadline queue at `until` (timed_out).
awaitable<error_code> connect_socket(Socket& socket, const tcp::endpoint& target,
                                     Clock::time_point until) {
  if (::connect(socket.native_handle(), target.data(), static_cast<socklen_t>(target.size())) ==
      0) {
    co_return error_code{};
  }
  if (errno != EINPROGRESS) co_return error_code(errno, asio::error::get_system_category());
  if (auto outcome = connect_outcome(socket)) co_return *outcome;
  const Deadline deadline(socket, until);
  for (;;) {  // bounded by the deadline: a spurious wake waits again
    const auto [ec] = co_await socket.async_wait(Socket::wait_write, as_values);
    if (ec == asio::error::operation_aborted) co_return error_code(asio::error::timed_out);
    if (ec) co_return ec;
    if (auto outcome = connect_outcome(socket)) co_return *outcome;
  }
}

// Waits on a timer of its own (its frame is gone once the time came): a held connection
// owns no timer. Deadlines of waits for the server go through the deadline queue.
awaitable<void> wait_until(Clock::time_point at) {
  if (at <= Clock::now()) co_return;  // a late start goes at once: no timer round trip
  Timer timer(co_await asio::this_coro::executor);
  timer.expires_at(at);
  co_await timer.async_wait(as_values);
}

// True while the kernel holds the connection ESTABLISHED (or cannot say).
bool still_established(Socket& socket) {
  tcp_info info{};
  socklen_t length = sizeof info;
  if (::getsockopt(socket.native_handle(), IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return true;
  return info.tcpi_state == TCP_ESTABLISHED;
}

}  // namespace

Connection::Connection(Executor executor, ConnectionRecord& record, std::string_view kind,
                       Duration hold_after_close)
    : socket_(executor), record_(&record), hold_after_close_(hold_after_close) {
  record_->kind = kind;
}

Duration Connection::since_connect() const { return Clock::now() - record_->connected(); }

awaitable<bool> Connection::connect(const ConnectPlan& plan) {
  co_await wait_until(plan.start);
  record_->connect_start = Clock::now();
  error_code ec = prepare(socket_, plan);
  // The io_context's deadline queue cancels a connect still under way at the timeout: no
  // timer, parallel group or cancellation slots of its own while thousands are in flight.
  if (!ec)
    ec = co_await connect_socket(socket_, plan.target, record_->connect_start + plan.timeout);
  record_->connect_took = Clock::now() - record_->connect_start;
  if (ec) {
    end(Ending::connect_failed, ec);
    co_return false;
  }
  const auto local = socket_.local_endpoint(ec);
  record_->source = fmt::format("{}:{}", local.address().to_string(), local.port());
  if (plan.tls == nullptr) co_return true;
  record_->tls.emplace();
  tls_ = new_tls_session(*plan.tls, socket_.native_handle(), &*record_->tls);
  if (!tls_) {
    record_->error = "TLS: no session could be made (OpenSSL out of memory?)";
    end(Ending::open, {});
    co_return false;
  }
  if (!plan.handshake) co_return true;
  const bool done = co_await handshake(record_->connect_start + plan.timeout);
  co_return done;
}

awaitable<bool> Connection::send(std::string_view bytes, Clock::time_point until,
                                 bool completes_request) {
  const Duration at = since_connect();
  const auto [ec, n] = co_await write_all(bytes, until);
  record_->sends.push_back({.at = at, .bytes = n});
  const bool sent = !ec;
  if (sent && completes_request) ++record_->requests;
  co_return sent;
}

// Completes when the socket is readable (data, EOF or an error): true; or at `until`,
// when the io_context's one deadline queue cancels the wait: false. Only a held
// connection's own frame and its one wait operation stay allocated while it waits.
awaitable<bool> Connection::wait_readable(Clock::time_point until) {
  const Deadline deadline(socket_, until);
  const auto [ec] = co_await socket_.async_wait(Socket::wait_read, as_values);
  co_return ec != asio::error::operation_aborted;
}

// Reads what has arrived, up to max_bytes, without waiting. Returns the server's ending if
// it came (eof, or the transport error); no error once drained or at max_bytes.
error_code Connection::read_available(std::size_t max_bytes) {
  const auto buffer = scratch();
  std::size_t total = 0;
  while (total < max_bytes) {  // bounded by max_bytes
    error_code ec;
    bool application = true;
    const std::size_t want = std::min(buffer.size(), max_bytes - total);
    const std::size_t n = read_some(buffer.first(want), ec, application);
    if (n > 0 && !application) {
      total += n;
    } else if (n > 0) {
      const Duration at = since_connect();
      if (!record_->first_byte) record_->first_byte = at;
      record_->bytes_received += n;
      if (h2_) {
        h2_->feed({buffer.data(), n}, at, *record_);
      } else {
        reader_.feed({buffer.data(), n}, at, record_->responses);
      }
      total += n;
    }
    if (ec == asio::error::would_block) return {};
    if (ec) return ec;
  }
  return {};
}

awaitable<Wait> Connection::read_until(Clock::time_point until, std::size_t responses) {
  const auto all_whole = [&] {
    return responses != kAnyResponses && complete_responses(*record_) >= responses;
  };
  // Each turn reads what arrived, or ends: bounded by `until` and by what the server sends.
  for (;;) {
    if (!is_open()) co_return Wait::ended;
    if (all_whole()) co_return Wait::done;
    // Inline, not wait_readable(): a waiting connection keeps one coroutine frame fewer.
    bool readable = false;
    if (buffered()) {
      readable = true;                  // decrypted bytes wait in the session, not in the socket
    } else if (Clock::now() < until) {  // once past, only what has arrived is read: bounded
      const Deadline deadline(socket_, until);
      const auto [ec] = co_await socket_.async_wait(Socket::wait_read, as_values);
      readable = ec != asio::error::operation_aborted;
    }
    // Read even when the time came first: an EOF or RST that arrived with it counts.
    if (const auto ended = read_available(kReadBurst)) {
      co_await server_ended(ended);
      co_return Wait::ended;
    }
    if (h2_ && h2_->owes()) co_await send(take_h2_owed(), until);  // SETTINGS/PING ACKs
    if (readable) continue;
    if (all_whole()) co_return Wait::done;
    co_return Wait::deadline;
  }
}

awaitable<bool> Connection::read_at_most(std::size_t max_bytes, Clock::time_point until) {
  if (!is_open()) co_return false;
  if (!buffered()) co_await wait_readable(until);  // readable or not: read what is there
  const auto ended = read_available(max_bytes);
  record_->progress.push_back({.at = since_connect(), .bytes = record_->bytes_received});
  if (ended) {
    co_await server_ended(ended);
    co_return false;
  }
  co_return true;
}

awaitable<void> Connection::pause_until(Clock::time_point until) { co_await wait_until(until); }

awaitable<Connection::Watched> Connection::pause_watching(Clock::time_point until, Duration every) {
  Watched watched{.filled = since_connect()};
  std::size_t waiting = 0;
  // Each turn waits `every` at most: bounded by `until`.
  for (bool last = false; is_open() && !last;) {
    last = Clock::now() >= until;
    error_code ec;
    if (const auto now_waiting = socket_.available(ec); !ec && now_waiting > waiting) {
      waiting = now_waiting;
      watched.filled = since_connect();
    }
    if (!still_established(socket_)) {
      watched.ended = true;
      break;
    }
    if (!last) co_await wait_until(std::min(Clock::now() + every, until));
  }
  co_return watched;
}

awaitable<void> Connection::server_ended(const error_code& ec) {
  if (note_server_end(ec)) {
    co_await wait_until(Clock::now() + hold_after_close_);  // the server's FIN_WAIT2 stays visible
  }
  close_socket();
}

bool Connection::note_server_end(const error_code& ec) {
  const bool eof = ec == asio::error::eof;
  if (eof && !h2_) reader_.feed_eof(since_connect(), record_->responses);
  const bool alert = record_->tls && record_->tls->alert;  // then it ended, however
  record_->ending = alert ? Ending::alert : eof ? Ending::close : Ending::reset;
  record_->ended_at = since_connect();
  if (!eof) note_error(ec);
  return eof && hold_after_close_ > Duration::zero();
}

awaitable<void> Connection::linger(Connection connection) {
  co_await wait_until(Clock::now() + connection.hold_after_close_);
  connection.close_socket();
}

void Connection::speak_h2(bool answer_control) {
  if (h2_) {
    h2_->answer_control(answer_control);  // already speaking: the frames read so far stay
    return;
  }
  if (!record_->h2) record_->h2.emplace();
  h2_ = std::make_unique<h2::SessionReader>(answer_control);
}

std::string Connection::take_h2_owed() {
  if (!h2_) return {};
  auto [owed, frames] = h2_->take_owed();
  record_->h2->frames_sent += frames;
  return std::move(owed);
}

void Connection::abort() {
  error_code ignored;
  socket_.set_option(asio::socket_base::linger(true, 0), ignored);  // close() now sends RST
  end(Ending::client_abort, {});
}

void Connection::close_first() {
  if (auto* session = established()) tls_close_notify(session);
  error_code ignored;
  socket_.shutdown(Socket::shutdown_send, ignored);
  end(Ending::client_close, {});
}

void Connection::end(Ending ending, const error_code& ec) {
  record_->ending = ending;
  record_->ended_at = ending == Ending::connect_failed ? Duration{} : since_connect();
  if (ec && ec != asio::error::eof) note_error(ec);
  close_socket();
}

void Connection::note_error(const error_code& ec) {
  record_->error = ec.message();
  if (ec.category() == boost::system::system_category()) record_->error_number = ec.value();
}

void Connection::close_socket() {
  error_code ignored;
  socket_.close(ignored);
  tls_.reset();  // the session's memory goes with the socket
  if (record_->ending != Ending::connect_failed) record_->client_closed = since_connect();
}

}  // namespace loiter::clients
