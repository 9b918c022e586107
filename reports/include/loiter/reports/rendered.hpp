// Every document loiter writes has one reporter shape: render_console(document, out),
// render_html(document, out) and, for a document that judges, render_junit(document, out),
// overloaded by document (a run: console.hpp, html.hpp, junit.hpp, whose JUnit takes the runs
// of a matrix or the one of `check`; a survey: survey_render.hpp, which judges nothing and
// has no JUnit; a ladder: ladder_render.hpp; a denial ladder: denial_render.hpp). `rendered`
// gives any of them as text, for a file.
#pragma once

#include <concepts>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "loiter/reports/console.hpp"
#include "loiter/reports/denial_render.hpp"
#include "loiter/reports/html.hpp"
#include "loiter/reports/junit.hpp"
#include "loiter/reports/ladder_render.hpp"
#include "loiter/reports/survey_render.hpp"

namespace loiter::reports {

enum class Format { console, html, junit };

namespace rendered_forms {

// Each form's renderers as one callable, which only a document that has the form can call.
inline constexpr auto console = [](const auto& document,
                                   std::ostream& out) -> decltype(render_console(document, out)) {
  render_console(document, out);
};
inline constexpr auto html = [](const auto& document,
                                std::ostream& out) -> decltype(render_html(document, out)) {
  render_html(document, out);
};
inline constexpr auto junit = [](const auto& document,
                                 std::ostream& out) -> decltype(render_junit(document, out)) {
  render_junit(document, out);
};

// `document` as text through `render`, one form's renderers; std::logic_error where the
// document has not that form.
template <class Document, class Render>
std::string text_through(const Document& document, const Render& render) {
  if constexpr (std::invocable<const Render&, const Document&, std::ostream&>) {
    std::ostringstream out;
    render(document, out);
    return out.str();
  } else {
    throw std::logic_error("this document has no such form");
  }
}

}  // namespace rendered_forms

// `document` in `format`, as text. A form the document has not (a survey's JUnit: it judges
// nothing; a matrix's console text, which is Markdown of its own) is a caller's mistake:
// std::logic_error.
template <class Document>
std::string rendered(const Document& document, Format format) {
  switch (format) {
    case Format::console:
      return rendered_forms::text_through(document, rendered_forms::console);
    case Format::html:
      return rendered_forms::text_through(document, rendered_forms::html);
    case Format::junit:
      break;
  }
  return rendered_forms::text_through(document, rendered_forms::junit);
}

}  // namespace loiter::reports
