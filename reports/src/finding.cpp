// The words of findings: one sentence per code, from the finding's figures alone (the
// longer sentences are finding_words.hpp's, by family), and the words of its values.
#include "loiter/reports/finding.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <ostream>

#include "finding_words.hpp"

namespace loiter::reports {

namespace {

using namespace finding_words;

constexpr std::array<std::pair<FindingClass, std::string_view>, 6> kClassNames{{
    {FindingClass::deadline, "deadline"},
    {FindingClass::resources, "resources"},
    {FindingClass::answer, "answer"},
    {FindingClass::capacity, "capacity"},
    {FindingClass::infrastructure, "infrastructure"},
    {FindingClass::crash, "crash"},
}};

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

constexpr std::array<ValueText<Since>, 11> kSinceTexts{{
    {Since::connect, "connect", "connect"},
    {Since::request_head, "request-head", "the request head"},
    {Since::last_response, "last-response", "the last response"},
    {Since::second_request_head, "second-request-head", "the second request head's first byte"},
    {Since::handshake, "handshake", "the TLS handshake's completion"},
    {Since::quiet, "quiet", "the client's last packet"},
    {Since::read_pause, "read-pause", "the server's last progress as the paused reader saw it"},
    {Since::stream_open, "stream-open", "the stream's open"},
    {Since::stream_headers, "stream-headers", "the stream's HEADERS"},
    {Since::stream_request, "stream-request", "the request"},
    {Since::first_initial, "first-initial", "the connection's first Initial"},
}};

constexpr std::array<ValueText<ConnectLimit>, 3> kLimitTexts{{
    {ConnectLimit::client_nofile, "client-nofile", " (the client's RLIMIT_NOFILE)"},
    {ConnectLimit::client_ports, "client-ports", " (the client's ephemeral ports)"},
    {ConnectLimit::server, "server",
     " (the server: listen backlog full or its own FD limit; see its log)"},
}};

using Render = std::string (*)(const Finding&);
constexpr std::size_t kRendered = 41;  // every code but "text"

// One sentence per code, in the order the judge checks.
constexpr std::array<std::pair<std::string_view, Render>, kRendered> kRenderers{{
    {codes::kServerExited, server_exited},
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
       return f.deadline_name.empty() && f.deadline_key.empty()
                  ? closed_outside(f, "early, before", "earliest")
                  : closed_outside(f, "early", "before");
     }},
    {codes::kClosedLate,
     [](const Finding& f) {
       return f.deadline_name.empty() && f.deadline_key.empty()
                  ? closed_outside(f, "late, after", "latest")
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
           "regular p99 {:.2f} ms (from intended send time) exceeds the target's bound {:.2f} ms{}",
           measured(f), bound(f), client_limit(f));
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
    {codes::kFloodCloseCode, flood_close_code},
    {codes::kControlUnanswered, control_unanswered},
    {codes::kSlopeOverBound, slope_over_bound},
    {codes::kP99Grew,
     [](const Finding& f) {
       return fmt::format(
           "regular p99 (from intended send time) {:.2f} ms in the last window, up from "
           "{:.2f} ms in the first: above the bound of {:.2f} ms{}",
           measured(f), f.before.value_or(0), bound(f), client_limit(f));
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

namespace finding_words {

std::string_view since_words(Since since) { return text_of(kSinceTexts, since).words; }
std::string_view limit_words(ConnectLimit limit) { return text_of(kLimitTexts, limit).words; }

}  // namespace finding_words

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
    if (code == finding.code) return render(finding) + udp_drops_words(finding);
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
