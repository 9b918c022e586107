// How a watch of a server ended (`loiter observe`, observe.json's "ended_by"): a value the
// code compares, its text only where it is written or read.
#pragma once

#include <optional>
#include <string_view>

namespace loiter::suites {

enum class WatchEnding {
  none,           // no end written: the observer was killed (or is still running)
  duration,       // its time ran out
  interrupt,      // the user stopped it (Ctrl-C, SIGTERM)
  server_exited,  // the server's process tree was gone
};

// "duration", "interrupt", "server-exited"; "" for none.
constexpr std::string_view to_string(WatchEnding ending) {
  switch (ending) {
    case WatchEnding::duration:
      return "duration";
    case WatchEnding::interrupt:
      return "interrupt";
    case WatchEnding::server_exited:
      return "server-exited";
    case WatchEnding::none:
      break;
  }
  return "";
}

// The end `text` names (to_string's); nullopt for any other text, "" among them.
constexpr std::optional<WatchEnding> watch_ending_of(std::string_view text) {
  for (const auto ending :
       {WatchEnding::duration, WatchEnding::interrupt, WatchEnding::server_exited}) {
    if (to_string(ending) == text) return ending;
  }
  return std::nullopt;
}

}  // namespace loiter::suites
