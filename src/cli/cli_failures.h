/* cli_failures: what a run tells on standard error of its failed patterns,
 * once it has measured: each failed pattern's full message (a build log,
 * a validation's first wrong element), and a message repeated by several
 * patterns (the same build log) once. The table and the results carry the
 * short reason; this is where the whole of it is read. */
#ifndef CLI_FAILURES_H
#define CLI_FAILURES_H

#include "bench_run.h"
#include "cli.h"

/* The failed and not-measurable patterns of the devices pipe reached
 * (nrun), but those of a device that failed as a whole (reported when it
 * failed). */
void cli_print_failures(const cli_command *self, const bench_pipeline *pipe);

#endif
