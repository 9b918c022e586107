// A server watch's directory written as it happens (observe.json, samples.jsonl line by
// line) and read back.
#include "loiter/suites/document/server_watch.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <utility>

#include "loiter/suites/document/raw_json.hpp"
#include "watch_file.hpp"

namespace loiter::suites {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace described = reports::described;
using std::chrono::system_clock;

namespace {

double unix_seconds(system_clock::time_point at) {
  return std::chrono::duration<double>(at.time_since_epoch()).count();
}

// All of `text` to `fd`, by one write() (a regular file takes it whole, or fails).
void write_all(int fd, const std::string& text, const fs::path& path) {
  const ssize_t written = ::write(fd, text.data(), text.size());
  if (written != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error(fmt::format(
        "cannot write {}: {}", path.string(),
        written < 0 ? std::strerror(errno) : fmt::format("{} of {} bytes", written, text.size())));
  }
}

fixtures::Fd open_new(const fs::path& path, int flags) {
  fixtures::Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644));
  if (!fd)
    throw std::runtime_error(
        fmt::format("cannot create {}: {}", path.string(), std::strerror(errno)));
  return fd;
}

// "{"key": value, ...}" one key a line, as the codec writes each value but the unix times
// (the only doubles), which are in fixed notation with microseconds, not 1.76E9.
std::string header_text(const ServerWatch& h, bool ended) {
  const auto header = described::write(
      watch_file::Header{.loiter_version = h.loiter_version,
                         .pid = h.pid,
                         .port = h.port,
                         .host = h.host.empty() ? std::nullopt : std::optional(h.host),
                         .target = h.target,
                         .started = rfc3339_ms(h.started),
                         .started_unix = unix_seconds(h.started),
                         .ended = ended ? std::optional(rfc3339_ms(h.ended)) : std::nullopt,
                         .ended_unix = ended ? std::optional(unix_seconds(h.ended)) : std::nullopt,
                         .ended_by = ended ? std::optional(h.ended_by) : std::nullopt,
                         .period_ms = h.period.count(),
                         .samples = kWatchSamplesFile,
                         .unit = "unix: seconds since 1970-01-01 UTC, the wall clock; rss in KiB"});
  std::string text = "{";
  for (const auto& [key, value] : header.as_object()) {
    text += fmt::format(
        "{}\n  {}: {}", text.size() > 1 ? "," : "", json::serialize(key),
        value.is_double() ? fmt::format("{:.6f}", value.get_double()) : json::serialize(value));
  }
  return text + "\n}\n";
}

void write_header(const fs::path& dir, const ServerWatch& header, bool ended) {
  const auto path = dir / kWatchHeaderFile;
  const auto part = dir / (std::string(kWatchHeaderFile) + ".part");
  {
    const auto fd = open_new(part, O_TRUNC);
    write_all(fd.get(), header_text(header, ended), part);
  }
  if (::rename(part.c_str(), path.c_str()) != 0) {
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  }
}

}  // namespace

std::string rfc3339_ms(system_clock::time_point at) {
  const auto ms = std::chrono::floor<std::chrono::milliseconds>(at.time_since_epoch());
  const std::time_t seconds = std::chrono::floor<std::chrono::seconds>(ms).count();
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:03}Z", text, (ms % std::chrono::seconds(1)).count());
}

std::optional<std::string> watch_directory_problem(const fs::path& dir) {
  std::error_code error;
  const auto status = fs::status(dir, error);
  if (status.type() == fs::file_type::not_found) return std::nullopt;
  if (error) return fmt::format("{}: {}", dir.string(), error.message());
  if (!fs::is_directory(status))
    return fmt::format("{} exists and is not a directory", dir.string());
  if (!fs::is_empty(dir, error) || error) {
    return fmt::format("{} exists and is not empty (a watch never writes over another)",
                       dir.string());
  }
  return std::nullopt;
}

ServerWatchWriter::ServerWatchWriter(fs::path dir, ServerWatch header)
    : dir_(std::move(dir)), header_(std::move(header)) {
  if (auto problem = watch_directory_problem(dir_)) throw std::invalid_argument(*problem);
  std::error_code error;
  fs::create_directories(dir_, error);
  if (error)
    throw std::invalid_argument(
        fmt::format("cannot create {}: {}", dir_.string(), error.message()));
  header_.samples.clear();
  write_header(dir_, header_, false);
  samples_ = open_new(dir_ / kWatchSamplesFile, O_EXCL | O_APPEND);
}

void ServerWatchWriter::append(const WallSample& sample) {
  // {"unix": 1764669600.123456, then the sample's fields (its serialised '{' dropped).
  const auto fields = json::serialize(sample_to_json(sample.sample));
  write_all(samples_.get(),
            fmt::format("{{\"unix\":{:.6f},{}\n", unix_seconds(sample.at), fields.substr(1)),
            dir_ / kWatchSamplesFile);
}

void ServerWatchWriter::finish(system_clock::time_point ended, WatchEnding ended_by) {
  header_.ended = ended;
  header_.ended_by = ended_by;
  write_header(dir_, header_, true);
}

}  // namespace loiter::suites
