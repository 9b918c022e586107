// A ladder's values in words.
#include "ladder_words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "loiter/reports/number_text.hpp"

namespace loiter::reports::ladder_words {

std::string protocol_text(const std::string& protocol) {
  if (protocol == "http1") return "HTTP/1.1";
  if (protocol == "tls") return "HTTP/1.1 over TLS";
  if (protocol == "h2c") return "HTTP/2 (h2c)";
  if (protocol == "h2") return "HTTP/2 over TLS (h2)";
  if (protocol == "h3") return "HTTP/3 over QUIC";
  return protocol;
}

std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::ranges::all_of(word, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("/._-=:,+@%").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

namespace {

bool one_protocol(const Ladder& ladder) {
  return std::ranges::all_of(ladder.sides, [&](const LadderSide& side) {
    return side.protocol == ladder.sides.front().protocol;
  });
}

// A figure in its unit: "/s" as a whole rate, "41,200/s"; others after a space, "1.23 ms".
std::string in_unit(double value, const std::string& unit) {
  if (unit == "/s") return rate(value) + "/s";
  return unit.empty() ? figure(value) : figure(value) + " " + unit;
}

}  // namespace

std::string title(const Ladder& ladder) {
  std::string who;
  const bool alone = ladder.sides.size() == 1;
  for (const auto& side : ladder.sides) {
    if (!who.empty()) who += " against ";
    who += alone ? side.target : side_name(side);
    if (!one_protocol(ladder)) who += " over " + protocol_text(side.protocol);
  }
  if (who.empty()) who = "nothing";
  const auto over = !ladder.sides.empty() && one_protocol(ladder)
                        ? " over " + protocol_text(ladder.sides.front().protocol)
                        : std::string();
  return fmt::format("loiter {} ladder of {}{}", ladder.loiter_version, who, over);
}

std::string settings(const Ladder& ladder) {
  const bool comparison = ladder.sides.size() > 1;
  auto text = fmt::format("{} {} × {} s per step", ladder.trials,
                          comparison ? (ladder.trials == 1 ? "pair of trials" : "pairs of trials")
                                     : (ladder.trials == 1 ? "trial" : "trials"),
                          plain_number(ladder.trial_seconds, 4));
  if (comparison) text += ", alternated ABBA";
  text += fmt::format(", p99 bound {} ms", figure(ladder.p99_bound_ms));
  if (comparison) text += fmt::format(", tolerance {}", percent(ladder.tolerance));
  if (!ladder.pinning.empty()) text += "; " + ladder.pinning;
  return text + fmt::format("; took {} s", plain_number(ladder.duration, 4));
}

std::string server_text(const std::string& binary, const std::string& sha256) {
  if (binary.empty() && sha256.empty()) return "";
  auto text = "server " + (binary.empty() ? "?" : binary);
  if (!sha256.empty()) text += ", sha256 " + sha256.substr(0, 12) + (sha256.size() > 12 ? "…" : "");
  return text;
}

std::string command_text(const std::vector<std::string>& command) {
  if (command.empty()) return "";
  std::string text = "command:";
  for (const auto& word : command) text += " " + shell_word(word);
  return text;
}

std::string step(const LadderStep& step) {
  return step.kind == StepKind::rate ? rate(step.rate) + "/s"
                                     : fmt::format("{} conn", count(double(step.connections)));
}

std::string step_long(const LadderStep& step) {
  return step.kind == StepKind::rate
             ? rate(step.rate) + "/s"
             : fmt::format("{} connection{}", count(double(step.connections)),
                           step.connections == 1 ? "" : "s");
}

std::string rate(double per_second) { return grouped_number(std::round(per_second)); }

std::string figure(double value) { return grouped_number(value, 3); }

std::string count(double value) { return grouped_number(std::round(value)); }

std::string busy(double fraction) { return plain_number(std::round(fraction * 100)) + "%"; }

std::string percent(double fraction) { return plain_number(fraction * 100, 3) + "%"; }

std::string mark(const LadderStep& step, double p99_bound_ms) {
  if (step.limit == Limit::client) return "client limit";
  if (step.limit == Limit::server) return "server limit";
  if (step.limit == Limit::both) return "both at limit";
  if (step.kind == StepKind::saturation) return "-";
  if (step.within) return "within";
  if (p99_bound_ms > 0 && step.p99_ms > p99_bound_ms) return "over p99";
  return "not within";
}

std::string knee(const LadderSide& side, double p99_bound_ms) {
  const bool rates = std::ranges::any_of(
      side.steps, [](const LadderStep& step) { return step.kind == StepKind::rate; });
  if (!rates) return "no rate steps";
  if (!side.knee) {
    return "no knee: " +
           (side.knee_note.empty() ? "the first step was not within" : side.knee_note);
  }
  auto text = fmt::format("knee: {}/s (p99 within {} ms with everything answered)",
                          rate(*side.knee), figure(p99_bound_ms));
  if (!side.knee_note.empty()) text += "; above it: " + side.knee_note;
  return text;
}

std::string side_median(const PairedFigure& figure, double median) {
  if (figure.change.empty()) return "-";
  return in_unit(median, figure.unit);
}

std::string values(const PairedFigure& figure, const std::vector<double>& values) {
  std::string text;
  for (double v : values) {
    text += (text.empty() ? "" : ", ") + (figure.unit == "/s" ? rate(v) : ladder_words::figure(v));
  }
  if (text.empty()) return "none";
  return figure.unit == "/s" || figure.unit.empty() ? text + figure.unit : text + " " + figure.unit;
}

std::string change(double fraction) {
  const double percent = fraction * 100;
  if (std::isnan(percent)) return "nan";
  if (std::fabs(percent) < 0.05) return "0.0%";
  return fmt::format("{:+.1f}%", percent);
}

std::string interval(const PairedFigure& figure) {
  return fmt::format("[{}, {}] at {}", change(figure.low), change(figure.high),
                     percent(figure.confidence));
}

std::string medians_change(const PairedFigure& figure) {
  if (figure.change.empty() || figure.baseline_median == 0) return "-";
  return change(figure.candidate_median / figure.baseline_median - 1);
}

std::string pairs(const PairedFigure& figure) {
  std::string text;
  for (double c : figure.change) text += (text.empty() ? "" : ", ") + change(c);
  return text.empty() ? "none" : text;
}

std::string paired_sentence(const PairedFigure& figure, double tolerance) {
  return fmt::format(
      "{} at {}: baseline {}, candidate {} ({}); median change over the pairs {} {}: {} "
      "(tolerance {})",
      figure.figure, figure.step, side_median(figure, figure.baseline_median),
      side_median(figure, figure.candidate_median), medians_change(figure),
      change(figure.median_change), interval(figure), to_string(figure.verdict),
      percent(tolerance));
}

std::string comparison_summary(const Ladder& ladder) {
  const auto worse = std::ranges::count_if(
      ladder.comparison, [](const PairedFigure& f) { return f.verdict == PairedVerdict::worse; });
  const auto of = ladder.comparison.size();
  return worse == 0 ? fmt::format("the candidate is worse on none of {} figures", of)
                    : fmt::format("the candidate is worse on {} of {} figures", worse, of);
}

}  // namespace loiter::reports::ladder_words
