/* bwlab kernel family "stream": streaming read and copy, the device's own
 * bandwidth limit as `bwlab tune` searches for it (clpeak and BabelStream
 * report the same figure).
 *
 * The host includes this file once per candidate behind its definitions:
 *   ST_KERNEL  the kernel's name
 *   ST_COPY    1: copy src to dst; 0: read src, one XOR per work-item to out
 *   ST_V       vector width of uint: 1, 2, 4, 8 or 16
 *   ST_K       vectors per work-item
 *   ST_L       work-items per group (the kernel requires that size)
 *   ST_LAYOUT  which vectors work-item i (local id l, group b, G work-items
 *              in all) handles, j = 0 .. K-1:
 *              0 grid:       i + j*G            (consecutive work-items on
 *                            consecutive vectors, the whole grid per step)
 *              1 block:      b*L*K + j*L + l    (the same within a group's
 *                            contiguous block: coalesced on GPUs, one block
 *                            per group for CPU runtimes)
 *              2 contiguous: i*K + j            (each work-item its own run)
 *
 * The read kernel's loads cannot be optimised away: every loaded word goes
 * into the XOR that the work-item stores, and the host checks every stored
 * value against its own XOR of the same words. */

#if !defined(ST_KERNEL) || !defined(ST_COPY) || !defined(ST_V) || !defined(ST_K) || !defined(ST_L) || !defined(ST_LAYOUT)
#error "stream.cl needs ST_KERNEL, ST_COPY, ST_V, ST_K, ST_L and ST_LAYOUT from the host"
#endif

#ifndef ST_CAT
#define ST_CAT_(a, b) a##b
#define ST_CAT(a, b) ST_CAT_(a, b)
#endif

#undef ST_T
#if ST_V == 1
#define ST_T uint
#else
#define ST_T ST_CAT(uint, ST_V)
#endif

#undef ST_INDEX
#if ST_LAYOUT == 0
#define ST_INDEX(j) (get_global_id(0) + (size_t)(j) * get_global_size(0))
#elif ST_LAYOUT == 1
#define ST_INDEX(j) (get_group_id(0) * (size_t)(ST_L * ST_K) + (size_t)(j) * ST_L + get_local_id(0))
#else
#define ST_INDEX(j) (get_global_id(0) * (size_t)ST_K + (size_t)(j))
#endif

#if ST_COPY
__kernel __attribute__((reqd_work_group_size(ST_L, 1, 1)))
void ST_KERNEL(__global const ST_T *restrict src, __global ST_T *restrict dst)
{
    for (int j = 0; j < ST_K; j++)
        dst[ST_INDEX(j)] = src[ST_INDEX(j)];
}
#else
__kernel __attribute__((reqd_work_group_size(ST_L, 1, 1)))
void ST_KERNEL(__global const ST_T *restrict src, __global uint *restrict out)
{
    ST_T acc = src[ST_INDEX(0)];
    for (int j = 1; j < ST_K; j++)
        acc ^= src[ST_INDEX(j)];
#if ST_V == 1
    out[get_global_id(0)] = acc;
#elif ST_V == 2
    out[get_global_id(0)] = acc.s0 ^ acc.s1;
#elif ST_V == 4
    out[get_global_id(0)] = acc.s0 ^ acc.s1 ^ acc.s2 ^ acc.s3;
#else
    /* halve the vector until one word is left */
#if ST_V == 16
    uint8 h8 = acc.lo ^ acc.hi;
#else
    uint8 h8 = acc;
#endif
    uint4 h4 = h8.lo ^ h8.hi;
    out[get_global_id(0)] = h4.s0 ^ h4.s1 ^ h4.s2 ^ h4.s3;
#endif
}
#endif
