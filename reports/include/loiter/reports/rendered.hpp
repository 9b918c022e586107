// Every document loiter writes has one reporter shape: render_console(document, out),
// render_html(document, out) and, for a document that judges, render_junit(document, out),
// overloaded by document (a run: console.hpp, html.hpp, junit.hpp, whose JUnit takes the runs
// of a matrix or the one of `check`; a survey: survey_render.hpp, which judges nothing and
// has no JUnit; a ladder: ladder_render.hpp). `rendered` gives any of them as text, for a
// file.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "loiter/reports/console.hpp"
#include "loiter/reports/html.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "loiter/reports/survey_render.hpp"

namespace loiter::reports {

enum class Format { console, html, junit };

// `document` in `format`, as text. A form the document has not (a survey's JUnit: it judges
// nothing; a matrix's console text, which is Markdown of its own) is a caller's mistake:
// std::logic_error.
template <class Document>
std::string rendered(const Document& document, Format format) {
  std::ostringstream out;
  const auto missing = [] { throw std::logic_error("this document has no such form"); };
  switch (format) {
    case Format::console:
      if constexpr (requires { render_console(document, out); }) {
        render_console(document, out);
      } else {
        missing();
      }
      break;
    case Format::html:
      if constexpr (requires { render_html(document, out); }) {
        render_html(document, out);
      } else {
        missing();
      }
      break;
    case Format::junit:
      if constexpr (requires { render_junit(document, out); }) {
        render_junit(document, out);
      } else {
        missing();
      }
      break;
  }
  return out.str();
}

}  // namespace loiter::reports
