// The YAML of `loiter k8s-job`, through yaml-cpp's emitter: block style as expected, every
// string double-quoted with its special characters and all non-ASCII escaped, keys plain
// only where a reader takes them as strings, empty containers in flow style, comments line
// by line. (k8s_job_test.cpp reads the same YAML back with PyYAML.)
#include "yaml_emit.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

namespace loiter::cli {
namespace {

namespace json = boost::json;

// A string with ':', '#', a $(VAR) reference or quotes stays one double-quoted scalar.
TEST(YamlEmit, QuotesStringsWithIndicatorsAsOneScalar) {
  EXPECT_EQ(yaml_quoted("a: b # c"), R"("a: b # c")");
  EXPECT_EQ(yaml_quoted("$(JOB_COMPLETION_INDEX)/8"), R"("$(JOB_COMPLETION_INDEX)/8")");
  EXPECT_EQ(yaml_quoted(R"(say "hi" \ bye)"), R"("say \"hi\" \\ bye")");
  EXPECT_EQ(yaml_quoted(""), R"("")");
  EXPECT_EQ(yaml_quoted("- [x] {y} & *z !t %u @v `w` |"), R"("- [x] {y} & *z !t %u @v `w` |")");
}

// Line breaks, tabs and other control characters are escapes, never raw in the output.
TEST(YamlEmit, EscapesNewlinesAndControlCharacters) {
  EXPECT_EQ(yaml_quoted("one\ntwo\r\tthree"), R"("one\ntwo\r\tthree")");
  EXPECT_EQ(yaml_quoted(std::string("\x01\x1f\x7f", 3)), R"("\x01\x1f\x7f")");
  EXPECT_EQ(yaml_quoted("\b\f"), R"("\b\f")");
}

// Non-ASCII is escaped, U+2028, U+2029, NEL and the BOM among it (a YAML 1.1 reader folds
// them raw): the text is ASCII, whatever a value holds.
TEST(YamlEmit, EscapesNonAsciiUnicodeLineBreaksIncluded) {
  EXPECT_EQ(yaml_quoted("a\u2028b\u2029c\u0085d\ufeff"), R"("a\u2028b\u2029c\x85d\ufeff")");
  EXPECT_EQ(yaml_quoted("café ✓ 🚀"), R"("caf\xe9 \u2713 \U0001f680")");
}

// A mapping is "key: value" lines, nested ones indented by two; empty containers in flow.
TEST(YamlEmit, WritesMappingsInBlockStyleAndEmptyContainersInFlow) {
  const auto value = json::parse(R"({"a":"x","b":[],"c":{},"d":{"e":1,"f":true,"g":null}})");
  EXPECT_EQ(to_yaml(value),
            "a: \"x\"\n"
            "b: []\n"
            "c: {}\n"
            "d:\n"
            "  e: 1\n"
            "  f: true\n"
            "  g: ~\n");
  EXPECT_EQ(to_yaml(json::object{}), "{}\n");
  EXPECT_EQ(to_yaml(json::array{}), "[]\n");
  EXPECT_EQ(to_yaml(json::value("alone")), "\"alone\"\n");
}

// A sequence is "- item" lines; a mapping item starts on the dash's line, its other keys
// under its first; a sequence in a sequence starts on the line after its dash.
TEST(YamlEmit, WritesSequencesWithMappingItemsCompact) {
  const auto value = json::parse(R"([{"name":"a","args":["x","y"]},[1,2],[],"s"])");
  EXPECT_EQ(to_yaml(value),
            "- name: \"a\"\n"
            "  args:\n"
            "    - \"x\"\n"
            "    - \"y\"\n"
            "-\n"
            "  - 1\n"
            "  - 2\n"
            "- []\n"
            "- \"s\"\n");
}

// Keys that a YAML 1.1 reader would take for a boolean, null or number, or that hold
// indicators, are quoted; Kubernetes' keys stay plain.
TEST(YamlEmit, QuotesOnlyTheKeysAReaderWouldMisread) {
  const auto value = json::parse(
      R"({"app.kubernetes.io/name":1,"on":2,"No":3,"1x":4,"a b":5,"a:b":6,"#c":7,"":8,"_k-8":9})");
  EXPECT_EQ(to_yaml(value),
            "app.kubernetes.io/name: 1\n"
            "\"on\": 2\n"
            "\"No\": 3\n"
            "\"1x\": 4\n"
            "\"a b\": 5\n"
            "\"a:b\": 6\n"
            "\"#c\": 7\n"
            "\"\": 8\n"
            "_k-8: 9\n");
}

// Numbers keep their kind: integers plain, a double always with its '.' (YAML 1.1 reads
// "5" as an integer and "1e+20" as a string).
TEST(YamlEmit, WritesDoublesSoAReaderKeepsThemFloats) {
  EXPECT_EQ(to_yaml(json::value(0.5)), "0.5\n");
  EXPECT_EQ(to_yaml(json::value(5.0)), "5.0\n");
  EXPECT_EQ(to_yaml(json::value(1e20)), "1.0e+20\n");
  EXPECT_EQ(to_yaml(json::value(std::int64_t{-3})), "-3\n");
  EXPECT_EQ(to_yaml(json::value(std::uint64_t{18446744073709551615u})), "18446744073709551615\n");
}

// A stream: the header's comment lines, then each document after "---" with its own
// comment; a comment with a newline becomes several "# " lines, an empty line "#".
TEST(YamlEmit, WritesAStreamOfCommentedDocuments) {
  const std::vector<YamlDocument> documents{{{"first\nsecond"}, json::object{{"a", 1}}},
                                            {{}, json::array{"b"}}};
  EXPECT_EQ(yaml_stream({"head", ""}, documents),
            "# head\n"
            "#\n"
            "---\n"
            "# first\n"
            "# second\n"
            "a: 1\n"
            "---\n"
            "- \"b\"\n");
}

}  // namespace
}  // namespace loiter::cli
