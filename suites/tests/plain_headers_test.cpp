// The public headers of the plain-data layers include no Asio, Beast, OpenSSL, toml++ or
// nghttp2: this file compiles with cmake/plain first on its include path (see
// loiter_plain_data), so the build fails naming the header that does. drive_context.hpp is
// the one header above the clients meant for the rooms that drive connections.
#include <gtest/gtest.h>

#include "loiter/reports/compare.hpp"
#include "loiter/reports/console.hpp"
#include "loiter/reports/finding.hpp"
#include "loiter/reports/html.hpp"
#include "loiter/reports/json.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/reports/matrix.hpp"
#include "loiter/reports/run_report.hpp"
#include "loiter/reports/survey_compare.hpp"
#include "loiter/reports/survey_target.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "loiter/suites/catalogue/timing.hpp"
#include "loiter/suites/document/merge_run.hpp"
#include "loiter/suites/document/raw_json.hpp"
#include "loiter/suites/document/report.hpp"
#include "loiter/suites/document/report_load.hpp"
#include "loiter/suites/document/run_directory.hpp"
#include "loiter/suites/document/run_head.hpp"
#include "loiter/suites/document/server_side.hpp"
#include "loiter/suites/document/server_watch.hpp"
#include "loiter/suites/judge/in_units.hpp"
#include "loiter/suites/judge/judge.hpp"
#include "loiter/suites/judge/load_figures.hpp"
#include "loiter/suites/judge/observation.hpp"
#include "loiter/suites/judge/soak_figures.hpp"
#include "loiter/suites/runner/client_lines.hpp"
#include "loiter/suites/runner/drive_kind.hpp"
#include "loiter/suites/runner/files.hpp"
#include "loiter/suites/runner/host_lookup.hpp"
#include "loiter/suites/runner/interrupt.hpp"
#include "loiter/suites/runner/load_json.hpp"
#include "loiter/suites/runner/quiet_threads.hpp"
#include "loiter/suites/runner/record_json.hpp"
#include "loiter/suites/runner/run.hpp"
#include "loiter/suites/runner/running_server.hpp"
#include "loiter/suites/runner/session.hpp"
#include "loiter/suites/runner/shard_files.hpp"
#include "loiter/suites/runner/shard_lifecycle.hpp"
#include "loiter/suites/runner/shard_merge.hpp"
#include "loiter/suites/runner/shard_run.hpp"
#include "loiter/suites/runner/survey_session.hpp"
#include "loiter/suites/runner/target_choice.hpp"
#include "loiter/suites/runner/target_install.hpp"
#include "loiter/suites/runner/watch_ending.hpp"
#include "loiter/suites/runner/watch_loop.hpp"

namespace loiter::suites {
namespace {

// Compiling this file is the check (cmake/plain makes Asio & co. an #error); the headers
// are whole on their own too: the catalogue is there, read through scenario.hpp alone.
TEST(Layers, PublicHeadersAboveTheClientsAreIncludedWithoutAsio) {
  EXPECT_NE(find_scenario("silent"), nullptr);
}

}  // namespace
}  // namespace loiter::suites
