// `loiter survey`: what a server does with stalled clients, measured rather than declared:
// one table on the console (and survey.html, survey.json in a run directory), and on request
// a drafted target file (--write) that `loiter check` accepts as it is.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <vector>

namespace loiter::cli {

struct SurveyOptions {
  std::string target;                 // a bundled name or a target file; empty: reference
  std::vector<std::string> settings;  // --set table.key=value
  std::vector<std::string> faults;    // the reference server's fault switches
  std::string connect;                // a running server, HOST:PORT (instead of starting one)
  std::optional<int> pid;             // with --connect: its FDs and RSS
  std::string allow_remote;           // the one host off loopback allowed
  bool tls = false;                   // with --connect: speak TLS
  bool h2 = false;                    // with --connect: HTTP/2 (h2c, or ALPN h2 with --tls)
  bool h3 = false;                    // with --connect: HTTP/3 over QUIC (UDP)
  bool floods = false;                // HTTP/2: also the four floods
  std::string sni;
  std::string health;  // with --connect: paths (a target file's [paths] otherwise)
  std::string echo;
  std::string large;
  std::size_t connections = 5;
  double max_wait = 120;  // s
  std::string runs_root = "loiter-runs";
  std::string json_path;
  std::string write_path;
};

void add_survey_options(CLI::App& command, SurveyOptions& options);

// 0 surveyed, 2 a bad input (refused before any connection), 3 the server did not start
// or could not be reached, 130 interrupted (what was measured is still shown and written).
int run_survey_command(const SurveyOptions& options);

}  // namespace loiter::cli
