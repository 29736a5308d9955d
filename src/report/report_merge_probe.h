/* results_merge_probe: the probe figures of one JSON object read into a
 * results_merge_probe (results_merge.h), for results_merge: a `bwlab probe`
 * results file's devices[] entry, or a `bwlab run --transfers` run's
 * runs[] entry (transfers and launch latency only). Internal to the
 * report layer: results_merge owns the records and attaches each to its
 * device.
 *
 * Checking comes first, and a whole file is checked before anything of it
 * is merged, so a bad file adds nothing. Absent or null fields are NAN /
 * -1 / NULL ("not measured"), never 0. */
#ifndef RESULTS_MERGE_PROBE_H
#define RESULTS_MERGE_PROBE_H

#include <jansson.h>
#include <stddef.h>

#include "results_merge.h"

/* Checks a probe results document (schema "bwlab.probe-results", schema
 * version 1 up to this bwlab's): the first problem as "WHERE: WHAT" in
 * msg, returning 0; 1 when it can be merged. */
int results_merge_probe_check_doc(const json_t *root, char *msg, size_t n);

/* Checks the probe fields a results document's run may carry (transfers,
 * launch_latency_us, small_transfer_*); where names it ("runs[0]"). */
int results_merge_probe_check_run(const json_t *run, const char *where, char *msg, size_t n);

/* 1 when a run object carries any probe figure (transfers or launch
 * latency). */
int results_merge_probe_run_has(const json_t *run);

/* Fills p's figures from a checked object (a probe devices[] entry or a
 * run): levels, memory, ladder, transfers, launch and small-transfer
 * latency, the units. Leaves device, file, file_index, from_run, date,
 * note alone. 0 when out of memory (p holds what it took; free it with
 * results_merge_probe_clear). */
int results_merge_probe_fill(results_merge_probe *p, const json_t *obj);

/* Frees what a record owns (accepts a zeroed record). */
void results_merge_probe_clear(results_merge_probe *p);

#endif
