/* bench_bank: the local-memory kernel of a bank pattern (cl/bank.cl,
 * docs/design.md §2.2) and the host's checks of what it did.
 *
 * Every work-group copies one tile of bench_bank_tile_words 4-byte words
 * from src into local memory, then work-item g reads BENCH_BANK_READS
 * words of it: read j at word A(g) / 4 + (j mod W), where A is the
 * pattern's local byte address. It stores the FNV-1a fold of the words read,
 * acc = (acc ^ word) * 16777619 from acc = 2166136261, at dst[g]. The global part of a work-item
 * (its share of the tile copy, about tile_words / local_size loads of one
 * cached tile, and one store) is small against its BENCH_BANK_READS local
 * reads. Pure host code apart from bench_bank_program, which only reads
 * the kernel files.
 *
 * The family's entry of the kernel-family table, bench_family_bank
 * (bench_family.h: sizing, reference, program, validation, trace), is
 * defined in the .c file beside these functions. */
#ifndef BENCH_BANK_H
#define BENCH_BANK_H

#include <stdint.h>

#include "bw_error.h"
#include "model_pattern.h"

/* Local reads per work-item. */
#define BENCH_BANK_READS 256
/* The kernel's name in bench_bank_program's source. */
#define BENCH_BANK_KERNEL "bw_bank"
/* Kernel arguments: src, dst, the local tile, then with trace the trace buffer. */
#define BENCH_BANK_ARG_TILE 2u
#define BENCH_BANK_ARG_TRACE 3u

/* The tile's size in 4-byte words: one past the largest word any lane of
 * a warp reads (its first word plus W - 1 columns). Fails like
 * model_expr_eval, or with BW_E_USAGE for a family that is not local or a
 * negative address. */
bw_code bench_bank_tile_words(const model_pattern *p, int64_t *out, bw_error *err);

/* The program for pattern p: bw_expr.cl, then bank.cl behind p's
 * definitions (kernel BENCH_BANK_KERNEL, warp width p->lanes, the address
 * expression, the tile size, BENCH_BANK_READS); with trace != 0 the
 * kernel also records every work-item's local byte address of its first
 * read. Kernel files are found as bench_kernel_source_load finds them
 * (dir: --kernels, may be NULL). *source is the caller's. */
bw_code bench_bank_program(const char *dir, const model_pattern *p, int trace, char **source, bw_error *err);

/* What dst[g] must hold for g in 0..items-1, given the tile's words (at
 * least bench_bank_tile_words of them), into out (items entries). Fails
 * like bench_bank_tile_words. */
bw_code bench_bank_expect(const model_pattern *p, const uint32_t *tile, int64_t items, uint32_t *out,
                          bw_error *err);

/* dst (items entries) against bench_bank_expect: BW_E_VALIDATION names the
 * pattern, the first wrong work-item, and what it held and should have. */
bw_code bench_bank_validate(const model_pattern *p, const uint32_t *tile, const uint32_t *dst, int64_t items,
                            bw_error *err);

/* trace (items entries) must be the model's local byte address of every
 * work-item's first read: BW_E_VALIDATION names the first that is not. */
bw_code bench_bank_validate_trace(const model_pattern *p, const int64_t *trace, int64_t items, bw_error *err);

/* The local bytes a bank item's launch reads: items x BENCH_BANK_READS x 4
 * (the GB/s of a bank item is these over its median time). */
struct bench_item;
double bench_bank_local_bytes(const struct bench_item *it);

#endif
