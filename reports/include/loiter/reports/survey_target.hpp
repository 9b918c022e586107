// The target file `loiter survey --write FILE` drafts: what a survey measured, written as
// [deadlines], [promises] and the measured keys of [tls] and [h2], each value under a comment
// saying what was measured. A pure function of plain data: no file is read or written here.
//
// A survey of a target file keeps that file's text and replaces only those tables (and keys);
// a key the survey could not measure keeps its old value ("# kept from nginx.toml: not
// measured"), and so does one the file uses as a placeholder ({deadlines.header}), which must
// stay. A survey of --connect with no file gets a connect-only file: name, description,
// [paths] and the measured tables, no command. A measure that saw no ending is no deadline:
// its key is left out with a comment, never given a value loiter did not measure.
//
// The keys and the measures (survey.hpp) they come from:
//   deadlines.header           header-partial's median; else (h2) h2-headers-no-end's; else
//                              header-silent's
//   deadlines.body             body-partial
//   body_resets_on_progress    body-trickle's extends
//   deadlines.idle             idle; else (h2) h2-idle
//   next_head_from             next-head's runs_from ("never": left out)
//   on_header_timeout          header-partial's ending: "408" for 408+close or 408+reset,
//                              "close" for close or reset, another status only a comment
//   on_body_timeout            body-partial's ending, the same way
//   send_timeout               send-stopped
//   send_timeout_resets_...    send-slow's extends
//   tls.handshake              tls-handshake
//   tls.header_from            tls-header-from's runs_from
//   h2.preface                 h2-preface
//   h2.goaway_on_idle          h2-idle's runs_from: not "none"
// A survey over HTTP/3 drafts [h3] alone ([deadlines] and [promises] are kept as they are):
//   h3.handshake, h3.idle      h3-handshake, h3-idle: a bracket's max (the earliest time the
//                              connection was found gone), else the server's close, timed
//   h3.idle_advertised         h3-idle's advertised (0: left out, no idle timeout)
//   h3.header, .body, .send    h3-header, h3-body, h3-send
//   h3.header_408, .body_408   h3-header's, h3-body's ending: true for 408+...
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loiter/reports/survey.hpp"

namespace loiter::reports {

// What the drafted file holds that a survey does not measure.
struct DraftHead {
  std::string date;         // "2026-12-03" in every comment; empty: the date the survey started
  std::string name;         // a connect-only file's name ("mine"); a target file keeps its own
  std::string description;  // a connect-only file's description
  // The surveyed target file: its name in comments ("nginx.toml") and its text as it was;
  // `original` nullopt: the survey was of --connect, with no file.
  std::string source;
  std::optional<std::string> original;
  // A connect-only file's [paths] ("health", "/health"), in order; [tls] (survey.tls) offers
  // `alpn` (empty: loiter's default) and sends `server_name` (empty: none); `h2`: an [h2]
  // table, whatever the survey's protocol says.
  std::vector<std::pair<std::string, std::string>> paths;
  std::vector<std::string> alpn;
  std::string server_name;
  bool h2 = false;
};

// The drafted target file's text. Throws std::invalid_argument when `original` cannot be
// scanned (a string never closed) or writes [deadlines], [promises], [tls] or [h2] other than
// as a table of its own ("deadlines.header = 2" at the top, an inline table).
std::string draft_target(const Survey& survey, const DraftHead& head);

// A deadline's value as drafted from a median: to a whole second when within `slack` of one
// (and not 0), else to 0.01 s (at least 0.01): 2.004 -> "2", 1.372 -> "1.37", 0.5 -> "0.5".
std::string drafted_seconds(double median, double slack);

}  // namespace loiter::reports
