// JUnit XML from run documents, for CI systems that show test reports: a <testsuite> per
// run (target), a <testcase> per scenario (skipped with its reason, failed with its
// findings, an error for the harness's), the run directory among the properties. Reads
// only RunReports, so a stored run renders the same XML again. The shape: reports/JUNIT.md.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "loiter/reports/matrix.hpp"  // MatrixRun: a run document and its run directory

namespace loiter::reports {

// One <testsuites> document with a <testsuite> per run, in the order given (one run: the
// run's own JUnit, as `loiter check --junit` writes it).
void render_junit(const std::vector<MatrixRun>& runs, std::ostream& out);

// `text` as XML character data or an attribute value (escape_markup): &, <, >, " and '
// escaped; tab, newline and carriage return as character references; other control
// characters (which XML 1.0 cannot carry at all) and malformed UTF-8 as U+FFFD.
std::string xml_escape(std::string_view text);

}  // namespace loiter::reports
