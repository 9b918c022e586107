// The judge's headers are plain data: including all of them pulls in no Asio, OpenSSL or
// toml++ header (the link closure is checked apart, by Layers.JudgeLinksOnlyPlainData).
#include <gtest/gtest.h>

#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/judge/load_figures.hpp"
#include "loiter/suites/judge/observation.hpp"

#if defined(BOOST_ASIO_VERSION)
#error "a judge header includes Boost.Asio"
#endif
#if defined(OPENSSL_VERSION_NUMBER)
#error "a judge header includes OpenSSL"
#endif
#if defined(TOML_VERSION_MAJOR) || defined(TOMLPLUSPLUS_H)
#error "a judge header includes toml++"
#endif

namespace loiter::suites {
namespace {

// Compiling this file is the check; the test keeps it in the judge's test executable.
TEST(Layers, JudgeHeadersIncludeOnlyPlainData) {
  const Observation observation;
  EXPECT_TRUE(observation.connections.empty());
}

}  // namespace
}  // namespace loiter::suites
