// Inputs refused before anything starts: an --json or --junit path that cannot be written (or would
// overwrite another run's document), a --pid that names no process.
#include "refusals.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "loiter/fixtures/os/fd.hpp"

namespace loiter::cli {

namespace fs = std::filesystem;

namespace {

// Every run directory is made with these two beside its report.json.
bool is_run_directory(const fs::path& dir) {
  std::error_code ignored;
  return fs::is_directory(dir / "records", ignored) && fs::is_directory(dir / "timeline", ignored);
}

// /proc and /sys: their files take no report, yet root may open one for writing
// (/proc/version), and only the write at the end of the run would fail.
bool kernel_file_system(const fs::path& dir) {
  struct statfs about {};
  return ::statfs(dir.c_str(), &about) == 0 &&
         (about.f_type == PROC_SUPER_MAGIC || about.f_type == SYSFS_MAGIC);
}

// Opens the file as it will be written, without changing it: appending to one that exists,
// creating (and removing again) one that does not.
std::optional<std::string> write_problem(const fs::path& path) {
  std::error_code ignored;
  const bool exists = fs::exists(path, ignored);
  const fixtures::Fd fd(exists
                            ? ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC)
                            : ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (!fd) return fmt::format("cannot write it: {}", std::strerror(errno));
  if (!exists) ::unlink(path.c_str());
  return std::nullopt;
}

}  // namespace

std::optional<std::string> output_path_problem(std::string_view option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  const fs::path path = fs::absolute(text);
  const auto problem = [&](const std::string& why) {
    return fmt::format("{} {}: {}", option, text, why);
  };
  std::error_code ignored;
  if (fs::is_directory(path, ignored)) return problem("it is a directory; name a file");
  const auto dir = path.parent_path();
  if (!fs::is_directory(dir, ignored)) {
    return problem(fmt::format("its directory {} does not exist", dir.string()));
  }
  if (kernel_file_system(dir)) {
    return problem(fmt::format("{} is the kernel's (proc or sysfs): no file can be written there",
                               dir.string()));
  }
  if (is_run_directory(dir)) {
    return problem(fmt::format(
        "it is inside the run directory {} of another run, whose report.json is that run's "
        "document; choose a path outside it (this run gets its own run directory)",
        dir.string()));
  }
  if (auto why = write_problem(path)) return problem(*why);
  return std::nullopt;
}

std::optional<std::string> pid_problem(pid_t pid) {
  if (pid <= 0) return fmt::format("--pid {}: not a process id", pid);
  if (::kill(pid, 0) == 0 || errno == EPERM) return std::nullopt;
  return fmt::format("--pid {}: no such process (the server's FDs could not be sampled)", pid);
}

}  // namespace loiter::cli
