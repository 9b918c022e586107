#include "survey_draft.hpp"

#include "loiter/fixtures/target/target_file.hpp"
#include "loiter/reports/survey_target.hpp"

namespace loiter::cli {

std::string draft_target_text(const reports::Survey& survey,
                              const std::optional<fixtures::Target>& target,
                              const std::string& named,
                              std::vector<std::pair<std::string, std::string>> paths) {
  reports::DraftHead head;
  if (target) {
    // The surveyed file's own text: its command, files and paths stay as they were.
    head.source = target->source;
    head.original = fixtures::target_text(named.empty() ? "reference" : named);
    if (target->tls) {
      head.alpn = target->tls->alpn;
      head.server_name = target->tls->server_name;
    }
    head.h2 = target->h2.has_value();
    return reports::draft_target(survey, head);
  }
  // --connect without a file: a connect-only file, no command.
  head.name = "mine";
  head.description = "surveyed at " + survey.endpoint + " on " + survey.started;
  head.source = survey.endpoint;
  head.h2 = survey.protocol == reports::SurveyProtocol::h2;
  head.paths = std::move(paths);
  return reports::draft_target(survey, head);
}

}  // namespace loiter::cli
