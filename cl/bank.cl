/* bwlab kernel family "bank": local-memory reads at a bank pattern's
 * addresses (docs/design.md §2.2).
 *
 * The work-group first copies the tile, BW_TILE_WORDS 4-byte words, from
 * src into local memory (one barrier); every work-group copies the same
 * few kilobytes, so the global part is small and cached. Then work-item g
 * (lane t = g % W of warp w = g / W) reads BW_READS words of the tile:
 * read j is at word BW_ADDR / 4 + (j % W), the pattern's local byte
 * address (over t, w, g and W) shifted by column j mod W. The shift is the
 * same for every lane of a warp, so it moves every lane's bank alike and
 * every read has the conflict ways of the first. The reads are folded as
 * acc = (acc ^ word) * 16777619 (FNV-1a: a plain XOR, or a rotation by one
 * bit per read, would cancel the columns read every W reads) and acc is
 * stored at dst[g]; the host computes the same fold.
 *
 * The tile holds floats in the classic example; the kernel reads their
 * bits as uint, which is the same local-memory traffic without any
 * floating-point arithmetic.
 *
 * The host defines BW_KERNEL, BW_W, BW_ADDR, BW_TILE_WORDS and BW_READS.
 * With BWLAB_TRACE the kernel also records each work-item's local byte
 * address of its first read. */

#if !defined(BW_KERNEL) || !defined(BW_W) || !defined(BW_ADDR) || !defined(BW_TILE_WORDS) || !defined(BW_READS)
#error "bank.cl needs BW_KERNEL, BW_W, BW_ADDR, BW_TILE_WORDS and BW_READS from the host"
#endif

__kernel void BW_KERNEL(__global const uint *restrict src, __global uint *restrict dst,
                        __local uint *restrict tile
#ifdef BWLAB_TRACE
                        , __global long *restrict trace
#endif
                        )
{
    const long g = (long)get_global_id(0);
    const long W = BW_W;
    const long t = g % W;
    const long w = g / W;
    const int l = (int)get_local_id(0);
    const int L = (int)get_local_size(0);
    for (int k = l; k < BW_TILE_WORDS; k += L)
        tile[k] = src[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    const long a = BW_ADDR;
#ifdef BWLAB_TRACE
    trace[g] = a;
#endif
    const int base = (int)(a >> 2);
    uint acc = 2166136261u;
    for (int j = 0; j < BW_READS; j++)
        acc = (acc ^ tile[base + j % BW_W]) * 16777619u;
    dst[g] = acc;
}
