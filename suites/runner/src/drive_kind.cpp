// One kind driven: its fleet spawned on an io_context of its own, run in slices of 50 ms so
// that the user's Ctrl-C and the line a second are heard, the sockets closed as it goes.
#include "loiter/suites/runner/drive_kind.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "loiter/clients/kinds.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/session.hpp"

namespace loiter::suites {

namespace {

using std::chrono::steady_clock;

DriveKindInfo info_of(const clients::ClientKind& kind) {
  return {.name = kind.name,
          .paced = kind.paced,
          .pauses = kind.pauses,
          .has_path = kind.has_path,
          .handshakes = kind.needs_tls,
          .quic = kind.quic};
}

double seconds_since(steady_clock::time_point start) {
  return std::chrono::duration<double>(steady_clock::now() - start).count();
}

}  // namespace

std::vector<DriveKindInfo> drive_kinds() {
  std::vector<DriveKindInfo> kinds;
  for (const auto& kind : clients::client_kinds()) kinds.push_back(info_of(kind));
  return kinds;
}

std::optional<DriveKindInfo> drive_kind_info(std::string_view name) {
  const auto* kind = clients::find_client_kind(name);
  return kind ? std::optional(info_of(*kind)) : std::nullopt;
}

KindDriven drive_kind(const KindDrive& drive, const DriveTick& each_second) {
  const auto* kind = clients::find_client_kind(drive.kind);
  if (kind == nullptr) throw std::invalid_argument(fmt::format("no client kind {}", drive.kind));
  // The TCP states of the server's port, on any address.
  ServerSession session({.running = {.port = drive.server.port(), .pid = drive.pid}});
  const clients::FleetSpec fleet{
      .target = {clients::asio::ip::make_address(drive.server.address().to_string()),
                 drive.server.port()},
      .count = drive.count,
      .patience = drive.patience,
      .pacing = {.start = clients::Clock::now(), .per_second = drive.rate},
      .tls = drive.tls};
  KindDriven driven;
  session.begin_sampling();
  {
    clients::asio::io_context io(1);
    kind->spawn(io, fleet, {.interval = drive.interval, .pause = drive.pause, .path = drive.path},
                driven.records);
    const auto start = steady_clock::now();
    auto next_line = start + std::chrono::seconds(1);
    while (!io.stopped() && !interrupted()) {
      io.run_for(std::chrono::milliseconds(50));
      if (steady_clock::now() < next_line) continue;
      next_line += std::chrono::seconds(1);
      std::optional<std::size_t> fds;
      if (const auto so_far = session.samples_so_far(); !so_far.empty()) {
        fds = so_far.back().sample.fds;
      }
      each_second(driven.records, seconds_since(start), fds);
    }
    driven.seconds = seconds_since(start);
    io.stop();  // on interrupt: the sockets close as the io_context goes
  }
  driven.timeline = session.end_sampling();
  return driven;
}

}  // namespace loiter::suites
