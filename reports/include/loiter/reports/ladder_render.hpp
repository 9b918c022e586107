// A ladder for a person and for CI: ladder.json's text, the console tables, ladder.html and
// JUnit XML, each drawn from the ladder document alone (nothing here measures). The JSON
// itself, and reading it back: ladder_json.hpp.
#pragma once

#include <ostream>
#include <string>

#include "loiter/reports/ladder.hpp"

namespace loiter::reports {

// ladder.json as written to disk (schema loiter-ladder/1, reports/SCHEMA.md): every field,
// enums by their words, a missing knee as null; indented as write_pretty writes.
std::string ladder_text(const Ladder& ladder);

// A header (targets, protocol, trials × seconds, p99 bound, a comparison's tolerance,
// pinning), then per side its steps in aligned columns with a mark (within, client limit,
// server limit, over p99) and a step's note under it, and its knee; for a comparison the
// paired figures with each pair's change; then problems and "interrupted: partial". No colour.
void render_console(const Ladder& ladder, std::ostream& out);

// One self-contained page (inline CSS and SVG, no script, nothing fetched): the rate steps
// per side (requested, dispatched, 2xx; client-limited steps marked), p99 per step against
// the bound, saturation (2xx/s against connections), then the step tables, the knees and a
// comparison's paired figures with worse in red and better in green.
void render_html(const Ladder& ladder, std::ostream& out);

// JUnit XML (reports/JUNIT.md, "loiter ladder"): a testsuite per side with a testcase per
// step, never failing (a client-limited step skipped); for a comparison, first a testsuite
// with a testcase per paired figure, failing when the candidate is worse.
void render_junit(const Ladder& ladder, std::ostream& out);

}  // namespace loiter::reports
