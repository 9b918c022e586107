// loiter: the command line (command_line.hpp has its commands and exit codes).
#include "command_line.hpp"
#include "error_exit.hpp"

int main(int argc, char** argv) {
  loiter::cli::exit_on_terminate();
  return loiter::cli::run_command_line(argc, argv);
}
