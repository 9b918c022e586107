// The hostile-input test's tables (hostile_inputs.hpp).
#include "hostile_inputs.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

namespace loiter::suites::testing::hostile_inputs {

namespace fs = std::filesystem;

Paths make_paths(const TempDir& tmp) {
  Paths paths{.dir = tmp.path() / "dir", .file = tmp.path() / "file", .root = tmp.path() / "runs"};
  fs::create_directories(paths.dir);
  std::ofstream(paths.file) << "not a run\n";
  return paths;
}

std::vector<Command> commands(const Paths& p) {
  const auto under_file = [&](const char* name) { return (p.file / name).string(); };
  const auto pid = std::to_string(::getpid());
  return {
      {.name = "check",
       .base = {{"--scenario", {"rst-abort"}},  // the quickest: 0.8 s where silent takes 2.7
                {"--count", {"1"}},
                {"--header-timeout", {"1"}},
                {"--body-timeout", {"1"}},
                {"--idle-timeout", {"1"}},
                {"--runs", {under_file("runs")}}},
       .drops = {}},
      {.name = "matrix",
       .base = {{"--targets", {"reference"}},
                {"--scenario", {"rst-abort"}},
                {"--count", {"1"}},
                {"--runs", {under_file("runs")}}},
       .drops = {}},
      {.name = "report", .base = {{"RUN", {p.dir.string()}}}, .drops = {{"--matrix", {"RUN"}}}},
      {.name = "compare",
       .base = {{"BASELINE", {p.dir.string()}}, {"CURRENT", {p.dir.string()}}},
       .drops = {}},
      {.name = "drive",
       .base = {{"KIND", {"silent"}},
                {"--connect", {"127.0.0.1:1"}},
                {"--count", {"1"}},
                {"--patience", {"1"}},
                {"--runs", {under_file("runs")}}},
       .drops = {}},
      {.name = "survey",
       .base = {{"--connect", {"127.0.0.1:1"}},
                {"--connections", {"1"}},
                {"--max-wait", {"1"}},
                {"--runs", {under_file("runs")}}},
       .drops = {{"--fault", {"--connect"}}}},
      {.name = "ladder",
       .base = {{"--rates", {"500"}},
                {"--saturation", {"none"}},
                {"--trials", {"1"}},
                {"--duration", {"0.2"}},
                {"--runs", {under_file("runs")}}},
       .drops = {}},
      {.name = "targets", .base = {}, .drops = {}},
      {.name = "merge",
       .base = {{"shards", {p.dir.string()}},
                {"--observe", {p.dir.string()}},
                {"--runs", {under_file("runs")}}},
       .drops = {}},
      {.name = "observe",
       .base = {{"--pid", {pid}}, {"--duration", {"0.3"}}, {"--out", {under_file("out")}}},
       .drops = {{"--target", {"--pid"}}}},
      {.name = "k8s-job",
       .base = {{"--image", {"img"}},
                {"--shards", {"2"}},
                {"--connect", {"10.0.0.1:8080"}},
                {"--claim", {"c"}},
                {"--scenario", {"silent"}}},
       .drops = {}},
  };
}

const Command& command_named(const std::vector<Command>& all, const std::string& name) {
  for (const auto& c : all) {
    if (c.name == name) return c;
  }
  throw std::invalid_argument("no base command for " + name);
}

const std::vector<std::string> kNotANumber{"nan", "inf", "-inf", "", "abc", "-1"};

namespace {

std::vector<std::string> numbers() {
  auto values = kNotANumber;
  values.insert(values.end(), {"0", "1e300", "18446744073709551616", "1.5", "0x10"});
  return values;
}

// Each run's working directory is the test's own, so a relative path that is taken stays
// there; an absolute one must be unwritable or the test's own: "/" would be taken as
// --runs by root and a run written into the file system's root.
std::vector<std::string> texts(const Paths& p) {
  return {"",
          " ",
          "\t",
          p.dir.string(),
          "/proc/version",
          (p.dir / "none" / "x").string(),
          "/proc/loiter/x",
          (p.file / "x").string(),
          "-",
          std::string(4096, 'a'),
          "nosuch",
          "{}{",
          "a=b"};
}

// Hostile values of particular options, beside those of their type.
const std::map<std::string, std::vector<std::string>> kOwnValues{
    {"--set",
     {"=", "deadlines.header", "deadlines.header=", "deadlines.header=nan",
      "deadlines.header=1e300", "deadlines.header=-1", "deadlines=1", "a.b.c=1",
      "deadlines.header=\"x\""}},
    {"--shard", {"1/0", "0/0", "2/1", "-1/2", "99999999999999999999/1", "0/10001"}},
    {"--start-at", {"2026-13-45T99:99:99Z", "0", "9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z"}},
    {"--connect",
     {"127.0.0.1:0", "127.0.0.1:99999", "[::1]:", ":80", "10.0.0.1:80", "localhost:80",
      "127.0.0.1"}},
};

}  // namespace

std::vector<std::string> values_for(const HelpOption& option, const Paths& p) {
  std::vector<std::string> values;
  if (option.type.empty()) {
    values = {"abc", "-1", "2"};  // a flag given a value
  } else if (option.type == "TEXT") {
    values = texts(p);
  } else {
    values = numbers();
  }
  if (auto own = kOwnValues.find(option.name); own != kOwnValues.end()) {
    values.insert(values.end(), own->second.begin(), own->second.end());
  }
  return values;
}

std::vector<std::string> argv_of(const Command& command, const std::string& name,
                                 const std::string& value) {
  std::set<std::string> left_out{name};
  if (auto drops = command.drops.find(name); drops != command.drops.end()) {
    left_out.insert(drops->second.begin(), drops->second.end());
  }
  std::vector<std::string> argv{LOITER_BINARY, command.name};
  std::vector<std::string> positionals;
  const auto give = [&](const std::string& option, const std::string& v) {
    if (option.starts_with("-")) {
      argv.push_back(option + "=" + v);
    } else {
      positionals.push_back(v);
    }
  };
  bool given = false;
  for (const auto& [option, values] : command.base) {
    if (option == name) {
      give(name, value);
      given = true;
    } else if (!left_out.contains(option)) {
      for (const auto& v : values) give(option, v);
    }
  }
  if (!given) give(name, value);
  if (!positionals.empty()) {
    argv.push_back("--");
    argv.insert(argv.end(), positionals.begin(), positionals.end());
  }
  return argv;
}

}  // namespace loiter::suites::testing::hostile_inputs
