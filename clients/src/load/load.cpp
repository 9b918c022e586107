// The open-loop generator's pool: each slot takes due requests from the timeline, sends
// them on its kept-alive connection (or, for churn, on a connection of its own) and reads
// the answers; a watchdog enforces every slot's deadline.
#include "loiter/clients/load/load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "http1/response_end.hpp"
#include "load_run.hpp"
#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using boost::system::error_code;

using namespace load_detail;

constexpr auto kConnectRetry = 10ms;  // after a failed connect, before the next attempt

std::string_view error_kind(const error_code& ec, bool timed_out) {
  if (timed_out) return "timeout";
  if (ec == asio::error::eof) return "closed";
  if (ec == asio::error::connection_reset || ec == asio::error::broken_pipe) return "reset";
  if (ec == asio::error::connection_refused) return "refused";
  if (ec.category() == asio::error::get_ssl_category()) return "tls";
  return "other";
}

std::string build_request(const LoadOptions& o, std::string_view path, bool connection_close) {
  const std::string host = fmt::format("{}:{}", o.server.address().to_string(), o.server.port());
  std::string bytes = request_head({.method = o.method,
                                    .path = path,
                                    .host = host,
                                    .content_length = o.body.size(),
                                    .connection_close = connection_close});
  return bytes + o.body;
}

void note_error(Run& run, Slot& slot, const Ticket& ticket, std::string_view kind) {
  ++run.out.errors[std::string(kind)];
  ++run.second_of(ticket.due).failed;
  close_slot(slot);
}

// Puts what the buffer holds into the parser; keeps what it did not consume.
error_code parse_buffered(Slot& slot, ResponseEnd& parser) {
  error_code ec;
  const std::size_t used = parser.put(asio::buffer(slot.buffer.data(), slot.filled), ec);
  std::memmove(slot.buffer.data(), slot.buffer.data() + used, slot.filled - used);
  slot.filled -= used;
  if (ec == boost::beast::http::error::need_more) ec = {};
  if (!ec && !parser.is_done() && slot.filled == slot.buffer.size()) {
    ec = boost::beast::http::error::header_limit;  // a head that does not fit the buffer
  }
  return ec;
}

// Writes what the socket takes now, without waiting (the socket is non-blocking): the whole
// request, as a rule, since it fits an idle connection's send buffer.
std::size_t write_now(const std::string& request, Slot& slot, error_code& ec) {
  const std::size_t n = slot.socket.write_some(asio::buffer(request), ec);
  if (ec == asio::error::would_block) ec = {};
  return ec ? 0 : n;
}

// Reads into the slot's buffer: through the TLS session (decrypted bytes first, then a
// readiness wait) or Asio's speculative read.
awaitable<std::tuple<error_code, std::size_t>> read_some(Slot& slot) {
  char* const data = slot.buffer.data() + slot.filled;
  const std::size_t room = slot.buffer.size() - slot.filled;
  if (slot.tls) {
    const auto result =
        co_await tls_drive(slot.socket, [&] { return tls_read(slot.tls.get(), data, room); });
    co_return std::tuple{result.ec, result.bytes};
  }
  const auto read = co_await slot.socket.async_read_some(asio::buffer(data, room), as_values);
  co_return read;
}

// The rest of a request the socket did not take at once (async_write: a composed
// operation and a posted completion, only then); over TLS, the whole request in one
// SSL_write (one record, as a rule).
awaitable<error_code> write_rest(const std::string& request, std::size_t written, Slot& slot) {
  if (slot.tls) {
    const auto result = co_await tls_drive(
        slot.socket, [&] { return tls_write(slot.tls.get(), request.data(), request.size()); });
    co_return result.ec;
  }
  auto [ec, n] = co_await asio::async_write(
      slot.socket, asio::buffer(request.data() + written, request.size() - written), as_values);
  co_return ec;
}

// abort: once the first bytes of the answer are in (all of it, maybe), the client resets
// the connection. No byte before an error or the deadline: the request failed.
awaitable<void> abort_once_answered(Run& run, Slot& slot, const Ticket& ticket) {
  auto [read_ec, n] = co_await read_some(slot);
  if (n == 0 && read_ec) {
    note_error(run, slot, ticket, error_kind(read_ec, slot.timed_out));
    co_return;
  }
  reset_slot(slot);
  ++run.out.aborted;
}

