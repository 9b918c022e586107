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
#include "loiter/clients/http1/requests.hpp"
#include "loiter/clients/transport/targets.hpp"
#include "transport/tls_session.hpp"

namespace loiter::clients {
namespace {

using namespace std::chrono_literals;
using boost::system::error_code;

constexpr auto kNever = Clock::time_point::max();
constexpr auto kConnectRetry = 10ms;  // after a failed connect, before the next attempt

// One pool connection: its socket, its receive buffer (reused for every response) and the
// deadline of what it is doing, which the watchdog enforces.
struct Slot {
  explicit Slot(Executor executor) : socket(executor), timer(executor) {}
  Socket socket;
  TlsSession tls;  // over TLS: the session on `socket`
  Timer timer;
  Clock::time_point deadline = kNever;
  bool timed_out = false;
  std::size_t filled = 0;
  std::array<char, 16 * 1024> buffer;
};

// A request taken from the timeline: its index and when it is due.
struct Ticket {
  std::uint64_t index = 0;
  Clock::time_point due;
};

struct SecondTally {
  std::uint64_t dispatched = 0, succeeded = 0, failed = 0;
  LatencyHistogram from_intended;
};

// State shared by the pool's coroutines (one io_context thread: no locks).
struct Run {
  Run(Executor executor, const LoadOptions& o, LoadResult& result)
      : options(o), out(result), watchdog(executor) {}

  LoadOptions options;
  LoadResult& out;
  std::string request;
  bool head = false;  // HEAD: responses carry no body
  bool closed_loop = false;
  double ns_per_request = 0.0;
  std::uint64_t next = 0;  // the next index to take
  Clock::time_point schedule_end, send_until;
  std::vector<std::uint32_t> sends_per_ms;  // by actual send time since start
  std::vector<SecondTally> seconds;         // by intended send time since start
  std::vector<std::unique_ptr<Slot>> slots;
  std::size_t live = 0;  // pool coroutines still running
  Timer watchdog;

