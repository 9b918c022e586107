// The catalogue's data file (suites/catalogue/catalogue.txt), embedded at build time.
#pragma once

#include <string_view>

namespace loiter::suites::detail {

std::string_view catalogue_text();

}  // namespace loiter::suites::detail
