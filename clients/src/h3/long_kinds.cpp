// The h3 kinds that hold a connection without stalling a stream (stalls.hpp): h3-idle (its
// probe), h3-long-response and h3-stream (a slow answer read at once), h3-held-recheck (two
// answers, held between them).
#include <fmt/format.h>

#include <stdexcept>

#include "kind_base.hpp"

namespace loiter::clients::h3 {

namespace {

// Handshake, SETTINGS, then quiet. One PING probe_after the client's last packet (odd
// indices: early_probe_after), timed again while the client had to send (its ACKs); no ACK
// for it within three PTOs: the server forgot the connection (Ending::gone, at the probe's
// send). Answered early, the connection closes itself; answered late, it waits on.
class Idle final : public QuicConnection {
 public:
  Idle(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : QuicConnection(e, std::move(o), i, r, kH3Idle) {}

 private:
  bool laddered() const { return index() < options().probe_ladder.size(); }
  bool early() const {
    return !laddered() && index() % 2 == 1 && options().early_probe_after.has_value();
  }
  std::optional<Duration> after() const {
    if (laddered()) return options().probe_ladder[index()];
    return early() ? options().early_probe_after : options().probe_after;
  }

  void on_ready() override {
    if (after()) wait_quiet();
  }

  void wait_quiet() {
    const auto due = last_sent() + *after();
    if (due > Clock::now()) {
      at(due, [this] { wait_quiet(); });  // re-timed if the client sent meanwhile
      return;
    }
    h3().last_sent = since_connect(last_sent());
    ping(/*probe=*/true);
    if (ended()) return;
    const auto sent = Clock::now();
    at(sent + 3 * pto(), [this] {
      if (!h3().probes.empty() && !h3().probes.back().answered) {
        end(Ending::gone, record().connect_start + h3().probes.back().at);
      }
    });
  }

  void on_probe_answered() override {
    if (early()) close_by_client();
  }
};

// GET long_path, read at once with normal flow control; whole (or ended by the server), the
// client closes. A PING every keepalive while it waits, as a browser keeps a connection with
// a request outstanding alive: QUIC's idle timer counts packets, not open streams, so a slow
// handler's silence would otherwise end the connection at the idle timeout (RFC 9000 10.1.2).
class LongGet final : public Stalled {
 public:
  LongGet(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r,
          std::string_view kind)
      : Stalled(e, std::move(o), i, r, kind) {}

 private:
  void on_ready() override {
    stalled_ = submit_get(options().long_path, Window::automatic);
    keep_alive(/*steps=*/false);
  }
};

// GET path, held, GET path again at recheck_at (a new stream), held, closed at release_at.
class HeldRecheck final : public QuicConnection {
 public:
  HeldRecheck(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : QuicConnection(e, std::move(o), i, r, kH3HeldRecheck) {}

 private:
  void on_ready() override { first_ = submit_get(options().path, Window::automatic); }

  void on_response_complete(std::int64_t stream) override {
    if (stream == first_) {
      at(options().recheck_at, [this] { second_ = submit_get(options().path, Window::automatic); });
    } else if (stream == second_) {
      at(options().release_at, [this] { close_by_client(); });
    }
  }

  std::int64_t first_ = -1;
  std::int64_t second_ = -1;
};

template <const std::string_view& Kind>
std::shared_ptr<QuicConnection> make_long(Executor executor,
                                          std::shared_ptr<const H3Options> options,
                                          std::size_t index, ConnectionRecord& record) {
  return std::make_shared<LongGet>(executor, std::move(options), index, record, Kind);
}

void require_long_path(const H3Options& options, std::string_view kind) {
  if (options.long_path.empty()) {
    throw std::invalid_argument(fmt::format("{} needs a slow response's path (long_path)", kind));
  }
}

}  // namespace

}  // namespace loiter::clients::h3

namespace loiter::clients {

void spawn_h3_idle(asio::io_context& io, const H3Options& options,
                   std::vector<ConnectionRecord>& out) {
  h3::spawn_h3_kind(io, options, &h3::make<h3::Idle>, out);
}

void spawn_h3_long_response(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out) {
  h3::require_long_path(options, kH3LongResponse);
  h3::spawn_h3_kind(io, options, &h3::make_long<kH3LongResponse>, out);
}

void spawn_h3_stream(asio::io_context& io, const H3Options& options,
                     std::vector<ConnectionRecord>& out) {
  h3::require_long_path(options, kH3Stream);
  h3::spawn_h3_kind(io, options, &h3::make_long<kH3Stream>, out);
}

void spawn_h3_held_recheck(asio::io_context& io, const H3Options& options,
                           std::vector<ConnectionRecord>& out) {
  h3::spawn_h3_kind(io, options, &h3::make<h3::HeldRecheck>, out);
}

}  // namespace loiter::clients