  std::optional<Ticket> take() {
    if (closed_loop) {
      const auto now = Clock::now();
      if (now >= schedule_end) return std::nullopt;
      return Ticket{next++, now};
    }
    if (next >= out.requested) return std::nullopt;
    const auto index = next++;
    return Ticket{index, due(index)};
  }
  Clock::time_point due(std::uint64_t index) const {
    return options.start +
           Duration(static_cast<Duration::rep>(static_cast<double>(index) * ns_per_request));
  }
  SecondTally& second_of(Clock::time_point t) {
    const auto k = std::max<Duration::rep>(0, (t - options.start) / 1s);
    return seconds[std::min(static_cast<std::size_t>(k), seconds.size() - 1)];
  }
};

std::string_view error_kind(const error_code& ec, bool timed_out) {
  if (timed_out) return "timeout";
  if (ec == asio::error::eof) return "closed";
  if (ec == asio::error::connection_reset || ec == asio::error::broken_pipe) return "reset";
  if (ec == asio::error::connection_refused) return "refused";
  if (ec.category() == asio::error::get_ssl_category()) return "tls";
  return "other";
}

std::string build_request(const LoadOptions& o) {
  const std::string host = fmt::format("{}:{}", o.server.address().to_string(), o.server.port());
  std::string bytes = request_head(
      {.method = o.method, .path = o.path, .host = host, .content_length = o.body.size()});
  return bytes + o.body;
}

void close_slot(Slot& slot) {
  error_code ignored;
  slot.socket.close(ignored);
  slot.tls.reset();
  slot.filled = 0;
  slot.deadline = kNever;
}

// The TLS handshake of a fresh pool connection, by the slot's deadline (the watchdog cancels
// the wait): a failure is counted as "handshake-failed".
awaitable<bool> handshake(Run& run, Slot& slot) {
  slot.tls = new_tls_session(*run.options.tls, slot.socket.native_handle(), nullptr);
  TlsResult result{.ec = asio::error::no_memory};
  if (slot.tls) {
    result = co_await tls_drive(slot.socket,
                                [session = slot.tls.get()] { return tls_handshake_step(session); });
  }
  if (result.ec) {
    ++run.out.errors["handshake-failed"];
    close_slot(slot);
    co_return false;
  }
  co_return true;
}

awaitable<bool> connect(Run& run, Slot& slot) {
  const auto& server = run.options.server;
  error_code ec;
  slot.socket.open(server.protocol(), ec);
  if (!ec) slot.socket.set_option(tcp::no_delay(true), ec);
  if (!ec) slot.socket.non_blocking(true, ec);  // send_request writes without waiting
  const auto source = source_for(server, run.options.source_offset + run.out.connections_opened);
  if (!ec) ec = bind_source(slot.socket, server, source);
  if (!ec) {
    slot.deadline = Clock::now() + run.options.request_timeout;
    slot.timed_out = false;
    auto [connect_ec] = co_await slot.socket.async_connect(server, as_values);
    ec = connect_ec;
  }
  if (ec) {
    ++run.out.errors["connect-failed"];
    close_slot(slot);
    co_return false;
  }
  if (run.options.tls) {  // within the same deadline
    const bool done = co_await handshake(run, slot);
    if (!done) co_return false;
  }
  slot.deadline = kNever;
  ++run.out.connections_opened;
  co_return true;
}

void note_sent(Run& run, const Ticket& ticket, Clock::time_point sent) {
  ++run.out.dispatched;
  ++run.second_of(ticket.due).dispatched;
  run.out.max_send_lag = std::max(run.out.max_send_lag, Duration(sent - ticket.due));
  const auto ms = std::max<Duration::rep>(0, (sent - run.options.start) / 1ms);
  ++run.sends_per_ms[std::min(static_cast<std::size_t>(ms), run.sends_per_ms.size() - 1)];
}

void note_response(Run& run, const Ticket& ticket, Clock::time_point sent, unsigned status) {
  const auto done = Clock::now();
  auto& second = run.second_of(ticket.due);
  run.out.from_intended.record(done - ticket.due);
  run.out.from_sent.record(done - sent);
  second.from_intended.record(done - ticket.due);
  if (status >= 200 && status < 300) {
    ++run.out.succeeded;
    ++second.succeeded;
  } else {
    ++run.out.non_2xx[status];
    ++second.failed;
  }
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
std::size_t write_now(Run& run, Slot& slot, error_code& ec) {
  const std::size_t n = slot.socket.write_some(asio::buffer(run.request), ec);
  if (ec == asio::error::would_block) ec = {};
  return ec ? 0 : n;
}

// Writes the request, then reads until its response is whole (or fails). The write is one
// non-blocking send; only a rest the socket did not take goes through async_write (a composed
// operation and a posted completion per request, otherwise). The read stays Asio's
// speculative one: waiting for readability first (async_wait, then a non-blocking read)
// costs an epoll_ctl per request instead, which measured dearer in the kernel than the recv
// that finds nothing.
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

awaitable<void> exchange(Run& run, Slot& slot, const Ticket& ticket) {
  const auto sent = Clock::now();
  slot.deadline = sent + run.options.request_timeout;
  slot.timed_out = false;
  error_code write_ec;
  const std::size_t written = slot.tls ? run.request.size() : write_now(run, slot, write_ec);
  if (slot.tls) {  // one SSL_write: the whole request in one record, as a rule
    const auto result = co_await tls_drive(slot.socket, [&] {
      return tls_write(slot.tls.get(), run.request.data(), run.request.size());
    });
    write_ec = result.ec;
  } else if (!write_ec && written < run.request.size()) {
    auto [rest_ec, rest] = co_await asio::async_write(
        slot.socket, asio::buffer(run.request.data() + written, run.request.size() - written),
        as_values);
    write_ec = rest_ec;
  }
  if (write_ec) {  // not written: not dispatched
    ++run.out.errors[std::string(error_kind(write_ec, slot.timed_out))];
    close_slot(slot);
    co_return;
  }
  note_sent(run, ticket, sent);
  // Closed loop: let the other ready connections write first. A read right after the write
  // mostly finds nothing yet (a wasted recv); after a turn of the scheduler it finds the answer
  // more often (recvs per request 2.0 -> 1.4). Open loop rarely has other work ready, and
  // the turn would cost an epoll_wait instead.
  if (run.closed_loop) co_await asio::post(slot.socket.get_executor(), use_awaitable);
  ResponseEnd parser;
  if (run.head) parser.skip(true);
  for (;;) {  // bounded by the slot's deadline (the watchdog cancels) and by what arrives
    if (slot.filled > 0) {
      const auto parse_ec = parse_buffered(slot, parser);
      if (parse_ec) {
        note_error(run, slot, ticket, "bad-response");
        co_return;
      }
      if (parser.is_done()) break;
    }
    auto [read_ec, n] = co_await read_some(slot);
    slot.filled += n;
    if (!read_ec) continue;
    if (read_ec == asio::error::eof && parser.got_some()) {
      error_code eof_ec;
      parser.put_eof(eof_ec);  // a body that runs to the close ends here
      if (!eof_ec && parser.is_done()) {
        note_response(run, ticket, sent, parser.status());
        close_slot(slot);
        co_return;
      }
    }
    note_error(run, slot, ticket, error_kind(read_ec, slot.timed_out));
    co_return;
  }
  slot.deadline = kNever;
  note_response(run, ticket, sent, parser.status());
  if (!parser.keep_alive()) close_slot(slot);  // the server said Connection: close
}

void finish(Run& run) {
  auto& out = run.out;
  out.ended = Clock::now();
  if (run.closed_loop) out.requested = out.dispatched;
  out.max_sends_in_one_ms = run.sends_per_ms.empty() ? 0
                                                     : *std::max_element(run.sends_per_ms.begin(),
                                                                         run.sends_per_ms.end());
  out.seconds.assign(run.seconds.size(), {});
  for (std::size_t k = 0; k < run.seconds.size(); ++k) {
    const auto& tally = run.seconds[k];
    out.seconds[k] = {.dispatched = tally.dispatched,
                      .succeeded = tally.succeeded,
                      .failed = tally.failed,
                      .p50 = tally.from_intended.percentile(50),
                      .p99 = tally.from_intended.percentile(99),
                      .max = tally.from_intended.max()};
  }
  if (run.closed_loop) {
    for (auto& s : out.seconds) s.requested = s.dispatched;
  } else {
    for (std::uint64_t i = 0; i < out.requested; ++i) {  // bounded by requested
      const auto k = static_cast<std::size_t>((run.due(i) - run.options.start) / 1s);
      ++out.seconds[std::min(k, out.seconds.size() - 1)].requested;
    }
  }
  run.watchdog.cancel();
}

// One pool connection: takes the next due request, waits for its time, sends it on its
// (re)connected socket and reads the response; until the timeline runs out.
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
    if (!slot.socket.is_open()) {
      const bool connected = co_await connect(*run, slot);
      if (!connected) {
        slot.timer.expires_after(kConnectRetry);
        co_await slot.timer.async_wait(as_values);
        continue;  // the ticket stays
      }
    }
    co_await exchange(*run, slot, *ticket);
    ticket.reset();
  }
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

}  // namespace

void spawn_load(asio::io_context& io, const LoadOptions& options, LoadResult& out) {
  require_loopback(options.server, options.allow_non_loopback);
  if (!(options.rate >= 0.0) || !std::isfinite(options.rate)) {
    throw std::invalid_argument(fmt::format("load rate must be >= 0, not {}", options.rate));
  }
  if (options.connections == 0) throw std::invalid_argument("load needs at least one connection");
  auto run = std::make_shared<Run>(io.get_executor(), options, out);
  const double seconds = std::chrono::duration<double>(options.duration).count();
  out = LoadResult{};
  out.started = options.start;
  run->closed_loop = options.rate == 0.0;
  run->ns_per_request = run->closed_loop ? 0.0 : 1e9 / options.rate;
  out.requested =
      run->closed_loop ? 0 : static_cast<std::uint64_t>(std::floor(options.rate * seconds));
  run->request = build_request(options);
  run->head = options.method == "HEAD";
  run->schedule_end = options.start + options.duration;
  run->send_until = run->schedule_end + options.send_grace;
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
