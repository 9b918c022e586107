// A canned run document for reporter tests: one pass (with plots), one fail, one skip, one
// observed only (drive).
#pragma once

#include "loiter/reports/run_report.hpp"

namespace loiter::reports::testing {
RunReport sample_report();
// The same against a TLS target (target_tls set).
RunReport sample_tls_report();
// The TLS one against a server loiter did not start, without its PID (connected, not_made).
RunReport sample_connected_report();
}
