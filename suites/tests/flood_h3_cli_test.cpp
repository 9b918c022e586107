// `loiter check` and the h3 floods: one asked for (by --scenario, or --family flood) on an
// [h3] target that declares no [h3.flood], or by --scenario whose kind its kinds leave out, is
// refused before anything starts (exit 2) naming the key; `loiter targets` shows the bound.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace loiter::suites {
namespace flood_h3_cli_test {  // named: unity batches put other tests' helpers beside these

namespace fs = std::filesystem;
using namespace testing;
using ::testing::HasSubstr;

// An [h3] target whose server would first touch `started`; `flood` is its [h3.flood], if any.
fs::path h3_target(const TempDir& tmp, const std::string& flood) {
  const auto path = tmp.path() / "quic.toml";
  std::ofstream(path) << fmt::format(
      "name = \"quic\"\ncommand = [\"/bin/sh\", \"-c\", \"touch {} && exec sleep 30 # {{port}} "
      "{{tls_cert}} {{tls_key}}\"]\n[h3]\n{}",
      (tmp.path() / "started").string(), flood);
  return path;
}

TEST(CliRefuses, AnH3FloodOnATargetWithoutItsDeclaration) {
  for (const auto& [asked, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--scenario", "h3-ping-flood"},
            "quic.toml: key 'h3.flood': --scenario h3-ping-flood asks for an HTTP/3 flood, but "
            "the target declares no [h3.flood]"},
           {{"--family", "flood"},
            "quic.toml: key 'h3.flood': --family flood asks for the HTTP/3 floods"}}) {
    TempDir tmp;
    std::vector<std::string> args{"check", "--target", h3_target(tmp, "").string()};
    args.insert(args.end(), asked.begin(), asked.end());
    EXPECT_EQ(loiter(tmp, args), 2) << asked.back();
    EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr(message));
    EXPECT_FALSE(fs::exists(tmp.path() / "started")) << "the server was started";
    EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << "a run directory was made";
  }
}

// A declared [h3.flood] that leaves the kind asked for out names h3.flood.kinds; the server is
// never started.
TEST(CliRefuses, AnH3FloodWhoseKindTheTargetLeavesOut) {
  TempDir tmp;
  const auto file = h3_target(tmp, "[h3.flood]\nkinds = [\"ping\"]\n");
  EXPECT_EQ(loiter(tmp, {"check", "--target", file.string(), "--scenario", "h3-qpack-bomb"}), 2);
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("quic.toml: key 'h3.flood.kinds': --scenario h3-qpack-bomb asks for the "
                        "flood \"qpack-bomb\", which the target's [h3.flood] kinds leave out (it "
                        "lists ping)"));
  EXPECT_FALSE(fs::exists(tmp.path() / "started")) << "the server was started";
  EXPECT_FALSE(fs::exists(tmp.path() / "runs")) << "a run directory was made";
}

// `loiter targets` shows an [h3] target's flood bound, or that it promises none.
TEST(CliTargets, AnH3TargetShowsItsFloodBound) {
  TempDir tmp;
  ASSERT_EQ(run({LOITER_BINARY, "targets", h3_target(tmp, "").string()}, tmp.path() / "out"), 0);
  EXPECT_THAT(read_text(tmp.path() / "out"), HasSubstr("no flood bound promised"));
  ASSERT_EQ(run({LOITER_BINARY, "targets", "reference-h3"}, tmp.path() / "out"), 0);
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("floods rapid-reset connection-id path-challenge qpack-bomb qpack-blocked "
                        "encoder-stream out-of-order ping within 2500 frames, RSS 24.0 MiB, "
                        "control p99 0.2 s"));
  const auto file =
      h3_target(tmp, "[h3.flood]\nframes = 500\nkinds = [\"ping\", \"qpack-bomb\"]\n");
  ASSERT_EQ(run({LOITER_BINARY, "targets", file.string()}, tmp.path() / "out"), 0)
      << read_text(tmp.path() / "out");
  EXPECT_THAT(read_text(tmp.path() / "out"),
              HasSubstr("floods ping qpack-bomb within 500 frames, RSS bound none"));
}

}  // namespace flood_h3_cli_test
}  // namespace loiter::suites
