// Explanations beside the verdict. When clients give up on connections the server never
// closed (ending `open`), what the kernel showed for each of those 4-tuples on both ends
// just before they gave up: one snapshot of the port's sockets, taken once the clients'
// patience is about to run out, each `open` tuple explained (fixtures::explain_tuple) and
// the explanations counted. And when FDs came back only after the recovery window, how late.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/reports/finding.hpp"
#include "loiter/suites/judge/observation.hpp"

namespace loiter::suites {

class OpenWatch {
 public:
  // Takes its snapshot at `due` (when the probe watches the port; otherwise never).
  OpenWatch(const fixtures::Probe& probe, clients::Clock::time_point due)
      : probe_(&probe), due_(due) {}
  // Watches nothing: no probe of the server (loiter check --connect without --pid).
  OpenWatch() = default;

  // Called from the clients' loop: takes the snapshot once, when due. Never throws.
  void poll();

  // One kernel-view finding per distinct explanation ("kernel 0.4 s before the clients gave
  // up: 100/100 connections server ESTABLISHED / client ESTABLISHED: open on both ends:
  // ..."), the most frequent first; none when no connection ended `open` or no snapshot was
  // taken. The caller sets their scenario.
  std::vector<reports::Finding> findings(const std::vector<clients::ConnectionRecord>& records,
                                         const fixtures::TcpEndpoint& server,
                                         Duration patience) const;

 private:
  const fixtures::Probe* probe_ = nullptr;
  clients::Clock::time_point due_ = clients::Clock::time_point::max();
  std::optional<fixtures::TcpSnapshot> snapshot_;
  clients::Clock::time_point taken_{};
};

// When the clients' snapshot is due: shortly before the first client's patience runs out
// (a quarter of it, at most 0.5 s, before).
clients::Clock::time_point snapshot_due(clients::Clock::time_point start, Duration patience);

// fds-back-late ("FDs came back 3.2 s after the clients ended: 1.2 s later than the 2.0 s
// allowed"), or fds-still-held ("FDs still not back 12.0 s after the clients ended (15 above
// baseline)"). The caller sets its scenario.
reports::Finding late_fds_finding(const FdObservation& fds, Duration allowed, Duration looked);

}  // namespace loiter::suites
