// What several h3 kinds share: building one for the fleet, and a stalled stream kept alive
// with PINGs while a kind's own step (a byte, a window) runs on its interval.
#pragma once

#include <memory>
#include <optional>

#include "quic_connection.hpp"

namespace loiter::clients::h3 {

template <typename Kind>
std::shared_ptr<QuicConnection> make(Executor executor, std::shared_ptr<const H3Options> options,
                                     std::size_t index, ConnectionRecord& record) {
  return std::make_shared<Kind>(executor, std::move(options), index, record);
}

// A kind that holds one request stream (stalled_): a PING every keepalive, step() every
// interval when it has one; once the server ended that stream (reset, stop-sending, or a
// whole response such as a 408), the client closes the connection itself.
class Stalled : public QuicConnection {
 public:
  using QuicConnection::QuicConnection;

 protected:
  // Starts the PINGs (and the steps, when `steps`) from now.
  void keep_alive(bool steps);
  virtual void step() {}
  void on_response_complete(std::int64_t stream) override;
  void on_stream_ended(std::int64_t stream) override;

  std::int64_t stalled_ = -1;

 private:
  void tick();

  Clock::time_point next_ping_{};
  std::optional<Clock::time_point> next_step_;
};

}  // namespace loiter::clients::h3
