/* bench_probe_priv: the probe's own steps, which only bench and its
 * tests use: the maps' verdict, the bank count from a sweep, the levels
 * from a ladder, the pointer chase's cycles and its check, and the words
 * that set an inferred figure beside the profile's, the host's and the
 * device's. The probe's API and data are public (bench_probe.h). */
#ifndef BENCH_PROBE_PRIV_H
#define BENCH_PROBE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "bench_probe.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "model_geometry.h"

/* the sector-pair ratio (split over adjacent) at or above which the unit
 * is 64 bytes, and at or below which it is 32 */
#define BENCH_PROBE_PAIR_64 1.6
#define BENCH_PROBE_PAIR_32 1.25
/* The unit a sector-pair ratio implies (64, 32, or 0 with why said in
 * why, n bytes). Pure. */
int64_t bench_probe_pair_unit(double ratio, char *why, size_t n);

#define BENCH_PROBE_MAP_FLAT 4.0   /* "does not grow with size": over at least 64x the bytes */
#define BENCH_PROBE_MAP_CHEAP 8.0  /* "a tiny fraction of a copy": 1/8 of it */

/* The verdict on n maps of one direction (any order; n >= 2 sizes at
 * least 64x apart for `flat`), given whether the mapped address ever moved
 * and whether the device reports CL_DEVICE_HOST_UNIFIED_MEMORY. A row's
 * copy_us of 0 (no copy measured) never makes it cheap. Pure. */
bench_probe_map_verdict bench_probe_map_verdict_of(const bench_probe_map *m, size_t n, int moved, int unified);

/* The bank sweep's word strides */
#define BENCH_PROBE_BANK_STRIDES 16
extern const double bench_probe_bank_strides[BENCH_PROBE_BANK_STRIDES];

/* The bank count from a local stride sweep's times y at word strides x
 * (n points, w lanes): model_fit_banks, accepted where it explains at
 * least 70% of the variation; into r->inferred_banks (0 when none) and
 * r->banks_why. Pure. */
void bench_probe_banks_infer(const double *x, const double *y, size_t n, int64_t w, bench_probe_result *r);

/* Keeps r->inferred_unit only when it repeats: the sweeps' samples
 * (samples[i * launches + j]: point i of the stride then the offset sweep,
 * repeat j, in ns per element or block) fitted from the even repeats
 * alone and from the odd repeats alone must choose the same unit as their
 * fastest over every repeat did. Otherwise the unit is 0 and unit_why
 * names the three choices: a unit that one half of the launches does not
 * choose is noise, not a measurement. Nothing changes with no unit or
 * fewer than 4 repeats. Pure. */
void bench_probe_unit_repeats(bench_probe_result *r, const double *samples, size_t launches);

/* Derives r's levels from its ladder (r->points[0..n_points), the
 * latencies only when r->chase_valid): model_fit_ladder_levels at a step
 * of 1.5, its span the ladder's points per doubling (from the first two
 * sizes), then each of r->host_caches paired with a level
 * (model_fit_match_caches, host_match). Sets levels, n_levels and
 * have_memory (0 levels and no memory when the ladder has no knee or a
 * figure is not positive). Pure: what bench_probe_run does after the
 * ladder, and what tests run on recorded ladders. */
void bench_probe_levels(bench_probe_result *r);

/* Checks the visit counts a marked chase of n steps left (mark[i]: times
 * element i was reached) and where it ended: BW_OK when every element was
 * reached exactly once and the chase came back to `start`; else
 * BW_E_VALIDATION naming the first element missed or repeated. Pure. */
bw_code bench_probe_check_chase(const uint32_t *mark, size_t n, uint32_t end, uint32_t start, bw_error *err);

/* A random cyclic permutation of n elements (Sattolo's algorithm): next[i]
 * is the element after i, one cycle through all n (n 1: next[0] = 0; n 0:
 * nothing). seed picks it. */
void bench_probe_cycle(uint32_t *next, size_t n, uint64_t seed);

/* The page-local cycle: one node every `line` elements of n (a node is
 * the element at a multiple of line), linked into one cycle that visits
 * the pages of `page` elements in a random order and, within each page,
 * every node of it in a random order before it moves on. A chase of it
 * touches the working set's every line as bench_probe_cycle's does, but
 * changes page once per page / line loads, so a knee of the random chase
 * that this one lacks is a TLB's reach, not a cache's size. next[] of
 * nodes only is written. Returns the nodes in the cycle (0 when line is
 * 0, page not a multiple of line, n below line, or out of memory). */
size_t bench_probe_page_cycle(uint32_t *next, size_t n, size_t line, size_t page, uint64_t seed);

/* The sentence that sets the inferred unit beside the profile's sector
 * and line: "agrees with the profile's sector and line (64 B)", ... */
void bench_probe_agreement(bw_buf *out, const bench_probe_result *r, const model_geometry *g);

/* The words that set cache level k (< r->n_levels) beside the host
 * cache paired with it (model_fit_match_caches): "agrees with the host's
 * L2 (2 MiB)", "the host reports L3 300 MiB; dependent loads leave this
 * level at about 45 MiB", or "matches no cache the host reports (...)". */
void bench_probe_level_agreement(bw_buf *out, const bench_probe_result *r, size_t k);

/* The words that set the device's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE beside
 * the levels: "agrees with L3 (...)", "the device reports 300 MiB;
 * dependent loads leave the cache at about 45 MiB", or, when the last
 * level is paired with a host cache smaller than the device's and not
 * the host's last, "the device reports 480 MiB; no level past L2 (1.4
 * MiB, the host's L2) stands: the ladders reach memory without another
 * knee". */
void bench_probe_device_cache_agreement(bw_buf *out, const bench_probe_result *r);

#endif
