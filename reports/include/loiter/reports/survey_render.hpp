// A survey for a person: the console table and survey.html, drawn from the survey document
// alone (never from a live probe).
#pragma once

#include <ostream>

#include "loiter/reports/survey.hpp"

namespace loiter::reports {

// A header line (target, endpoint, protocol, connections per probe, max wait, duration), then
// one row per measure in aligned columns: behaviour, time and what it runs from, min/median/
// max, agreement, ending; under a row its facts, exposure and note; a measure not measured
// shows why. Then the problems, and "interrupted: partial" when the user stopped it. No
// colour.
void render_console(const Survey& survey, std::ostream& out);

// One self-contained page (inline CSS and SVG, no script, nothing fetched): the exposures
// first ("What this server lets a client hold"), then the same table with each exposure
// highlighted and, for a measured time, a small strip of its min, median and max over
// 0 … max_wait seconds.
void render_html(const Survey& survey, std::ostream& out);

}  // namespace loiter::reports
