// Numbers as a reader reads them: never in scientific notation. Console, report text and
// HTML, findings and --help print through it; JSON keeps exact numbers (it is data).
#pragma once

#include <string>

namespace loiter::reports {

// `value` in fixed notation with about `significant` significant digits (6, as "{:g}"), at
// most 9 decimals, trailing zeros dropped: 1711734 -> "1711734", 0.5 -> "0.5",
// 0.000123 -> "0.000123", 1e-12 -> "0", 1e20 -> "100000000000000000000"; "nan", "inf",
// "-inf" for those.
std::string plain_number(double value, int significant = 6);

// As plain_number, with a sign always: "+2", "-0.5", "+0".
std::string signed_number(double value, int significant = 6);

// As plain_number, its whole digits grouped by thousands with commas, as loiter's prose
// writes rates and counts: 41200 -> "41,200", 1234.5 -> "1,234.5", 999 -> "999",
// -5000 -> "-5,000".
std::string grouped_number(double value, int significant = 6);

}  // namespace loiter::reports
