/* cli_signal: SIGINT, SIGTERM, SIGHUP and SIGQUIT as a request to stop
 * (cli_signal.h). */
#include "cli_signal.h"

#include <string.h>

volatile sig_atomic_t cli_signal_caught;

/* a request to stop, kept; a second signal of the kind ends the process */
static void on_stop_signal(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    cli_signal_caught = sig;
}

void cli_signal_catch(cli_signal_saved *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved->intr);
    sigaction(SIGTERM, &sa, &saved->term);
    sigaction(SIGHUP, &sa, &saved->hup);
    sigaction(SIGQUIT, &sa, &saved->quit);
}

void cli_signal_restore(const cli_signal_saved *saved)
{
    sigaction(SIGINT, &saved->intr, NULL);
    sigaction(SIGTERM, &saved->term, NULL);
    sigaction(SIGHUP, &saved->hup, NULL);
    sigaction(SIGQUIT, &saved->quit, NULL);
}

int cli_signal_status(int status)
{
    return cli_signal_caught ? 128 + cli_signal_caught : status;
}

const char *cli_signal_name(void)
{
    switch (cli_signal_caught) {
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "SIGINT";
    }
}
