// A denial ladder's values in words.
#include "denial_words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ladder_words.hpp"
#include "loiter/reports/number_text.hpp"

namespace loiter::reports::denial_words {

namespace numbers = ladder_words;  // rates, counts and figures as the ladder writes them

namespace {

bool one_protocol(const Denial& denial) {
  return std::ranges::all_of(denial.sides, [&](const DenialSide& side) {
    return side.protocol == denial.sides.front().protocol;
  });
}

std::string count(std::size_t n) { return numbers::count(static_cast<double>(n)); }

}  // namespace

std::string title(const Denial& denial) {
  std::string who;
  const bool alone = denial.sides.size() == 1;
  const bool one = one_protocol(denial);
  for (const auto& side : denial.sides) {
    if (!who.empty()) who += " against ";
    who += alone ? side.target : side_name(side);
    if (!one) who += " over " + ladder_words::protocol_text(side.protocol);
  }
  if (who.empty()) who = "nothing";
  const auto over = !denial.sides.empty() && one
                        ? " over " + ladder_words::protocol_text(denial.sides.front().protocol)
                        : std::string();
  return fmt::format("loiter {} denial ladder of {}{}", denial.loiter_version, who, over);
}

std::string settings(const Denial& denial) {
  auto text =
      fmt::format("regular traffic {}/s for {} s a step; denied under {} 2xx or over p99 {} ms",
                  numbers::rate(denial.rate), plain_number(denial.step_seconds, 4),
                  numbers::percent(denial.least_2xx_share), numbers::figure(denial.p99_bound_ms));
  if (!denial.pinning.empty()) text += "; " + denial.pinning;
  return text + fmt::format("; took {} s", plain_number(denial.duration, 4));
}

std::string knee(std::optional<std::size_t> knee, std::size_t highest) {
  if (knee) return *knee == 0 ? "0 (control)" : count(*knee);
  return highest == 0 ? "not run" : "> " + count(highest);
}

const DenialStep* knee_step(const DenialKind& kind) {
  if (!kind.knee) return nullptr;
  const auto found = std::ranges::find(kind.steps, *kind.knee, &DenialStep::held);
  return found == kind.steps.end() ? nullptr : &*found;
}

std::string kind_line(const DenialKind& kind) {
  if (kind.knee == 0U) return kind.kind + ": not run: the regular traffic alone was denied";
  if (!kind.knee && kind.highest == 0) return kind.kind + ": not run";
  if (!kind.knee) return fmt::format("not denied up to {} {}", count(kind.highest), kind.kind);
  const auto* step = knee_step(kind);
  const auto why = step != nullptr ? cause(*step) : std::string();
  return fmt::format("denied at {} {}{}", count(*kind.knee), kind.kind,
                     why.empty() ? "" : " (" + why + ")");
}

std::string control(const DenialSide& side) {
  if (!side.control) return "";
  const auto& c = *side.control;
  return fmt::format(
      "control, the regular traffic alone: 2xx {}, p99 {} ms, errors {}; server FDs {}, accept "
      "queue {}, busy {}: {}",
      share(c), numbers::figure(c.p99_ms), numbers::count(static_cast<double>(c.errors)), fds(c),
      queue(c), numbers::busy(c.server_busy), verdict(c));
}

std::string share(const DenialStep& step) {
  if (step.requested == 0) return "-";
  const double tenths = std::floor(1000.0 * static_cast<double>(step.succeeded) /
                                   static_cast<double>(step.requested));
  return fmt::format("{:.1f}%", tenths / 10);
}

std::string reached(const DenialStep& step) {
  return count(step.held_reached) + "/" + count(step.held_low);
}

std::string fds(const DenialStep& step) {
  auto text = count(step.server_fds_peak);
  if (step.server_fd_limit) text += "/" + count(*step.server_fd_limit);
  return text;
}

std::string queue(const DenialStep& step) {
  return count(step.accept_queue_peak) + "/" + count(step.backlog);
}

std::string cause(const DenialStep& step) {
  if (step.cause == DenialCause::none) return "";
  auto text = std::string(to_string(step.cause));
  if (!step.cause_note.empty()) text += ": " + step.cause_note;
  return text;
}

std::string verdict(const DenialStep& step) {
  if (!step.denied) return "served";
  std::string text = "denied";
  if (!step.why.empty()) text += ": " + step.why;
  if (const auto c = cause(step); !c.empty()) text += "; " + c;
  return text;
}

std::string error_kinds(const DenialStep& step) {
  std::string text;
  for (const auto& [kind, n] : step.error_kinds) {
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", kind,
                        numbers::count(static_cast<double>(n)));
  }
  return text;
}

std::string comparison_sentence(const DenialComparison& kind) {
  return fmt::format("{}: knee {} on the baseline, {} on the candidate: {}", kind.kind,
                     knee(kind.baseline_knee, kind.baseline_highest),
                     knee(kind.candidate_knee, kind.candidate_highest), to_string(kind.change));
}

std::string comparison_summary(const Denial& denial) {
  const auto lower =
      std::ranges::count(denial.comparison, KneeChange::lower, &DenialComparison::change);
  const auto of = denial.comparison.size();
  const auto kinds = of == 1 ? "kind" : "kinds";
  return lower == 0
             ? fmt::format("the candidate is denied sooner on none of {} {}", of, kinds)
             : fmt::format("the candidate is denied sooner on {} of {} {}", lower, of, kinds);
}

}  // namespace loiter::reports::denial_words
