/* bench_unroll_memory: unroll.json beside the tuning cache, a file keyed by
 * device (bench_keyed_cache): each device's --unroll auto calibrations,
 * each K's seq rate over its mode's best, averaged over the device's last
 * BENCH_UNROLL_MEMORY_RUNS calibrations. auto chooses its K from the
 * average, so that one noisy calibration does not change K from one run
 * to the next (a pattern's ratio to seq moves with K). Schema
 * "bwlab.unroll" version 1: {"schema", "schema_version", "entries":
 * [{"key": {...}, "runs", "copy": [5], "read": [5], "copy_k", "read_k"}]}
 * (a K not measured: 0; copy_k and read_k, the K last chosen, may be
 * absent: none). */
#ifndef BENCH_UNROLL_MEMORY_H
#define BENCH_UNROLL_MEMORY_H

#include "bench_tune_priv.h"
#include "bw_error.h"

#define BENCH_UNROLL_MEMORY_FILE "unroll.json"
#define BENCH_UNROLL_MEMORY_SCHEMA "bwlab.unroll"
/* calibrations averaged at most: a device whose best K changes (a new
 * driver is a new key) follows within a few runs */
#define BENCH_UNROLL_MEMORY_RUNS 4
/* the ladder's K: 1, 2, 4, 8, 16 (bench_fit's BENCH_FIT_UNROLLS) */
#define BENCH_UNROLL_MEMORY_KS 5

typedef struct bench_unroll_memory {
    int runs; /* calibrations averaged; 0: none */
    /* measured, averaged: seq's rate at K = 1 << k over its mode's best K
     * of the same calibration, 0..1; 0: not measured */
    double copy[BENCH_UNROLL_MEMORY_KS], read[BENCH_UNROLL_MEMORY_KS];
    /* the K auto last chose for each mode (bench_fit_unroll_keep); 0: none */
    int copy_k, read_k;
} bench_unroll_memory;

/* key's entry into *m (runs 0 when the file or the entry is missing);
 * BW_E_FORMAT naming the file when it is malformed or holds a score
 * outside 0..1, a count outside 1..BENCH_UNROLL_MEMORY_RUNS, or a last K
 * other than 1, 2, 4, 8 or 16. */
bw_code bench_unroll_memory_lookup(const char *path, const bench_tune_key *key, bench_unroll_memory *m, bw_error *err);

/* Stores m under key (bench_keyed_cache_store). */
bw_code bench_unroll_memory_store(const char *path, const bench_tune_key *key, const bench_unroll_memory *m,
                                  bw_error *err);

/* Adds one calibration (GB/s at each K, copy and read; 0: not measured)
 * to m: each K's rate over its mode's best in this calibration, averaged
 * with m's scores, these weighing min(runs, BENCH_UNROLL_MEMORY_RUNS - 1)
 * calibrations; a K that m lacks takes this calibration's score. runs
 * grows to BENCH_UNROLL_MEMORY_RUNS at most. Pure. */
void bench_unroll_memory_add(bench_unroll_memory *m, const double copy[BENCH_UNROLL_MEMORY_KS],
                             const double read[BENCH_UNROLL_MEMORY_KS]);

#endif
