// The lines of a drafted target file: comments, keys, [deadlines] and [promises].
#include "survey_draft_lines.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace loiter::reports::draft {

namespace {

using State = KeyDraft::State;
using toml_text::Item;
using toml_text::Table;

const Item* entry_of(const Table* table, std::string_view key) {
  if (table == nullptr) return nullptr;
  const auto it = std::ranges::find_if(table->items, [&](const Item& item) {
    return item.kind == Item::Kind::entry && item.name == key;
  });
  return it == table->items.end() ? nullptr : &*it;
}

// A measured number written where the file held a duration as a string ("2s") keeps the form:
// a placeholder of the key renders as it did.
std::string value_for(const KeyDraft& key, const Item* old) {
  if (old == nullptr || key.value.starts_with('"') || key.value == "true" || key.value == "false")
    return key.value;
  const auto equals = old->text.find('=');
  const auto first = old->text.find_first_not_of(" \t", equals + 1);
  const bool was_text = first != std::string::npos && old->text[first] == '"';
  return was_text ? fmt::format("\"{}s\"", key.value) : key.value;
}

bool drafted(const Drafting& d, std::string_view table, std::string_view key) {
  return std::ranges::any_of(d.keys,
                             [&](const KeyDraft& k) { return k.table == table && k.key == key; });
}

// `text` as comment lines of at most 100 columns, broken between words.
std::string wrapped_comment(std::string_view text) {
  std::string out, current = "#";
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const auto word = text.substr(at, end - at);
    if (current.size() + 1 + word.size() > 100 && current != "#") {
      out += current + "\n";
      current = "#";
    }
    current += " ";
    current += word;
    at = end + 1;
  }
  return out + current + "\n";
}

}  // namespace

std::string with_newline(std::string_view text) {
  return text.ends_with('\n') ? std::string(text) : std::string(text) + "\n";
}

std::string comment_line(std::string_view text) { return fmt::format("# {}\n", text); }

std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string top_comment(const Drafting& d) {
  const auto& s = d.survey;
  const auto& from = d.head.original ? d.head.source : s.target;
  const auto protocol = std::string(to_string(s.protocol));
  const auto at = from == s.endpoint ? protocol : fmt::format("{}, {}", s.endpoint, protocol);
  const auto tables = s.protocol == SurveyProtocol::h3 ? "the measured keys of [h3]"
                      : s.tls || d.head.h2 || s.protocol == SurveyProtocol::h2
                          ? "[deadlines], [promises] and the measured keys of [tls] and [h2]"
                          : "[deadlines] and [promises]";
  return wrapped_comment(fmt::format(
             "Drafted by loiter survey on {} from {} ({}): {} hold what this server "
             "was measured to do.{} Measured is not promised: keep a value only once the "
             "server's configuration says it, since loiter check judges the server against it.",
             d.date, from, at, tables,
             s.interrupted
                 ? " The survey was interrupted: what it did not reach is kept or left out."
                 : "")) +
         "\n";
}

std::string key_lines(const Drafting& d, const KeyDraft& key, const Item* old) {
  if (key.state == State::measured) {
    return comment_line(key.why) + fmt::format("{} = {}\n", key.key, value_for(key, old));
  }
  if (old == nullptr) return comment_line(fmt::format("{}: {}", key.key, key.why));
  if (key.state == State::unmeasured) {
    return comment_line(fmt::format("kept from {}: {}", d.head.source, key.why)) +
           with_newline(old->text);
  }
  const auto used = placeholder(key);
  if (d.head.original->find(used) != std::string::npos) {
    return comment_line(
               fmt::format("kept from {}: the file uses {}; {}", d.head.source, used, key.why)) +
           with_newline(old->text);
  }
  return comment_line(fmt::format("{}: {}", key.key, key.why));
}

std::string drafted_table(const Drafting& d, std::string_view name, const Table* old) {
  std::string out = fmt::format("[{}]\n", name);
  for (const auto& key : d.keys) {
    if (key.table == name) out += key_lines(d, key, entry_of(old, key.key));
  }
  if (old == nullptr) return out;
  for (const auto& item : old->items) {
    if (item.kind != Item::Kind::entry || drafted(d, name, item.name)) continue;
    out += comment_line(fmt::format("kept from {}: not measured", d.head.source)) +
           with_newline(item.text);
  }
  return out;
}

std::string keyed_lines(const Drafting& d, std::string_view table) {
  std::string out;
  for (const auto& key : d.keys) {
    if (key.table == table) out += key_lines(d, key, nullptr);
  }
  return out;
}

}  // namespace loiter::reports::draft
