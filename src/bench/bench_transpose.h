/* bench_transpose: the kernels of the transpose family (cl/transpose.cl,
 * docs/design.md §2.1, §2.2) and the host's checks of what they did.
 *
 * An N x N matrix of 4-byte words, row-major, one work-item per element,
 * launched 1-D: copy (out[i] = in[i], the reference) and naive
 * (out[x*N + y] = in[y*N + x], x = g % N) over N*N work-items, tiled and
 * padded (through a W x W local tile of pitch W and W + 1) in work-groups
 * of W*rows work-items that loop over the tile's rows. Every element keeps
 * the index g of the one-element-per-work-item numbering: the model's and
 * the trace's. Pure host code
 * apart from bench_transpose_program, which only reads the kernel file.
 *
 * The family's entry of the kernel-family table, bench_family_transpose
 * (bench_family.h: sizing, reference, program, validation, trace), is
 * defined in the .c file beside these functions. */
#ifndef BENCH_TRANSPOSE_H
#define BENCH_TRANSPOSE_H

#include <stdint.h>

#include "bw_error.h"
#include "model_geometry.h"
#include "model_pattern.h"

/* The versions are the transpose family's (model_transpose_version). */
typedef model_transpose_version bench_transpose_version;
#define BENCH_TRANSPOSE_VERSIONS 4

/* Kernel arguments: in, out, then with trace the trace buffer. */
#define BENCH_TRANSPOSE_ARG_TRACE 2u

/* The version's name ("copy", "naive", "tiled", "padded"); its kernel's
 * name in bench_transpose_program's source ("bw_transpose_copy", ...). */
const char *bench_transpose_version_name(bench_transpose_version v);
const char *bench_transpose_kernel_name(bench_transpose_version v);

/* Whether n and tile fit together: tile >= 1, n a positive multiple of
 * tile; BW_E_USAGE says why not. */
bw_code bench_transpose_check_size(int64_t n, int tile, bw_error *err);

/* The program of all four kernels for an n x n matrix and a tile x tile
 * local tile (bench_transpose_check_size must hold); with trace != 0 every
 * kernel also records each work-item's global byte address of its load.
 * The kernel file is found as bench_kernel_source_load finds it (dir:
 * --kernels, may be NULL). *source is the caller's. */
bw_code bench_transpose_program(const char *dir, int64_t n, int tile, int trace, char **source, bw_error *err);

/* The work-group size a version needs within at most `most` work-items:
 * tile*rows for tiled and padded, rows the largest divisor of tile with
 * tile*rows <= most (each work-item loops over the tile's rows, rows
 * apart: cl/transpose.cl), or -1 when not even tile*1 fits; 0 (any) for
 * copy and naive. */
int64_t bench_transpose_local_size(bench_transpose_version v, int tile, int64_t most);

/* The model's global byte address of work-item g's load (the address of
 * in[] it reads) for an n x n matrix and tile edge tile. */
int64_t bench_transpose_load_address(bench_transpose_version v, int64_t n, int tile, int64_t g);

/* The modeled local-memory conflict ways of the tile's column read (the
 * store phase reads tile[lx*pitch + ly]) by warp 0 of a tile x tile
 * work-group, lane t being local id t, on geometry geo (warp width
 * geo->lanes, at most tile*tile): model_bank_count over the lanes' byte
 * addresses 4*((t % tile)*pitch + t / tile), pitch tile (tiled) or
 * tile + 1 (padded). 0 where it does not apply: copy and naive (no tile),
 * a profile without banks, or a warp wider than the work-group. */
int bench_transpose_tile_ways(bench_transpose_version v, const model_geometry *geo, int tile);

/* Rows row0 .. row0+rows-1 of the result, out (rows*n words), against in
 * (all n*n words): out's (row y, column x) must be in[y*n + x] for copy,
 * in[x*n + y] for the others, every element. BW_E_VALIDATION names the
 * version, the first wrong element (row, column) and what it held and
 * should have. */
bw_code bench_transpose_validate(bench_transpose_version v, int64_t n, const uint32_t *in, const uint32_t *out,
                                 int64_t row0, int64_t rows, bw_error *err);

/* bench_transpose_validate against the matrix the pseudo-random stream
 * bench_fill_random_at(seed) wrote from byte 0 (the run's src), each
 * element regenerated where it is needed: no host copy of the n*n input,
 * so that a sample of rows costs only those rows. */
bw_code bench_transpose_validate_stream(bench_transpose_version v, int64_t n, uint64_t seed, const uint32_t *out,
                                        int64_t row0, int64_t rows, bw_error *err);

/* trace (n*n entries) must be bench_transpose_load_address of every
 * work-item: BW_E_VALIDATION names the first that is not. */
bw_code bench_transpose_validate_trace(bench_transpose_version v, int64_t n, int tile, const int64_t *trace,
                                       bw_error *err);

#endif
