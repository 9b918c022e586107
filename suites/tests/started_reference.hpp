// A reference server a command-line test starts itself, not loiter: what `check --connect`
// and `survey --connect` are tried against.
#pragma once

#include <charconv>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli_run.hpp"
#include "loiter/fixtures/target/target.hpp"

namespace loiter::suites::testing {

// The reference server started by the test, not by loiter: on a port the OS picks, with
// 1 s deadlines and `faults`. Killed (SIGKILL) and reaped with the object.
class StartedReference {
 public:
  StartedReference(const std::filesystem::path& dir, const std::vector<std::string>& faults = {})
      : output_(dir / "server.out") {
    std::vector<std::string> argv{fixtures::reference_server_binary().string(), "--port", "0",
                                  "--send-timeout", "1"};
    argv.insert(argv.end(), kShortDeadlines.begin(), kShortDeadlines.end());  // the same flags
    for (const auto& fault : faults) argv.insert(argv.end(), {"--fault", fault});
    child_ = std::make_unique<Child>(argv, output_);
  }

  // The port it listens on, once it says so ("listening on 127.0.0.1:PORT"); 0 if it did
  // not within 10 s.
  unsigned short port() const {
    constexpr std::string_view kSays = "listening on 127.0.0.1:";
    if (!output_shows(output_, "\n", std::chrono::seconds(10))) return 0;
    const auto text = read_text(output_);
    const auto at = text.find(kSays);
    if (at == std::string::npos) return 0;
    unsigned short port = 0;
    const char* from = text.data() + at + kSays.size();
    std::from_chars(from, text.data() + text.size(), port);
    return port;
  }
  pid_t pid() const { return child_->pid(); }
  std::string output() const { return read_text(output_); }

 private:
  std::filesystem::path output_;
  std::unique_ptr<Child> child_;
};

}  // namespace loiter::suites::testing