// server_close: an answer that says "Connection: close" is followed by the server's FIN,
// awaited by the slot's deadline (bytes past the answer are dropped); then the client's
// close. An answer that does not say it keeps the connection (HTTP/1.1's default): the
// client closes it at once and counts nothing (not an error of the request).
awaitable<void> await_server_close(Run& run, Slot& slot, bool keep_alive) {
  while (!keep_alive) {  // bounded by the slot's deadline (the watchdog cancels)
    slot.filled = 0;
    auto [read_ec, n] = co_await read_some(slot);
    if (!read_ec) continue;
    if (read_ec == asio::error::eof && !slot.timed_out) ++run.out.server_closed;
    break;
  }
  close_slot(slot);
}

// After a whole answer (not server_close): what the request's kind does with its
// connection. `server_ended`: the answer ran to the server's close.
void after_answer(Run& run, Slot& slot, RequestKind kind, bool server_ended, bool keep_alive) {
  if (kind == RequestKind::fresh) {
    if (!server_ended) ++run.out.fresh_closed;
    close_slot(slot);
  } else if (server_ended || !keep_alive) {  // the server said Connection: close
    close_slot(slot);
  } else if (run.options.churn.replace_every > 0 &&
             ++slot.served >= run.options.churn.replace_every) {
    close_slot(slot);
    ++run.out.replaced;
  }
}

// Writes the request, then reads until its response is whole (or fails); for abort, only
// its first bytes. The write is one non-blocking send, as a rule (see write_rest). The read
// stays Asio's speculative one: waiting for readability first (async_wait, then a
// non-blocking read) costs an epoll_ctl per request instead, which measured dearer in the
// kernel than the recv that finds nothing.
awaitable<void> exchange(Run& run, Slot& slot, const Ticket& ticket, RequestKind kind) {
  const auto sent = Clock::now();
  slot.deadline = sent + run.options.request_timeout;
  slot.timed_out = false;
  const std::string& request = run.request_for(kind);
  error_code write_ec;
  const std::size_t written = slot.tls ? 0 : write_now(request, slot, write_ec);
  if (!write_ec && written < request.size()) write_ec = co_await write_rest(request, written, slot);
  if (write_ec) {  // not written: not dispatched
    ++run.out.errors[std::string(error_kind(write_ec, slot.timed_out))];
    close_slot(slot);
    co_return;
  }
  note_sent(run, ticket, sent);
  if (kind == RequestKind::abort) {
    co_await abort_once_answered(run, slot, ticket);
    co_return;
  }
  // Closed loop: let the other ready connections write first. A read right after the write
  // mostly finds nothing yet (a wasted recv); after a turn of the scheduler it finds the answer
  // more often (recvs per request 2.0 -> 1.4). Open loop rarely has other work ready, and
  // the turn would cost an epoll_wait instead.
  if (run.closed_loop) co_await asio::post(slot.socket.get_executor(), use_awaitable);
  ResponseEnd parser;
  if (run.head) parser.skip(true);
  bool at_eof = false;
  for (;;) {  // bounded by the slot's deadline (the watchdog cancels) and by what arrives
    if (slot.filled > 0) {
      if (parse_buffered(slot, parser)) co_return note_error(run, slot, ticket, "bad-response");
      if (parser.is_done()) break;
    }
    auto [read_ec, n] = co_await read_some(slot);
    slot.filled += n;
    if (!read_ec) continue;
    if (read_ec == asio::error::eof && parser.got_some()) {
      error_code eof_ec;
      parser.put_eof(eof_ec);  // a body that runs to the close ends here
      at_eof = !eof_ec && parser.is_done();
      if (at_eof) break;
    }
    co_return note_error(run, slot, ticket, error_kind(read_ec, slot.timed_out));
  }
  note_response(run, ticket, sent, parser.status());
  if (kind == RequestKind::server_close) {
    if (at_eof) ++run.out.server_closed;
    co_await await_server_close(run, slot, parser.keep_alive() || at_eof);
  } else {
    after_answer(run, slot, kind, at_eof, parser.keep_alive());
  }
  slot.deadline = kNever;
}

