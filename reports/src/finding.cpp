// The words of findings: one sentence per code, from the finding's figures alone.
#include "loiter/reports/finding.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <ostream>

namespace loiter::reports {

namespace {

constexpr std::array<std::pair<FindingClass, std::string_view>, 5> kClassNames{{
    {FindingClass::deadline, "deadline"},
    {FindingClass::resources, "resources"},
    {FindingClass::answer, "answer"},
    {FindingClass::capacity, "capacity"},
    {FindingClass::infrastructure, "infrastructure"},
}};

// "silent: " for one kind of a mix; nothing for every connection.
std::string of_subject(const Finding& f) { return f.subject.empty() ? "" : f.subject + ": "; }

// "3/4": how many, out of how many.
std::string ratio(const Finding& f) {
  return fmt::format("{}/{}", f.count.value_or(0), f.of.value_or(0));
}

double measured(const Finding& f) { return f.measured.value_or(0); }
double bound(const Finding& f) { return f.bound.value_or(0); }

// A count carried as a number: "44".
std::string whole(double value) { return fmt::format("{:.0f}", value); }

// A value of an enum a finding holds: its word in report.json, and what the finding's
// sentence says of it. A value a table leaves out (none) has neither.
template <class Value>
struct ValueText {
  Value value;
  std::string_view word, words;
};

template <class Value, std::size_t kSize>
ValueText<Value> text_of(const std::array<ValueText<Value>, kSize>& table, Value value) {
  const auto* found = std::ranges::find(table, value, &ValueText<Value>::value);
  return found == table.end() ? ValueText<Value>{.value = value} : *found;
}

constexpr std::array<ValueText<Since>, 7> kSinceTexts{{
    {Since::connect, "connect", "connect"},
    {Since::request_head, "request-head", "the request head"},
    {Since::last_response, "last-response", "the last response"},
    {Since::second_request_head, "second-request-head", "the second request head's first byte"},
    {Since::handshake, "handshake", "the TLS handshake's completion"},
    {Since::quiet, "quiet", "the client's last packet"},
    {Since::read_pause, "read-pause", "the server's last progress as the paused reader saw it"},
}};

constexpr std::array<ValueText<ConnectLimit>, 3> kLimitTexts{{
    {ConnectLimit::client_nofile, "client-nofile", " (the client's RLIMIT_NOFILE)"},
    {ConnectLimit::client_ports, "client-ports", " (the client's ephemeral ports)"},
    {ConnectLimit::server, "server",
     " (the server: listen backlog full or its own FD limit; see its log)"},
}};

std::string_view since_words(Since since) { return text_of(kSinceTexts, since).words; }
std::string_view limit_words(ConnectLimit limit) { return text_of(kLimitTexts, limit).words; }

std::string still_open(const Finding& f) {
  return fmt::format(
      "{}{} connections still open at {:.3f} s after connect (deadline {:.3f} s from {})",
      of_subject(f), ratio(f), measured(f), bound(f), since_words(f.since));
}

std::string ended_before_origin(const Finding& f) {
  return fmt::format("{}{} connections ended ({}) before {} it is measured from", of_subject(f),
                     ratio(f), f.ending, since_words(f.since));
}

// "closed early, before 0.750 s (earliest 0.100 s; deadline 1.000 s ± 0.250 s from connect)";
// with a named deadline, the cause first: "closed early, 1.000 s after the last response
// (before 1.750 s): the idle deadline runs from the last response (2.000 s ± 0.250 s)".
std::string closed_outside(const Finding& f, std::string_view how, std::string_view extreme) {
  if (!f.deadline_name.empty()) {
    return fmt::format(
        "{}{} connections closed {}, {:.3f} s after {} ({} {:.3f} s): the {} deadline runs "
        "from {} ({:.3f} s ± {:.3f} s)",
        of_subject(f), ratio(f), how, measured(f), since_words(f.since), extreme, bound(f),
        f.deadline_name, since_words(f.since), f.deadline.value_or(0), f.slack.value_or(0));
  }
  return fmt::format(
      "{}{} connections closed {} {:.3f} s ({} {:.3f} s; deadline {:.3f} s ± {:.3f} s from {})",
      of_subject(f), ratio(f), how, bound(f), extreme, measured(f), f.deadline.value_or(0),
      f.slack.value_or(0), since_words(f.since));
}

// HTTP/3: a probe before the deadline found the connection gone, or one after it found it
// still held.
std::string probe_unanswered(const Finding& f) {
  return fmt::format(
      "{}{} connections no longer answered a probe sent {:.3f} s after {}, before the {} "
      "deadline's window opened ({:.3f} s; deadline {:.3f} s ± {:.3f} s): the server dropped "
      "them early",
      of_subject(f), ratio(f), measured(f), since_words(f.since), f.deadline_name, bound(f),
      f.deadline.value_or(0), f.slack.value_or(0));
}

std::string probe_answered(const Finding& f) {
  return fmt::format(
      "{}{} connections still answered a probe sent {:.3f} s after {}, past the {} deadline "
      "({:.3f} s): the server still held them",
      of_subject(f), ratio(f), measured(f), since_words(f.since), f.deadline_name, bound(f));
}

std::string idle_advertised(const Finding& f) {
  const auto advertised =
      measured(f) == 0 ? std::string("0 (no idle timeout)") : fmt::format("{:.3f} s", measured(f));
  return fmt::format(
      "{}{} connections were told max_idle_timeout {} by the server, which promises {:.3f} s",
      of_subject(f), ratio(f), advertised, bound(f));
}

std::string amplification(const Finding& f) {
  return fmt::format(
      "{}{} connections got more than {:.0f}x the bytes they sent before their address was "
      "validated: at most {:.2f}x (RFC 9000 8.1 allows three)",
      of_subject(f), ratio(f), bound(f), measured(f));
}

std::string wrong_ending(const Finding& f) {
  return fmt::format("{}{} connections ended as {}, expected {}", of_subject(f), ratio(f), f.ending,
                     fmt::join(f.expected_endings, " or "));
}

std::string cut_off(const Finding& f) {
  const auto what = f.responses ? fmt::format("fewer than {} whole {} response(s)", *f.responses,
                                              f.status.value_or(200))
                                : std::string("ended by the server before the client closed it");
  return fmt::format(
      "{}{} connections were cut off: {}, ended as {} (median {:.3f} s after connect; it must "
      "outlive {:.3f} s)",
      of_subject(f), ratio(f), what, f.ending, measured(f), bound(f));
}

std::string not_held_at_once(const Finding& f) {
  const auto late = f.connected_late.value_or(0);
  const auto why = late == 0
                       ? std::string(
                             "all had connected before it: the server answered their first "
                             "request late (a slow accept loop, or slow first requests)")
                       : fmt::format(
                             "{} connected only after it, and at most {} of {} were connected at "
                             "the same time: the fleet opened slower than planned; ask fewer "
                             "connections, or declare a longer idle deadline (--idle-timeout) "
                             "for a slower opening",
                             late, f.most_at_once.value_or(0), f.connections.value_or(0));
  return fmt::format(
      "not every connection was held at once: {} answered their first request only after the "
      "first re-check was sent (the last {:.3f} s after it); {}",
      ratio(f), measured(f), why);
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
      "{} dispatched regular requests were not answered 2xx: {}{}", ratio(f),
      fmt::join(parts, ", "),
      closed ? " (closed: the server closed a busy keep-alive connection with a request in "
               "flight, never answering it; its idle deadline may run from connect instead of "
               "from the last response)"
             : "");
}

// ", mostly socket descriptors; TCP: server: CLOSE_WAIT 40": what a soak adds, if anything.
std::string leftovers(const Finding& f) {
  std::string text;
  if (!f.descriptor.empty()) text += fmt::format(", mostly {} descriptors", f.descriptor);
  if (!f.explanation.empty()) text += fmt::format("; TCP at the end: {}", f.explanation);
  return text;
}

std::string fds_not_recovered(const Finding& f) {
  const double left = std::max(0.0, measured(f) - bound(f));
  return fmt::format("FDs {}→{}, not back to {} within {:.3f} s: {} left{}", f.baseline.value_or(0),
                     f.peak.value_or(0), whole(bound(f)), f.deadline.value_or(0), whole(left),
                     leftovers(f));
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

// "3/4 connections outlived the 1.000 s deadline from connect while header lines kept
// arriving: up to 3 header lines by the deadline, the last at 1.900 s"
std::string outlived_by_progress(const Finding& f) {
  return fmt::format(
      "{}{} connections outlived the {:.3f} s deadline from {} while {}s kept arriving: up to {} "
      "{}s by the deadline, the last at {:.3f} s after connect",
      of_subject(f), ratio(f), bound(f), since_words(f.since), f.progress,
      f.progress_by_deadline.value_or(0), f.progress, measured(f));
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

std::string control_unanswered(const Finding& f) {
  std::vector<std::string> parts;
  for (const auto& [what, count] : f.failures) parts.push_back(fmt::format("{} {}", count, what));
  return fmt::format("{}{} control requests during the flood not answered 200 ({})", of_subject(f),
                     ratio(f), fmt::join(parts, ", "));
}

using Render = std::string (*)(const Finding&);
constexpr std::size_t kRendered = 40;  // every code but "text"

// One sentence per code, in the order the judge checks.
constexpr std::array<std::pair<std::string_view, Render>, kRendered> kRenderers{{
    {codes::kServerExited,
     [](const Finding& f) { return fmt::format("the server {} during the scenario", f.error); }},
    {codes::kDrivenCount,
     [](const Finding& f) {
       return fmt::format("{} connections were driven, {} expected", f.count.value_or(0),
                          f.of.value_or(0));
     }},
    {codes::kConnectFailed,
     [](const Finding& f) {
       return fmt::format("{} connections could not connect: {}{}", ratio(f), f.error,
                          limit_words(f.limit));
     }},
    {codes::kStillOpen, still_open},
    {codes::kEndedBeforeOrigin, ended_before_origin},
    {codes::kClosedEarly,
     [](const Finding& f) {
       return f.deadline_name.empty() ? closed_outside(f, "early, before", "earliest")
                                      : closed_outside(f, "early", "before");
     }},
    {codes::kClosedLate,
     [](const Finding& f) {
       return f.deadline_name.empty() ? closed_outside(f, "late, after", "latest")
                                      : closed_outside(f, "late", "after");
     }},
    {codes::kWrongEnding, wrong_ending},
    {codes::kProbeUnanswered, probe_unanswered},
    {codes::kProbeAnswered, probe_answered},
    {codes::kIdleAdvertised, idle_advertised},
    {codes::kAmplification, amplification},
    {codes::kCutOff, cut_off},
    {codes::kProvesNothing,
     [](const Finding& f) {
       return fmt::format(
           "an exchange completed after only {:.3f} s, within the {:.3f} s it must outlive: "
           "the scenario proves nothing (lengthen the target's path)",
           measured(f), bound(f));
     }},
    {codes::kNotHeldAtOnce, not_held_at_once},
    {codes::kNoLoad,
     [](const Finding&) {
       return std::string("the scenario expects regular traffic but none ran");
     }},
    {codes::kNoLoadDispatched,
     [](const Finding&) { return std::string("no regular request was dispatched"); }},
    {codes::kNon2xx, non_2xx},
    {codes::kP99OverBound,
     [](const Finding& f) {
       return fmt::format(
           "regular p99 {:.2f} ms (from intended send time) exceeds the target's bound {:.2f} ms",
           measured(f), bound(f));
     }},
    {codes::kLoadTooShort,
     [](const Finding& f) {
       return fmt::format(
           "the last waiting connection was closed {:.3f} s after the load started, after the "
           "load ended ({:.3f} s): lengthen the load to judge FDs during it",
           measured(f), bound(f));
     }},
    {codes::kFdsDuringLoad, fds_during_load},
    {codes::kFdsNotRecovered, fds_not_recovered},
    {codes::kServerFdLimit,
     [](const Finding& f) {
       return fmt::format(
           "a server process held {} FDs, at its RLIMIT_NOFILE of {}: that limit stopped it",
           whole(measured(f)), whole(bound(f)));
     }},
    {codes::kCloseWait,
     [](const Finding& f) {
       return fmt::format(
           "{} server-side sockets still in CLOSE_WAIT at the end: the client's FIN arrived "
           "and the server never closed them",
           f.count.value_or(0));
     }},
    {codes::kKernelView,
     [](const Finding& f) {
       return fmt::format("kernel {:.1f} s before the clients gave up: {} connections {}",
                          measured(f), ratio(f), f.explanation);
     }},
    {codes::kFdsBackLate,
     [](const Finding& f) {
       return fmt::format(
           "FDs came back {:.1f} s after the clients ended: {:.1f} s later than the {:.1f} s "
           "allowed",
           measured(f), measured(f) - bound(f), bound(f));
     }},
    {codes::kFdsStillHeld,
     [](const Finding& f) {
       return fmt::format("FDs still not back {:.1f} s after the clients ended ({} above baseline)",
                          measured(f), f.count.value_or(0));
     }},
    {codes::kHarnessError, [](const Finding& f) { return f.error; }},
    {codes::kLeftoverProcess,
     [](const Finding& f) {
       return fmt::format(
           "{} process(es) of the server still ran after it was stopped, and were killed: {}",
           f.count.value_or(f.processes.size()), fmt::join(f.processes, "; "));
     }},
    {codes::kOutlivedByProgress, outlived_by_progress},
    {codes::kNeverCut,
     [](const Finding& f) {
       return fmt::format(
           "{}{} readers paused for {:.3f} s were never cut: the declared send deadline is "
           "{:.3f} s",
           of_subject(f), ratio(f), measured(f), bound(f));
     }},
    {codes::kFitsInBuffers,
     [](const Finding& f) {
       return fmt::format(
           "the response ({} bytes) fit in the kernel's buffers ({} bytes needed: twice the "
           "server's largest send buffer and the client's receive buffer): the server's send "
           "path never stalled, and the scenario proves nothing (use {{bytes}} in the large path, "
           "or make it larger)",
           whole(measured(f)), whole(bound(f)));
     }},
    {codes::kFloodNotEnded, flood_not_ended},
    {codes::kFloodOverFrames, flood_over_frames},
    {codes::kFloodGoawayCode, flood_goaway_code},
    {codes::kControlUnanswered, control_unanswered},
    {codes::kSlopeOverBound, slope_over_bound},
    {codes::kP99Grew,
     [](const Finding& f) {
       return fmt::format(
           "regular p99 (from intended send time) {:.2f} ms in the last window, up from "
           "{:.2f} ms in the first: above the bound of {:.2f} ms",
           measured(f), f.before.value_or(0), bound(f));
     }},
    {codes::kNotBackToBaseline,
     [](const Finding& f) {
       return fmt::format(
           "the server's {} {} once the traffic ended and the recovery window "
           "passed, not back to the baseline {}{}",
           f.subject, whole(measured(f)), whole(bound(f)), leftovers(f));
     }},
    {codes::kRssOverBound,
     [](const Finding& f) {
       return fmt::format(
           "the server's RSS peaked at {:.1f} MiB, above the target's bound {:.1f} MiB",
           measured(f), bound(f));
     }},
}};

}  // namespace

std::string_view to_string(FindingClass klass) {
  for (const auto& [value, name] : kClassNames) {
    if (value == klass) return name;
  }
  return "?";
}

std::optional<FindingClass> finding_class_from_string(std::string_view text) {
  for (const auto& [value, name] : kClassNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::string text(const Finding& finding) {
  for (const auto& [code, render] : kRenderers) {
    if (code == finding.code) return render(finding);
  }
  return finding.sentence.empty() ? finding.code : finding.sentence;
}

std::span<const std::string_view> known_codes() {
  static const auto all = [] {
    std::array<std::string_view, kRendered> rendered{};
    std::ranges::transform(kRenderers, rendered.begin(),
                           [](const auto& entry) { return entry.first; });
    return rendered;
  }();
  return all;
}

std::ostream& operator<<(std::ostream& out, const Finding& finding) {
  return out << '[' << to_string(finding.klass) << "] " << finding.code << ": " << text(finding);
}

std::string_view to_string(Since since) { return text_of(kSinceTexts, since).word; }

std::string_view to_string(ConnectLimit limit) { return text_of(kLimitTexts, limit).word; }

ConnectLimit connect_limit_of(std::string_view word) {
  const auto* found = std::ranges::find(kLimitTexts, word, &ValueText<ConnectLimit>::word);
  return found == kLimitTexts.end() ? ConnectLimit::none : found->value;
}

}  // namespace loiter::reports
