// The abort family: clients that give up mid-request, by RST or by FIN. The server must
// give every FD back (and, for FIN, not sit in CLOSE_WAIT).
#include "loiter/clients/http1/fin_close.hpp"
#include "loiter/clients/http1/rst_abort.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

using namespace kit;
using namespace std::chrono_literals;

constexpr auto kGiveUpAfter = 100ms;  // from connect: a partial head, then the abort

Need needs_nothing(const Target&) { return std::nullopt; }

Expectations expect_recovery(const Target&, const Timing& timing, const ScenarioParameters& p) {
  return recovery_only(timing.patience_for(kGiveUpAfter), timing, p);
}

Scenario rst_abort() {
  return {.id = "rst-abort",
          .family = "abort",
          .must = "give back every FD of connections the clients abort with RST mid-head",
          .unmet_need = needs_nothing,
          .expect = expect_recovery,
          .drive =
              [](clients::asio::io_context& io, const DriveContext& c,
                 DriveOutput& out) {
                auto options = options_for<clients::RstAbortOptions>(c);
                options.abort_after = kGiveUpAfter;
                clients::spawn_rst_abort(io, options, out.fleet());
              },
          .default_count = 200};
}

Scenario fin_close() {
  return {.id = "fin-close",
          .family = "abort",
          .must =
              "give back every FD of connections the clients close normally mid-head, and "
              "leave none of them in CLOSE_WAIT",
          .unmet_need = needs_nothing,
          .expect =
              [](const Target& t, const Timing& timing, const ScenarioParameters& p) {
                auto expected = expect_recovery(t, timing, p);
                expected.no_server_close_wait = true;
                return expected;
              },
          .drive = [](clients::asio::io_context& io, const DriveContext& c,
                      DriveOutput& out) {
            auto options = options_for<clients::FinCloseOptions>(c);
            options.close_after = kGiveUpAfter;
            clients::spawn_fin_close(io, options, out.fleet());
          }};
}

}  // namespace

std::vector<Scenario> abort_scenarios() { return {rst_abort(), fin_close()}; }

}  // namespace loiter::suites
