// A TOML text cut into its lines as written, for the drafted target file: table headers,
// key = value entries (a value may span lines: a multi-line string or array) and the rest
// (comments, blank lines). Only the cutting is done: values are kept as text, never read.
// A header or a key inside a multi-line string ("""...""", '''...''') is text of that string.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loiter::reports::toml_text {

struct Item {
  enum class Kind { header, entry, other };
  Kind kind = Kind::other;
  // header: the table's name without spaces ("deadlines", "h2.flood", "files");
  // entry: its key as written, without spaces ("header", "a.b"); other: empty.
  std::string name;
  bool array_table = false;  // a header "[[files]]"
  std::string text;          // as written, through its last newline (if any)
};

// The items of `text`, in order; their texts joined are `text`. Throws std::invalid_argument
// naming `source` and the line where a string or an array is never closed.
std::vector<Item> scan(std::string_view text, std::string_view source);

// The tables of a scanned text: the first holds what comes before the first header (name
// ""), each next one starts at its header.
struct Table {
  std::string name;
  bool array_table = false;
  std::vector<Item> items;  // a table's header first
};
std::vector<Table> tables(std::vector<Item> items);

}  // namespace loiter::reports::toml_text
