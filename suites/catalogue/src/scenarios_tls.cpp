// The tls family: handshakes that never complete — a ClientHello cut after its record
// header, cut in half, or trickled a byte at a time — and one that completes and is followed
// by nothing. The stalled handshakes are judged at the handshake deadline from connect, or at
// the header deadline where it runs from connect (kit::stall_deadline); the silent one at
// the header deadline, from connect or from the handshake's completion. Skipped unless the
// target speaks TLS ([tls]).
#include <algorithm>

#include "loiter/clients/tls/tls_stall.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;

// No HTTP can answer a handshake: the server closes, or sends an alert and closes.
const Endings kHandshakeEndings = {ends::closed, ends::alert};

Need needs_stall_at(const Target& target, Stall stall) {
  if (auto need = need_tls(target)) return need;
  return stall_deadline(target, stall).unmet;
}

Need needs_handshake_stall(const Target& target) {
  return needs_stall_at(target, Stall::in_handshake);
}

Expectations expect_handshake_stall(const Target& target, const Timing& timing,
                                    const ScenarioParameters& parameters) {
  return stall_closure(target, Stall::in_handshake, kHandshakeEndings, timing, parameters);
}

// The raw kinds' options: the hello made with the ALPN and SNI the target's clients offer.
clients::TlsStallOptions stall_options(const DriveContext& c) {
  auto options = options_for<clients::TlsStallOptions>(c);
  options.hello_settings = {.alpn = c.target.tls->alpn, .server_name = c.target.tls->server_name};
  return options;
}

using TlsSpawn = void (*)(clients::asio::io_context&, const clients::TlsStallOptions&,
                          std::vector<clients::ConnectionRecord>&);

Scenario hello_cut(std::string_view id, std::string_view must, TlsSpawn spawn) {
  return {.id = id,
          .family = "tls",
          .must = must,
          .unmet_need = needs_handshake_stall,
          .expect = expect_handshake_stall,
          .drive = [spawn](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
            spawn(io, stall_options(c), out.fleet());
          }};
}

Scenario tls_hello_trickle() {
  return {.id = "tls-hello-trickle",
          .family = "tls",
          .must =
              "close a ClientHello trickled a byte at a time at the handshake deadline from "
              "connect: progress must not extend it",
          .unmet_need = needs_handshake_stall,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                auto expected = expect_handshake_stall(t, timing, p);
                // A byte sent just before the close is unread then: the kernel resets.
                expected.closure->endings.push_back(ends::reset);
                expected.closure->progress = "hello byte";
                return expected;
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                auto options = stall_options(c);
                // About five bytes per deadline: progress well inside it, every time.
                const auto deadline = stall_deadline(c.target, Stall::in_handshake).deadline;
                options.interval = std::max<Duration>(deadline / 5, std::chrono::milliseconds(50));
                clients::spawn_tls_hello_trickle(io, options, out.fleet());
              }};
}

Scenario tls_handshake_silent() {
  return {.id = "tls-handshake-silent",
          .family = "tls",
          .must =
              "close a connection that completes its TLS handshake and then sends nothing, "
              "within its header deadline (from connect or from the handshake, as declared)",
          .unmet_need = [](const Target& t) { return needs_stall_at(t, Stall::in_head); },
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                // Nothing was asked, so a plain close is as good as a 408 here.
                return stall_closure(t, Stall::in_head,
                                     {ends::closed, ends::with_status(408, Ending::close)}, timing,
                                     p);
              },
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
                // The fleet carries the target's TLS: the handshake is the transport's.
                spawn_named(clients::kTlsHandshakeSilent, io, c, {}, out);
              }};
}

}  // namespace

std::vector<Scenario> tls_scenarios() {
  return {hello_cut("tls-record-header",
                    "close a connection whose ClientHello stops after its 5-byte record header, "
                    "at the handshake deadline from connect",
                    clients::spawn_tls_record_header),
          hello_cut("tls-half-hello",
                    "close a connection whose ClientHello stops halfway, at the handshake "
                    "deadline from connect",
                    clients::spawn_tls_half_hello),
          tls_hello_trickle(), tls_handshake_silent()};
}

}  // namespace loiter::suites
