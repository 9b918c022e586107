// The h3 floods' spawn functions (h3/floods.hpp) and their control client: a GET every
// interval on a connection of its own, each latency from its intended send time.
#include <map>
#include <stdexcept>

#include "h3/flood/transport_floods.hpp"
#include "kind_base.hpp"
#include "loiter/clients/h3/floods.hpp"

namespace loiter::clients {

namespace h3 {

namespace flood_kinds {

class Control final : public QuicConnection {
 public:
  Control(Executor executor, std::shared_ptr<const H3FloodOptions> flood, std::size_t index,
          ConnectionRecord& record)
      : QuicConnection(executor, std::shared_ptr<const H3Options>(flood, &flood->h3), index, record,
                       kH3Control),
        flood_(std::move(flood)) {}

 private:
  void on_ready() override {
    first_ = Clock::now();
    next_ = first_;
    request();
  }

  // Open loop: each GET at its own time, whether the ones before were answered or not.
  void request() {
    const auto now = Clock::now();
    while (next_ <= now && next_ < first_ + flood_->duration) {
      const std::int64_t id = submit_get(options().path, Window::automatic);
      if (ended()) return;
      // submit_get's stream open counts the request (QuicConnection::open_stream).
      if (id >= 0) intended_[id] = next_;
      next_ += flood_->interval;
    }
    if (next_ < first_ + flood_->duration) {
      at(next_, [this] { request(); });
    } else {
      done_sending_ = true;
      close_if_answered();
    }
  }

  void on_response_complete(std::int64_t stream) override {
    const auto it = intended_.find(stream);
    if (it == intended_.end()) return;
    h3().latencies.push_back(Clock::now() - it->second);
    intended_.erase(it);
    close_if_answered();
  }

  void on_stream_ended(std::int64_t stream) override {
    intended_.erase(stream);  // unanswered: the judge counts it from the record
    close_if_answered();
  }

  void close_if_answered() {
    if (done_sending_ && intended_.empty()) close_by_client();
  }

  std::shared_ptr<const H3FloodOptions> flood_;
  Clock::time_point first_{};
  Clock::time_point next_{};
  std::map<std::int64_t, Clock::time_point> intended_;
  bool done_sending_ = false;
};

void check(const H3FloodOptions& options) {
  if (options.batch == 0) throw std::invalid_argument("an h3 flood needs batch >= 1");
  if (options.interval <= Duration::zero()) {
    throw std::invalid_argument("an h3 flood's control needs an interval above 0");
  }
  if (options.h3.fleet.patience < options.h3.fleet.connect_timeout + options.duration) {
    throw std::invalid_argument(
        "an h3 flood's patience must cover its handshake (connect_timeout) and its duration");
  }
}

template <typename Kind>
void spawn(asio::io_context& io, const H3FloodOptions& options,
           std::vector<ConnectionRecord>& out) {
  check(options);
  auto shared = std::make_shared<const H3FloodOptions>(options);
  spawn_h3_connections(
      io, options.h3.fleet,
      [shared](Executor executor, std::size_t index, ConnectionRecord& record) {
        return std::make_shared<Kind>(executor, shared, index, record);
      },
      out);
}

}  // namespace flood_kinds

}  // namespace h3

using h3::flood_kinds::spawn;

void spawn_h3_rapid_reset(asio::io_context& io, const H3FloodOptions& options,
                          std::vector<ConnectionRecord>& out) {
  spawn<h3::RapidReset>(io, options, out);
}
void spawn_h3_connection_id_flood(asio::io_context& io, const H3FloodOptions& options,
                                  std::vector<ConnectionRecord>& out) {
  spawn<h3::ConnectionIdFlood>(io, options, out);
}
void spawn_h3_path_challenge_flood(asio::io_context& io, const H3FloodOptions& options,
                                   std::vector<ConnectionRecord>& out) {
  spawn<h3::PathChallengeFlood>(io, options, out);
}
void spawn_h3_qpack_bomb(asio::io_context& io, const H3FloodOptions& options,
                         std::vector<ConnectionRecord>& out) {
  spawn<h3::QpackBomb>(io, options, out);
}
void spawn_h3_qpack_blocked(asio::io_context& io, const H3FloodOptions& options,
                            std::vector<ConnectionRecord>& out) {
  spawn<h3::QpackBlocked>(io, options, out);
}
void spawn_h3_encoder_stream_flood(asio::io_context& io, const H3FloodOptions& options,
                                   std::vector<ConnectionRecord>& out) {
  spawn<h3::EncoderStreamFlood>(io, options, out);
}
void spawn_h3_out_of_order(asio::io_context& io, const H3FloodOptions& options,
                           std::vector<ConnectionRecord>& out) {
  spawn<h3::OutOfOrder>(io, options, out);
}
void spawn_h3_ping_flood(asio::io_context& io, const H3FloodOptions& options,
                         std::vector<ConnectionRecord>& out) {
  spawn<h3::PingFlood>(io, options, out);
}
void spawn_h3_control(asio::io_context& io, const H3FloodOptions& options,
                      std::vector<ConnectionRecord>& out) {
  spawn<h3::flood_kinds::Control>(io, options, out);
}

}  // namespace loiter::clients
