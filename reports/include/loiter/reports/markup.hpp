// Text made safe for markup: the one escape of the HTML pages and the JUnit XML. Plain
// data: no Asio, no library beyond the standard one.
#pragma once

#include <string>
#include <string_view>

namespace loiter::reports {

// What becomes of tab, newline and carriage return: kept as they are (HTML element content,
// where a line break is the text's own), or character references (XML attribute values,
// where a parser would fold them into spaces).
enum class Breaks { kept, referenced };

// `text` as markup character data or an attribute value: &, <, >, " and ' escaped (' as
// &#39;, which HTML 4 and XML both read); other control characters (which XML 1.0 cannot
// carry at all) and malformed UTF-8 as U+FFFD.
std::string escape_markup(std::string_view text, Breaks breaks);

}  // namespace loiter::reports
