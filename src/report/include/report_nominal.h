/* report_nominal: the table of nominal (vendor-published) DRAM bandwidth
 * and FP32 peaks in data/nominal.json, and the rule that matches a merged
 * device to an entry (docs/compare.md, "Nominal peaks"). Data only: the
 * figures are the vendors', never measured. */
#ifndef REPORT_NOMINAL_H
#define REPORT_NOMINAL_H

#include <jansson.h>
#include <stdint.h>

#include "bw_error.h"

/* Checks a parsed nominal table: {"schema": "bwlab.nominal", "devices":
 * [{name, vendor[], name_all[], name_none[], dram_gbs, dram_source,
 * fp32_gflops, fp32_source, optional mem_min_gib, mem_max_gib}]}.
 * BW_E_FORMAT naming the entry and field that is wrong. */
bw_code report_nominal_check(const json_t *table, bw_error *err);

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

/* The plausibility check of one measured figure (GB/s) against a nominal
 * peak (0: none known): NULL when it is at or below the peak, else, in
 * buf, the words that go beside it, "above the device's nominal 4.80
 * TB/s: cache or compression?". */
#define REPORT_PLAUSIBILITY_MAX 160
const char *report_nominal_plausibility(double gbs, double nominal_gbs, char *buf, size_t n);

/* A measured figure more than REPORT_PLATEAU_FACTOR times the probe's
 * memory plateau is not memory's: the plateau is a measured read rate on
 * a working set past every cache, and a figure that far above it was
 * served by a cache (or the data compressed), where noise and a mode's
 * mix of reads and writes stay well within the factor. */
#define REPORT_PLATEAU_FACTOR 1.5

/* The check of one measured figure (GB/s) against the probe's memory
 * plateau (0: none; date: the probe's, or NULL): NULL when it is at or
 * below REPORT_PLATEAU_FACTOR times the plateau, else, in buf, "above
 * 1.5x the probe's memory plateau of 3.89 TB/s (DATE): cache or
 * compression?". */
const char *report_plateau_plausibility(double gbs, double plateau_gbs, const char *date, char *buf, size_t n);

/* Both checks, the nominal peak's first: the words of the first that
 * fires, or NULL. */
const char *report_figure_plausibility(double gbs, double nominal_gbs, double plateau_gbs, const char *date, char *buf,
                                       size_t n);

#endif
