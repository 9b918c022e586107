// The scenario catalogue (DESIGN.md, "Scenario catalogue"), in a stable order.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>

#include "catalogue_text.hpp"
#include "loiter/suites/catalogue/scenario.hpp"
#include "scenario_kit.hpp"
#include "scenarios.hpp"

namespace loiter::suites {

namespace {

// An HTTP/1.1 scenario: skipped on a target that speaks HTTP/2, then for its own needs; one
// of protocol any (catalogue.txt) speaks HTTP/2 there, and has only its own needs; one of
// protocol every speaks HTTP/3 on an [h3] target too.
Scenario over_http1(Scenario scenario) {
  const auto& entries = catalogue_entries();
  const auto entry = std::ranges::find(entries, scenario.id, &CatalogueEntry::id);
  if (entry != entries.end() && entry->protocol == ScenarioProtocol::every) return scenario;
  if (entry != entries.end() && entry->protocol == ScenarioProtocol::any) {
    // Over HTTP/1.1 or HTTP/2 as the target speaks; an [h3] target speaks neither here.
    scenario.unmet_need = [own = std::move(scenario.unmet_need)](const fixtures::Target& target) {
      if (auto need = kit::need_not_h3(target)) return need;
      return own(target);
    };
    return scenario;
  }
  scenario.unmet_need = [own = std::move(scenario.unmet_need)](const fixtures::Target& target) {
    if (auto need = kit::need_http1(target)) return need;
    return own(target);
  };
  return scenario;
}

}  // namespace

const std::vector<Scenario>& catalogue() {
  static const std::vector<Scenario> scenarios = [] {
    std::vector<Scenario> all;
    for (auto family :
         {header_scenarios, body_scenarios, keepalive_scenarios, abort_scenarios, not_cut_scenarios,
          send_scenarios, load_scenarios, capacity_scenarios, tls_scenarios}) {
      for (auto& scenario : family()) all.push_back(over_http1(std::move(scenario)));
    }
    for (auto family : {h2_scenarios, flood_scenarios}) {  // HTTP/2: each skipped without [h2]
      for (auto& scenario : family()) all.push_back(std::move(scenario));
    }
    for (auto family : {h3_scenarios, flood_h3_scenarios}) {  // [h3] only
      for (auto& scenario : family()) all.push_back(std::move(scenario));
    }
    return all;
  }();
  return scenarios;
}

std::vector<std::string> catalogue_ids() {
  std::vector<std::string> ids;
  for (const auto& scenario : catalogue()) ids.emplace_back(scenario.id);
  return ids;
}

const Scenario* find_scenario(std::string_view id) {
  for (const auto& scenario : catalogue()) {
    if (scenario.id == id) return &scenario;
  }
  return nullptr;
}

std::optional<std::string> count_problem(const Scenario& scenario, std::size_t count) {
  if (count <= scenario.most_count) return std::nullopt;
  if (scenario.most_count >= kSplitCount) {
    return fmt::format("--count {}: {} takes at most {} connections", count, scenario.id,
                       scenario.most_count);
  }
  return fmt::format(
      "--count {}: {} runs in one client process, {} connections at most (only held-capacity "
      "splits larger counts over client processes, up to {})",
      count, scenario.id, scenario.most_count, kSplitCount);
}

namespace {

// The words of a line, split at spaces.
std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> words;
  for (std::size_t at = 0; at < line.size();) {
    const auto start = line.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    const auto end = std::min(line.find(' ', start), line.size());
    words.push_back(line.substr(start, end - start));
    at = end;
  }
  return words;
}

CatalogueEntry entry_of(std::string_view line) {
  const auto words = words_of(line);
  const auto protocol = words.size() == 4 ? scenario_protocol_of(words[2]) : std::nullopt;
  if (!protocol || (words[3] != "default" && words[3] != "on-request")) {
    throw std::logic_error(fmt::format(
        "catalogue.txt: not 'id family http1|tls|h2|h3|any|every default|on-request': '{}'", line));
  }
  return {.id = words[0],
          .family = words[1],
          .protocol = *protocol,
          .by_default = words[3] == "default"};
}

// The scenarios of `family` a --family run takes: those of the default run, or all of them
// when none is.
std::vector<const Scenario*> family_run(std::string_view family) {
  std::vector<const Scenario*> all, by_default;
  for (const auto& scenario : catalogue()) {
    if (scenario.family != family) continue;
    all.push_back(&scenario);
    if (runs_by_default(scenario.id)) by_default.push_back(&scenario);
  }
  return by_default.empty() ? all : by_default;
}

constexpr std::array<std::string_view, 6> kProtocolWords{"http1", "tls", "h2", "h3", "any",
                                                        "every"};

}  // namespace

