/* report_nominal: the table of nominal (vendor-published) DRAM bandwidth
 * and FP32 peaks in data/nominal.json, and the rule that matches a merged
 * device to an entry (docs/compare.md, "Nominal peaks"). Data only: the
 * figures are the vendors', never measured. */
#ifndef REPORT_NOMINAL_H
#define REPORT_NOMINAL_H

#include "results_plausibility.h"

#include <jansson.h>
#include <stdint.h>

#include "bw_error.h"

/* Reads and checks data/nominal.json (bw_file_find_resource, BWLAB_DATA_DIR
 * first). *table is the caller's (json_decref) on BW_OK, NULL otherwise;
 * BW_E_NOMEM "out of memory reading", BW_E_FORMAT naming the file and what
 * is wrong, or the file's own error. */
bw_code report_nominal_load(json_t **table, bw_error *err);

/* The index of the first entry of a checked table that matches a device
 * (vendor, name, board name or NULL, global memory bytes or -1), or -1. */
int report_nominal_find(const json_t *table, const char *vendor, const char *name, const char *board,
                        long long global_mem_bytes);

/* The matching entry's nominal DRAM GB/s and name (borrowed from the
 * table), or 0 and NULL when the table is NULL or no entry matches. */
double report_nominal_dram(const json_t *table, const char *vendor, const char *name, const char *board,
                           long long global_mem_bytes, const char **entry_name);

#endif
