/* bwlab kernel family "transpose": an N x N matrix of 4-byte floats,
 * row-major, transposed from in to out (docs/design.md §2.1, §2.2).
 *
 * Four kernels, one work-item per element, launched 1-D over N*N
 * work-items:
 *   BW_KERNEL_COPY    out[i] = in[i]: the coalesced copy of the same
 *                     matrix, the reference of the other three;
 *   BW_KERNEL_NAIVE   x = g % N (the fast index), y = g / N:
 *                     out[x*N + y] = in[y*N + x]: coalesced reads, strided
 *                     writes;
 *   BW_KERNEL_TILED   through a BW_TILE x BW_TILE tile in local memory,
 *                     row pitch BW_TILE words: coalesced reads and writes,
 *                     the tile's column read W words apart;
 *   BW_KERNEL_PADDED  the tiled kernel with row pitch BW_TILE + 1 (the
 *                     bank-conflict fix).
 * The tiled kernels run in work-groups of BW_TILE * rows work-items, rows
 * a divisor of BW_TILE (BW_TILE * BW_TILE would exceed the work-group
 * limit for a 64-lane tile), one tile each, N * N * rows / BW_TILE
 * work-items in all: group b covers tile column bx = b % (N / BW_TILE) and
 * tile row by = b / (N / BW_TILE); local id l is lx = l % BW_TILE and
 * first row l / BW_TILE, and each work-item loops over the tile's rows
 * `rows` apart. The kernels move the floats' bits as uint: the same
 * traffic without floating-point arithmetic.
 *
 * The host defines BW_KERNEL_COPY, BW_KERNEL_NAIVE, BW_KERNEL_TILED,
 * BW_KERNEL_PADDED, BW_N and BW_TILE (BW_N a multiple of BW_TILE). With
 * BWLAB_TRACE every kernel also records each work-item's global byte
 * address of its load. */

#if !defined(BW_KERNEL_COPY) || !defined(BW_KERNEL_NAIVE) || !defined(BW_KERNEL_TILED) || \
    !defined(BW_KERNEL_PADDED) || !defined(BW_N) || !defined(BW_TILE)
#error "transpose.cl needs BW_KERNEL_COPY, BW_KERNEL_NAIVE, BW_KERNEL_TILED, BW_KERNEL_PADDED, BW_N and BW_TILE from the host"
#endif

#ifdef BWLAB_TRACE
#define BW_TRACE_ARG , __global long *restrict trace
#define BW_TRACE(g, word) trace[g] = 4 * (long)(word)
#else
#define BW_TRACE_ARG
#define BW_TRACE(g, word)
#endif

__kernel void BW_KERNEL_COPY(__global const uint *restrict in, __global uint *restrict out BW_TRACE_ARG)
{
    const long g = (long)get_global_id(0);
    BW_TRACE(g, g);
    out[g] = in[g];
}

__kernel void BW_KERNEL_NAIVE(__global const uint *restrict in, __global uint *restrict out BW_TRACE_ARG)
{
    const long g = (long)get_global_id(0);
    const long x = g % BW_N;
    const long y = g / BW_N;
    BW_TRACE(g, y * BW_N + x);
    out[x * BW_N + y] = in[y * BW_N + x];
}

/* the tiled transpose with a tile of row pitch PITCH words, in the
 * classic TILE x BLOCK_ROWS form: a work-group of BW_TILE * rows
 * work-items (rows = the group size / BW_TILE, a divisor of BW_TILE) walks
 * the tile's rows ly0, ly0 + rows, ...; each element keeps the index g the
 * one-element-per-work-item kernel gives it, b * BW_TILE^2 + ly * BW_TILE
 * + lx, which is what the trace records and the model counts */
#define BW_TILED_BODY(PITCH)                                                   \
    __local uint tile[BW_TILE * (PITCH)];                                      \
    const long b = (long)get_group_id(0);                                      \
    const int l = (int)get_local_id(0);                                        \
    const int rows = (int)get_local_size(0) / BW_TILE;                         \
    const int lx = l % BW_TILE;                                                \
    const int ly0 = l / BW_TILE;                                               \
    const long bx = b % (BW_N / BW_TILE);                                      \
    const long by = b / (BW_N / BW_TILE);                                      \
    for (int ly = ly0; ly < BW_TILE; ly += rows) {                             \
        const long src = (by * BW_TILE + ly) * BW_N + bx * BW_TILE + lx;       \
        BW_TRACE(b * BW_TILE * BW_TILE + ly * BW_TILE + lx, src);              \
        tile[ly * (PITCH) + lx] = in[src];                                     \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    for (int ly = ly0; ly < BW_TILE; ly += rows)                               \
        out[(bx * BW_TILE + ly) * BW_N + by * BW_TILE + lx] = tile[lx * (PITCH) + ly];

__kernel void BW_KERNEL_TILED(__global const uint *restrict in, __global uint *restrict out BW_TRACE_ARG)
{
    BW_TILED_BODY(BW_TILE)
}

__kernel void BW_KERNEL_PADDED(__global const uint *restrict in, __global uint *restrict out BW_TRACE_ARG)
{
    BW_TILED_BODY(BW_TILE + 1)
}
