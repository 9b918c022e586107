// The h3 kinds that stall a stream or a connection (stalls.hpp): h3-headers-stall,
// h3-headers-trickle, h3-data-trickle, h3-zero-window, h3-window-trickle, h3-control-close; and
// Stalled, their keep-alive.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "kind_base.hpp"

namespace loiter::clients::h3 {

namespace {

// A pace of at least 1 ms: a zero keepalive or interval must not spin.
Duration pace(Duration d) { return std::max<Duration>(d, std::chrono::milliseconds(1)); }

constexpr std::size_t kMostPadding = 16 * 1024;

// h3-headers-trickle's filler: as given, else a byte for every interval of the patience.
std::size_t padding_for(const H3Options& o) {
  if (o.header_padding) return *o.header_padding;
  const auto steps = static_cast<std::size_t>(o.fleet.patience / pace(o.interval)) + 1;
  return std::min(steps, kMostPadding);
}

}  // namespace

void Stalled::keep_alive(bool steps) {
  const auto now = Clock::now();
  next_ping_ = now + pace(options().keepalive);
  if (steps) next_step_ = now + pace(options().interval);
  tick();
}

// One timer for both paces: runs whichever is due, then waits for the earlier of the next
// two. Bounded by the connection's patience (actions stop once it has ended).
void Stalled::tick() {
  const auto now = Clock::now();
  if (now >= next_ping_) {
    ping(/*probe=*/false);
    next_ping_ += pace(options().keepalive);
    if (next_ping_ <= now) next_ping_ = now + pace(options().keepalive);  // behind: no burst
  }
  if (ended()) return;
  if (next_step_ && now >= *next_step_) {
    step();
    *next_step_ += pace(options().interval);
    if (*next_step_ <= now) next_step_ = now + pace(options().interval);
  }
  if (ended()) return;
  const auto next = next_step_ ? std::min(next_ping_, *next_step_) : next_ping_;
  at(next, [this] { tick(); });
}

void Stalled::on_response_complete(std::int64_t stream) {
  if (stream == stalled_) close_by_client();
}

void Stalled::on_stream_ended(std::int64_t stream) {
  if (stream == stalled_) close_by_client();
}

namespace {

// A request whose HEADERS frame stops halfway: the frame's type and full length, then half
// of its field section, on a stream nghttp3 does not own (written through ngtcp2 directly).
class HeadersStall final : public Stalled {
 public:
  HeadersStall(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : Stalled(e, std::move(o), i, r, kH3HeadersStall) {}

 private:
  void on_ready() override {
    const std::string section = qpack_get_section(options().authority, options().path);
    std::string bytes = frame_header(0x01, section.size());
    bytes.append(section, 0, section.size() / 2);
    stalled_ = open_raw_stream(std::move(bytes));
    keep_alive(/*steps=*/false);
  }
};

// A request whose HEADERS frame trickles: the frame's type and full length first, then one
// byte of its field section every interval, never the last (the server never has it whole).
class HeadersTrickle final : public Stalled {
 public:
  HeadersTrickle(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : Stalled(e, std::move(o), i, r, kH3HeadersTrickle) {}

 private:
  void on_ready() override {
    const std::string section =
        qpack_get_section(options().authority, options().path, padding_for(options()));
    std::string bytes = frame_header(0x01, section.size());
    const std::size_t head = bytes.size();
    bytes += section;
    last_ = bytes.size() - 1;  // never released
    released_ = head;
    stalled_ = open_raw_stream(std::move(bytes), head);
    keep_alive(/*steps=*/true);
  }
  void step() override {
    if (stalled_ < 0 || released_ >= last_) return;
    ++released_;
    release_raw_byte(stalled_);
  }
  std::size_t released_ = 0, last_ = 0;
};

// A POST declaring body_bytes whose DATA comes a byte every interval, never the last.
class DataTrickle final : public Stalled {
 public:
  DataTrickle(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : Stalled(e, std::move(o), i, r, kH3DataTrickle) {}

 private:
  void on_ready() override {
    stalled_ = submit_trickle_post(options().echo_path, options().body_bytes);
    keep_alive(/*steps=*/true);
  }
  void step() override {
    if (++released_ < options().body_bytes) release_byte();  // never the last byte
  }
  std::size_t released_ = 0;
};

// GET large_path with the stream's window the transport parameters gave, never extended.
class ZeroWindow final : public Stalled {
 public:
  ZeroWindow(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : Stalled(e, std::move(o), i, r, kH3ZeroWindow, Window::held) {}

 private:
  void on_ready() override {
    stalled_ = submit_get(options().large_path, Window::held);
    keep_alive(/*steps=*/false);
  }
};

// The must-not-cut twin: the window opened window_increment bytes every interval until the
// response is whole (then the client closes).
class WindowTrickle final : public Stalled {
 public:
  WindowTrickle(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : Stalled(e, std::move(o), i, r, kH3WindowTrickle, Window::held) {}

 private:
  void on_ready() override {
    stalled_ = submit_get(options().large_path, Window::held);
    keep_alive(/*steps=*/true);
  }
  void step() override {
    if (stalled_ >= 0) extend_window(stalled_, options().window_increment);
  }
};

// SETTINGS on the control stream, then a FIN on it: the server must close the connection
// with H3_CLOSED_CRITICAL_STREAM. The FIN waits a moment so the SETTINGS go first in their
// own packet (nghttp3 writes them with the first write after the handshake).
class ControlClose final : public QuicConnection {
 public:
  ControlClose(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : QuicConnection(e, std::move(o), i, r, kH3ControlClose) {}

 private:
  void on_ready() override {
    at(Clock::now() + std::chrono::milliseconds(20), [this] { finish_control_stream(); });
  }
};

void require_path(const std::string& path, std::string_view kind, std::string_view what) {
  if (path.empty()) {
    throw std::invalid_argument(fmt::format("{} needs {}", kind, what));
  }
}

}  // namespace

}  // namespace loiter::clients::h3

namespace loiter::clients {

void spawn_h3_headers_stall(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out) {
  h3::require_path(options.path, kH3HeadersStall, "a path (path)");
  h3::spawn_h3_kind(io, options, &h3::make<h3::HeadersStall>, out);
}

void spawn_h3_headers_trickle(asio::io_context& io, const H3Options& options,
                              std::vector<ConnectionRecord>& out) {
  h3::require_path(options.path, kH3HeadersTrickle, "a path (path)");
  h3::spawn_h3_kind(io, options, &h3::make<h3::HeadersTrickle>, out);
}

void spawn_h3_data_trickle(asio::io_context& io, const H3Options& options,
                           std::vector<ConnectionRecord>& out) {
  h3::require_path(options.echo_path, kH3DataTrickle, "an echo path (echo_path)");
  h3::spawn_h3_kind(io, options, &h3::make<h3::DataTrickle>, out);
}

void spawn_h3_zero_window(asio::io_context& io, const H3Options& options,
                          std::vector<ConnectionRecord>& out) {
  h3::require_path(options.large_path, kH3ZeroWindow, "a large response's path (large_path)");
  h3::spawn_h3_kind(io, options, &h3::make<h3::ZeroWindow>, out);
}

void spawn_h3_window_trickle(asio::io_context& io, const H3Options& options,
                             std::vector<ConnectionRecord>& out) {
  h3::require_path(options.large_path, kH3WindowTrickle, "a large response's path (large_path)");
  h3::spawn_h3_kind(io, options, &h3::make<h3::WindowTrickle>, out);
}

void spawn_h3_control_close(asio::io_context& io, const H3Options& options,
                            std::vector<ConnectionRecord>& out) {
  h3::spawn_h3_kind(io, options, &h3::make<h3::ControlClose>, out);
}

}  // namespace loiter::clients
