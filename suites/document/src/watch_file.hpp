// observe.json's form as Boost.Describe sees it: its keys, in order, which server_watch.cpp
// writes (one key a line, unix times in fixed notation) and server_watch_read.cpp reads
// back through the codec (reports/described_json.hpp). Private to the document library.
#pragma once

#include <boost/describe/class.hpp>
#include <optional>
#include <string>

#include "loiter/reports/described_json.hpp"
#include "loiter/suites/runner/watch_ending.hpp"

namespace loiter::suites::watch_file {

// ServerWatch without its samples: moments both in RFC 3339 (milliseconds) and in unix
// seconds (the one read back); the end's three keys null until the watch ends, host null
// with --pid.
struct Header {
  std::string loiter_version;
  long pid = 0;
  std::optional<unsigned short> port;
  std::optional<std::string> host, target;
  std::string started;
  double started_unix = 0;
  std::optional<std::string> ended;
  std::optional<double> ended_unix;
  std::optional<WatchEnding> ended_by;
  long long period_ms = 0;
  std::string samples;  // the samples' file, beside it
  std::string unit;
};
BOOST_DESCRIBE_STRUCT(Header, (),
                      (loiter_version, pid, port, host, target, started, started_unix, ended,
                       ended_unix, ended_by, period_ms, samples, unit))

inline constexpr WatchEnding kEndings[] = {WatchEnding::duration, WatchEnding::interrupt,
                                           WatchEnding::server_exited};

}  // namespace loiter::suites::watch_file

// The unix times are doubles, always.
template <>
inline constexpr auto loiter::reports::described::kForms<loiter::suites::watch_file::Header> =
    std::tuple(As<&suites::watch_file::Header::started_unix, Float>{},
               As<&suites::watch_file::Header::ended_unix, Float>{});

// How a watch ended: "duration", "interrupt", "server-exited".
template <>
struct loiter::reports::described::Codec<loiter::suites::WatchEnding>
    : EnumWords<suites::WatchEnding, suites::watch_file::kEndings> {};
