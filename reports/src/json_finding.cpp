// report.json's findings: what the described codec cannot say from a finding's members alone
// (json_finding.hpp).
#include "json_finding.hpp"

#include <algorithm>

namespace loiter::reports {

Finding finding_from_sentence(std::string sentence, std::string_view scenario, Status status) {
  return {.code = codes::kText,
          .scenario = std::string(scenario),
          .klass = status == Status::error ? FindingClass::infrastructure : FindingClass::deadline,
          .sentence = std::move(sentence)};
}

}  // namespace loiter::reports

namespace loiter::reports::described {

json::value Codec<ConnectLimit>::write(const ConnectLimit& limit) {
  return json::string(to_string(limit));
}

ConnectLimit Codec<ConnectLimit>::read(const json::value& json) {
  if (!json.is_string()) throw ReadError("", "must be a word");
  return connect_limit_of(json.get_string());
}

json::value Codec<std::vector<std::pair<std::string, std::size_t>>>::write(
    const Failures& failures) {
  json::object out;
  for (const auto& [what, count] : failures) out[what] = described::write(count);
  return out;
}

auto Codec<std::vector<std::pair<std::string, std::size_t>>>::read(const json::value& json)
    -> Failures {
  if (!json.is_object()) throw ReadError("", "must be an object");
  Failures failures;
  for (const auto& [what, count] : json.get_object()) {
    try {
      failures.emplace_back(std::string(what), described::read<std::size_t>(count));
    } catch (const ReadError& e) {
      throw e.under("'" + std::string(what) + "'");
    }
  }
  return failures;
}

void Amend<Finding>::write(const Finding& finding, json::object& out) {
  out["text"] = text(finding);
}

// The sentence is kept only where this loiter cannot say it again from the data.
void Amend<Finding>::read(const json::object& object, Finding& finding) {
  if (std::ranges::find(known_codes(), finding.code) != known_codes().end()) return;
  const auto* sentence = object.if_contains("text");
  if (sentence == nullptr) throw ReadError("", "missing key 'text'");
  if (!sentence->is_string()) throw ReadError("", "key 'text' must be a string");
  finding.sentence = sentence->get_string();
}

}  // namespace loiter::reports::described
