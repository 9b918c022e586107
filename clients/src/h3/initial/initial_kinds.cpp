// h3-initial-stall and h3-amplification (clients/h3/stalls.hpp): a hand-made client
// Initial, then only what the kind sends on purpose. Every time is since the first
// Initial's send (connect_start); handshake_done stays empty: these never finish.
//
// h3-initial-stall's probe: a second Initial (packet number 1, same DCID and SCID, a PING
// and padding) probe_after the first. Its answer is waited for three PTOs, the PTO taken
// as RFC 9002 6.2.1 computes it from one RTT sample (smoothed_rtt + 4 × rttvar with
// rttvar = sample / 2: 3 × the sample), the sample being the first Initial's ACK, with a
// floor of 200 ms (loopback RTTs of microseconds would make a PTO no server could meet);
// with no sample, a PTO of 1 s (RFC 9002 6.2.2's initial RTT is 333 ms: 3 × 333 ms).
// What the answer says of the half-open connection (record.h3->remembered):
//   remembered  an Initial from the server SCID of its first answer, ACKing packet 1 and
//               packet 0 too: the server still holds the connection → Ending::open at
//               the answer;
//   forgotten   an ACK of packet 1 from another SCID, or of packet 1 alone: the server
//               took the probe for a new connection → Ending::gone at the probe's send;
//   silent      no ACK of packet 1 within three PTOs (cut at patience) → Ending::gone at
//               the probe's send.
// A CONNECTION_CLOSE in an Initial first ends it (Ending::close, record.h3->close); a
// short-header datagram of 21 bytes or more, a stateless reset (Ending::reset).
//
// h3-amplification: the whole ClientHello in one Initial (two if it did not fit), then
// silence: never an ACK. Every datagram the server sends is counted (unvalidated_received)
// until none came for kQuiet or patience ran out. Ending::gone when it fell quiet, ended_at
// = the last datagram's arrival (the judge compares bytes, not times; with no datagram at
// all, 0: the Initial's send); Ending::open at patience if it never did.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "h3/initial/initial_keys.hpp"
#include "h3/initial/initial_packet.hpp"
#include "h3/initial/quic_client_hello.hpp"
#include "h3/initial/udp_wait.hpp"
#include "loiter/clients/h3/stalls.hpp"

namespace loiter::clients {

namespace {

using namespace h3init;

constexpr Duration kPtoFloor = std::chrono::milliseconds(200);
constexpr Duration kPtoWithoutSample = std::chrono::seconds(1);
constexpr Duration kQuiet = std::chrono::seconds(3);  // h3-amplification: "it stopped"
constexpr std::size_t kMaxDatagram = 65536;

// One hand-made QUIC connection attempt: its socket, its connection IDs and Initial keys,
// and the record it fills.
struct Session {
  Session(Executor executor, ConnectionRecord& into, std::string_view kind)
      : record(into), udp(executor) {
    record.kind = kind;
    record.h3.emplace();
  }

  ConnectionRecord& record;
  UdpWait udp;
  Bytes dcid = random_bytes(8);
  Bytes scid = random_bytes(8);
  InitialKeys client = initial_keys(dcid, /*client=*/true);
  InitialKeys server = initial_keys(dcid, /*client=*/false);
  Bytes buffer = Bytes(kMaxDatagram);

  H3Record& h3() { return *record.h3; }
  Duration since(Clock::time_point at) const { return at - record.connect_start; }

  // Opens the socket from the fleet's source for this slot, connected to the target (so the
  // kernel drops any datagram from elsewhere). False, with connect_failed, if it cannot.
  bool open(const FleetSpec& fleet, std::size_t index) {
    boost::system::error_code error;
    const udp::endpoint target(fleet.target.address(), fleet.target.port());
    auto& socket = udp.socket();
    socket.open(target.protocol(), error);
    if (!error) socket.bind(udp::endpoint(source_of(fleet, index), 0), error);
    if (!error) socket.connect(target, error);
    if (!error) {
      const auto local = socket.local_endpoint(error);
      if (!error) record.source = fmt::format("{}:{}", local.address().to_string(), local.port());
    }
    if (error) fail(error, Ending::connect_failed, Clock::now());
    return !error;
  }

  void fail(const boost::system::error_code& error, Ending ending, Clock::time_point at) {
    record.ending = ending;
    record.error = error.message();
    record.error_number = error.category() == boost::system::system_category() ? error.value() : 0;
    record.ended_at = record.connect_start == Clock::time_point{} ? Duration{} : since(at);
  }

  // A socket error after the first send: an ICMP unreachable surfaces as ECONNREFUSED.
  // Before the server said anything it never connected; after, it was reset.
  void failed(const boost::system::error_code& error, Clock::time_point at) {
    fail(error, h3().datagrams_received == 0 ? Ending::connect_failed : Ending::reset, at);
  }

