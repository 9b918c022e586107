// `loiter k8s-job` end to end: its YAML read back by PyYAML (python3-yaml) is an Indexed Job
// of K shards that never retries, each shard on the one start time, and a merge of exactly
// the K shard directories; --format json is the same structure; bad inputs exit 2 and print
// nothing to apply. Nothing is applied: there is no cluster here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <regex>
#include <set>

#include "cli_run.hpp"
#include "loiter/fixtures/target/target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/runner/run.hpp"
#include "yaml_emit.hpp"

namespace loiter::suites {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace testing;
using ::testing::HasSubstr;

// Debian's interpreter, for which scripts/setup installs python3-yaml: not whichever python3
// comes first on PATH (a pyenv shim took 0.45 s a start here against 0.08 s, and another
// interpreter without PyYAML would skip these tests).
constexpr const char* kPython = "/usr/bin/python3";
constexpr const char* kToJson =
    "import sys, yaml, json; "
    "json.dump(list(yaml.safe_load_all(open(sys.argv[1], encoding='utf-8'))), sys.stdout)";

bool have_pyyaml() {
  static const bool have = [] {
    TempDir tmp;
    return run({kPython, "-c", "import yaml"}, tmp.path() / "out", 30) == 0;
  }();
  return have;
}

// The YAML stream in `file`, as PyYAML reads it, as JSON values.
json::array read_yaml(const fs::path& file) {
  const auto out = file.parent_path() / (file.filename().string() + ".json");
  const int status = run({kPython, "-c", kToJson, file.string()}, out, 30);
  if (status != 0) throw std::runtime_error("PyYAML refused the YAML: " + read_text(out));
  return json::parse(read_text(out)).as_array();
}

struct Printed {
  int status;
  fs::path file;  // stdout and stderr
};

Printed k8s_job(const TempDir& tmp, const std::vector<std::string>& args,
                const std::string& name = "out") {
  std::vector<std::string> argv{LOITER_BINARY, "k8s-job"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto file = tmp.path() / name;
  return {run(argv, file, 60), file};
}

const std::vector<std::string> kRequired{
    "--image", "registry.example/loiter:1", "--claim", "loiter-runs", "--connect", "10.0.3.7:8080"};

std::vector<std::string> with(std::vector<std::string> more) {
  auto out = kRequired;
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

const json::array& args_of(const json::value& job) {
  return job.at("spec").at("template").at("spec").at("containers").at(0).at("args").as_array();
}

// The argument after `flag`; empty if there is none.
std::string after(const json::array& args, std::string_view flag) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == json::value(flag)) return std::string(args[i + 1].as_string());
  }
  return {};
}

class K8sJob : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_pyyaml()) GTEST_SKIP() << "python3-yaml is not installed (scripts/setup installs it)";
  }
  // The documents printed for `args`, read back from YAML; exit 0 asserted.
  json::array documents(const std::vector<std::string>& args) {
    const auto printed = k8s_job(tmp_, args);
    EXPECT_EQ(printed.status, 0) << read_text(printed.file);
    return read_yaml(printed.file);
  }
  TempDir tmp_;
};

// Document 1 is a batch/v1 Indexed Job of K completions, all at once, never retried.
TEST_F(K8sJob, ShardJobIsAnIndexedJobOfKPodsThatNeverRetries) {
  const auto docs = documents(with({"--shards", "5", "--scenario", "silent"}));
  ASSERT_EQ(docs.size(), 2u);
  const auto& job = docs[0];
  EXPECT_EQ(job.at("apiVersion"), "batch/v1");
  EXPECT_EQ(job.at("kind"), "Job");
  EXPECT_EQ(job.at("metadata").at("name"), "loiter-shards");
  const auto& spec = job.at("spec");
  EXPECT_EQ(spec.at("completionMode"), "Indexed");
  EXPECT_EQ(spec.at("completions"), 5);
  EXPECT_EQ(spec.at("parallelism"), 5);
  EXPECT_EQ(spec.at("backoffLimit"), 0);
  EXPECT_EQ(spec.at("template").at("spec").at("restartPolicy"), "Never");
  const auto& claim = spec.at("template").at("spec").at("volumes").at(0);
  EXPECT_EQ(claim.at("persistentVolumeClaim").at("claimName"), "loiter-runs");
  EXPECT_EQ(docs[1].at("kind"), "Job");
  EXPECT_EQ(docs[1].at("spec").at("completions"), 1);
}

// Both Jobs' pods run as the image's unprivileged user (examples/container/Containerfile:
// uid and gid 10001), never as root, and own the claim they write to (fsGroup).
TEST_F(K8sJob, PodsRunAsTheImagesUnprivilegedUser) {
  const auto docs = documents(with({"--shards", "2", "--scenario", "silent"}));
  ASSERT_EQ(docs.size(), 2u);
  for (const auto& job : docs) {
    const auto& security = job.at("spec").at("template").at("spec").at("securityContext");
    EXPECT_EQ(security.at("runAsNonRoot"), true);
    EXPECT_EQ(security.at("runAsUser"), 10001);
    EXPECT_EQ(security.at("runAsGroup"), 10001);
    EXPECT_EQ(security.at("fsGroup"), 10001);
  }
}