std::string_view to_string(ScenarioProtocol protocol) {
  return kProtocolWords[static_cast<std::size_t>(protocol)];  // in the enum's order
}

std::optional<ScenarioProtocol> scenario_protocol_of(std::string_view word) {
  const auto it = std::ranges::find(kProtocolWords, word);
  if (it == kProtocolWords.end()) return std::nullopt;
  return static_cast<ScenarioProtocol>(it - kProtocolWords.begin());
}

const std::vector<CatalogueEntry>& catalogue_entries() {
  static const std::vector<CatalogueEntry> entries = [] {
    std::vector<CatalogueEntry> read;
    const auto text = detail::catalogue_text();
    for (std::size_t at = 0; at < text.size();) {
      const auto end = std::min(text.find('\n', at), text.size());
      const auto line = text.substr(at, end - at);
      if (!line.empty() && !line.starts_with('#')) read.push_back(entry_of(line));
      at = end + 1;
    }
    return read;
  }();
  return entries;
}

bool runs_by_default(std::string_view id) {
  const auto& entries = catalogue_entries();
  const auto entry = std::ranges::find(entries, id, &CatalogueEntry::id);
  return entry != entries.end() && entry->by_default;
}

std::optional<std::string> protocol_unmet(std::string_view id, const fixtures::Target& target) {
  const auto& entries = catalogue_entries();
  const auto entry = std::ranges::find(entries, id, &CatalogueEntry::id);
  if (entry == entries.end()) return std::nullopt;
  if (entry->protocol == ScenarioProtocol::h3) return kit::need_h3(target);
  if (entry->protocol == ScenarioProtocol::every) return std::nullopt;  // speaks the target's
  if (auto need = kit::need_not_h3(target)) return need;
  if (entry->protocol == ScenarioProtocol::h2) return kit::need_h2(target);
  if (entry->protocol == ScenarioProtocol::any) return std::nullopt;  // speaks the target's
  if (auto need = kit::need_http1(target)) return need;
  return entry->protocol == ScenarioProtocol::tls ? kit::need_tls(target) : std::nullopt;
}

std::vector<const Scenario*> choose_scenarios(const std::vector<std::string>& ids,
                                              std::size_t count, bool without_load,
                                              const std::vector<std::string>& families) {
  std::vector<const Scenario*> chosen;
  if (ids.empty() && families.empty()) {
    for (const auto& scenario : catalogue()) {
      if (!runs_by_default(scenario.id)) continue;
      if (!without_load || scenario.family != "load") chosen.push_back(&scenario);
    }
  }
  for (const auto& family : families) {
    const auto before = chosen.size();
    for (const auto* scenario : family_run(family)) chosen.push_back(scenario);
    if (chosen.size() == before) {
      throw std::invalid_argument(
          fmt::format("unknown family '{}' (loiter check --list shows the scenarios)", family));
    }
  }
  for (const auto& id : ids) {
    const auto* scenario = find_scenario(id);
    if (scenario == nullptr) {
      throw std::invalid_argument(
          fmt::format("unknown scenario '{}' (loiter check --list shows them)", id));
    }
    chosen.push_back(scenario);
  }
  for (const auto* scenario : chosen) {
    if (count == 0) break;  // each scenario's own default
    if (auto problem = count_problem(*scenario, count)) throw std::invalid_argument(*problem);
  }
  return chosen;
}

}  // namespace loiter::suites
