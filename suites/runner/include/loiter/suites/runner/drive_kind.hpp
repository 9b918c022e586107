// `loiter drive`'s procedure: one client kind of the clients' registry (clients/kinds.hpp),
// by name, against a server that runs, in a session that samples the server when its PID is
// given; the kinds' names and what each takes, for the command line to check and list. Plain
// data: no Asio in this header.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/clients/transport/tls.hpp"
#include "loiter/fixtures/probe/endpoint.hpp"
#include "loiter/fixtures/probe/sample.hpp"

namespace loiter::suites {

// A kind by name, and which of the drive's settings it takes.
struct DriveKindInfo {
  std::string_view name;
  bool paced = false;       // an interval between its sends (or reads)
  bool pauses = false;      // a pause, once
  bool has_path = false;    // requests a path
  bool handshakes = false;  // completes a TLS handshake: needs TLS
  bool quic = false;        // HTTP/3 over QUIC on UDP, with its own TLS 1.3
};

// Every kind `drive` can run, in the registry's order.
std::vector<DriveKindInfo> drive_kinds();
// The kind called `name`, or nullopt.
std::optional<DriveKindInfo> drive_kind_info(std::string_view name);

struct KindDrive {
  std::string kind;              // a name drive_kinds() lists
  fixtures::TcpEndpoint server;  // loopback (the caller has refused anything else)
  std::optional<pid_t> pid;      // the server's: sampled; nullopt: its side not read
  std::size_t count = 100;
  double rate = 200.0;  // connections opened per second
  clients::Duration patience = std::chrono::seconds(30);
  std::optional<clients::Duration> interval;  // paced kinds; nullopt: the kind's own
  std::optional<clients::Duration> pause;     // pausing kinds; nullopt: the kind's own
  // Kinds that request a path; "{bytes}" becomes a size the kernel's buffers cannot hold.
  // Empty: the kind's own.
  std::string path;
  clients::TlsClient tls;  // null: cleartext
};

// Told about once a second while the clients run: their records so far, the seconds since
// the start, the server's FDs at the last sample (nullopt: not sampled).
using DriveTick = std::function<void(const std::vector<clients::ConnectionRecord>&, double,
                                     std::optional<std::size_t>)>;

struct KindDriven {
  std::vector<clients::ConnectionRecord> records;
  std::vector<fixtures::TimedSample> timeline;  // empty without a PID
  double seconds = 0;                           // from the start to the end (or Ctrl-C)
};

// Runs the clients until they are all done or the user interrupts (interrupted()). Throws
// std::invalid_argument for a kind of no such name.
KindDriven drive_kind(const KindDrive& drive, const DriveTick& each_second);

}  // namespace loiter::suites