// Each shard runs `loiter check ... --shard $(JOB_COMPLETION_INDEX)/K --start-at T`, with
// the user's scenario options and --allow-remote naming the host it connects to.
TEST_F(K8sJob, ShardArgumentsCarryTheIndexTheStartAndTheScenarioOptions) {
  const auto docs =
      documents(with({"--shards", "7", "--scenario", "idle-under-load", "--load-rate", "2500",
                      "--count", "700", "--start-at", "2099-01-02T03:04:05Z"}));
  const auto& args = args_of(docs[0]);
  EXPECT_EQ(args.at(0), "check");
  EXPECT_EQ(after(args, "--shard"), "$(JOB_COMPLETION_INDEX)/7");
  EXPECT_EQ(after(args, "--start-at"), "2099-01-02T03:04:05Z");
  EXPECT_EQ(after(args, "--scenario"), "idle-under-load");
  EXPECT_EQ(after(args, "--target"), "reference");
  EXPECT_EQ(after(args, "--load-rate"), "2500");
  EXPECT_EQ(after(args, "--count"), "700");
  EXPECT_EQ(after(args, "--connect"), "10.0.3.7:8080");
  EXPECT_EQ(after(args, "--allow-remote"), "10.0.3.7");
  EXPECT_EQ(after(args, "--runs"), "/runs");
  for (const auto& doc : docs) {  // both Jobs carry the one start time
    EXPECT_EQ(doc.at("metadata").at("annotations").at("loiter/start-at"), "2099-01-02T03:04:05Z");
  }
}

// The merge names the K shard directories of the start stamp, each once, and the server's
// observation of the same stamp.
TEST_F(K8sJob, MergeListsEveryShardDirectoryOfTheStartStamp) {
  const auto docs = documents(
      with({"--shards", "12", "--scenario", "silent", "--start-at", "2099-01-02T03:04:05Z"}));
  const auto& args = args_of(docs[1]);
  ASSERT_EQ(args.at(0), "merge");
  const std::regex shard(R"(/runs/20990102T030405Z-reference-shard-([0-9]+)-of-12)");
  std::set<int> seen;
  for (std::size_t i = 1; i < args.size() && args[i] != "--observe"; ++i) {
    std::smatch match;
    const std::string dir(args[i].as_string());
    ASSERT_TRUE(std::regex_match(dir, match, shard)) << dir;
    EXPECT_TRUE(seen.insert(std::stoi(match[1])).second) << dir << " twice";
  }
  EXPECT_EQ(seen.size(), 12u);
  EXPECT_EQ(*seen.rbegin(), 11);
  EXPECT_EQ(after(args, "--observe"), "/runs/20990102T030405Z-server");
  EXPECT_EQ(after(args, "--runs"), "/runs");
}

// The Job's deadline bounds lead + the scenario's longest run, which it exceeds.
TEST_F(K8sJob, ActiveDeadlineExceedsTheLeadAndTheScenarioLongestRun) {
  const auto docs =
      documents(with({"--shards", "2", "--scenario", "idle-under-load", "--load-duration", "40"}));
  const auto longest = longest_run(*find_scenario("idle-under-load"), fixtures::reference_target(),
                                   timing(), {.load_duration = std::chrono::seconds(40)});
  ASSERT_TRUE(longest.has_value());
  const auto deadline = docs[0].at("spec").at("activeDeadlineSeconds").as_int64();
  EXPECT_GT(deadline, 120 + std::chrono::duration_cast<std::chrono::seconds>(*longest).count());
}

// Without --start-at, T is now + --lead, in whole seconds, RFC 3339 UTC.
TEST_F(K8sJob, StartIsNowPlusTheLeadInWholeSeconds) {
  const auto before = std::time(nullptr);
  const auto docs = documents(with({"--shards", "3", "--scenario", "silent", "--lead", "300"}));
  const auto after_run = std::time(nullptr);
  const auto start = after(args_of(docs[0]), "--start-at");
  std::tm tm{};
  ASSERT_NE(::strptime(start.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm), nullptr) << start;
  ASSERT_EQ(start.size(), 20u) << start;
  const auto t = ::timegm(&tm);
  EXPECT_GE(t, before + 300);
  EXPECT_LE(t, after_run + 301);
}

