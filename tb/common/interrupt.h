// Ctrl-C and SIGTERM in a long command (make sim, a soak): the first one asks every run loop to
// stop at its next check (a few thousand cycles at most), so the command can still write what it
// has, a valid report with the interrupted runs marked. A second one ends the process at once.
#pragma once

namespace creditloop {

// Catch SIGINT and SIGTERM from now on (a command that can report partial results calls it).
void install_interrupt_handlers();
// Whether one came: a relaxed load, cheap enough for a run loop's periodic check.
bool interrupt_requested();
// The signal that came (SIGINT, SIGTERM), 0 for none.
int interrupt_signal();
// Ask as a signal would (tests; a command that must stop for another reason).
void request_interrupt(int signal);

}  // namespace creditloop
