#include "scenario_kit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "loiter/clients/transport/buffers.hpp"
#include "loiter/suites/catalogue/target_clients.hpp"

namespace loiter::suites::kit {

clients::LoadOptions regular_traffic(const DriveContext& context, clients::Clock::time_point start,
                                     std::size_t source_offset) {
  const auto& p = context.parameters;
  // A shard (loiter check --shard k/K) takes its share of the schedule and of the pool.
  const auto share = context.share;
  clients::LoadOptions options{.server = context.server,
          .rate = p.load_rate,
          .duration = p.load_duration,
          .connections = std::max<std::size_t>(1, share.of(p.load_connections)),
          .path = *context.target.paths.health,
          .start = start,
          .source_offset = source_offset,
          .source_block = context.source_block,
          .allowed_remote = context.allowed_remote,
          .tls = context.tls,
          .share = share};
  speak_to(context.target, options);
  return options;
}

clients::FleetSpec fleet_for(const DriveContext& context) {
  clients::FleetSpec fleet{.target = context.server,
                           .count = context.expected.connections,
                           .patience = context.expected.patience,
                           .connect_timeout = context.timing.connect,
                           .source_block = context.source_block,
                           .share = context.share,
                           .allowed_remote = context.allowed_remote,
                           .tls = context.tls};
  fleet.pacing.start = context.start;  // one timeline, in however many client processes
  return fleet;
}

void spawn_named(std::string_view name, clients::asio::io_context& io, const DriveContext& context,
                 const clients::KindSettings& settings, DriveOutput& out) {
  const auto* kind = clients::find_client_kind(name);
  if (kind == nullptr) throw std::logic_error(fmt::format("no client kind is called {}", name));
  kind->spawn(io, fleet_for(context), settings, out.fleet());
}

Need need_deadline(const std::optional<Duration>& deadline, std::string_view name) {
  if (deadline) return std::nullopt;
  return fmt::format("the target declares no {} deadline", name);
}

Need need_path(const std::optional<std::string>& path, std::string_view name) {
  if (path) return std::nullopt;
  return fmt::format("the target offers no {} path", name);
}

Need need_promise(const std::optional<fixtures::OnTimeout>& promise, std::string_view name) {
  if (promise) return std::nullopt;
  return fmt::format("the target does not declare what it does on a {} timeout (408 or close)",
                     name);
}

Need need_http1(const Target& target) {
  if (auto need = need_not_h3(target)) return need;
  if (!target.h2) return std::nullopt;
  return fmt::format("the target speaks HTTP/2 ({})", target.tls ? "h2 over TLS" : "h2c");
}

Need need_h2(const Target& target) {
  if (target.h2) return std::nullopt;
  return std::string("the target does not speak HTTP/2 (no [h2] in its target file)");
}

Need need_h3(const Target& target) {
  if (target.h3) return std::nullopt;
  return std::string("the target does not speak HTTP/3 (no [h3] in its target file)");
}

Need need_not_h3(const Target& target) {
  if (!target.h3) return std::nullopt;
  return std::string("the target speaks HTTP/3 ([h3]): only the h3 family runs on it");
}

Need need_tls(const Target& target) {
  if (target.tls) return std::nullopt;
  return std::string("the target does not speak TLS (no [tls] in its target file)");
}

Need first_unmet(std::initializer_list<Need> needs) {
  for (const auto& need : needs) {
    if (need) return need;
  }
  return std::nullopt;
}

Endings endings_for(fixtures::OnTimeout promise) {
  if (promise == fixtures::OnTimeout::respond_408) return {ends::with_status(408, Ending::close)};
  return {ends::closed,
          ends::with_status(
              408, Ending::close)};  // an answer is not a deadline: RFC 9110 recommends the 408
}

Endings endings_for_trickle(fixtures::OnTimeout promise) {
  auto endings = endings_for(promise);
  endings.push_back(ends::with_status(408, Ending::reset));
  endings.push_back(ends::reset);
  return endings;
}

Expectations allow_trickle_races(Expectations expected, fixtures::OnTimeout promise) {
  expected.closure->endings = endings_for_trickle(promise);
  return expected;
}

StallDeadline stall_deadline(const Target& target, Stall stall) {
  const auto& header = target.deadlines.header;
  if (!target.tls) {
    if (!header) return {.unmet = need_deadline(header, "header")};
    return {.since = Since::connect, .deadline = *header};
  }
  const auto& tls = *target.tls;
  const bool from_connect = tls.header_from == fixtures::HeaderFrom::connect;
  if (stall == Stall::in_handshake && tls.handshake) {
    return {.since = Since::connect, .deadline = *tls.handshake, .name = "handshake"};
  }
  if (!header) {
    if (stall == Stall::in_head) return {.unmet = need_deadline(header, "header")};
    return {.unmet =
                "the target declares no handshake deadline ([tls] handshake) and no header "
                "deadline"};
  }
  if (stall == Stall::in_handshake && !from_connect) {
    return {.unmet =
                "the target declares no handshake deadline ([tls] handshake), and its header "
                "deadline runs from the handshake's end (header_from = \"handshake\"), which "
                "a stalled handshake never reaches"};
  }
  return {.since = from_connect ? Since::connect : Since::handshake,
          .deadline = *header,
          .name = "header"};
}

Expectations stall_closure(const Target& target, Stall stall, Endings endings, const Timing& timing,
                           const ScenarioParameters& parameters) {
  const auto chosen = stall_deadline(target, stall);
  auto expected = closure(chosen.since, chosen.deadline, std::move(endings), timing, parameters);
  expected.closure->name = chosen.name;
  return expected;
}

Endings endings_for_silent(const Target& target) {
  if (target.tls) return {ends::closed, ends::alert};
  return {ends::closed, ends::with_status(408, Ending::close)};
}

Expectations closure(Since since, Duration deadline, Endings endings, const Timing& timing,
                     const ScenarioParameters& parameters) {
  return {.connections = parameters.count,
          .patience = timing.patience_for(deadline),
          .closure = ClosureExpectation{.since = since,
                                        .deadline = deadline,
                                        .slack = timing.slack,
                                        .endings = std::move(endings)},
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = timing.recovery};
}

Expectations completion(std::size_t responses, Duration outlives, Duration patience,
                        const Timing& timing, const ScenarioParameters& parameters) {
  return {.connections = parameters.count,
          .patience = patience,
          .closure = std::nullopt,
          .completion =
              CompletionExpectation{.responses = responses, .status = 200, .outlives = outlives},
          .fds_after = 0,
          .recovery = timing.recovery};
}

Expectations recovery_only(Duration patience, const Timing& timing,
                           const ScenarioParameters& parameters) {
  return {.connections = parameters.count,
          .patience = patience,
          .closure = std::nullopt,
          .completion = std::nullopt,
          .fds_after = 0,
          .recovery = timing.recovery};
}

Duration request_wait(const Target& target) {
  return std::max(target.deadlines.header.value_or(Duration{}),
                  target.deadlines.idle.value_or(Duration{}));
}

std::size_t stall_bytes(int receive_buffer) {
  return clients::stalling_response_bytes(clients::kernel_buffers(receive_buffer));
}

std::string large_path(const Target& target, std::size_t bytes) {
  return fixtures::with_bytes(target.paths.large.value_or("/"), bytes);
}

std::optional<Duration> scaled_bound(const std::optional<Duration>& bound, const Timing& timing) {
  if (!bound) return std::nullopt;
  return std::chrono::duration_cast<Duration>(*bound * timing.scale);
}

}  // namespace loiter::suites::kit
