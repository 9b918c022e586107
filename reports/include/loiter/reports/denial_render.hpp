// A denial ladder for a person and for CI: denial.json's text, the console tables,
// denial.html and JUnit XML, each drawn from the denial document alone (nothing here
// measures). The JSON itself, and reading it back: denial_json.hpp.
#pragma once

#include <ostream>
#include <string>

#include "loiter/reports/denial.hpp"

namespace loiter::reports {

// denial.json as written to disk (schema loiter-denial/1, reports/SCHEMA.md): every field,
// enums by their words, a missing knee or descriptor limit as null; indented as
// write_pretty writes.
std::string denial_text(const Denial& denial);

// A header (targets, protocol, rate × seconds per step, p99 bound, least 2xx share,
// pinning), then per side a line per kind ("denied at 500 silent (accept-queue: accept
// queue 128/128)", "not denied up to 10,000 header-trickle") and per kind its steps in
// aligned columns (held, the attacker's cost, the regular traffic, the server's side, the
// verdict); for a comparison each kind's knees and their change; then problems and
// "interrupted: partial". No colour.
void render_console(const Denial& denial, std::ostream& out);

// One self-contained page (inline CSS and SVG, no script, nothing fetched): per kind two
// plots against the held connections, the regular 2xx share with the attacker's reopens/s on
// a right axis, and the regular p99 against the bound with the attacker's bytes/s on a right
// axis (both sides overlaid in a comparison); then each side's knees and step tables, a
// comparison's knees with a lower one in red, problems.
void render_html(const Denial& denial, std::ostream& out);

// JUnit XML (reports/JUNIT.md, "loiter ladder --held"): for a comparison, first a testsuite
// with a testcase per kind, failing when the candidate's knee is lower; then a testsuite per
// side with a testcase per kind, never failing (a denial ladder measures; the knee is in its
// system-out).
void render_junit(const Denial& denial, std::ostream& out);

}  // namespace loiter::reports
