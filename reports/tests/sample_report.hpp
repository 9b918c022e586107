// A canned run document for reporter tests: one pass (with plots), one fail, one skip, one
// observed only (drive).
#pragma once

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::testing {
RunReport sample_report();
// The same against a TLS target (target_tls set).
RunReport sample_tls_report();
}
