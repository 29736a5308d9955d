/* cli_signal: SIGINT, SIGTERM, SIGHUP (a closed terminal, a dropped ssh
 * session) and SIGQUIT as a request to stop, for the commands that measure
 * (run, probe, roofline, tune): what was measured is never lost to one.
 *
 * The first signal sets cli_signal_caught (the signal's number) and puts
 * the default action back, so that a second one ends the process the usual
 * way; measuring code reads the flag between launches and chunks and stops,
 * and the command writes what it has, then exits 128 + the signal (130,
 * 143, 129, 131). The handler stays in place while the output is written (a signal
 * then lets the write finish) and SA_RESTART resumes the system calls it
 * interrupts. */
#ifndef CLI_SIGNAL_H
#define CLI_SIGNAL_H

#include <signal.h>

/* the signal that asked to stop, or 0 */
extern volatile sig_atomic_t cli_signal_caught;

typedef struct cli_signal_saved {
    struct sigaction intr, term, hup, quit;
} cli_signal_saved;

/* Installs the handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT; the old actions go to *saved. */
void cli_signal_catch(cli_signal_saved *saved);

/* Puts back the actions cli_signal_catch saved. */
void cli_signal_restore(const cli_signal_saved *saved);

/* 128 + the signal caught, or `status` when none was; a command's last word */
int cli_signal_status(int status);

/* "SIGINT", "SIGTERM", "SIGHUP" or "SIGQUIT" for the signal caught */
const char *cli_signal_name(void);

#endif
