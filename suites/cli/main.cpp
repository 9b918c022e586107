// loiter: the command line. `loiter check` runs the scenario catalogue against a target and
// prints a verdict per scenario; exit 0 all passed (or skipped), 1 a scenario failed,
// 2 usage error, 3 infrastructure error (the server did not start, a limit was hit).

#include <CLI/CLI.hpp>

#include "check.hpp"

int main(int argc, char** argv) {
  CLI::App app{"loiter — adversarial connection-lifecycle tests for HTTP servers", "loiter"};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  loiter check                                 # catalogue vs the reference server\n"
      "  loiter check --scenario silent --count 500\n"
      "  loiter check --fault no-header-deadline      # see a planted bug caught (exit 1)\n"
      "  loiter check --target nginx                  # Debian's nginx, bundled target file\n"
      "  loiter check --target ./mine.toml            # your server, your target file\n"
      "  loiter check --list\n"
      "\nExit codes: 0 passed, 1 a scenario failed, 2 usage error, 3 infrastructure error,\n"
      "130 interrupted (Ctrl-C: the run stops cleanly and still reports; twice: at once).");
  loiter::cli::CheckOptions check;
  auto* check_command = app.add_subcommand("check", "run scenarios against a target");
  loiter::cli::add_check_options(*check_command, check);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (check_command->parsed()) return loiter::cli::run_check(check);
  return 2;
}
