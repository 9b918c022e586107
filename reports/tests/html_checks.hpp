// What the HTML reporters' tests check of every page they render (a survey's, a ladder's).
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace loiter::reports::testing {

// The page stands alone: one whole document that runs no script and fetches nothing (no
// source, link or stylesheet from elsewhere), so it reads the same wherever it is opened.
inline void expect_self_contained(const std::string& html) {
  using ::testing::HasSubstr;
  using ::testing::Not;
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("href=\"http")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, ::testing::StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(html, ::testing::EndsWith("</body></html>\n"));
}

// Texts the test gave markup are shown, not obeyed: each of `escaped` (a text as the page
// must write it) is in the page, and none of `raw` (the markup itself) is.
inline void expect_escaped(const std::string& html, std::initializer_list<const char*> escaped,
                           std::initializer_list<const char*> raw) {
  using ::testing::HasSubstr;
  for (const auto* text : escaped) EXPECT_THAT(html, HasSubstr(text));
  for (const auto* text : raw) EXPECT_THAT(html, ::testing::Not(HasSubstr(text)));
}

}  // namespace loiter::reports::testing
