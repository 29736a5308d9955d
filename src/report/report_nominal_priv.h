/* report_nominal_priv: what only src/report and its tests use of
 * report_nominal.h: checking one nominal figure. */
#ifndef REPORT_NOMINAL_PRIV_H
#define REPORT_NOMINAL_PRIV_H

#include "report_nominal.h"

/* Checks a parsed nominal table: {"schema": "bwlab.nominal", "devices":
 * [{name, vendor[], name_all[], name_none[], dram_gbs, dram_source,
 * fp32_gflops, fp32_source, optional mem_min_gib, mem_max_gib}]}.
 * BW_E_FORMAT naming the entry and field that is wrong. */
bw_code report_nominal_check(const json_t *table, bw_error *err);

#endif
