// HTTP/3: a connection the server no longer answers ("gone") is what a server that forgot
// it shows, and also what a UDP socket whose receive queue overflowed shows (the datagrams
// that would have kept it, or answered a probe, never reached the server). Where the
// server's socket dropped datagrams during the scenario, or the machine's RcvbufErrors rose,
// the findings about such endings carry those counts, and their sentences say so.
#include "checks.hpp"
#include "loiter/suites/judge/udp_figures.hpp"

namespace loiter::suites::checks {

namespace {

// A finding about connections that ended gone: a probe found them forgotten, or their
// ending (its words: "gone (no answer to a probe at 2.504 s)") is gone.
bool about_gone(const Finding& f) {
  return f.code == codes::kProbeUnanswered ||
         f.ending.starts_with(clients::to_string(Ending::gone));
}

}  // namespace

void name_udp_drops(const Observation& o, Verdict& v) {
  const auto udp = udp_figures(o.timeline);
  if (!udp || (udp->drops == 0 && udp->rcvbuf_errors == 0)) return;
  for (auto& f : v.findings) {
    if (!about_gone(f)) continue;
    f.udp_drops = udp->drops;
    f.udp_rcvbuf_errors = udp->rcvbuf_errors;
  }
}

}  // namespace loiter::suites::checks
