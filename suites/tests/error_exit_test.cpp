// An error becomes loiter's exit code and its line on stderr, also one that escapes on a
// thread of its own: exit 2 or 3 with the message, never abort() (SIGABRT).
#include "error_exit.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

#include "exit_codes.hpp"
#include "loiter/fixtures/os/harness_error.hpp"
#include "loiter/fixtures/target/target_file.hpp"
#include "refusals.hpp"

namespace loiter::cli {
namespace {

template <class Error>
int code_of(const Error& error) {
  return exit_code_of_error(std::make_exception_ptr(error));
}

TEST(ErrorExit, ABadInputIs2AndAFaultIs3) {
  EXPECT_EQ(code_of(Refusal("no")), kUsage);
  EXPECT_EQ(code_of(std::invalid_argument("no")), kUsage);
  EXPECT_EQ(code_of(fixtures::TargetFileError("mine.toml: no")), kUsage);
  EXPECT_EQ(code_of(fixtures::HarnessError("no")), kInfrastructure);
  EXPECT_EQ(code_of(std::runtime_error("no")), kInfrastructure);
  EXPECT_EQ(code_of(42), kInfrastructure);
}

// The thread's exception reaches std::terminate, which says it and exits with its code.
TEST(ErrorExitDeathTest, AnExceptionEscapingAThreadExitsWithItsCodeAndMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto escape = [](auto error) {
    exit_on_terminate();
    std::thread([error] { throw error; }).join();
  };
  EXPECT_EXIT(escape(std::invalid_argument("a share of nan")), ::testing::ExitedWithCode(kUsage),
              "loiter: a share of nan \\(escaped where nothing caught it\\)");
  EXPECT_EXIT(escape(fixtures::HarnessError("no sock_diag")),
              ::testing::ExitedWithCode(kInfrastructure), "loiter: no sock_diag");
}

void cannot_write() { throw std::runtime_error("cannot write"); }
void call_noexcept(void (*f)()) noexcept { f(); }

// Through a noexcept function, as through a destructor.
TEST(ErrorExitDeathTest, AnExceptionThroughNoexceptExitsWithItsCode) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      [] {
        exit_on_terminate();
        call_noexcept(cannot_write);
      }(),
      ::testing::ExitedWithCode(kInfrastructure), "loiter: cannot write");
}

}  // namespace
}  // namespace loiter::cli
