// A ladder's values in words, shared by its console tables, ladder.html and JUnit XML.
// Private to reports/.
#pragma once

#include <string>
#include <vector>

#include "loiter/reports/ladder.hpp"

namespace loiter::reports::ladder_words {

// A protocol's word as a person reads it: "http1" -> "HTTP/1.1", "h2c" -> "HTTP/2 (h2c)".
std::string protocol_text(const std::string& protocol);
// An argument as a shell would need it to read it back: as it is when it is plain, else in
// single quotes ("daemon off;" -> 'daemon off;'). The denial ladder's words use both.
std::string shell_word(const std::string& word);

// "loiter 0.1.0 ladder of nginx over HTTP/1.1"; a comparison: "loiter 0.1.0 ladder of
// nginx-1.24 (baseline) against nginx-1.26 (candidate) over HTTP/1.1".
std::string title(const Ladder& ladder);
// "3 trials × 5 s per step, p99 bound 200 ms" (a comparison: "5 pairs of trials × 5 s per
// step, alternated ABBA, p99 bound 200 ms, tolerance 5%"), then the pinning and the time it
// took: "; server on CPU 0, client on CPU 1; took 95.5 s".
std::string settings(const Ladder& ladder);
// "server /usr/sbin/nginx, sha256 9f86d081884c…"; "" when neither is known.
std::string server_text(const std::string& binary, const std::string& sha256);
// "command: nginx -c nginx.conf"; "" without one.
std::string command_text(const std::vector<std::string>& command);
// The same of a side, a ladder's or a denial ladder's (both have these fields). "nginx
// (baseline)"; its server; its command.
template <class Side>
std::string side_name(const Side& side) {
  return side.target + " (" + side.role + ")";
}
template <class Side>
std::string server(const Side& side) {
  return server_text(side.server_binary, side.server_sha256);
}
template <class Side>
std::string command(const Side& side) {
  return command_text(side.command);
}
// A step in a table: "5,000/s", "64 conn".
std::string step(const LadderStep& step);
// A step in a sentence: "5,000/s", "64 connections".
std::string step_long(const LadderStep& step);
// Rates as whole requests a second, grouped: "41,200".
std::string rate(double per_second);
// A figure with about 3 significant digits, grouped: "0.412", "1.23", "1,210".
std::string figure(double value);
// A count, grouped: "1,024".
std::string count(double value);
// A fraction of a core as a percentage: "97%".
std::string busy(double fraction);
// "within", "client limit", "server limit", "over p99" (a rate step over the bound),
// "not within" (a rate step short of what was asked for otherwise), "-" (a saturation step
// with no limit: it has no bound).
std::string mark(const LadderStep& step, double p99_bound_ms);
// "knee: 20,000/s (p99 within 200 ms with everything answered); above it: <knee_note>";
// "no knee: <knee_note>"; "no rate steps" for a side without any.
std::string knee(const LadderSide& side, double p99_bound_ms);

// A paired figure's median on one side, with its unit: "41,200/s", "1.23 ms"; "-" without pairs.
std::string side_median(const PairedFigure& figure, double median);
// Every pair's value on one side, in its unit: "1.5, 1.4, 1.6 ms", "50,000, 49,800/s".
std::string values(const PairedFigure& figure, const std::vector<double>& values);
// A change as a percentage with its sign and one decimal: "+21.0%", "-3.4%", "0.0%".
std::string change(double fraction);
// The change from the baseline's median to the candidate's ("+21.0%"), beside the median of
// the pairs' changes, which the verdict is of: the two may differ, even in sign; "-" without
// pairs or with a baseline median of 0.
std::string medians_change(const PairedFigure& figure);
// "[+15.2%, +30.1%] at 93.8%"
std::string interval(const PairedFigure& figure);
// Every pair's change, in order: "+21.0%, +18.3%, +25.5%".
std::string pairs(const PairedFigure& figure);
// "p99 at 5000/s: baseline 1.5 ms, candidate 1.81 ms (+21.0%); median change over the
// pairs +21.0% [+15.2%, +30.1%] at 93.8%: worse (tolerance 5%)"
std::string paired_sentence(const PairedFigure& figure, double tolerance);
// "worse on 1 of 4 figures" / "worse on none of 4 figures"
std::string comparison_summary(const Ladder& ladder);
// "5%"
std::string percent(double fraction);

}  // namespace loiter::reports::ladder_words
