// draft_target(): a survey's measured keys written into a target file, the surveyed file's
// own text kept around them (or a connect-only file where there was none).
#include "loiter/reports/survey_target.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "loiter/reports/number_text.hpp"
#include "survey_draft_lines.hpp"

namespace loiter::reports {

namespace {

using draft::Drafting;
using draft::KeyDraft;
using toml_text::Item;
using toml_text::Table;

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

// [tls], [h2] or [h3]: the measured keys replaced where they stand (or added after the last key),
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
      out += draft::key_lines(d, **key, &item);
      pending.erase(key);
    } else {
      out += draft::with_newline(item.text);
    }
    if (&item != last_item) continue;
    for (const auto* rest : pending) out += draft::key_lines(d, *rest, nullptr);
    pending.clear();
  }
  return out;
}

void refuse_other_forms(const Table& root, const DraftHead& head) {
  for (const auto& item : root.items) {
    if (item.kind != Item::Kind::entry) continue;
    for (const std::string_view table : {"deadlines", "promises", "tls", "h2", "h3"}) {
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
  const bool h3 = d.survey.protocol == SurveyProtocol::h3;
  // Over HTTP/3 only [h3] is drafted: [deadlines] and [promises] stay as they are.
  const Table* deadlines = h3 ? nullptr : find("deadlines");
  const Table* promises = h3 ? nullptr : find("promises");
  std::string out = draft::top_comment(d);
  for (const auto& table : tables) {
    if (&table == deadlines) {
      out += draft::drafted_table(d, "deadlines", deadlines);
      if (promises == nullptr) out += "\n" + draft::drafted_table(d, "promises", nullptr);
      out += lead_in(table);
    } else if (&table == promises) {
      if (deadlines == nullptr) out += draft::drafted_table(d, "deadlines", nullptr) + "\n";
      out += draft::drafted_table(d, "promises", promises) + lead_in(table);
    } else if (!table.array_table && (table.name == "tls" || table.name == "h2" || table.name == "h3")) {
      out += keyed_table(d, table);
    } else {
      for (const auto& item : table.items) out += item.text;
    }
  }
  while (out.ends_with("\n\n")) out.pop_back();  // one newline at the end, as most files have
  if (h3) {
    if (find("h3") == nullptr) out = draft::with_newline(out) + "\n[h3]\n" + draft::keyed_lines(d, "h3");
    return out;
  }
  if (deadlines == nullptr && promises == nullptr) {
    out = draft::with_newline(out) + "\n" + draft::drafted_table(d, "deadlines", nullptr) + "\n" +
          draft::drafted_table(d, "promises", nullptr);
  }
  return out;
}

// A file for a server loiter does not start: no command (loiter check --connect).
std::string connect_only_file(const Drafting& d) {
  std::string out = draft::top_comment(d);
  out += fmt::format("name = {}\ndescription = {}\n", draft::toml_string(d.head.name),
                     draft::toml_string(d.head.description));
  if (!d.head.paths.empty()) {
    out += "\n[paths]\n";
    for (const auto& [name, path] : d.head.paths)
      out += fmt::format("{} = {}\n", name, draft::toml_string(path));
  }
  if (d.survey.protocol != SurveyProtocol::h3) {
    out += "\n" + draft::drafted_table(d, "deadlines", nullptr);
    out += "\n" + draft::drafted_table(d, "promises", nullptr);
  }
  if (d.survey.tls) {
    out += "\n[tls]\n";
    if (!d.head.alpn.empty()) {
      std::vector<std::string> names;
      for (const auto& name : d.head.alpn) names.push_back(draft::toml_string(name));
      out += fmt::format("alpn = [{}]\n", fmt::join(names, ", "));
    }
    if (!d.head.server_name.empty())
      out += fmt::format("server_name = {}\n", draft::toml_string(d.head.server_name));
    out += draft::keyed_lines(d, "tls");
  }
  if (d.head.h2 || d.survey.protocol == SurveyProtocol::h2) out += "\n[h2]\n" + draft::keyed_lines(d, "h2");
  if (d.survey.protocol == SurveyProtocol::h3) {
    out += "\n[h3]\n";
    if (!d.head.server_name.empty())
      out += fmt::format("server_name = {}\n", draft::toml_string(d.head.server_name));
    out += draft::keyed_lines(d, "h3");
  }
  return out;
}

}  // namespace

std::string drafted_seconds(double median, double slack) {
  const double whole = std::round(median);
  if (whole >= 1 && std::abs(median - whole) <= slack) return plain_number(whole);
  return plain_number(std::max(0.01, std::round(median * 100) / 100));
}

std::string draft_target(const Survey& survey, const DraftHead& head) {
  const bool h2 = head.h2 || survey.protocol == SurveyProtocol::h2;
  std::string date = head.date.empty() ? survey.started.substr(0, 10) : head.date;
  Drafting d{
      .survey = survey, .head = head, .date = date, .keys = draft::draft_keys(survey, date, h2)};
  return head.original ? drafted_file(d) : connect_only_file(d);
}

}  // namespace loiter::reports