  // Sends `datagram`, recorded as sent `at` (taken just before: the first Initial's is
  // connect_start itself). `probe`: the probe leaves last_sent alone (it is the client's
  // last packet before its probe). No defaulted parameter, and awaited into locals
  // (docs/gcc12-coroutines.md).
  awaitable<bool> send(const Bytes& datagram, Clock::time_point at, bool probe) {
    auto [error, size] =
        co_await udp.socket().async_send(asio::buffer(datagram.data(), datagram.size()), as_values);
    if (error) {
      failed(error, Clock::now());
      co_return false;
    }
    record.sends.push_back({.at = since(at), .bytes = size});
    ++h3().datagrams_sent;
    h3().bytes_sent += size;
    if (!probe) h3().last_sent = since(at);
    co_return true;
  }

  // Counts one datagram and reads its packets.
  std::vector<ServerPacket> heard(std::size_t size, Clock::time_point at) {
    ++h3().datagrams_received;
    h3().bytes_received += size;
    record.bytes_received += size;
    if (!record.first_byte) record.first_byte = since(at);
    h3().last_heard = since(at);
    return read_datagram(server, std::span(buffer).first(size));
  }

  bool stateless_reset(std::size_t size, Clock::time_point at) {
    if (!looks_like_stateless_reset(std::span(buffer).first(size), scid)) return false;
    h3().stateless_reset = true;
    record.ending = Ending::reset;
    record.ended_at = since(at);
    return true;
  }

  // The first CONNECTION_CLOSE among the server's Initials, recorded as the ending.
  bool closed(const std::vector<ServerPacket>& packets, Clock::time_point at) {
    for (const auto& packet : packets) {
      if (!packet.frames || !packet.frames->close) continue;
      const auto& close = *packet.frames->close;
      h3().close = H3Close{.at = since(at),
                           .code = close.code,
                           .application = close.application,
                           .reason = close.reason};
      record.ending = Ending::close;
      record.ended_at = since(at);
      return true;
    }
    return false;
  }

