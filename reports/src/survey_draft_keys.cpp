// Each key of a drafted target file from the measure that answers it (survey.hpp's ids).
#include "survey_draft_keys.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "loiter/reports/number_text.hpp"
#include "loiter/reports/survey_target.hpp"

namespace loiter::reports::draft {

namespace {

using State = KeyDraft::State;
using Origin = RunsFrom::Origin;

constexpr std::string_view kPromiseOnly = "a promise only once your configuration says so";

struct Context {
  const Survey& survey;
  std::string_view date;
};

// The measure `id` where the survey measured it; nullptr where it is absent or not measured.
const SurveyMeasure* measured(const Survey& survey, std::string_view id) {
  const auto* measure = find_measure(survey, id);
  return measure != nullptr && measure->not_measured.empty() ? measure : nullptr;
}

KeyDraft unmeasured(const Context& c, std::string table, std::string key,
                    std::initializer_list<std::string_view> ids) {
  std::string why = fmt::format("not measured: the survey has no {}", fmt::join(ids, " or "));
  for (const auto id : ids) {
    const auto* measure = find_measure(c.survey, id);
    if (measure != nullptr && !measure->not_measured.empty()) {
      why = fmt::format("not measured ({}): {}", id, measure->not_measured);
      break;
    }
  }
  return {.table = std::move(table), .key = std::move(key), .why = std::move(why)};
}

std::string measured_head(const Context& c, const SurveyMeasure& m) {
  return fmt::format("measured {} ({}), {}/{} connections", c.date, m.id, m.agreed, m.connections);
}

std::string none_within(const Context& c, const SurveyMeasure& m) {
  return fmt::format("none within {} s: this server did not end {} ({})",
                     plain_number(c.survey.max_wait), m.title, m.id);
}

KeyDraft with(std::string table, std::string key, State state, std::string value, std::string why) {
  return {.table = std::move(table),
          .key = std::move(key),
          .state = state,
          .value = std::move(value),
          .why = std::move(why)};
}

// A probe the server answered whole met no deadline: its time is the exchange's.
KeyDraft answered_whole(std::string table, std::string key, const SurveyMeasure& m) {
  return with(std::move(table), std::move(key), State::unmeasured, "",
              fmt::format("not measured ({}): the server answered {}/{} connections whole, no "
                          "deadline met",
                          m.id, m.agreed, m.connections));
}

// A deadline: the median of the agreeing connections; none where they were still open.
KeyDraft deadline(const Context& c, std::string table, std::string key, const SurveyMeasure* m,
                  std::initializer_list<std::string_view> ids) {
  if (m == nullptr) return unmeasured(c, std::move(table), std::move(key), ids);
  if (m->ending.way == SurveyEnding::Way::answered) {
    return answered_whole(std::move(table), std::move(key), *m);
  }
  if (!m->seconds)
    return with(std::move(table), std::move(key), State::none, "", none_within(c, *m));
  const auto& s = *m->seconds;
  return with(std::move(table), std::move(key), State::measured,
              drafted_seconds(s.median, c.survey.slack),
              fmt::format("{}: {:.2f} s (min {:.2f}, max {:.2f}); {}", measured_head(c, *m),
                          s.median, s.min, s.max, kPromiseOnly));
}

// Whether progress extended the deadline its stalled twin met.
KeyDraft progress(const Context& c, std::string table, std::string key, std::string_view id) {
  const auto* m = measured(c.survey, id);
  if (m == nullptr || !m->extends) {
    auto draft = unmeasured(c, std::move(table), std::move(key), {id});
    if (m != nullptr) draft.why = fmt::format("not measured ({}): nothing to compare against", id);
    return draft;
  }
  return with(std::move(table), std::move(key), State::measured, *m->extends ? "true" : "false",
              fmt::format("{}: {} {} the deadline; {}", measured_head(c, *m),
                          m->interval.empty() ? "progress" : m->interval,
                          *m->extends ? "extended" : "did not extend", kPromiseOnly));
}

// What the server answered when the deadline fired: "408" (then a close or a reset) or
// "close"; another status is no promise a target file can make.
KeyDraft answer(const Context& c, std::string key, std::string_view id) {
  const auto* m = measured(c.survey, id);
  if (m == nullptr) return unmeasured(c, "promises", std::move(key), {id});
  if (m->ending.way == SurveyEnding::Way::answered) {
    return answered_whole("promises", std::move(key), *m);
  }
  if (!m->seconds) return with("promises", std::move(key), State::none, "", none_within(c, *m));
  const auto e = to_string(m->ending);
  const auto answer = answer_of(m->ending);
  if (answer == TimeoutAnswer::none) {
    return with("promises", std::move(key), State::none, "",
                fmt::format("{}: ended {}, neither \"408\" nor \"close\" (declared, either is a "
                            "wrong ending)",
                            measured_head(c, *m), e));
  }
  return with("promises", std::move(key), State::measured, fmt::format("\"{}\"", to_string(answer)),
              fmt::format("{}: ended {}; {}", measured_head(c, *m), e, kPromiseOnly));
}

// A clock's origin (runs_from) as a string key, where the survey's word is one the key takes.
KeyDraft origin(const Context& c, std::string table, std::string key, std::string_view id,
                std::initializer_list<Origin> takes) {
  const auto* m = measured(c.survey, id);
  if (m == nullptr) return unmeasured(c, std::move(table), std::move(key), {id});
  if (id == "next-head" && m->runs_from.origin == Origin::never) {
    return with(std::move(table), std::move(key), State::none, "",
                fmt::format("{}: the server never timed out a second head", measured_head(c, *m)));
  }
  if (std::ranges::find(takes, m->runs_from.origin) == takes.end()) {
    return with(std::move(table), std::move(key), State::unmeasured, "",
                fmt::format("not measured ({}): no clock's origin seen", id));
  }
  const auto from = to_string(m->runs_from);
  return with(std::move(table), std::move(key), State::measured, fmt::format("\"{}\"", from),
              fmt::format("{}: it ran from \"{}\"; {}", measured_head(c, *m), from, kPromiseOnly));
}

// A GOAWAY before the idle close: h2-idle's runs_from is the GOAWAY's code, or "none".
KeyDraft goaway(const Context& c) {
  const auto* m = measured(c.survey, "h2-idle");
  if (m == nullptr) return unmeasured(c, "h2", "goaway_on_idle", {"h2-idle"});
  if (m->runs_from.origin == Origin::none) {
    return with("h2", "goaway_on_idle", State::unmeasured, "",
                "not measured (h2-idle): no idle close to see a GOAWAY before");
  }
  const bool sent = m->runs_from.origin != Origin::no_goaway;
  return with("h2", "goaway_on_idle", State::measured, sent ? "true" : "false",
              fmt::format("{}: {}; {}", measured_head(c, *m),
                          sent ? "GOAWAY " + to_string(m->runs_from) + " before the idle close"
                               : std::string("closed idle without a GOAWAY"),
                          kPromiseOnly));
}

// The header deadline: a partial head's, else (h2) a header block's, else a silent one's.
const SurveyMeasure* header_measure(const Survey& survey, bool h2) {
  if (const auto* m = measured(survey, "header-partial")) return m;
  if (const auto* m = h2 ? measured(survey, "h2-headers-no-end") : nullptr) return m;
  return measured(survey, "header-silent");
}

// A bracketed deadline (h3-handshake, h3-idle ended "gone"): the earliest time a probe found
// the connection gone, the bracket's max. A check probes 1.5 slacks before a declared deadline
// and half a slack after it, so the value must lie within that of the true one: the bracket's
// max is at most its width (about a slack) past it. It is written as the whole second below
// when within a tenth of a second of it, else rounded up to the next 0.05 s.
std::string bracket_value(double gone) {
  const double whole = std::floor(gone);
  if (whole >= 1 && gone - whole <= 0.1) return plain_number(whole);
  // Within a millisecond of a step is on it (a probe's time is the send's, a hair past it).
  return plain_number(std::max(0.05, std::ceil(gone * 20 - 0.02) / 20));
}

// An [h3] deadline: a bracket where the server forgot the connection silently, else as
// deadline() (a CONNECTION_CLOSE or a stream's end, timed).
KeyDraft h3_deadline(const Context& c, std::string key, std::string_view id) {
  const auto* m = measured(c.survey, id);
  if (m == nullptr || m->ending.way != SurveyEnding::Way::gone || !m->seconds) {
    return deadline(c, "h3", std::move(key), m, {id});
  }
  const auto& s = *m->seconds;
  // The idle timeout the server advertised, where it lies in the bracket: it is the one kept
  // (RFC 9000 10.1: the smaller of the two sides', and the client's is longer).
  // A probe answered just past it is no sign against it: the server's timer fires on its own
  // grid, and RFC 9000 10.1 lets it wait three PTOs more.
  const double near = c.survey.slack / 2;
  if (m->advertised && *m->advertised > 0 && *m->advertised >= s.min - near &&
      *m->advertised <= s.max) {
    return with("h3", std::move(key), State::measured, plain_number(*m->advertised),
                fmt::format("{}: still held at {:.2f} s, gone at {:.2f} s, the max_idle_timeout it "
                            "advertised between; {}",
                            measured_head(c, *m), s.min, s.max, kPromiseOnly));
  }
  return with("h3", std::move(key), State::measured, bracket_value(s.max),
              fmt::format("{}: still held at {:.2f} s, gone at {:.2f} s; {}", measured_head(c, *m),
                          s.min, s.max, kPromiseOnly));
}

// [h3] idle_advertised: the max_idle_timeout the server's transport parameters carried.
KeyDraft h3_advertised(const Context& c) {
  const auto* m = measured(c.survey, "h3-idle");
  if (m == nullptr || !m->advertised) {
    auto draft = unmeasured(c, "h3", "idle_advertised", {"h3-idle"});
    if (m != nullptr) draft.why = "not measured (h3-idle): no handshake was done";
    return draft;
  }
  if (*m->advertised == 0) {
    return with("h3", "idle_advertised", State::none, "",
                fmt::format("measured {} (h3-idle): the server advertised max_idle_timeout 0, no "
                            "idle timeout of its own",
                            c.date));
  }
  return with("h3", "idle_advertised", State::measured, plain_number(*m->advertised),
              fmt::format("measured {} (h3-idle): the server's max_idle_timeout; {}", c.date,
                          kPromiseOnly));
}

// [h3] header_408 / body_408: whether the stalled stream was answered 408.
KeyDraft h3_answer(const Context& c, std::string key, std::string_view id) {
  const auto* m = measured(c.survey, id);
  if (m == nullptr) return unmeasured(c, "h3", std::move(key), {id});
  if (!m->seconds) return with("h3", std::move(key), State::none, "", none_within(c, *m));
  const bool answered_408 = m->ending.status == 408;
  return with("h3", std::move(key), State::measured, answered_408 ? "true" : "false",
              fmt::format("{}: ended {}; {}", measured_head(c, *m), to_string(m->ending),
                          kPromiseOnly));
}

// What a survey over HTTP/3 drafts: [h3]'s keys alone (its HTTP/1.1 deadlines say nothing of
// its HTTP/3 listener, nor these of them).
std::vector<KeyDraft> h3_keys(const Context& c) {
  return {h3_deadline(c, "handshake", "h3-handshake"),
          h3_advertised(c),
          h3_deadline(c, "idle", "h3-idle"),
          h3_deadline(c, "header", "h3-header"),
          h3_deadline(c, "body", "h3-body"),
          h3_deadline(c, "send", "h3-send"),
          h3_answer(c, "header_408", "h3-header"),
          h3_answer(c, "body_408", "h3-body")};
}

const SurveyMeasure* idle_measure(const Survey& survey, bool h2) {
  if (const auto* m = measured(survey, "idle")) return m;
  return h2 ? measured(survey, "h2-idle") : nullptr;
}

}  // namespace

std::vector<KeyDraft> draft_keys(const Survey& survey, std::string_view date, bool h2) {
  const Context c{.survey = survey, .date = date};
  if (survey.protocol == SurveyProtocol::h3) return h3_keys(c);
  std::vector<KeyDraft> keys = {
      deadline(c, "deadlines", "header", header_measure(survey, h2),
               {"header-partial", "header-silent"}),
      deadline(c, "deadlines", "body", measured(survey, "body-partial"), {"body-partial"}),
      progress(c, "deadlines", "body_resets_on_progress", "body-trickle"),
      deadline(c, "deadlines", "idle", idle_measure(survey, h2), {"idle"}),
      origin(c, "deadlines", "next_head_from", "next-head",
             {Origin::first_byte, Origin::last_response}),
      answer(c, "on_header_timeout", "header-partial"),
      answer(c, "on_body_timeout", "body-partial"),
      deadline(c, "promises", "send_timeout", measured(survey, "send-stopped"), {"send-stopped"}),
      progress(c, "promises", "send_timeout_resets_on_progress", "send-slow")};
  if (survey.tls) {
    keys.push_back(
        deadline(c, "tls", "handshake", measured(survey, "tls-handshake"), {"tls-handshake"}));
    keys.push_back(
        origin(c, "tls", "header_from", "tls-header-from", {Origin::connect, Origin::handshake}));
  }
  if (h2) {
    keys.push_back(deadline(c, "h2", "preface", measured(survey, "h2-preface"), {"h2-preface"}));
    keys.push_back(goaway(c));
  }
  return keys;
}

std::string placeholder(const KeyDraft& key) {
  return fmt::format("{{{}.{}}}", key.table, key.key);
}

}  // namespace loiter::reports::draft
