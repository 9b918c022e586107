// h3_get: one GET on a connection of its own, for readiness checks and the benchmark.
#include <fmt/format.h>

#include "kind_base.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"

namespace loiter::clients {

namespace {

class GetOnce final : public h3::Stalled {
 public:
  GetOnce(Executor e, std::shared_ptr<const H3Options> o, std::size_t i, ConnectionRecord& r)
      : Stalled(e, std::move(o), i, r, "h3-get") {}

 private:
  void on_ready() override { stalled_ = submit_get(options().path, h3::Window::automatic); }
};

}  // namespace

std::optional<unsigned> h3_get(const H3Options& options, Duration timeout, std::string* error) {
  auto shared = std::make_shared<H3Options>(options);
  FleetSpec& fleet = shared->fleet;
  fleet.count = 1;
  fleet.share = {};
  fleet.patience = timeout;
  fleet.connect_timeout = std::min(timeout, fleet.connect_timeout);
  require_spawnable(fleet);
  asio::io_context io;
  ConnectionRecord record;
  std::make_shared<GetOnce>(io.get_executor(), shared, 0, record)->start();
  io.run();  // bounded: the connection ends by its patience (timeout) at the latest
  const Response* answer = record.responses.empty() ? nullptr : &record.responses.front();
  if (answer != nullptr && answer->complete && answer->status != 0) return answer->status;
  if (error != nullptr) {
    if (record.ending == Ending::connect_failed) {
      *error = fmt::format("connect failed: {}", record.error);
    } else if (record.ending == Ending::open) {
      *error = fmt::format("no whole response within {} ms",
                           std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count());
    } else {
      *error =
          fmt::format("connection ended ({}) before a whole response{}", to_string(record.ending),
                      record.error.empty() ? "" : ": " + record.error);
    }
  }
  return std::nullopt;
}

}  // namespace loiter::clients
