// A small YAML emitter for JSON values: block style, every string double-quoted with JSON's
// escapes (a JSON string is a valid YAML double-quoted scalar), plain keys where they are
// safe. What `loiter k8s-job` prints comes from one boost::json structure as YAML or JSON.
#pragma once

#include <boost/json/value.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace loiter::cli {

// One document of a YAML stream, with comment lines printed above it ("# " prepended).
struct YamlDocument {
  std::vector<std::string> comment;
  boost::json::value value;
};

// `text` as a double-quoted scalar: ", \ and control characters escaped as JSON does
// (\n, \t, \u0001, ...), DEL as \u007f; other bytes as they are (UTF-8 passes through).
std::string yaml_quoted(std::string_view text);

// `value` in block style, each line ending in '\n'; an empty object is "{}", an empty array
// "[]", a scalar alone is one line.
std::string to_yaml(const boost::json::value& value);

// A stream: `header` comment lines, then each document after "---" with its comment.
std::string yaml_stream(const std::vector<std::string>& header,
                        const std::vector<YamlDocument>& documents);

}  // namespace loiter::cli
