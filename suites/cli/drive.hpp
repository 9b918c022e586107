// `loiter drive KIND --connect HOST:PORT`: one client kind against a server the user started
// (loopback only), with a live line per second on stderr, and on exit (also on Ctrl-C) the
// summary and a run directory like check's. Nothing is judged: it is for debugging a server.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <vector>


namespace loiter::cli {

struct DriveOptions {
  std::string kind;
  std::string connect;     // "127.0.0.1:8080"
  std::optional<int> pid;  // the server's: its FDs, RSS, threads are sampled
  std::size_t count = 100;
  double rate = 200.0;
  double patience = 30.0;          // s
  std::optional<double> interval;  // s, paced kinds only (header-trickle, header-lines, ...)
  std::optional<double> pause;     // s, pausing kinds only (keepalive-partial, reader-pause)
  std::string path;                // kinds that request a path; "{bytes}": a stalling size
  std::string runs_root = "loiter-runs";
  std::string json_path;
  bool tls = false;               // speak TLS to the server
  std::vector<std::string> alpn;  // with --tls: the protocols offered; empty: http/1.1
  std::string sni;                // with --tls: the server name sent; empty: none
};

void add_drive_options(CLI::App& command, DriveOptions& options);

// 0 done, 2 usage error (also a non-loopback target), 3 infrastructure, 130 interrupted.
int run_drive(const DriveOptions& options);

}  // namespace loiter::cli
