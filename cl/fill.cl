/* bwlab kernel "fill": the run's source buffer filled on the device
 * (src/bench/bench_fill.h) instead of written from the host.
 *
 * Work-item i writes word k = first + i of the stream that the host's
 * bench_fill_random_at generates (src/bench/bench_validate.c, random_word):
 * splitmix64 after k+1 steps from seed, with neither 4-byte half equal to
 * BW_FILL_SENTINEL, the write sentinel, which the host defines (-D) so that
 * there is one definition of it. Words are stored in the device's byte
 * order; the host uses this kernel only on a device of its own byte order,
 * and checks pieces of what it wrote against its own generator. Work-items
 * at or past count write nothing (the launch is rounded up). */

#ifndef BW_FILL_SENTINEL
#error "fill.cl needs BW_FILL_SENTINEL from the host"
#endif

__kernel void bw_fill(__global ulong *dst, ulong first, ulong count, ulong seed)
{
    const ulong i = get_global_id(0);
    if (i >= count)
        return;
    const ulong k = first + i;
    ulong z = seed + (k + 1) * 0x9E3779B97F4A7C15UL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
    z ^= z >> 31;
    if ((uint)z == (uint)(BW_FILL_SENTINEL))
        z ^= 1UL;
    if ((uint)(z >> 32) == (uint)(BW_FILL_SENTINEL))
        z ^= 1UL << 32;
    dst[k] = z;
}
