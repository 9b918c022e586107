// The one lifecycle every procedure of loiter runs in: check's scenarios, the survey, the
// ladder's trials, `observe` and `drive`. A session has a server: one it starts from a target
// (spawned, waited on until ready, the user's Ctrl-C giving the start up) or one that already
// runs (its address, and its PID when the user gave it); it reads the server's side through
// one probe, samples it on its own thread while a procedure runs, and at its end stops the
// server it started and says how that ended and what of it was left running. What a
// procedure does with the server between those is the procedure's; what it gets back is
// plain data.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loiter/fixtures/os/process.hpp"
#include "loiter/fixtures/probe/endpoint.hpp"
#include "loiter/fixtures/probe/probe.hpp"
#include "loiter/fixtures/provenance.hpp"
#include "loiter/fixtures/server_under_test.hpp"
#include "loiter/fixtures/target/target.hpp"

namespace loiter::fixtures {
class Sampler;
}

namespace loiter::suites {

// A server that already runs: where it listens (nullopt: nowhere known, as `observe --pid`
// without --port), the port whose TCP states to count when no address is known, and its PID
// (nullopt: its side is not read).
struct RunningSide {
  std::optional<fixtures::TcpEndpoint> endpoint;
  std::optional<unsigned short> port;
  std::optional<pid_t> pid;
  // An HTTP/3 server's UDP port, whose sockets of the server's the probe reads too.
  std::optional<unsigned short> udp_port;
};

struct SessionPlan {
  // The server loiter starts, and how; when empty, `running` is the server. A StartOptions
  // without `cancelled` is given up on the user's Ctrl-C (interrupted()).
  std::optional<fixtures::Target> start;
  fixtures::StartOptions start_options;
  RunningSide running;
  bool fd_types = false;  // the probe also counts descriptors by type
};

// How the session's server ended, once stopped: nothing for one loiter did not start.
struct SessionStop {
  std::string how;  // "exited with status 0", ...
  std::vector<fixtures::Leftover> leftovers;
};

class ServerSession {
 public:
  // Starts the plan's server and waits until it is ready, or takes the running one. Throws
  // fixtures::StartError as the server's start does (StartProblem::cancelled on Ctrl-C).
  explicit ServerSession(SessionPlan plan);
  ~ServerSession();  // samples no more; stops a server it started
  ServerSession(const ServerSession&) = delete;
  ServerSession& operator=(const ServerSession&) = delete;

  bool started() const { return sut_ != nullptr; }
  // The server loiter started (nullptr for a running one): its target as rendered, its logs.
  const fixtures::ServerUnderTest* server() const { return sut_.get(); }
  std::optional<fixtures::TcpEndpoint> endpoint() const;
  std::optional<pid_t> pid() const;
  // Its processes and TCP states; nullptr when its side is not read (no PID).
  const fixtures::Probe* probe() const { return probe_ ? &*probe_ : nullptr; }
  // Its provenance (command, binary, limits): a started server's own; a running one's from
  // its PID, described by `target`.
  fixtures::Provenance provenance(const fixtures::Target& target) const;
  // nullopt while it runs; how it ended once it has (for a running server: its PID gone).
  std::optional<std::string> exit_description() const;

  // Samples the server every `period` until end_sampling(); nothing without a probe.
  void begin_sampling(std::chrono::milliseconds period = std::chrono::milliseconds(100),
                      std::chrono::milliseconds tcp_period = std::chrono::milliseconds(0));
  // The samples so far while sampling goes on (the sampler's thread is not stopped).
  std::vector<fixtures::TimedSample> samples_so_far() const;
  // Stops sampling (one last sample) and returns the timeline; empty when nothing sampled.
  // Throws the harness error that ended the sampling, if one did.
  std::vector<fixtures::TimedSample> end_sampling();

  // Stops the server it started (nullopt for a running one); once.
  std::optional<SessionStop> stop();

 private:
  std::unique_ptr<fixtures::ServerUnderTest> sut_;
  RunningSide running_;
  std::optional<fixtures::Probe> probe_;
  std::unique_ptr<fixtures::Sampler> sampler_;  // last: stopped before the rest goes
};

// The peaks of a timeline: the most FDs and RSS (MiB) any sample saw.
struct TimelinePeaks {
  std::size_t fds = 0;
  double rss_mib = 0;
};
TimelinePeaks peaks_of(const std::vector<fixtures::TimedSample>& timeline);

}  // namespace loiter::suites
