// Readers that stalled the server's send path: each must be cut by the declared send
// deadline (timed where the client saw the cut during its pause), and the responses must
// be larger than the kernel's buffers, or nothing stalled at all.
#include <algorithm>
#include <charconv>

#include "checks.hpp"
#include "loiter/suites/judge/in_units.hpp"

namespace loiter::suites::checks {

namespace {

// Where the send deadline runs from in this record, at the earliest and the latest. Between
// writes: the server's last progress, which the paused reader sees only as a span, from its
// pause's start to when bytes last arrived (a segment its full buffer dropped comes back
// after a retransmission timeout, and may or may not let the server's write complete). Over
// the whole response: the request.
struct Origin {
  Duration earliest, latest;
};

std::optional<Origin> cut_origin(const ConnectionRecord& r, const CutExpectation& c) {
  if (!r.pause) return std::nullopt;
  if (c.from_pause) return Origin{r.pause->from, std::max(r.pause->from, r.pause->filled)};
  if (r.sends.empty()) return std::nullopt;
  return Origin{r.sends.front().at, r.sends.front().at};
}

// What the readers of `c` came to, by how they ended.
struct Tally {
  std::size_t of = 0;
  std::size_t never_cut = 0;          // a whole response, or still open at the end
  std::size_t before_pause = 0;       // ended by the server before the client paused
  std::vector<Duration> early, late;  // cuts seen during the pause, outside the window
};

void tally(const ConnectionRecord& r, const CutExpectation& c, Tally& t) {
  if (r.ending == Ending::connect_failed) return;  // reported already
  if (complete_responses(r) > 0 || !ended_by_server(r)) {
    ++t.never_cut;
    return;
  }
  const auto origin = cut_origin(r, c);
  if (!origin) {
    ++t.before_pause;
    return;
  }
  if (!r.pause->ended_while_paused) return;  // a FIN seen on resuming: cut, not timed
  if (const auto lasted = r.ended_at - origin->earliest; lasted < c.deadline - c.slack) {
    t.early.push_back(lasted);
  }
  if (const auto lasted = r.ended_at - origin->latest; lasted > c.deadline + c.slack) {
    t.late.push_back(lasted);
  }
}

Finding about(const Observation& o, const CutExpectation& c, const char* code, std::size_t count,
              std::size_t of) {
  auto f = finding(o, code, FindingClass::deadline, c.kind);
  f.count = count;
  f.of = of;
  f.since = c.from_pause ? reports::Since::read_pause : reports::Since::request_head;
  return f;
}

Finding outside(const Observation& o, const CutExpectation& c, const char* code,
                const std::vector<Duration>& lasted, Duration extreme, Duration edge,
                std::size_t of) {
  auto f = about(o, c, code, lasted.size(), of);
  f.measured = in_seconds(extreme);
  f.bound = in_seconds(edge);
  f.unit = "s";
  f.deadline = in_seconds(c.deadline);
  f.slack = in_seconds(c.slack);
  return f;
}

// Content-Length of a response, if it has one.
std::optional<std::size_t> content_length(const clients::Response& response) {
  for (const auto& [name, value] : response.fields) {
    if (!std::ranges::equal(name, std::string_view("content-length"),
                            [](char a, char b) { return (a | 0x20) == b; })) {
      continue;
    }
    std::size_t length = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (ec == std::errc{}) return length;
  }
  return std::nullopt;
}

}  // namespace

void check_cut(const Observation& o, const CutExpectation& c, Verdict& v) {
  Tally t;
  for (const auto& r : o.connections) {
    if (!c.kind.empty() && r.kind != c.kind) continue;
    ++t.of;
    tally(r, c, t);
  }
  if (t.never_cut > 0) {
    auto f = about(o, c, codes::kNeverCut, t.never_cut, t.of);
    f.since = reports::Since::none;
    f.measured = in_seconds(c.pause);
    f.bound = in_seconds(c.deadline);
    f.unit = "s";
    v.findings.push_back(std::move(f));
  }
  if (t.before_pause > 0) {
    auto f = about(o, c, codes::kEndedBeforeOrigin, t.before_pause, t.of);
    f.ending = "cut";
    v.findings.push_back(std::move(f));
  }
  if (!t.early.empty()) {
    v.findings.push_back(outside(o, c, codes::kClosedEarly, t.early, std::ranges::min(t.early),
                                 c.deadline - c.slack, t.of));
  }
  if (!t.late.empty()) {
    v.findings.push_back(outside(o, c, codes::kClosedLate, t.late, std::ranges::max(t.late),
                                 c.deadline + c.slack, t.of));
  }
}

void check_stall_bytes(const Observation& o, std::size_t stall_bytes, Verdict& v) {
  std::optional<std::size_t> smallest;
  for (const auto& r : o.connections) {
    if (r.responses.empty() || r.responses.front().status != 200) continue;
    const auto& response = r.responses.front();
    auto size = content_length(response);
    if (!size && response.complete) size = response.body_bytes;
    if (size) smallest = std::min(smallest.value_or(*size), *size);
  }
  if (!smallest || *smallest >= stall_bytes) return;
  auto f = finding(o, codes::kFitsInBuffers, FindingClass::infrastructure);
  f.measured = static_cast<double>(*smallest);
  f.bound = static_cast<double>(stall_bytes);
  f.unit = "B";
  v.findings.push_back(std::move(f));
}

}  // namespace loiter::suites::checks
