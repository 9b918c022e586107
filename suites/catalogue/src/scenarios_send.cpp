// The send family: a reader that stops reading a response larger than the kernel's buffers
// stalls the server's writes; the server must cut it by its declared send deadline, and
// must not cut a reader whose pause is shorter than that deadline.
#include "loiter/clients/http1/reader_pause.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;

// reader-pause's receive buffer (SO_RCVBUF asked; the kernel doubles it). The window shuts
// within milliseconds of the pause whatever its size; 64 KiB lets a reader take the rest of
// a response as fast as it comes after its pause (with 4 KiB, 50 readers took ~7 s for 16
// MiB from nginx).
constexpr int kPauseReceiveBuffer = 64 * 1024;

// How long a reader may take for the rest of the response after its pause (or for what the
// server had queued before its FIN): readers end by themselves once it is whole or cut.
constexpr auto kReadAllowance = std::chrono::seconds(10);

// The declared send deadline; the long pause is twice it, the short one half.
Duration send_deadline(const Target& t) { return *t.promises.send_timeout; }
Duration long_pause(const Target& t) { return 2 * send_deadline(t); }
Duration short_pause(const Target& t) { return send_deadline(t) / 2; }

// Half the connections pause for twice the deadline (the rest for half of it).
std::size_t long_count(const ScenarioParameters& p) { return p.count - p.count / 2; }

Expectations expect_reader_pause(const Target& t, const Timing& timing,
                                 const ScenarioParameters& p) {
  const auto deadline = send_deadline(t);
  const auto allowance = std::chrono::duration_cast<Duration>(kReadAllowance * timing.scale);
  auto expected =
      recovery_only(long_pause(t) + timing.patience_for(deadline) + allowance, timing, p);
  expected.cut = CutExpectation{.kind = std::string(clients::kReaderPause),
                                .deadline = deadline,
                                .slack = timing.slack,
                                .from_pause = t.promises.send_timeout_resets_on_progress,
                                .pause = long_pause(t)};
  expected.kind_completions.push_back({.kind = std::string(clients::kReaderShortPause),
                                       .responses = 1,
                                       .status = 200,
                                       .outlives = short_pause(t)});
  expected.stall_bytes = stall_bytes(kPauseReceiveBuffer);
  return expected;
}

void drive_reader_pause(clients::asio::io_context& io, const DriveContext& c, DriveOutput& out) {
  auto options = options_for<clients::ReaderPauseOptions>(c);
  options.path = large_path(c.target, stall_bytes(kPauseReceiveBuffer));
  options.receive_buffer = kPauseReceiveBuffer;
  options.fleet.count = long_count(c.parameters);
  options.pause = long_pause(c.target);
  clients::spawn_reader_pause(io, options, out.fleet());
  options.fleet.count = c.parameters.count / 2;
  options.pause = short_pause(c.target);
  options.kind = clients::kReaderShortPause;
  options.fleet.source_offset = long_count(c.parameters);
  clients::spawn_reader_pause(io, options, out.fleet());
}

Scenario reader_pause() {
  return {.id = "reader-pause",
          .family = "send",
          .must =
              "cut a reader that stops reading for twice the send deadline, within it, and "
              "not one that stops for half of it",
          .unmet_need =
              [](const Target& t) {
                if (!t.promises.send_timeout) {
                  return Need("the target declares no send deadline (send_timeout)");
                }
                return need_path(t.paths.large, "large");
              },
          .expect = expect_reader_pause,
          .drive = drive_reader_pause};
}

}  // namespace

std::vector<Scenario> send_scenarios() { return {reader_pause()}; }

}  // namespace loiter::suites
