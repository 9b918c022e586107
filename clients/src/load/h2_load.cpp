// The HTTP/2 exchange's pool: requests given streams as every multiplexing exchange gives them
// (mux_pool.hpp: the streams a GOAWAY turned back first, then every request due by now on a
// connection with a free slot), the deadlines of streams, connects and SETTINGS awaited, and
// reconnects.
#include <unistd.h>

#include <algorithm>

#include "h2_load_run.hpp"
#include "mux_pool.hpp"

namespace loiter::clients::load_detail {

namespace {

void h2_flush_dirty(H2Run& run) {
  // A flush may retire a connection and mark none; the list is taken whole first.
  for (std::size_t i = 0; i < run.dirty.size(); ++i) h2_flush(run, *run.dirty[i]);
  run.dirty.clear();
}

}  // namespace

// Deadlines (streams, connects, SETTINGS awaited) and reconnects.
void H2Run::watch(Clock::time_point now) {
  mux::watch(
      *this, now, [](H2Conn&) { return true; },
      [&](H2Stream& stream) {
        if (!stream.done) h2_time_out(*this, stream);
      },
      [](H2Conn&) {});
}

void H2Run::dispatch(Clock::time_point now) { mux::dispatch(*this, now); }

void H2Run::flush() { h2_flush_dirty(*this); }

// A connection being opened: its connect, handshake and SETTINGS go on between the
// schedule's wakes, so answers are heard at once meanwhile.
bool H2Run::opening() const {
  return std::any_of(conns.begin(), conns.end(), [](const auto& conn) {
    return conn->state != LinkState::closed &&
           (conn->state != LinkState::open || conn->phase == H2Phase::settling);
  });
}

void H2Run::open_pool() {
  // Each connection is ready for streams once the server's SETTINGS came.
  for (auto& conn : conns) open_link(*conn);
}

void H2Run::close_all() {
  for (auto* pool : {&conns, &fresh}) {
    for (auto& conn : *pool) h2_close(*this, *conn);
  }
}

H2Run::H2Run(Executor executor, const LoadOptions& o, LoadResult& result)
    : Engine(executor, o, result, "h2") {}

H2Run::~H2Run() {
  for (auto* pool : {&conns, &fresh}) {
    for (auto& conn : *pool) {
      conn->session.reset();
      if (conn->fd >= 0) ::close(conn->fd);
    }
  }
  if (callbacks != nullptr) nghttp2_session_callbacks_del(callbacks);
  if (session_option != nullptr) nghttp2_option_del(session_option);
}

H2Stream* H2Run::new_stream(const Ticket& ticket, RequestKind kind) {
  return mux::take_stream(*this, ticket, kind);
}

void H2Run::drop_stream(H2Stream& stream) { mux::give_back(*this, stream); }

std::shared_ptr<Engine> make_h2_load(Executor executor, const LoadOptions& o, LoadResult& out) {
  auto run = std::make_shared<H2Run>(executor, o, out);
  run->churn = o.churn.any();
  h2_setup(*run);
  for (std::size_t i = 0; i < o.connections; ++i) {
    run->conns.push_back(std::make_unique<H2Conn>());
    run->conns.back()->run = run.get();
  }
  return run;
}

}  // namespace loiter::clients::load_detail
