#include "denial_kinds.hpp"

#include "loiter/suites/ladder/denial_run.hpp"

namespace loiter::suites::ladder {

std::vector<HeldKind> kinds_over(std::string_view protocol) {
  std::vector<HeldKind> kinds;
  if (protocol == "http1" || protocol == "tls") kinds.assign(kHttp1Kinds.begin(), kHttp1Kinds.end());
  if (protocol == "tls") kinds.insert(kinds.end(), kTlsKinds.begin(), kTlsKinds.end());
  if (protocol == "h2c" || protocol == "h2") kinds.assign(kH2Kinds.begin(), kH2Kinds.end());
  if (protocol == "h3") kinds.assign(kH3Kinds.begin(), kH3Kinds.end());
  return kinds;
}

const std::optional<std::string>& path_needed(const fixtures::Target& target, Needs needs) {
  switch (needs) {
    case Needs::echo: return target.paths.echo;
    case Needs::large: return target.paths.large;
    case Needs::health: break;
  }
  return target.paths.health;
}

std::string_view needs_word(Needs needs) {
  return needs == Needs::echo ? "an echo path (paths.echo)"
         : needs == Needs::large ? "a large response (paths.large)"
                                 : "a health path (paths.health)";
}

std::optional<HeldKind> held_kind(std::string_view name, std::string_view protocol) {
  for (const auto& kind : kinds_over(protocol)) {
    if (kind.name == name) return kind;
  }
  return std::nullopt;
}

clients::KindSettings settings_for(const HeldKind& kind, const fixtures::Target& target) {
  auto path = path_needed(target, kind.needs).value_or("/");
  // A large response sized by the request ("{bytes}"): the registry sizes slow-reader's for
  // its own receive buffer; a stream's window held shut needs no more than a window's worth.
  constexpr std::string_view kBytes = "{bytes}";
  if (const auto at = path.find(kBytes); at != std::string::npos && kind.name != "slow-reader") {
    path.replace(at, kBytes.size(), std::to_string(kLargeStreamBytes));
  }
  return {.path = path};
}

std::vector<std::string> default_denial_kinds(std::string_view protocol) {
  std::vector<std::string> names;
  for (const auto& kind : kinds_over(protocol)) {
    if (kind.by_default) names.emplace_back(kind.name);
  }
  return names;
}

bool denial_kind_runs_over(std::string_view kind, std::string_view protocol) {
  return held_kind(kind, protocol).has_value();
}

}  // namespace loiter::suites::ladder
