// A denial ladder's values in words, shared by its console tables, denial.html and JUnit
// XML; numbers as the ladder's words write them (ladder_words.hpp). Private to reports/.
#pragma once

#include <string>

#include "ladder_words.hpp"
#include "loiter/reports/denial.hpp"

namespace loiter::reports::denial_words {

// "loiter 0.1.0 denial ladder of nginx over HTTP/1.1"; a comparison: "loiter 0.1.0 denial
// ladder of nginx-1.24 (baseline) against nginx-1.26 (candidate) over HTTP/2 (h2c)".
std::string title(const Denial& denial);
// "regular traffic 2,000/s for 5 s a step; denied under 99% 2xx or over p99 200 ms", then
// the pinning and the time it took: "; server on CPU 0, client on CPU 1; took 95.5 s".
std::string settings(const Denial& denial);
// A side's name, server and command: as the ladder's (ladder_words.hpp).
using ladder_words::command;
using ladder_words::server;
using ladder_words::side_name;

// A knee in a table: "500"; not denied: "> 10,000" (up to the highest step run); "not run"
// without any step; "0 (control)" where the regular traffic alone was denied.
std::string knee(std::optional<std::size_t> knee, std::size_t highest);
// A kind's knee as a sentence: "denied at 500 silent (accept-queue: accept queue 128/128)",
// "not denied up to 10,000 header-trickle", "header-trickle: not run"; a knee of 0 (the
// side's control step was denied): "silent: not run: the regular traffic alone was denied".
std::string kind_line(const DenialKind& kind);
// The step a kind was denied at (held = its knee); nullptr when not denied.
const DenialStep* knee_step(const DenialKind& kind);

// The side's control step in a line: "control, the regular traffic alone: 2xx 100.0%, p99
// 1.1 ms, errors 0; server FDs 14/16,384, accept queue 0/128, busy 6%: served"; "" without.
std::string control(const DenialSide& side);

// The regular traffic's 2xx answers as a share of those requested, floored to a tenth of a
// percent (so "100.0%" only when every one was): "41.0%"; "-" when none was requested.
std::string share(const DenialStep& step);
// The held connections open when the regular traffic began, and the fewest while it ran:
// "500/498".
std::string reached(const DenialStep& step);
// The server's peak descriptors and its limit when read: "812/1,024", "812".
std::string fds(const DenialStep& step);
// The accept queue's peak against the backlog: "128/128".
std::string queue(const DenialStep& step);
// The cause with its figures: "accept-queue: accept queue 128/128", "cpu"; "" when none.
std::string cause(const DenialStep& step);
// "denied: 2xx 41.0% < 99%; accept-queue: accept queue 128/128"; "served" when not denied.
std::string verdict(const DenialStep& step);
// The errors by kind: "connect 12, timeout 3"; "" without any.
std::string error_kinds(const DenialStep& step);

// A kind's knees compared: "silent: knee 500 on the baseline, 250 on the candidate: lower".
std::string comparison_sentence(const DenialComparison& kind);
// "the candidate is denied sooner on 1 of 3 kinds" / "... on none of 3 kinds".
std::string comparison_summary(const Denial& denial);

}  // namespace loiter::reports::denial_words
