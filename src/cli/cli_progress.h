/* cli_progress: the status line a measuring command (run, probe) keeps on
 * standard error while it works.
 *
 * On a terminal that understands it the line is redrawn in place
 * ("\r" and the erase-line sequence), cut to the terminal's width; where
 * TERM is unset, empty or "dumb" each new status is a plain line of its
 * own, with no escape sequence; off a terminal (a log, a pipe) or with
 * --quiet there is none. Every text shown goes through bw_quote_append:
 * a pattern's name or a device's is user data, and no control byte of it
 * reaches the terminal. Owns no memory. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include "bench_run.h"

typedef enum cli_progress_mode {
    CLI_PROGRESS_NONE,   /* no status line */
    CLI_PROGRESS_PLAIN,  /* one plain line per status shown */
    CLI_PROGRESS_REDRAW, /* one line, redrawn in place */
} cli_progress_mode;

/* The mode for this process's standard error (quiet: NONE). */
cli_progress_mode cli_progress_mode_of(int quiet);

/* The width the line is cut to: $COLUMNS when it is a number from 20 to
 * 1000, else the terminal's own (TIOCGWINSZ), else 80. */
int cli_progress_width(void);

/* Shows text (formatted as printf) as the status; nothing in NONE. The
 * REDRAW line is cut one column short of the width, so that it never
 * wraps. */
void cli_progress_show(cli_progress_mode m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the REDRAW line before other output goes to standard error (a
 * note, the results); nothing in the other modes. */
void cli_progress_clear(cli_progress_mode m);

/* What a measuring command keeps of its status line between the
 * runner's reports. */
typedef struct cli_progress_state {
    cli_progress_mode mode;
    double last_draw;    /* bench_now_s of the last redraw */
    char last_phase[16]; /* "" before the first, or after a new device */
} cli_progress_state;

/* Shows the progress p of a run's runner (bench_progress's building,
 * validating, measuring...: a few redraws a second at most, since the
 * runner reports after every launch, and in PLAIN mode one line per
 * phase) or of its pipeline (bench_pipeline's roofline and transfers
 * shown, idle cleared). Not for "finished" and "plan", which are the
 * caller's. */
void cli_progress_runner(cli_progress_state *st, const bench_progress *p);

#endif
