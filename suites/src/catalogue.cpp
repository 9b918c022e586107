// The scenario catalogue (DESIGN.md, "Scenario catalogue").
#include "loiter/clients/silent.hpp"
#include "loiter/suites/scenario.hpp"

namespace loiter::suites {

namespace {

// silent: connects, sends nothing. The server must close it within its header deadline
// (from connect), by a plain close or a 408, and give its FD back.
Scenario silent() {
  return {
      .id = "silent",
      .family = "header",
      .must = "close a connection that sends nothing within its header deadline",
      .unmet_need = [](const fixtures::Target& target) -> std::optional<std::string> {
        if (target.deadlines.header) return std::nullopt;
        return "the target declares no header deadline";
      },
      .expect =
          [](const fixtures::Target& target, const Timing& timing,
             const ScenarioParameters& parameters) {
            const auto deadline = *target.deadlines.header;
            return Expectations{.connections = parameters.count,
                                .closure = {.deadline = deadline,
                                            .slack = timing.slack,
                                            .patience = timing.patience_for(deadline),
                                            .endings = {"close", "408+close"}},
                                .fds_after = 0,
                                .recovery = timing.recovery};
          },
      .drive =
          [](clients::asio::io_context& io, const clients::tcp::endpoint& server,
             const Expectations& expected, const Timing& timing,
             std::vector<clients::ConnectionRecord>& out) {
            clients::spawn_silent(io,
                                  {.target = server,
                                   .count = expected.connections,
                                   .patience = expected.closure.patience,
                                   .connect_timeout = timing.connect,
                                   .pacing = {}},
                                  out);
          },
  };
}

}  // namespace

const std::vector<Scenario>& catalogue() {
  static const std::vector<Scenario> scenarios{silent()};
  return scenarios;
}

std::vector<std::string> catalogue_ids() {
  std::vector<std::string> ids;
  for (const auto& scenario : catalogue()) ids.emplace_back(scenario.id);
  return ids;
}

const Scenario* find_scenario(std::string_view id) {
  for (const auto& scenario : catalogue()) {
    if (scenario.id == id) return &scenario;
  }
  return nullptr;
}

}  // namespace loiter::suites
