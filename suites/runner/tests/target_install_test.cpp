// A target's version as the matrix heads its row with it: its version command's first line
// (stdout, else stderr), run as a child of fixtures' process layer; and a program that is
// not installed named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loiter/suites/runner/target_install.hpp"

namespace loiter::suites {
namespace {

fixtures::Target with_version(std::vector<std::string> command) {
  fixtures::Target target;
  target.name = "t";
  target.description = "a target";
  target.command = {"/bin/true"};
  target.version_command = std::move(command);
  return target;
}

TEST(TargetInstall, TheVersionIsTheFirstLinePrintedStdoutFirst) {
  EXPECT_EQ(target_version(with_version({"/bin/sh", "-c", "echo; echo 'v1.2  '; echo v3"})),
            "v1.2");
  EXPECT_EQ(target_version(with_version({"/bin/sh", "-c", "echo 'nginx/1.22.1' >&2"})),
            "nginx/1.22.1");
  EXPECT_EQ(target_version(with_version({"/bin/sh", "-c", "echo err >&2; echo out"})), "out");
  EXPECT_EQ(target_version(with_version({"/bin/true"})), "(no version printed)");
  EXPECT_EQ(target_version(with_version({})), "a target");
  EXPECT_EQ(target_version(with_version({"/nonexistent/server", "-v"})),
            "(version command failed)");
}

TEST(TargetInstall, AProgramNotInstalledIsNamed) {
  auto target = with_version({});
  EXPECT_EQ(missing_program(target), std::nullopt);
  target.command = {"/nonexistent/server", "{port}"};
  EXPECT_EQ(missing_program(target), "/nonexistent/server");
  target.command = {"loiter-no-such-program-on-path"};
  EXPECT_EQ(missing_program(target), "loiter-no-such-program-on-path");
}

}  // namespace
}  // namespace loiter::suites
