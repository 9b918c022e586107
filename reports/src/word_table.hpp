// An enum's words as a table of {value, word} pairs, looked up either way. Private to reports/.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace loiter::reports::word_table {

template <class Value, std::size_t kSize>
using Table = std::array<std::pair<Value, std::string_view>, kSize>;

// The word of `value`; `otherwise` where the table has none.
template <class Value, std::size_t kSize>
constexpr std::string_view word_of(const Table<Value, kSize>& table, Value value,
                                   std::string_view otherwise = "") {
  const auto* found = std::ranges::find(table, value, &std::pair<Value, std::string_view>::first);
  return found == table.end() ? otherwise : found->second;
}

// The value whose word is `word`; nullopt where none is.
template <class Value, std::size_t kSize>
constexpr std::optional<Value> value_of(const Table<Value, kSize>& table, std::string_view word) {
  const auto* found = std::ranges::find(table, word, &std::pair<Value, std::string_view>::second);
  return found == table.end() ? std::nullopt : std::optional(found->first);
}

}  // namespace loiter::reports::word_table
