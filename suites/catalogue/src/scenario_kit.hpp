// What scenario definitions share: needs checks, expectation builders, and the options
// every client kind takes. Private to the catalogue.
#pragma once

#include <optional>
#include <string>

#include "loiter/clients/http1/kind.hpp"
#include "loiter/clients/kinds.hpp"
#include "loiter/clients/load/load.hpp"
#include "loiter/clients/transport/fleet_spec.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/drive_context.hpp"
#include "loiter/suites/catalogue/scenario.hpp"

namespace loiter::suites::kit {

using clients::tcp;
using fixtures::Target;
using Need = std::optional<std::string>;
using clients::Ending;
namespace ends = clients::ends;
using Endings = std::vector<clients::EndingLabel>;  // the endings a closure allows

// The reason to skip when a deadline or promise is not declared; nullopt when it is.
Need need_deadline(const std::optional<Duration>& deadline, std::string_view name);
Need need_path(const std::optional<std::string>& path, std::string_view name);
Need need_promise(const std::optional<fixtures::OnTimeout>& promise, std::string_view name);
// The first unmet need of several.
Need first_unmet(std::initializer_list<Need> needs);

// The HTTP/1.1 families run only on a target that speaks HTTP/1.1: the reason to skip one
// that speaks HTTP/2 ([h2]: h2c, or h2 over TLS). The h2 family needs [h2] (need_h2).
Need need_http1(const Target& target);
Need need_h2(const Target& target);
// The h3 family needs [h3]; every other family is skipped on an [h3] target (need_not_h3).
Need need_h3(const Target& target);
Need need_not_h3(const Target& target);
Need need_tls(const Target& target);

// The endings a declared promise allows: 408+close for 408; for a plain close, close or
// 408+close (a 408 before the close, as RFC 9110 recommends, keeps the promise).
Endings endings_for(fixtures::OnTimeout promise);

// For a trickling client: a byte the client sent just before the server's close is unread
// when the server closes, so the kernel sends RST instead of FIN (and an RST discards a 408
// the client had not read yet). A reset inside the window is the same close, seen so.
Endings endings_for_trickle(fixtures::OnTimeout promise);

// Adds the trickle endings to expectations built by closure().
Expectations allow_trickle_races(Expectations expected, fixtures::OnTimeout promise);

// Where a connection stalls: before its TLS handshake completes (a handshake stall; silent,
// which over TLS sends no hello), or in its request head, after any handshake.
enum class Stall { in_handshake, in_head };

// The deadline that must end a connection stalled at `stall`, and where it runs from.
struct StallDeadline {
  Since since = Since::connect;
  Duration deadline{};
  std::string name;  // "handshake" or "header" over TLS; empty on cleartext (as ever)
  Need unmet;        // why no declared deadline applies: the reason to skip; then no deadline
};

// The one choice of a head-or-handshake deadline. Cleartext: the header deadline from
// connect, at either stall. Over TLS, a stall in the handshake: the handshake deadline from
// connect if declared, else the header deadline when it runs from connect (one deadline
// covers handshake and head), else none (a header deadline from the handshake's end never
// starts); a stall in the head: the header deadline, from connect or from the handshake's
// completion (Since::handshake) as [tls] header_from says.
StallDeadline stall_deadline(const Target& target, Stall stall);

// A closure at `stall`'s deadline (stall_deadline() must have one), named over TLS.
Expectations stall_closure(const Target& target, Stall stall, Endings endings, const Timing& timing,
                           const ScenarioParameters& parameters);

// The endings allowed to a connection that sent nothing: a plain close, or a 408 though
// nothing was asked; over TLS, where it sent no hello, a close or an alert (no HTTP yet).
Endings endings_for_silent(const Target& target);

// The server must close each connection `deadline` after `since`.
Expectations closure(Since since, Duration deadline, Endings endings, const Timing& timing,
                     const ScenarioParameters& parameters);

// The server must not cut the exchange: `responses` whole 200s, outliving `outlives`.
Expectations completion(std::size_t responses, Duration outlives, Duration patience,
                        const Timing& timing, const ScenarioParameters& parameters);

// Only FDs matter: every one given back after the clients end the connections themselves.
Expectations recovery_only(Duration patience, const Timing& timing,
                           const ScenarioParameters& parameters);

// A latency bound is a real-time constant too: a slow machine widens it by the time scale.
std::optional<Duration> scaled_bound(const std::optional<Duration>& bound, const Timing& timing);

// The longest request-wait deadline the target declares (header, idle): what a legitimate
// long exchange must outlive.
Duration request_wait(const Target& target);

// The response size that stalls the server's send path for a client asking for
// `receive_buffer` bytes of SO_RCVBUF (clients/transport/buffers.hpp), and the target's
// large path asked with it: {bytes} filled in, or the path as it is.
std::size_t stall_bytes(int receive_buffer);
std::string large_path(const Target& target, std::size_t bytes);

// The regular traffic a load scenario runs: the target's health path at the asked rate,
// for the asked duration, over the asked pool (over TLS when the target speaks it), its
// timeline from `start`, its sources from `source_offset` (clients::source_for).
clients::LoadOptions regular_traffic(const DriveContext& context, clients::Clock::time_point start,
                                     std::size_t source_offset);

// The io_context a scenario's regular traffic runs on: the runner's own one for it
// (DriveContext::load_io), else the clients' `io`.
inline clients::asio::io_context& load_io(clients::asio::io_context& io,
                                          const DriveContext& context) {
  return context.load_io != nullptr ? *context.load_io : io;
}

// The fleet a scenario's clients are: the expected connections against the server, on the
// scenario's timeline, this process's share of them, from its sources.
clients::FleetSpec fleet_for(const DriveContext& context);

// Spawns the client kind called `name` (clients/kinds.hpp) on `io`: its own defaults, the
// scenario's fleet and `settings`, into a new fleet of `out`. Throws std::logic_error for a
// name no kind has.
void spawn_named(std::string_view name, clients::asio::io_context& io, const DriveContext& context,
                 const clients::KindSettings& settings, DriveOutput& out);

// A kind's options with its own defaults and the scenario's fleet.
template <typename Options>
Options options_for(const DriveContext& context) {
  Options options;
  options.fleet = fleet_for(context);
  return options;
}

}  // namespace loiter::suites::kit
