// The names every judge test uses, declared once: the records' and findings' types, the
// canned connections, gmock's matchers and the findings' own. A test brings them in with
// `using namespace judge_test_names;` inside its own named namespace, whose helpers then hide
// any of these of the same name.
#pragma once

#include <gmock/gmock.h>

#include "canned_connections.hpp"
#include "finding_matchers.hpp"
#include "loiter/fixtures/probe/sample.hpp"
#include "loiter/fixtures/probe/tcp_counts.hpp"
#include "loiter/suites/judge/judge.hpp"

namespace loiter::suites::judge_test_names {

using namespace std::chrono_literals;
namespace ends = clients::ends;
namespace codes = reports::codes;
using clients::Clock;
using clients::ConnectionRecord;
using clients::Ending;
using fixtures::FdType;
using fixtures::TcpState;
using reports::FindingClass;
using ::testing::AllOf;
using ::testing::Contains;
using testing::counted;
using ::testing::ElementsAre;
using testing::ended;
using testing::expect_completion;
using ::testing::Field;
using testing::figure;
using testing::Finding;
using ::testing::Gt;
using testing::has_code;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::observe;
using ::testing::Optional;
using ::testing::Pair;
using testing::whole;
using testing::with_class;

}  // namespace loiter::suites::judge_test_names
