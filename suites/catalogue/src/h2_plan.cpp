#include "h2_plan.hpp"

#include <algorithm>

namespace loiter::suites::h2_plan {

using namespace std::chrono_literals;
using namespace kit;

kit::StallDeadline preface_deadline(const Target& target) {
  if (target.h2 && target.h2->preface) {
    return {.since = Since::connect, .deadline = *target.h2->preface, .name = "preface"};
  }
  auto chosen = stall_deadline(target, Stall::in_head);
  if (chosen.unmet && !target.deadlines.header) {
    chosen.unmet = "the target declares no preface deadline ([h2] preface) and no header deadline";
  }
  chosen.name = "header";
  return chosen;
}

Need needs_settings_window(const Target& target) {
  if (target.deadlines.header || target.deadlines.idle) return std::nullopt;
  return std::string("the target declares neither a header nor an idle deadline");
}

Expectations expect_settings_window(const Target& target, const Timing& timing,
                                    const ScenarioParameters& parameters) {
  const auto& d = target.deadlines;
  const auto earlier =
      std::min(d.header.value_or(Duration::max()), d.idle.value_or(Duration::max()));
  const auto later = std::max(d.header.value_or(Duration::min()), d.idle.value_or(Duration::min()));
  auto expected = closure(Since::connect, earlier + (later - earlier) / 2,
                          {ends::goaway(Ending::close), ends::closed, ends::goaway(Ending::reset)},
                          timing, parameters);
  expected.closure->slack = (later - earlier) / 2 + timing.slack;
  expected.closure->name = "header-or-idle";
  expected.patience = std::max(expected.patience, timing.patience_for(later));
  return expected;
}

Need needs_idle(const Target& target) {
  return first_unmet(
      {need_deadline(target.deadlines.idle, "idle"), need_path(target.paths.health, "health")});
}

Endings idle_endings(const Target& target) {
  if (!target.h2 || target.h2->goaway_on_idle) return {ends::goaway(Ending::close)};
  return {ends::goaway(Ending::close), ends::closed};
}

Duration reuse_after(const Target& target) { return *target.deadlines.idle / 2; }

Need needs_data_trickle(const Target& target) {
  if (auto need = first_unmet({need_deadline(target.deadlines.body, "body"),
                               need_path(target.paths.echo, "echo (POST)")})) {
    return need;
  }
  if (target.deadlines.body_resets_on_progress) {
    return "the target declares its body deadline runs between reads, so a trickle "
           "legitimately extends it";
  }
  return std::nullopt;
}

// A declared 408 must come (a reset may discard it, as over HTTP/1.1); a declared close, or
// none, is any end of the stream: a RST_STREAM, GOAWAY and close, a close, or an answer.
Endings stream_body_endings(const Target& target) {
  if (target.promises.on_body_timeout == fixtures::OnTimeout::respond_408)
    return {ends::stream_answered(408), ends::reset};
  auto endings = kStreamCutEndings;
  endings.push_back(ends::stream_answered(408));
  return endings;
}

Expectations expect_data_trickle(const Target& target, const Timing& timing,
                                 const ScenarioParameters& parameters) {
  auto expected = closure(Since::first_send, *target.deadlines.body, stream_body_endings(target),
                          timing, parameters);
  expected.closure->name = "body";
  expected.closure->progress = "data byte";
  expected.closure->stream = true;
  return expected;
}

Duration trickle_interval(Duration deadline) { return std::max<Duration>(deadline / 5, 50ms); }

Need needs_zero_window(const Target& target) {
  if (!target.promises.send_timeout) {
    return Need("the target declares no send deadline (send_timeout)");
  }
  return need_path(target.paths.large, "large");
}

Expectations expect_zero_window(const Target& target, const Timing& timing,
                                const ScenarioParameters& parameters) {
  auto expected = closure(Since::first_send, *target.promises.send_timeout, kStreamCutEndings,
                          timing, parameters);
  expected.closure->name = "send";
  expected.closure->stream = true;
  return expected;
}

WindowPlan window_plan(const Target& target) {
  WindowPlan plan;
  const auto send = target.promises.send_timeout.value_or(Duration{});
  plan.outlives = std::max(send, request_wait(target));
  plan.interval = std::max<Duration>(send / 4, 50ms);
  const auto steps = static_cast<std::size_t>((plan.outlives * 3 / 2) / plan.interval) + 1;
  plan.bytes = steps * plan.increment;
  plan.lasts = plan.interval * static_cast<long>(steps);
  return plan;
}

Need needs_window_trickle(const Target& target) {
  if (auto need = needs_zero_window(target)) return need;
  if (!target.promises.send_timeout_resets_on_progress) {
    return "the target declares its send deadline runs over the whole response "
           "(send_timeout_resets_on_progress = false), so a window opened slowly legitimately "
           "meets it";
  }
  if (!fixtures::takes_bytes(*target.paths.large)) {
    return "the target's large path takes no {bytes}: the response's size, and so how long "
           "its window takes to open, is unknown";
  }
  return std::nullopt;
}

Expectations expect_window_trickle(const Target& target, const Timing& timing,
                                   const ScenarioParameters& parameters) {
  const auto plan = window_plan(target);
  return completion(1, plan.outlives,
                    plan.lasts + timing.patience_for(*target.promises.send_timeout), timing,
                    parameters);
}

}  // namespace loiter::suites::h2_plan
