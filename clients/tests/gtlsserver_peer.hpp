// ngtcp2's example HTTP/3 server (gtlsserver, from the ngtcp2-server package that
// scripts/setup installs) as the h3 clients' tests run it: on a free 127.0.0.1 UDP port, a
// self-signed certificate and an htdocs directory made in a temporary directory, its own
// options; started by its PID and always stopped by it (SIGTERM, then SIGKILL), failures
// included. A missing gtlsserver is a set-up defect: the constructor throws, the test fails.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "loiter/testing/wait.hpp"

extern char** environ;

namespace loiter::clients::testing {

class GtlsServer {
 public:
  static constexpr const char* kPath = "/usr/sbin/gtlsserver";

  // `options` go before the address (--timeout=2s, --handshake-timeout=2s); `files` are
  // written into its htdocs (name, contents).
  explicit GtlsServer(std::vector<std::string> options,
                      const std::vector<std::pair<std::string, std::string>>& files = {})
      : options_(std::move(options)) {
    if (::access(kPath, X_OK) != 0) {
      throw std::runtime_error(std::string(kPath) +
                               " is missing: scripts/setup installs ngtcp2-server");
    }
    char pattern[] = "/tmp/loiter-gtlsserver-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    std::filesystem::create_directories(dir_ / "htdocs");
    for (const auto& [name, contents] : files) std::ofstream(dir_ / "htdocs" / name) << contents;
    const std::string make_cert =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 "
        "-subj /CN=localhost -keyout '" +
        (dir_ / "key.pem").string() + "' -out '" + (dir_ / "cert.pem").string() +
        "' >/dev/null 2>&1";
    if (std::system(make_cert.c_str()) != 0) throw std::runtime_error("openssl req failed");
    port_ = free_udp_port();
    start();
  }
  ~GtlsServer() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  GtlsServer(const GtlsServer&) = delete;
  GtlsServer& operator=(const GtlsServer&) = delete;

  // A new process on the same port: whatever connections the old one held are gone.
  void restart() {
    stop();
    start();
  }

  unsigned short port() const { return port_; }

  // Its port shows in /proc/net/udp, bound to 127.0.0.1.
  bool listening() const {
    std::ifstream table("/proc/net/udp");
    char hex_port[8];
    std::snprintf(hex_port, sizeof hex_port, ":%04X ", port_);
    const std::string bound = std::string("0100007F") + hex_port;
    std::string line;
    while (std::getline(table, line)) {
      if (line.find(bound) != std::string::npos) return true;
    }
    return false;
  }

  // A UDP port free on 127.0.0.1 now (the server binds it a moment later).
  static unsigned short free_udp_port() {
    boost::asio::io_context io;
    boost::asio::ip::udp::socket socket(
        io, {boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(0)});
    return socket.local_endpoint().port();
  }

 private:
  void start() {
    std::vector<std::string> args = {kPath, "-q", "--htdocs=" + (dir_ / "htdocs").string()};
    args.insert(args.end(), options_.begin(), options_.end());
    args.insert(args.end(), {"127.0.0.1", std::to_string(port_), (dir_ / "key.pem").string(),
                             (dir_ / "cert.pem").string()});
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string log = (dir_ / "server.log").string();
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int spawned = posix_spawn(&pid_, kPath, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) throw std::runtime_error("posix_spawn gtlsserver failed");
    if (!loiter::testing::wait_for([this] { return listening(); }, "gtlsserver's UDP port",
                                   std::chrono::seconds(2), std::chrono::milliseconds(10))) {
      throw std::runtime_error("gtlsserver did not bind its port within 2 s");
    }
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    const bool gone = loiter::testing::wait_for(
        [this] { return ::waitpid(pid_, nullptr, WNOHANG) == pid_; }, "gtlsserver's exit",
        std::chrono::seconds(1), std::chrono::milliseconds(10));
    if (!gone) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
  }

  std::vector<std::string> options_;
  std::filesystem::path dir_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace loiter::clients::testing
