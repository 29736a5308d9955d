/* results_merge_priv: what only src/results and its tests use of
 * results_merge.h: loading without outputs to protect. */
#ifndef RESULTS_MERGE_PRIV_H
#define RESULTS_MERGE_PRIV_H

#include "results_merge.h"

/* results_load_paths_opts with no outputs to protect (opts NULL). */
bw_code results_load_paths(const char *const *paths, size_t n, results_merged **out, bw_error *err);

#endif
