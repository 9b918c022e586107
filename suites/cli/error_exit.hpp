// An error that ends a command, as its exit code and its line on stderr: a bad input
// (a Refusal, any std::invalid_argument, a target file's error) is 2, anything else (a
// harness fault, a file that cannot be written, a limit) is 3. Never a signal: an error
// that escapes on another thread, through a noexcept function or a destructor ends
// loiter the same way instead of in abort().
#pragma once

#include <exception>

namespace loiter::cli {

// Says `error` on stderr ("loiter: ...") and returns its exit code (exit_codes.hpp).
int exit_code_of_error(const std::exception_ptr& error);

// Makes std::terminate say the exception that escaped and end the process with its exit
// code (std::_Exit: nothing else runs; a started server is contained as on kill -9).
void exit_on_terminate();

}  // namespace loiter::cli