  void end(Ending ending, Duration at) {
    record.ending = ending;
    record.ended_at = at;
  }
};

awaitable<void> wait_until(Clock::time_point at) {
  Timer timer(co_await asio::this_coro::executor);
  timer.expires_at(at);
  auto [error] = co_await timer.async_wait(as_values);
  (void)error;  // nothing cancels it
}

// One protected Initial of `frames`, padded to 1200 bytes.
Bytes initial_datagram(const Session& session, std::uint64_t packet_number, Bytes frames) {
  const InitialHeader header{
      .dcid = session.dcid, .scid = session.scid, .packet_number = packet_number};
  return protect_initial(session.client, header, padded_payload(header, std::move(frames)));
}

// The CRYPTO bytes one padded Initial of `session` can carry.
std::size_t crypto_room(const Session& session) {
  const InitialHeader header{.dcid = session.dcid, .scid = session.scid};
  // CRYPTO frame: type, offset (up to 2 bytes here), length (2 bytes).
  return kMinInitialDatagram - initial_header(header, 0).size() - kAeadTagSize - 5;
}

Duration pto_of(std::optional<Duration> rtt) {
  return rtt ? std::max(3 * *rtt, kPtoFloor) : kPtoWithoutSample;
}

awaitable<void> initial_stall_connection(std::shared_ptr<const H3Options> options, Slot slot) {
  Session session(co_await asio::this_coro::executor, slot.record, kH3InitialStall);
  if (!session.open(options->fleet, slot.index)) co_return;
  const Bytes hello = quic_client_hello(options->server_name, session.scid);
  const std::size_t cut = std::min({options->initial_bytes, hello.size(), crypto_room(session)});
  Bytes frames;
  put_crypto_frame(frames, 0, std::span(hello).first(cut));
  const Bytes first = initial_datagram(session, 0, std::move(frames));
  co_await wait_until(slot.start);

  session.record.connect_start = Clock::now();
  const bool sent = co_await session.send(first, session.record.connect_start, /*probe=*/false);
  if (!sent) co_return;
  const auto start = session.record.connect_start;
  const auto deadline = start + options->fleet.patience;
  std::optional<Clock::time_point> probe_at;
  if (slot.index < options->probe_ladder.size()) {
    probe_at = start + options->probe_ladder[slot.index];
  } else if (options->probe_after) {
    probe_at = start + *options->probe_after;
  }
  std::optional<Bytes> first_scid;  // the server's SCID in its first Initial
  std::optional<Duration> rtt;      // from the first Initial to the ACK of it
  std::optional<Clock::time_point> probe_sent;
  std::optional<Clock::time_point> probe_until;

  // Each round ends with a datagram or at a deadline no later than patience; a datagram
  // arriving past patience is not waited for (receive returns at once).
  for (;;) {
    auto until = deadline;
    if (probe_at && !probe_sent) until = std::min(until, *probe_at);
    if (probe_until) until = std::min(until, *probe_until);
    const auto got = co_await session.udp.receive(session.buffer, until);
    if (got.error) {
      session.failed(got.error, got.at);
      co_return;
    }
    if (got.timed_out) {
      if (probe_until && got.at >= *probe_until) {
        session.h3().remembered = H3Remembered::silent;
        session.end(Ending::gone, session.since(*probe_sent));
        co_return;
      }
      if (got.at >= deadline) {
        session.end(Ending::open, session.since(got.at));
        co_return;
      }
      Bytes ping;
      put_ping_frame(ping);
      const Bytes probe = initial_datagram(session, 1, std::move(ping));
      probe_sent = Clock::now();
      const bool probed = co_await session.send(probe, *probe_sent, /*probe=*/true);
      if (!probed) co_return;
      session.h3().probes.push_back({.at = session.since(*probe_sent)});
      probe_until = std::min(*probe_sent + 3 * pto_of(rtt), deadline);
      continue;
    }
    const auto packets = session.heard(got.size, got.at);
    if (session.stateless_reset(got.size, got.at)) co_return;
    if (session.closed(packets, got.at)) co_return;
    for (const auto& packet : packets) {
      if (packet.type != ServerPacket::Type::initial || !packet.frames) continue;
      const auto& answer = *packet.frames;
      if (!probe_sent) {
        if (!first_scid) first_scid = packet.scid;
        if (!rtt && answer.acknowledges(0)) rtt = got.at - start;
        continue;
      }
      if (!answer.acknowledges(1)) continue;  // not the probe's answer (yet)
      const bool same = !first_scid || *first_scid == packet.scid;
      if (same && answer.acknowledges(0)) {
        // Answered as the same connection: only then is the probe answered (a new
        // connection's ACK says the first one was forgotten).
        session.h3().probes.back().answered = session.since(got.at);
        session.h3().remembered = H3Remembered::remembered;
        session.end(Ending::open, session.since(got.at));
      } else {
        session.h3().remembered = H3Remembered::forgotten;
        session.end(Ending::gone, session.since(*probe_sent));
      }
      co_return;
    }
  }
}

awaitable<void> amplification_connection(std::shared_ptr<const H3Options> options, Slot slot) {
  Session session(co_await asio::this_coro::executor, slot.record, kH3Amplification);
  if (!session.open(options->fleet, slot.index)) co_return;
  const Bytes hello = quic_client_hello(options->server_name, session.scid);
  // Bounded: each Initial carries at least crypto_room (> 1000) bytes of the hello.
  std::vector<Bytes> datagrams;
  for (std::size_t offset = 0; offset < hello.size();) {
    const std::size_t take = std::min(hello.size() - offset, crypto_room(session));
    Bytes frames;
    put_crypto_frame(frames, offset, std::span(hello).subspan(offset, take));
    datagrams.push_back(initial_datagram(session, datagrams.size(), std::move(frames)));
    offset += take;
  }
  co_await wait_until(slot.start);

  session.record.connect_start = Clock::now();
  for (const auto& datagram : datagrams) {
    const bool sent = co_await session.send(datagram, Clock::now(), /*probe=*/false);
    if (!sent) co_return;
  }
  session.h3().unvalidated_sent = session.h3().bytes_sent;
  const auto start = session.record.connect_start;
  const auto deadline = start + options->fleet.patience;
  std::optional<Clock::time_point> last;

  // Each round ends with a datagram or at a deadline no later than patience.
  for (;;) {
    const auto quiet_end = last.value_or(start) + kQuiet;
    const auto got = co_await session.udp.receive(session.buffer, std::min(quiet_end, deadline));
    if (got.error) {
      session.failed(got.error, got.at);
      co_return;
    }
    if (got.timed_out) {
      if (quiet_end <= deadline) {
        session.end(Ending::gone, last ? session.since(*last) : Duration{});
      } else {
        session.end(Ending::open, session.since(got.at));
      }
      co_return;
    }
    last = got.at;
    session.h3().unvalidated_received += got.size;
    const auto packets = session.heard(got.size, got.at);
    if (session.stateless_reset(got.size, got.at)) co_return;
    if (session.closed(packets, got.at)) co_return;
  }
}

template <typename Body>
void spawn_initial_kind(asio::io_context& io, const H3Options& options, Body body,
                        std::vector<ConnectionRecord>& out) {
  require_spawnable(options.fleet);
  // Refused here, not thrown from a connection's coroutine (which io.run() would rethrow).
  if (options.server_name.size() > 255) {
    throw std::invalid_argument("server_name: an SNI host name holds at most 255 bytes");
  }
  auto shared = std::make_shared<const H3Options>(options);
  spawn_fleet(
      io, options.fleet.count, options.fleet.pacing, options.fleet.share,
      [shared, body](Slot slot) { return body(shared, slot); }, out);
}

}  // namespace

void spawn_h3_initial_stall(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out) {
  spawn_initial_kind(io, options, &initial_stall_connection, out);
}

void spawn_h3_amplification(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out) {
  spawn_initial_kind(io, options, &amplification_connection, out);
}

}  // namespace loiter::clients