// One pool connection: takes the next due request, waits for its time, sends it on its
// (re)connected socket (a churn request: on a connection of its own) and reads the
// response; until the timeline runs out.
awaitable<void> drive_slot(std::shared_ptr<Run> run, Slot& slot) {
  std::optional<Ticket> ticket;
  // Every turn sends, or waits (for a due time or a connect retry), or ends: bounded by
  // send_until.
  for (;;) {
    if (!ticket) ticket = run->take();
    if (!ticket) break;
    if (Clock::now() < ticket->due) {
      slot.timer.expires_at(ticket->due);
      co_await slot.timer.async_wait(as_values);
    }
    if (Clock::now() >= run->send_until) break;  // too late: stays requested, not dispatched
    const auto kind =
        run->churn ? request_kind(run->options.churn, ticket->index) : RequestKind::pooled;
    if (kind != RequestKind::pooled) park(slot);
    if (!slot.socket.is_open()) {
      const bool connected = co_await connect(*run, slot);
      if (!connected) {
        slot.timer.expires_after(kConnectRetry);
        co_await slot.timer.async_wait(as_values);
        continue;  // the ticket stays
      }
    }
    co_await exchange(*run, slot, *ticket, kind);
    if (slot.parked) unpark(slot);
    ticket.reset();
  }
  if (slot.parked) unpark(slot);
  close_slot(slot);
  if (--run->live == 0) finish(*run);
}

// Cancels whatever a slot is doing once its deadline has passed; ends with the pool.
awaitable<void> watch(std::shared_ptr<Run> run) {
  const auto tick =
      std::clamp<Duration>(run->options.request_timeout / 20, Duration(1ms), Duration(50ms));
  const auto give_up = run->send_until + run->options.request_timeout + 5s;
  while (run->live > 0 && Clock::now() < give_up) {  // bounded by the pool and by time
    run->watchdog.expires_after(tick);
    co_await run->watchdog.async_wait(as_values);
    const auto now = Clock::now();
    for (auto& slot : run->slots) {
      if (now < slot->deadline) continue;
      slot->deadline = kNever;
      slot->timed_out = true;
      error_code ignored;
      slot->socket.cancel(ignored);
    }
  }
}

void check_churn(const Churn& churn) {
  const double shares[] = {churn.fresh, churn.server_close, churn.abort};
  double sum = 0.0;
  for (const double share : shares) {
    if (!(share >= 0.0 && share <= 1.0)) {
      throw std::invalid_argument(fmt::format("a churn share must be in [0, 1], not {}", share));
    }
    sum += share;
  }
  if (sum > 1.0 + 1e-9) {
    throw std::invalid_argument(fmt::format("the churn shares add up to {} (> 1)", sum));
  }
}

}  // namespace

void spawn_load(asio::io_context& io, const LoadOptions& options, LoadResult& out) {
  require_loopback(options.server, options.allow_non_loopback);
  if (!(options.rate >= 0.0) || !std::isfinite(options.rate)) {
    throw std::invalid_argument(fmt::format("load rate must be >= 0, not {}", options.rate));
  }
  if (options.connections == 0) throw std::invalid_argument("load needs at least one connection");
  check_churn(options.churn);
  auto run = std::make_shared<Run>(io.get_executor(), options, out);
  const double seconds = std::chrono::duration<double>(options.duration).count();
  out = LoadResult{};
  out.started = options.start;
  run->closed_loop = options.rate == 0.0;
  run->ns_per_request = run->closed_loop ? 0.0 : 1e9 / options.rate;
  out.requested =
      run->closed_loop ? 0 : static_cast<std::uint64_t>(std::floor(options.rate * seconds));
  const auto& churn = options.churn;
  run->churn = churn.any();
  run->request = build_request(options, options.path, false);
  run->close_request = build_request(options, options.path, true);
  run->abort_request =
      build_request(options, churn.abort_path.empty() ? options.path : churn.abort_path, false);
  run->head = options.method == "HEAD";
  run->schedule_end = options.start + options.duration;
  run->send_until = run->schedule_end + options.send_grace;
  run->first_window_end = options.start + options.edge_window;
  run->last_window_start = run->schedule_end - options.edge_window;
  run->sends_per_ms.assign(
      static_cast<std::size_t>((options.duration + options.send_grace) / 1ms) + 2, 0);
  run->seconds.resize(static_cast<std::size_t>(std::max(1.0, std::ceil(seconds))));
  for (std::size_t i = 0; i < options.connections; ++i) {
    run->slots.push_back(std::make_unique<Slot>(io.get_executor()));
  }
  run->live = run->slots.size();
  for (auto& slot : run->slots) asio::co_spawn(io, drive_slot(run, *slot), asio::detached);
  asio::co_spawn(io, watch(run), asio::detached);
}

}  // namespace loiter::clients
