// The flood family: the server ends each bounded HTTP/2 flood (a GOAWAY with
// ENHANCE_YOUR_CALM or PROTOCOL_ERROR, or a close or reset) within the declared frames (an
// HTTP/3 flood: check_flood_h3.cpp), keeps answering the control client (every request 200,
// p99 within the bound), and keeps its RSS within its bound. Counted from the records' own
// figures: no clock is read here.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites {

std::optional<Duration> control_p99(std::vector<Duration> latencies) {
  if (latencies.empty()) return std::nullopt;
  std::ranges::sort(latencies);
  // The nearest rank: the smallest latency at or above 99% of them.
  const auto rank = (latencies.size() * 99 + 99) / 100;
  return latencies[std::max<std::size_t>(rank, 1) - 1];
}

std::optional<std::uint64_t> rss_peak(const std::vector<fixtures::TimedSample>& timeline) {
  std::optional<std::uint64_t> peak;
  for (const auto& s : timeline) {
    if (s.sample.processes == 0) continue;
    const std::uint64_t bytes = static_cast<std::uint64_t>(s.sample.rss_kib) * 1024;
    peak = std::max(peak.value_or(0), bytes);
  }
  return peak;
}

}  // namespace loiter::suites

namespace loiter::suites::checks {

namespace {

constexpr std::uint32_t kProtocolError = 0x1;
constexpr std::uint32_t kEnhanceYourCalm = 0xb;
constexpr double kMiB = 1024.0 * 1024.0;

// The flood's frames sent when the server ended it: at its GOAWAY, else all it sent
// (a flood stops sending once its writes fail on the server's close). The GOAWAY is read
// some frames after the server sent it; for a rapid reset its last stream id says how far
// the server went (two frames a stream: ids 1, 3, ..., last), which bounds the count.
std::size_t frames_at_end(const ConnectionRecord& r, std::string_view kind) {
  if (!r.h2) return 0;
  if (!r.h2->goaway) return r.h2->frames_sent;
  const auto& goaway = *r.h2->goaway;
  if (kind == "h2-rapid-reset" && goaway.last_stream > 0) {
    return std::min<std::size_t>(goaway.frames_sent, std::size_t{goaway.last_stream} + 1);
  }
  return goaway.frames_sent;
}

bool ended_by_server_or_goaway(const ConnectionRecord& r) {
  return ended_by_server(r) || (r.h2 && r.h2->goaway);
}

std::string code_name(std::uint32_t code) {
  static const std::map<std::uint32_t, std::string_view> kNames{{0x0, "NO_ERROR"},
                                                                {0x1, "PROTOCOL_ERROR"},
                                                                {0x2, "INTERNAL_ERROR"},
                                                                {0x3, "FLOW_CONTROL_ERROR"},
                                                                {0x4, "SETTINGS_TIMEOUT"},
                                                                {0x5, "STREAM_CLOSED"},
                                                                {0x6, "FRAME_SIZE_ERROR"},
                                                                {0x7, "REFUSED_STREAM"},
                                                                {0x8, "CANCEL"},
                                                                {0x9, "COMPRESSION_ERROR"},
                                                                {0xa, "CONNECT_ERROR"},
                                                                {0xb, "ENHANCE_YOUR_CALM"},
                                                                {0xc, "INADEQUATE_SECURITY"},
                                                                {0xd, "HTTP_1_1_REQUIRED"}};
  const auto it = kNames.find(code);
  return fmt::format("{} (0x{:x})", it == kNames.end() ? "an unknown code" : it->second, code);
}

void check_flood_ended(const Observation& o, const FloodExpectation& e, Verdict& v) {
  const auto floods = of_kind(o, e.kind);
  std::vector<std::size_t> not_ended, over;
  std::string over_ending;
  std::map<std::uint32_t, std::size_t> wrong_codes;
  for (const auto* r : floods) {
    if (!ended_by_server_or_goaway(*r)) {
      not_ended.push_back(r->h2 ? r->h2->frames_sent : 0);
      continue;
    }
    const auto frames = frames_at_end(*r, e.kind);
    if (frames > e.frames) {
      over.push_back(frames);
      if (over_ending.empty()) over_ending = clients::ending_label(*r);
    }
    // A GOAWAY the server followed with its close ended the flood whatever its code (nginx
    // ends a rapid reset at keepalive_requests with NO_ERROR, then closes); one the
    // server did not follow with a close must say why: ENHANCE_YOUR_CALM or PROTOCOL_ERROR.
    if (r->h2 && r->h2->goaway && !ended_by_server(*r)) {
      const auto code = r->h2->goaway->code;
      if (code != kProtocolError && code != kEnhanceYourCalm) ++wrong_codes[code];
    }
  }
  flood_frames_findings(o, e, {.not_ended = not_ended, .over = over, .over_ending = over_ending},
                        floods.size(), v);
  for (const auto& [code, count] : wrong_codes) {
    auto f =
        flood_finding(o, e, codes::kFloodGoawayCode, FindingClass::answer, count, floods.size());
    f.error = code_name(code);
    v.findings.push_back(std::move(f));
  }
}

void check_control(const Observation& o, const FloodExpectation& e, Verdict& v) {
  std::size_t sent = 0, ok = 0;
  std::map<std::string, std::size_t> failures;
  std::vector<Duration> latencies;
  for (const auto* r : of_kind(o, e.control_kind)) {
    sent += r->requests;
    std::size_t whole = 0;
    for (const auto& response : r->responses) {
      if (!response.complete) continue;
      ++whole;
      if (response.status == 200) {
        ++ok;
      } else {
        ++failures[fmt::format("{}", response.status)];
      }
    }
    if (r->requests > whole) failures["unanswered"] += r->requests - whole;
    if (r->h2) latencies.insert(latencies.end(), r->h2->latencies.begin(), r->h2->latencies.end());
    if (r->h3) latencies.insert(latencies.end(), r->h3->latencies.begin(), r->h3->latencies.end());
  }
  if (ok < sent) {
    auto f = flood_finding(o, e, codes::kControlUnanswered, FindingClass::answer, sent - ok, sent);
    f.subject = e.control_kind;
    f.failures.assign(failures.begin(), failures.end());
    v.findings.push_back(std::move(f));
  }
  const auto p99 = control_p99(latencies);
  if (e.p99 && p99 && *p99 > *e.p99) {
    auto f = finding(o, codes::kP99OverBound, FindingClass::capacity, e.control_kind);
    f.measured = in_ms(*p99);
    f.bound = in_ms(*e.p99);
    f.unit = "ms";
    v.findings.push_back(std::move(f));
  }
}

void check_rss(const Observation& o, const FloodExpectation& e, Verdict& v) {
  if (!e.rss) return;
  const auto peak = rss_peak(o.timeline);
  if (!peak || *peak <= *e.rss) return;
  auto f = finding(o, codes::kRssOverBound, FindingClass::resources);
  f.measured = static_cast<double>(*peak) / kMiB;
  f.bound = static_cast<double>(*e.rss) / kMiB;
  f.unit = "MiB";
  v.findings.push_back(std::move(f));
}

}  // namespace

Finding flood_finding(const Observation& o, const FloodExpectation& e, const char* code,
                      FindingClass klass, std::size_t count, std::size_t of) {
  auto f = finding(o, code, klass, e.kind);
  f.count = count;
  f.of = of;
  return f;
}

void flood_frames_findings(const Observation& o, const FloodExpectation& e,
                           const FloodFrames& frames, std::size_t of, Verdict& v) {
  if (!frames.not_ended.empty()) {
    auto f = flood_finding(o, e, codes::kFloodNotEnded, FindingClass::deadline,
                           frames.not_ended.size(), of);
    f.measured = static_cast<double>(std::ranges::max(frames.not_ended));
    f.bound = static_cast<double>(e.frames);
    v.findings.push_back(std::move(f));
  }
  if (!frames.over.empty()) {
    auto f = flood_finding(o, e, codes::kFloodOverFrames, FindingClass::deadline,
                           frames.over.size(), of);
    f.measured = static_cast<double>(std::ranges::max(frames.over));
    f.bound = static_cast<double>(e.frames);
    f.ending = frames.over_ending;
    v.findings.push_back(std::move(f));
  }
}

void check_flood(const Observation& o, const FloodExpectation& e, Verdict& v) {
  const auto floods = of_kind(o, e.kind);
  // An HTTP/3 flood's records carry h3 (a connection that never got as far as its first
  // Initial too); an HTTP/2 one's never do.
  if (std::ranges::any_of(floods, [](const ConnectionRecord* r) { return bool(r->h3); })) {
    check_h3_flood_ended(o, e, v);
  } else {
    check_flood_ended(o, e, v);
  }
  check_control(o, e, v);
  check_rss(o, e, v);
}

}  // namespace loiter::suites::checks
