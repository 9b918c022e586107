// `loiter ladder --held` end to end: a short denial ladder against the reference server
// written as denial.json, denial.html and JUnit (its control step first, its knee not found),
// and its inputs refused before any server starts (exit 2).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace loiter::suites {
namespace denial_cli_test {

namespace fs = std::filesystem;
namespace json = boost::json;
using ::testing::HasSubstr;

// `loiter ladder ARGS...` with its runs under `tmp/runs`; the exit status, output in tmp/out.
int denial(const TempDir& tmp, std::vector<std::string> args) {
  std::vector<std::string> argv{LOITER_BINARY, "ladder", "--runs", (tmp.path() / "runs").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, tmp.path() / "out", 110);
}

TEST(DenialCli, AShortDenialLadderWritesItsDocumentPageAndJUnit) {
  TempDir tmp;
  const auto junit = tmp.path() / "denial.xml";
  ASSERT_EQ(denial(tmp, {"--held", "40", "--kinds", "silent", "--duration", "1", "--rate", "200",
                         "--junit", junit.string()}),
            0)
      << read_text(tmp.path() / "out");
  const auto out = read_text(tmp.path() / "out");
  EXPECT_THAT(out, HasSubstr("not denied up to 40 silent"));
  const auto directory = only_run_directory(tmp.path() / "runs");
  EXPECT_TRUE(directory.filename().string().ends_with("-reference-denial")) << directory;
  const auto doc = json::parse(read_text(directory / "denial.json")).as_object();
  EXPECT_EQ(doc.at("schema").as_string(), "loiter-denial/1");
  const auto& side = doc.at("sides").as_array().at(0).as_object();
  // The regular traffic alone ran first, and was served.
  const auto& control = side.at("control").as_object();
  EXPECT_EQ(control.at("held").as_int64(), 0);
  EXPECT_FALSE(control.at("denied").as_bool());
  const auto& kind = side.at("kinds").as_array().at(0).as_object();
  EXPECT_EQ(kind.at("kind").as_string(), "silent");
  EXPECT_TRUE(kind.at("knee").is_null());
  const auto& step = kind.at("steps").as_array().at(0).as_object();
  EXPECT_EQ(step.at("held").as_int64(), 40);
  EXPECT_EQ(step.at("held_reached").as_int64(), 40);  // every one open before the traffic
  EXPECT_GT(step.at("requested").as_int64(), 0);
  EXPECT_GE(step.at("server_fds_peak").as_int64(), 40);  // the server held them
  EXPECT_TRUE(fs::exists(directory / "denial.html"));
  EXPECT_THAT(read_text(junit), HasSubstr("<testsuites"));
  // Stored, it is rendered again by `loiter report`; `compare` refuses it (it compares itself).
  fs::remove(directory / "denial.html");
  EXPECT_EQ(run({LOITER_BINARY, "report", directory.string()}, tmp.path() / "report"), 0)
      << read_text(tmp.path() / "report");
  EXPECT_THAT(read_text(tmp.path() / "report"), HasSubstr("not denied up to 40 silent"));
  EXPECT_TRUE(fs::exists(directory / "denial.html"));
  EXPECT_EQ(run({LOITER_BINARY, "compare", directory.string(), directory.string()},
                tmp.path() / "compare"),
            2);
  EXPECT_THAT(read_text(tmp.path() / "compare"), HasSubstr("is a ladder"));
}

// Over HTTP/3: QUIC connections with a stalled HEADERS frame held beside HTTP/3 request
// streams.
TEST(DenialCli, OverHttp3HoldsQuicConnectionsBesideHttp3Traffic) {
  TempDir tmp;
  ASSERT_EQ(denial(tmp, {"--target", "reference-h3", "--held", "20", "--kinds",
                         "h3-headers-stall", "--duration", "1", "--rate", "200"}),
            0)
      << read_text(tmp.path() / "out");
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("not denied up to 20 h3-headers-stall"));
  const auto doc =
      json::parse(read_text(only_run_directory(tmp.path() / "runs") / "denial.json")).as_object();
  const auto& side = doc.at("sides").as_array().at(0).as_object();
  EXPECT_EQ(side.at("protocol").as_string(), "h3");
  EXPECT_FALSE(side.at("control").as_object().at("denied").as_bool());
  const auto& step =
      side.at("kinds").as_array().at(0).as_object().at("steps").as_array().at(0).as_object();
  EXPECT_EQ(step.at("held_reached").as_int64(), 20);  // every handshake done before the traffic
  EXPECT_GT(step.at("succeeded").as_int64(), 0);     // HTTP/3 streams answered beside them
}

TEST(DenialCli, RefusesWhatItCannotRunBeforeAnyServerStarts) {
  std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--held", "100,50"}, "the steps must rise"},
      {{"--held", "100,many"}, "'many' is not a whole number of connections"},
      {{"--held", "10", "--kinds", "h2-idle"}, "not a kind a denial ladder holds over http1"},
      {{"--held", "10", "--kinds", "no-such-kind"}, "no-such-kind"},
      {{"--target", "python", "--held", "10", "--kinds", "body-trickle"},
       "needs an echo path (paths.echo), which python does not declare"},
      {{"--target", "reference-h3", "--held", "10", "--kinds", "h3-idle"},
       "not a kind a denial ladder holds over h3"},
      {{"--held", "10", "--least-2xx", "150%"}, "--least-2xx: '150%' is not a share"},
      {{"--baseline", "reference", "--candidate", "reference-h2c", "--held", "10"},
       "different protocols"}};
  // A step beyond this process's descriptors (RLIMIT_NOFILE's hard limit), where that is
  // under the most a step may hold.
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_max < 1'000'000) {
    cases.push_back({{"--held", std::to_string(limit.rlim_max + 1)}, "Raise the hard limit"});
  }
  cases.push_back({{"--held", "2000000"}, "is not a count from 1 to 1000000"});
  for (const auto& [args, message] : cases) {
    TempDir tmp;
    EXPECT_EQ(denial(tmp, args), 2) << message;
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message));
    EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << message;
  }
}

}  // namespace denial_cli_test
}  // namespace loiter::suites
