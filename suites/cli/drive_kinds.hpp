// The client kinds `loiter drive` can run, by the names their records carry (the runner's
// drive_kinds(), from the clients' registry): which of the command line's settings each takes.
#pragma once

#include <string>
#include <vector>

namespace loiter::cli {

std::vector<std::string> kind_names();
// Whether `kind` paces its sends (or reads) at an interval: header-trickle, header-lines, ...
bool is_paced(const std::string& kind);
// Whether `kind` pauses once for a while: keepalive-partial, reader-pause.
bool takes_pause(const std::string& kind);
// Whether `kind` requests a path (every kind that sends a whole request line).
bool takes_path(const std::string& kind);
// The kinds for which `takes` holds, comma-separated: for a refusal's words.
std::string kinds_that(bool (*takes)(const std::string&));

}  // namespace loiter::cli
