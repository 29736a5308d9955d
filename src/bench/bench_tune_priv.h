/* bench_tune_priv: what only bench and its tests use of the tuning
 * search and its cache: the names of modes and layouts, a configuration's
 * check, a peak's fraction and JSON, the cache keys' comparison and the
 * cache directory's check. The search's API and data are public
 * (bench_tune.h). */
#ifndef BENCH_TUNE_PRIV_H
#define BENCH_TUNE_PRIV_H

#include <jansson.h>

#include "bench_tune.h"
#include "bw_error.h"

/* "read", "copy"; "grid", "block", "contiguous"; NULL out of range. */
const char *bench_tune_mode_name(bench_tune_mode m);
const char *bench_tune_layout_name(bench_tune_layout l);
/* The layout of a name, or -1. */
int bench_tune_layout_parse(const char *name);
/* Whether c is a configuration the search can produce: V in {1,2,4,8,16},
 * K in {1,2,4,8,16}, L a power of two from 1 to 1024, a known layout, and
 * block layout when K = 1. */
int bench_tune_config_ok(const bench_tune_config *c);

/* The fraction of the device's peak that a measured bandwidth reaches, for
 * a pattern of access mode `mode`: gbs / peaks[mode].gbs. NAN when that
 * peak is not valid or not positive, or gbs is not finite. */
double bench_tune_fraction(const bench_tune_peak peaks[BENCH_TUNE_MODES], bench_tune_mode mode, double gbs);

/* 1 when every field of a and b is the same string as the file stores it
 * (NULL as "", a string that is not UTF-8 with bytes above 0x7f as '?'). */
int bench_tune_key_equal(const bench_tune_key *a, const bench_tune_key *b);

/* A peak's configuration and bandwidth as the cache stores them and the
 * reports print them: {vector_width, elems_per_item, local_size, layout,
 * gbs}, or JSON null for a family with no winner. New reference. */
json_t *bench_tune_peak_json(const bench_tune_peak *p);

/* BW_OK when the directories above the cache file `path` (tune.json,
 * probe.json) are usable: each one that exists is a directory. Else
 * BW_E_IO naming the one that is a file ("the cache directory '...' is
 * not a directory"), and what to do (set BWLAB_CACHE_DIR to a directory). */
bw_code bench_tune_cache_dir_check(const char *path, bw_error *err);

#endif
