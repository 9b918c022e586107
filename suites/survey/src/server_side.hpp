// The server's side of the probes' connections, from the kernel (sock_diag): when each one
// left ESTABLISHED (the server closed it, even where its FIN waits behind bytes a stopped
// reader never takes) and which ones the listener kept in SYN_RECV (deferred accept: the
// server's process never saw them). Looked at every poll; each look is one netlink dump of
// the server's port.
#pragma once

#include <map>
#include <set>
#include <string>

#include "loiter/clients/record.hpp"
#include "loiter/fixtures/probe/sock_diag.hpp"
#include "read_probe.hpp"

namespace loiter::suites::survey {

class ServerSide {
 public:
  explicit ServerSide(const fixtures::TcpEndpoint& server) : probe_(server) {}

  // One look; false when the kernel could not be asked (the watch then says nothing).
  bool look();

  // The closes seen, timed from each record's own connect (records the watch saw).
  ServerCloses closes(const std::vector<clients::ConnectionRecord>& records) const;
  bool closed(const std::string& source) const { return closed_.contains(source); }
  // How many of `records` the listener held in SYN_RECV when last seen.
  std::size_t held_in_syn_recv(const std::vector<clients::ConnectionRecord>& records) const;
  bool blind() const { return blind_; }  // no look has succeeded

 private:
  struct Closed {
    clients::Clock::time_point at;
    reports::SurveyEnding ending;
  };
  fixtures::TcpProbe probe_;
  std::map<std::string, fixtures::TcpState> open_;  // established, by the client's endpoint
  std::map<std::string, Closed> closed_;
  std::set<std::string> syn_recv_;
  bool blind_ = true;
};

}  // namespace loiter::suites::survey