// LOITER_TIME_SCALE set where the manifest is made reaches every pod, and widens the bound.
TEST_F(K8sJob, TimeScaleReachesThePodsAndWidensTheDeadline) {
  const auto args = with({"--shards", "2", "--scenario", "silent"});
  const char* was = std::getenv("LOITER_TIME_SCALE");
  const std::string previous = was != nullptr ? was : "";
  ::setenv("LOITER_TIME_SCALE", "1", 1);
  const auto plain = documents(args);
  ::setenv("LOITER_TIME_SCALE", "3", 1);
  const auto scaled = documents(args);
  previous.empty() ? ::unsetenv("LOITER_TIME_SCALE")
                   : ::setenv("LOITER_TIME_SCALE", previous.c_str(), 1);
  for (const auto& job : scaled) {
    const auto& env = job.at("spec").at("template").at("spec").at("containers").at(0).at("env");
    EXPECT_EQ(env, json::parse(R"([{"name":"LOITER_TIME_SCALE","value":"3"}])"));
  }
  const auto deadline = [](const json::array& docs) {
    return docs[0].at("spec").at("activeDeadlineSeconds").as_int64();
  };
  EXPECT_GT(deadline(scaled), deadline(plain));
}

// --format json prints the same documents as the items of one v1 List (what kubectl takes).
TEST_F(K8sJob, JsonFormatEqualsTheYamlReadBack) {
  const auto args = with({"--shards", "4", "--scenario", "silent", "--start-at",
                          "2099-01-02T03:04:05Z", "--namespace", "load", "--cpu", "500m"});
  const auto yaml = documents(args);
  auto json_args = args;
  json_args.insert(json_args.end(), {"--format", "json"});
  const auto printed = k8s_job(tmp_, json_args, "json");
  ASSERT_EQ(printed.status, 0) << read_text(printed.file);
  const auto list = json::parse(read_text(printed.file));
  EXPECT_EQ(list.at("kind"), "List");
  EXPECT_EQ(list.at("items"), json::value(yaml));
}

// A string with every awkward character survives the emitter and PyYAML unchanged.
TEST_F(K8sJob, EmittedYamlReadsBackAsTheSameValue) {
  const json::value value{
      {"quoted", "a: b # c \"q\" \\ $(X) $$(Y) - [x] {y} &a *b !t %u @v `w` | > ' ?"},
      {"lines", "one\ntwo\r\n\tthree\x01\x7f"},
      {"unicode", "café \u2028 \u0085 \ufeff 🚀"},
      {"empty", json::object{}},
      {"none", json::array{}},
      {"nested", json::array{json::array{1, 2}, json::object{{"on", true}, {"no", nullptr}}}},
      {"numbers", json::array{0, -7, 0.5, 5.0, 1e20}},
      {"0", "key of digits"},
      {"yes", ""}};
  const auto file = tmp_.path() / "value.yaml";
  std::ofstream(file) << cli::yaml_stream({"a comment: # $(X)"}, {{{"doc"}, value}});
  const auto read = read_yaml(file);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0], value);
}

// Bad inputs exit 2 with the problem named, and nothing to apply is printed.
TEST(K8sJobRefuses, BadShardCountsScenariosTargetsTimesAndMissingOptions) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {with({"--shards", "0", "--scenario", "silent"}), "--shards"},
      {with({"--shards", "1001", "--scenario", "silent"}), "--shards"},
      {with({"--shards", "2", "--scenario", "nosuch"}), "unknown scenario 'nosuch'"},
      {with({"--shards", "2", "--scenario", "silent", "--target", "nosuch"}),
       "unknown target 'nosuch'"},
      {with({"--shards", "2", "--scenario", "tls-hello-trickle", "--target", "nginx"}),
       "cannot run against nginx"},
      {with({"--shards", "2", "--scenario", "silent", "--start-at", "2020-01-01T00:00:00Z"}),
       "is past"},
      {with({"--shards", "2", "--scenario", "silent", "--start-at", "2099-01-02 03:04:05"}),
       "--start-at"},
      {with({"--shards", "2", "--scenario", "silent", "--name", "Loiter_1"}), "--name"},
      {{"--shards", "2", "--scenario", "silent", "--claim", "c", "--connect", "h:1"},
       "--image is required"},
      {{"--shards", "2", "--scenario", "silent", "--image", "i", "--connect", "h:1"},
       "--claim is required"},
      {{"--shards", "2", "--scenario", "silent", "--image", "i", "--claim", "c"},
       "--connect is required"},
      {with({"--shards", "2"}), "--scenario is required"},
      {{"--image", "i", "--claim", "c", "--connect", "h:1", "--scenario", "silent"},
       "--shards is required"},
      {{"--shards", "2", "--scenario", "silent", "--image", "i", "--claim", "c", "--connect", "h"},
       "is not HOST:PORT"}};
  for (const auto& [args, message] : cases) {
    TempDir tmp;
    const auto printed = k8s_job(tmp, args);
    const auto out = read_text(printed.file);
    EXPECT_EQ(printed.status, 2) << message << "\n" << out;
    EXPECT_THAT(out, HasSubstr(message));
    EXPECT_THAT(out, Not(HasSubstr("apiVersion")));
  }
}

}  // namespace
}  // namespace loiter::suites
