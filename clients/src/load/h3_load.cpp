// The HTTP/3 exchange's pool: requests given streams as every multiplexing exchange gives them
// (mux_pool.hpp: a slot is MAX_STREAMS credit left), ngtcp2's timers, the deadlines of streams
// and handshakes, and reconnects.
#include <unistd.h>

#include <algorithm>

#include "h3_load_run.hpp"
#include "mux_pool.hpp"

namespace loiter::clients::load_detail {

// ngtcp2's timers, deadlines (streams, handshakes) and reconnects.
void H3Run::watch(Clock::time_point now) {
  mux::watch(
      *this, now,
      [&](H3Conn& conn) {
        h3_expire(*this, conn, now);
        return conn.quic != nullptr;
      },
      [&](H3Stream& stream) { h3_time_out(*this, stream); },
      [&](H3Conn& conn) { next_retry = std::min(next_retry, conn.expiry); });
}

void H3Run::dispatch(Clock::time_point now) { mux::dispatch(*this, now); }

void H3Run::flush() {
  // A write may retire a connection and mark none; the list is taken whole first.
  for (std::size_t i = 0; i < dirty.size(); ++i) h3_write(*this, *dirty[i]);
  dirty.clear();
}

// A handshake under way: answers are heard at once meanwhile.
bool H3Run::opening() const {
  return std::any_of(conns.begin(), conns.end(),
                     [](const auto& conn) { return conn->phase == H3Phase::handshaking; });
}

void H3Run::open_pool() {
  for (auto& conn : conns) h3_open(*this, *conn);
}

void H3Run::close_all() {
  for (auto* pool : {&conns, &fresh}) {
    for (auto& conn : *pool) h3_say_goodbye(*this, *conn);
  }
}

H3Run::H3Run(Executor executor, const LoadOptions& o, LoadResult& result)
    : Engine(executor, o, result, "h3") {
  stamped = true;  // every datagram carries the kernel's receive time
}

H3Run::~H3Run() {
  for (auto* pool : {&conns, &fresh}) {
    for (auto& conn : *pool) h3_close(*this, *conn);
  }
  if (credentials != nullptr) gnutls_certificate_free_credentials(credentials);
}

H3Stream* H3Run::new_stream(const Ticket& ticket, RequestKind kind) {
  return mux::take_stream(*this, ticket, kind);
}

void H3Run::detach_stream(H3Stream& stream) {
  mux::leave_connection(stream);
  stream.id = -1;  // a late callback about its old id finds it no more
}

void H3Run::drop_stream(H3Stream& stream) {
  mux::give_back(*this, stream);
  stream.id = -1;
}

std::shared_ptr<Engine> make_h3_load(Executor executor, const LoadOptions& o, LoadResult& out) {
  auto run = std::make_shared<H3Run>(executor, o, out);
  run->churn = o.churn.any();
  if (!h3_setup(*run)) throw std::runtime_error("GnuTLS: no credentials for QUIC");
  for (std::size_t i = 0; i < o.connections; ++i) {
    run->conns.push_back(std::make_unique<H3Conn>());
    run->conns.back()->run = run.get();
  }
  return run;
}

}  // namespace loiter::clients::load_detail
