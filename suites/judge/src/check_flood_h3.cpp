// The flood family over HTTP/3: how the server ended each flood connection, from the
// record's own counts. QUIC gives a server three ways to end a flood: close the connection
// (CONNECTION_CLOSE, or a stateless reset), stop granting credit (no MAX_STREAMS or MAX_DATA:
// the flood runs dry), or, for a request that would cost it too much, refuse the stream
// (RESET_STREAM, STOP_SENDING or a 4xx/5xx) while the connection lives on. A kind whose RFC
// gives the server no reason to close (a PING or PATH_CHALLENGE is owed an answer, not an
// ending) is judged on the server's memory instead (check_rss); a CONNECTION_CLOSE it does
// send must still carry a code its RFC names.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <utility>

#include "checks.hpp"

namespace loiter::suites::checks {

namespace check_flood_h3 {  // named: unity batches put other files' helpers beside these

// How the server ended one flood connection: not at all, or after `frames` of its frames
// (nullopt: it refused every stream the flood opened, so no frame got through unrefused).
struct FloodEnd {
  bool ended = false;
  std::optional<std::size_t> frames;
  std::string how;  // "close", "reset" (a stateless reset: "reset"), "credit-stalled"
};

// A close the server made: its CONNECTION_CLOSE or a stateless reset ended the connection.
bool closed_by_server(const ConnectionRecord& r) {
  return (r.ending == Ending::close || r.ending == Ending::reset) &&
         (r.h3->close || r.h3->stateless_reset);
}

// Every stream the server took a position on it refused, and it answered none: it ended the
// flood bomb by bomb. The last streams may still have been in flight when the flood stopped
// (against the reference server, 4,999 of 5,000 refused, the last one unanswered too), so
// "every opened stream" would fail a server that refused them all; one that answers a single
// bomb has let it through. (The survey reads the same: read_h3_floods.cpp.)
bool refused_every_stream(const clients::H3Record& h3) {
  return h3.streams_refused > 0 && h3.streams_answered == 0;
}

// The server's earliest ending of the flood. Its close counts from the frames sent when it was
// read (frames_at_close); a credit stall from all the flood sent (it stopped for want of credit).
FloodEnd end_of(const ConnectionRecord& r, const FloodExpectation& e) {
  const auto& h3 = *r.h3;
  if (e.refusals_end && refused_every_stream(h3)) return {.ended = true, .how = "streams-refused"};
  FloodEnd end;
  const auto take = [&end](std::size_t frames, std::string how) {
    if (end.ended && end.frames && *end.frames <= frames) return;
    end = {.ended = true, .frames = frames, .how = std::move(how)};
  };
  if (closed_by_server(r))
    take(h3.frames_at_close.value_or(h3.frames_sent), clients::ending_label(r));
  if (h3.credit_stalled) take(h3.frames_sent, "credit-stalled");
  return end;
}

// "H3_INTERNAL_ERROR (0x102)", "PROTOCOL_VIOLATION (0xa)"; a code without a name as
// h3_error_name gives it ("error 0x1a").
std::string code_name(const QuicCode& c) {
  auto name = clients::h3_error_name(c.code, c.application);
  if (name.starts_with("error ")) return name;
  return fmt::format("{} (0x{:x})", name, c.code);
}

void check_frames(const Observation& o, const FloodExpectation& e,
                  const std::vector<const ConnectionRecord*>& floods, Verdict& v) {
  FloodFrames frames;
  for (const auto* r : floods) {
    if (!r->h3) {  // never made a connection of its own: nothing the server ended
      frames.not_ended.push_back(0);
      continue;
    }
    const auto end = end_of(*r, e);
    if (!end.ended) {
      frames.not_ended.push_back(r->h3->frames_sent);
    } else if (end.frames && *end.frames > e.frames) {
      frames.over.push_back(*end.frames);
      if (frames.over_ending.empty()) frames.over_ending = end.how;
    }
  }
  flood_frames_findings(o, e, frames, floods.size(), v);
}

void check_close_codes(const Observation& o, const FloodExpectation& e,
                       const std::vector<const ConnectionRecord*>& floods, Verdict& v) {
  if (e.close_codes.empty()) return;
  std::map<std::pair<bool, std::uint64_t>, std::size_t> wrong;  // (application, code) -> count
  for (const auto* r : floods) {
    if (!r->h3 || !r->h3->close) continue;
    const QuicCode code{.code = r->h3->close->code, .application = r->h3->close->application};
    if (std::ranges::find(e.close_codes, code) == e.close_codes.end()) {
      ++wrong[{code.application, code.code}];
    }
  }
  std::vector<std::string> allowed;
  for (const auto& c : e.close_codes) allowed.push_back(code_name(c));
  for (const auto& [code, count] : wrong) {
    auto f =
        flood_finding(o, e, codes::kFloodCloseCode, FindingClass::answer, count, floods.size());
    f.error = code_name({.code = code.second, .application = code.first});
    f.expected_endings = allowed;
    v.findings.push_back(std::move(f));
  }
}

}  // namespace check_flood_h3

void check_h3_flood_ended(const Observation& o, const FloodExpectation& e, Verdict& v) {
  const auto floods = of_kind(o, e.kind);
  if (e.must_end) check_flood_h3::check_frames(o, e, floods, v);
  check_flood_h3::check_close_codes(o, e, floods, v);
}

}  // namespace loiter::suites::checks
