// draft_target(): a survey's measured keys written into a target file, the surveyed file's
// own text kept around them (or a connect-only file where there was none).
#include "loiter/reports/survey_target.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "loiter/reports/number_text.hpp"
#include "survey_draft_keys.hpp"
#include "toml_text.hpp"

namespace loiter::reports {

namespace {

using draft::KeyDraft;
using State = KeyDraft::State;
using toml_text::Item;
using toml_text::Table;

std::string line(std::string_view text) {
  return text.ends_with('\n') ? std::string(text) : std::string(text) + "\n";
}

std::string comment(std::string_view text) { return fmt::format("# {}\n", text); }

// A TOML basic string.
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

// What the drafted file is drafted from, and the surveyed file's text where there was one.
struct Drafting {
  const Survey& survey;
  const DraftHead& head;
  std::string date;
  std::vector<KeyDraft> keys;
};

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

// One key's lines: its comment and the key; or the old entry, kept, where nothing was measured
// or the file uses the key as a placeholder; else the comment alone (the key left out).
std::string key_lines(const Drafting& d, const KeyDraft& key, const Item* old) {
  if (key.state == State::measured) {
    return comment(key.why) + fmt::format("{} = {}\n", key.key, value_for(key, old));
  }
  if (old == nullptr) return comment(fmt::format("{}: {}", key.key, key.why));
  if (key.state == State::unmeasured) {
    return comment(fmt::format("kept from {}: {}", d.head.source, key.why)) + line(old->text);
  }
  const auto used = draft::placeholder(key);
  if (d.head.original->find(used) != std::string::npos) {
    return comment(
               fmt::format("kept from {}: the file uses {}; {}", d.head.source, used, key.why)) +
           line(old->text);
  }
  return comment(fmt::format("{}: {}", key.key, key.why));
}

bool drafted(const Drafting& d, std::string_view table, std::string_view key) {
  return std::ranges::any_of(d.keys,
                             [&](const KeyDraft& k) { return k.table == table && k.key == key; });
}

// [deadlines] or [promises], drafted whole: the surveyed file's keys the survey does not
// measure (load_p99) are kept.
std::string drafted_table(const Drafting& d, std::string_view name, const Table* old) {
  std::string out = fmt::format("[{}]\n", name);
  for (const auto& key : d.keys) {
    if (key.table == name) out += key_lines(d, key, entry_of(old, key.key));
  }
  if (old == nullptr) return out;
  for (const auto& item : old->items) {
    if (item.kind != Item::Kind::entry || drafted(d, name, item.name)) continue;
    out += comment(fmt::format("kept from {}: not measured", d.head.source)) + line(item.text);
  }
  return out;
}

// What follows a table's last entry from its first blank line on: the next table's lead-in.
std::string lead_in(const Table& table) {
  const auto last = std::ranges::find_if(table.items.rbegin(), table.items.rend(),
                                         [](const Item& i) { return i.kind != Item::Kind::other; });
  auto from = last.base();
  from = std::find_if(from, table.items.end(), [](const Item& i) {
    return i.text.find_first_not_of(" \t\r\n") == std::string::npos;
  });
  std::string out;
  for (auto it = from; it != table.items.end(); ++it) out += it->text;
  return out.empty() ? "\n" : out;
}

// [tls] or [h2]: the measured keys replaced where they stand (or added after the last key),
// every other line kept as it is.
std::string keyed_table(const Drafting& d, const Table& old) {
  std::vector<const KeyDraft*> pending;
  for (const auto& key : d.keys) {
    if (key.table == old.name) pending.push_back(&key);
  }
  const auto last = std::ranges::find_if(old.items.rbegin(), old.items.rend(),
                                         [](const Item& i) { return i.kind != Item::Kind::other; });
  const Item* last_item = last == old.items.rend() ? nullptr : &*last;
  std::string out;
  for (const auto& item : old.items) {
    const auto key = std::ranges::find_if(pending, [&](const KeyDraft* k) {
      return item.kind == Item::Kind::entry && k->key == item.name;
    });
    if (key != pending.end()) {
      out += key_lines(d, **key, &item);
      pending.erase(key);
    } else {
      out += line(item.text);
    }
    if (&item != last_item) continue;
    for (const auto* rest : pending) out += key_lines(d, *rest, nullptr);
    pending.clear();
  }
  return out;
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

std::string top_comment(const Drafting& d) {
  const auto& s = d.survey;
  return wrapped_comment(fmt::format(
             "Drafted by loiter survey on {} from {} ({}, {}): [deadlines]{} hold what this "
             "server was measured to do.{} Measured is not promised: keep a value only once the "
             "server's configuration says it, since loiter check judges the server against it.",
             d.date, d.head.original ? d.head.source : s.target, s.endpoint, s.protocol,
             s.tls || d.head.h2 || s.protocol == "h2"
                 ? ", [promises] and the measured keys of [tls] and [h2]"
                 : " and [promises]",
             s.interrupted
                 ? " The survey was interrupted: what it did not reach is kept or left out."
                 : "")) +
         "\n";
}

void refuse_other_forms(const Table& root, const DraftHead& head) {
  for (const auto& item : root.items) {
    if (item.kind != Item::Kind::entry) continue;
    for (const std::string_view table : {"deadlines", "promises", "tls", "h2"}) {
      if (item.name == table || item.name.starts_with(std::string(table) + ".")) {
        throw std::invalid_argument(fmt::format(
            "{}: key '{}': a drafted target file replaces [{}] as a table of its own; write it "
            "as one",
            head.source, item.name, table));
      }
    }
  }
}

std::string drafted_file(const Drafting& d) {
  const auto tables = toml_text::tables(toml_text::scan(*d.head.original, d.head.source));
  refuse_other_forms(tables.front(), d.head);
  const auto find = [&](std::string_view name) -> const Table* {
    const auto it = std::ranges::find_if(
        tables, [&](const Table& t) { return !t.array_table && t.name == name; });
    return it == tables.end() ? nullptr : &*it;
  };
  const Table* deadlines = find("deadlines");
  const Table* promises = find("promises");
  std::string out = top_comment(d);
  for (const auto& table : tables) {
    if (&table == deadlines) {
      out += drafted_table(d, "deadlines", deadlines);
      if (promises == nullptr) out += "\n" + drafted_table(d, "promises", nullptr);
      out += lead_in(table);
    } else if (&table == promises) {
      if (deadlines == nullptr) out += drafted_table(d, "deadlines", nullptr) + "\n";
      out += drafted_table(d, "promises", promises) + lead_in(table);
    } else if (!table.array_table && (table.name == "tls" || table.name == "h2")) {
      out += keyed_table(d, table);
    } else {
      for (const auto& item : table.items) out += item.text;
    }
  }
  if (deadlines == nullptr && promises == nullptr) {
    out = line(out) + "\n" + drafted_table(d, "deadlines", nullptr) + "\n" +
          drafted_table(d, "promises", nullptr);
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

// A file for a server loiter does not start: no command (loiter check --connect).
std::string connect_only_file(const Drafting& d) {
  std::string out = top_comment(d);
  out += fmt::format("name = {}\ndescription = {}\n", toml_string(d.head.name),
                     toml_string(d.head.description));
  if (!d.head.paths.empty()) {
    out += "\n[paths]\n";
    for (const auto& [name, path] : d.head.paths)
      out += fmt::format("{} = {}\n", name, toml_string(path));
  }
  out += "\n" + drafted_table(d, "deadlines", nullptr);
  out += "\n" + drafted_table(d, "promises", nullptr);
  if (d.survey.tls) {
    out += "\n[tls]\n";
    if (!d.head.alpn.empty()) {
      std::vector<std::string> names;
      for (const auto& name : d.head.alpn) names.push_back(toml_string(name));
      out += fmt::format("alpn = [{}]\n", fmt::join(names, ", "));
    }
    if (!d.head.server_name.empty())
      out += fmt::format("server_name = {}\n", toml_string(d.head.server_name));
    out += keyed_lines(d, "tls");
  }
  if (d.head.h2 || d.survey.protocol == "h2") out += "\n[h2]\n" + keyed_lines(d, "h2");
  return out;
}

}  // namespace

std::string drafted_seconds(double median, double slack) {
  const double whole = std::round(median);
  if (whole >= 1 && std::abs(median - whole) <= slack) return plain_number(whole);
  return plain_number(std::max(0.01, std::round(median * 100) / 100));
}

std::string draft_target(const Survey& survey, const DraftHead& head) {
  const bool h2 = head.h2 || survey.protocol == "h2";
  std::string date = head.date.empty() ? survey.started.substr(0, 10) : head.date;
  Drafting d{
      .survey = survey, .head = head, .date = date, .keys = draft::draft_keys(survey, date, h2)};
  return head.original ? drafted_file(d) : connect_only_file(d);
}

}  // namespace loiter::reports
