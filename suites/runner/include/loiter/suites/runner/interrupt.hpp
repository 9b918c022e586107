// Ctrl-C without losing the run: the first SIGINT or SIGTERM asks the run to stop early but
// cleanly (clients closed, server stopped, report printed and written); a second one ends
// the process at once (the kernel then kills the server through PR_SET_PDEATHSIG).
#pragma once

namespace loiter::suites {

void install_interrupt_handlers();

// True once the user asked the run to stop.
bool interrupted();

}  // namespace loiter::suites
