// The sentences of findings about the server's death, its resources (FDs, their slope, what
// is left), its regular traffic (non-2xx) and the floods.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include "finding_words.hpp"

namespace loiter::reports::finding_words {

namespace {

// How the harness said the server ended, as the end of "the server ...": "exited with status
// 3"; "killed by signal 11 (Segmentation fault)" with the signal's name, "was killed by signal
// 11 (SIGSEGV, Segmentation fault)"; a sentence of its own ("the server (pid 42) exited at
// ...", from a watch) as it is.
std::string how_it_ended(std::string_view error) {
  constexpr std::string_view kKilled = "killed by signal ";
  if (!error.starts_with(kKilled)) return std::string(error);
  const auto rest = error.substr(kKilled.size());
  int signal = 0;
  const auto [end, problem] = std::from_chars(rest.data(), rest.data() + rest.size(), signal);
  const char* name = problem == std::errc{} ? ::sigabbrev_np(signal) : nullptr;
  if (name == nullptr) return fmt::format("was {}", error);
  auto words = std::string_view(end, rest.data() + rest.size());  // " (Segmentation fault)"
  if (words.starts_with(" (") && words.ends_with(')')) words = words.substr(2, words.size() - 3);
  return words.empty() ? fmt::format("was killed by signal {} (SIG{})", signal, name)
                       : fmt::format("was killed by signal {} (SIG{}, {})", signal, name, words);
}

}  // namespace

// "the server was killed by signal 6 (SIGABRT, Aborted) 1.4 s into the scenario": when the
// samples saw it gone, from the first connection's start; a watch's words as they are.
std::string server_exited(const Finding& f) {
  const auto how = how_it_ended(f.error);
  if (how.starts_with("the server")) return how;
  const auto when = f.measured ? fmt::format("{:.1f} s into the scenario", *f.measured)
                               : std::string("during the scenario");
  return fmt::format(
      "the server {} {}: it died under the scenario (its log may say why), and what came "
      "after was judged against a server that was gone",
      how, when);
}

// "closed": the server closed a busy keep-alive connection of the regular traffic with a
// request in flight. Each is idle for milliseconds between requests, so a deadline that ran
// from the last response never strikes there: one that runs from connect does.
std::string non_2xx(const Finding& f) {
  std::vector<std::string> parts;
  bool closed = false;
  for (const auto& [what, n] : f.failures) {
    parts.push_back(fmt::format("{}×{}", what, n));
    closed = closed || what == "closed";
  }
  return fmt::format(
      "{} dispatched regular requests were not answered 2xx: {}{}{}", ratio(f),
      fmt::join(parts, ", "),
      closed ? " (closed: the server closed a busy keep-alive connection with a request in "
               "flight, never answering it; its idle deadline may run from connect instead of "
               "from the last response)"
             : "",
      client_limit(f));
}

// ", mostly socket descriptors; TCP: server: CLOSE_WAIT 40": what a soak adds, if anything.
std::string leftovers(const Finding& f) {
  std::string text;
  if (!f.descriptor.empty()) text += fmt::format(", mostly {} descriptors", f.descriptor);
  if (!f.explanation.empty()) text += fmt::format("; TCP at the end: {}", f.explanation);
  return text;
}

// "FDs 19→39, not back to 19 within 5.000 s: 20 left"; where the server's FIN ended as many
// connections as FDs stay (count of of), they were shut down but not closed (not yet: a late
// close is fds-back-late's to tell): "...: 20 left; the client saw the server's FIN on 20/20
// connections, yet as many FDs stay: shut down but not closed".
std::string fds_not_recovered(const Finding& f) {
  const double left = std::max(0.0, measured(f) - bound(f));
  const auto shut = f.count ? fmt::format(
                                  "; the client saw the server's FIN on {} connections, yet as "
                                  "many FDs stay: shut down but not closed",
                                  ratio(f))
                            : std::string();
  return fmt::format("FDs {}→{}, not back to {} within {:.3f} s: {} left{}{}",
                     f.baseline.value_or(0), f.peak.value_or(0), whole(bound(f)),
                     f.deadline.value_or(0), whole(left), shut, leftovers(f));
}

// "FDs grew 75.0/min over the second half of the traffic (least-squares), above the bound
// of 10.0/min, mostly socket descriptors"
std::string slope_over_bound(const Finding& f) {
  const std::string what = f.subject == soak_subjects::kRss           ? "RSS"
                           : f.subject == soak_subjects::kConnections ? "the server's connections"
                                                                      : "FDs";
  const std::string unit = f.unit.starts_with('/') ? f.unit : " " + f.unit;  // "/min", " MiB/min"
  return fmt::format(
      "{} grew {:.1f}{} over the second half of the traffic (least-squares slope), above the "
      "bound of {:.1f}{}{}",
      what, measured(f), unit, bound(f), unit, leftovers(f));
}

std::string fds_during_load(const Finding& f) {
  return fmt::format(
      "FDs while the load still ran came back only to {}, not to baseline {} + {} regular "
      "connections: {} held",
      whole(measured(f)), f.baseline.value_or(0), f.pool.value_or(0),
      whole(measured(f) - bound(f)));
}

// The flood family's sentences.
std::string flood_not_ended(const Finding& f) {
  return fmt::format(
      "{}{} flood connections were never ended by the server: up to {} frames sent, bound {}",
      of_subject(f), ratio(f), whole(measured(f)), whole(bound(f)));
}

std::string flood_over_frames(const Finding& f) {
  return fmt::format("{}{} flood connections ended ({}) only after up to {} frames, bound {}",
                     of_subject(f), ratio(f), f.ending, whole(measured(f)), whole(bound(f)));
}

std::string flood_goaway_code(const Finding& f) {
  return fmt::format(
      "{}{} flood connections got a GOAWAY with {}, not ENHANCE_YOUR_CALM or PROTOCOL_ERROR",
      of_subject(f), ratio(f), f.error);
}

// Finding::error is the code's name ("H3_INTERNAL_ERROR (0x102)"), Finding::expected_endings
// the codes the flood's RFC names for it.
std::string flood_close_code(const Finding& f) {
  return fmt::format("{}{} flood connections closed by the server with {}, not {}", of_subject(f),
                     ratio(f), f.error,
                     f.expected_endings.empty() ? std::string("a code the flood's RFC names")
                                                : fmt::format("{}", fmt::join(f.expected_endings,
                                                                              " or ")));
}

std::string control_unanswered(const Finding& f) {
  std::vector<std::string> parts;
  for (const auto& [what, count] : f.failures) parts.push_back(fmt::format("{} {}", count, what));
  return fmt::format("{}{} control requests during the flood not answered 200 ({})", of_subject(f),
                     ratio(f), fmt::join(parts, ", "));
}

}  // namespace loiter::reports::finding_words
