/* cli_inputs: the result files that `bwlab compare` and `bwlab report`
 * read (files, directories searched recursively, OUT.partial journals),
 * loaded and merged, every bad one named, and the exit status they leave.
 * Owner: the caller frees the merged data (results_merged_free). */
#ifndef CLI_INPUTS_H
#define CLI_INPUTS_H

#include <stddef.h>

#include "bw_error.h"
#include "cli.h"
#include "results_merge.h"

/* Loads paths[0..n) into *m, refusing an --output (output, may be NULL)
 * that names one of them. Every bad input is named on stderr ("bwlab
 * NAME: error: FILE: MESSAGE", "note" for what is only said) and counted
 * in *bad; the others are still merged. Returns the usage error's status
 * after printing it (--output on an input), else 0 with *rc the loader's
 * code (err set when it is not BW_OK). */
int cli_inputs_load(const cli_command *self, char **paths, size_t n, const char *output, results_merged **m,
                    bw_code *rc, size_t *bad, bw_error *err);

/* The exit status once the output is written: rc's (printed) when it
 * failed; else 2 when bad inputs were named, saying how many and that "the
 * rest `rest`"; else 0. */
int cli_inputs_status(const cli_command *self, bw_code rc, size_t bad, const char *rest, const bw_error *err);

#endif
