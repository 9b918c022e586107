// Cutting a TOML text into headers, entries and the rest, strings and arrays respected.
#include "toml_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace loiter::reports::toml_text {

namespace {

class Cutter {
 public:
  Cutter(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  std::vector<Item> items() {
    std::vector<Item> cut;
    while (at_ < text_.size()) cut.push_back(next());
    return cut;
  }

 private:
  [[noreturn]] void fail(std::size_t at, std::string_view what) const {
    const auto line = 1 + std::count(text_.begin(), text_.begin() + at, '\n');
    throw std::invalid_argument(fmt::format("{}:{}: {}", source_, line, what));
  }

  std::size_t end_of_line(std::size_t from) const {
    const auto newline = text_.find('\n', from);
    return newline == std::string_view::npos ? text_.size() : newline + 1;
  }

  Item cut(Item::Kind kind, std::string name, bool array, std::size_t start, std::size_t end) {
    at_ = end;
    return {.kind = kind,
            .name = std::move(name),
            .array_table = array,
            .text = std::string(text_.substr(start, end - start))};
  }

  Item next() {
    const auto start = at_;
    auto first = text_.find_first_not_of(" \t\r", start);
    if (first == std::string_view::npos) first = text_.size();
    if (first == text_.size() || text_[first] == '\n' || text_[first] == '#') {
      return cut(Item::Kind::other, "", false, start, end_of_line(first));
    }
    if (text_[first] == '[') return header(start, first);
    return entry(start, first);
  }

  // The name from `from` up to `stop` outside quotes, without blanks; the position of `stop`.
  std::pair<std::string, std::size_t> name_until(std::size_t from, char stop) const {
    std::string name;
    auto i = from;
    while (i < text_.size() && text_[i] != stop && text_[i] != '\n') {
      if (text_[i] == '"' || text_[i] == '\'') {
        const auto close = string_end(i);
        name += text_.substr(i, close - i);
        i = close;
        continue;
      }
      if (text_[i] != ' ' && text_[i] != '\t') name += text_[i];
      ++i;
    }
    if (i >= text_.size() || text_[i] != stop) {
      fail(from, stop == '=' ? "a key without '= value'" : "a table header never closed");
    }
    return {name, i};
  }

  Item header(std::size_t start, std::size_t bracket) {
    const bool array = text_.substr(bracket, 2) == "[[";
    auto [name, close] = name_until(bracket + (array ? 2 : 1), ']');
    return cut(Item::Kind::header, std::move(name), array, start, end_of_line(close));
  }

  Item entry(std::size_t start, std::size_t first) {
    auto [key, equals] = name_until(first, '=');
    return cut(Item::Kind::entry, std::move(key), false, start, value_end(equals + 1));
  }

  // Past the newline that ends a value begun at `i`: arrays and inline tables may span lines.
  std::size_t value_end(std::size_t i) const {
    const auto begun = i;
    int depth = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (c == '"' || c == '\'') {
        i = string_end(i);
        continue;
      }
      if (c == '#') {
        i = end_of_line(i);
        if (depth <= 0) return i;
        continue;
      }
      if (c == '[' || c == '{') ++depth;
      if (c == ']' || c == '}') --depth;
      ++i;
      if (c == '\n' && depth <= 0) return i;
    }
    if (depth > 0) fail(begun, "an array or inline table never closed");
    return text_.size();
  }

  // Past the closing quote(s) of the string opened at `i`.
  std::size_t string_end(std::size_t i) const {
    const char quote = text_[i];
    const bool basic = quote == '"';
    const std::string triple(3, quote);
    if (text_.substr(i, 3) == triple) {
      for (auto j = i + 3; j < text_.size();) {
        if (basic && text_[j] == '\\') {
          j += 2;
          continue;
        }
        if (text_.substr(j, 3) == triple) {
          j += 3;
          for (int extra = 0; extra < 2 && j < text_.size() && text_[j] == quote; ++extra) ++j;
          return j;
        }
        ++j;
      }
      fail(i, fmt::format("a multi-line string ({}) never closed", triple));
    }
    for (auto j = i + 1; j < text_.size() && text_[j] != '\n';) {
      if (basic && text_[j] == '\\') {
        j += 2;
        continue;
      }
      if (text_[j] == quote) return j + 1;
      ++j;
    }
    fail(i, "a string never closed on its line");
  }

  std::string_view text_;
  std::string_view source_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<Item> scan(std::string_view text, std::string_view source) {
  return Cutter(text, source).items();
}

std::vector<Table> tables(std::vector<Item> items) {
  std::vector<Table> result(1);
  for (auto& item : items) {
    if (item.kind == Item::Kind::header) {
      result.push_back({.name = item.name, .array_table = item.array_table, .items = {}});
    }
    result.back().items.push_back(std::move(item));
  }
  return result;
}

}  // namespace loiter::reports::toml_text
