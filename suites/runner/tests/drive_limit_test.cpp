// The client-process limit says which limit sets a process's share: RLIMIT_NOFILE, with its
// value, and what to change.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "drive.hpp"

namespace loiter::suites {
namespace {

using ::testing::HasSubstr;

// Too many connections for the client processes names RLIMIT_NOFILE and its value.
TEST(ClientProcessLimit, TheMessageNamesRlimitNofileAndItsValue) {
  const auto message = client_process_limit_message(100'000, 1'000, 1'064);
  EXPECT_THAT(message, HasSubstr("100000 connections would take 100 client processes of 1000"));
  EXPECT_THAT(message, HasSubstr("RLIMIT_NOFILE 1064 per process"));
  EXPECT_THAT(message, HasSubstr("at most 32 client processes"));
}

}  // namespace
}  // namespace loiter::suites
