/* bwlab probe kernels (docs/model.md, "Inferring the memory system"):
 * the sweeps `bwlab probe` times to find the memory system's caches,
 * latencies and transaction unit. Elements are 4-byte uints; nothing is
 * floating point. Work-item g of a launch walks elements
 *   index(g, i) = g * item_pitch + i * iter_pitch,   i < n_per_item
 * so one launch shape serves a CPU (few work-items, each a contiguous
 * chunk: item_pitch = n_per_item, iter_pitch = 1) and a GPU (many
 * work-items, neighbours side by side: item_pitch = 1, iter_pitch = the
 * global size). Every kernel folds what it loads into out[g], so no load
 * is dead code. */

/* Cache ladder: reads its part of the working set `reps` times. The fold
 * mixes in the repetition so that no compiler can hoist the loads. */
__kernel void probe_read(__global const uint *restrict src, __global uint *restrict out, uint n_per_item,
                         uint item_pitch, uint iter_pitch, uint reps)
{
    size_t g = get_global_id(0);
    uint acc = 0;
    for (uint r = 0; r < reps; r++)
        for (uint i = 0; i < n_per_item; i++)
            acc += src[(size_t)g * item_pitch + (size_t)i * iter_pitch] ^ r;
    out[g] = acc;
}

/* Cache ladder on a CPU: each work-item (one per core) reads the whole
 * working set of n8 uint8 vectors `reps` times, from its own starting
 * point, wrapping at n8 (both multiples of 4), into four independent
 * vector sums. Each core's private caches must then hold the whole set
 * and the shared ones hold it once, so the knees fall at the caches'
 * sizes; wide, independent loads keep one work-item's issue rate above
 * the caches' bandwidth, which a scalar sum would not. */
__kernel void probe_read_cpu(__global const uint8 *restrict src, __global uint *restrict out, uint n8, uint reps)
{
    size_t g = get_global_id(0);
    uint start = (uint)(g * n8 / get_global_size(0)) & ~3u;
    uint8 a0 = (uint8)(0), a1 = (uint8)(0), a2 = (uint8)(0), a3 = (uint8)(0);
    for (uint r = 0; r < reps; r++) {
        /* from start to the end, then from 0 to start: no wrap test per load */
        for (uint part = 0; part < 2; part++) {
            uint from = part ? 0 : start, to = part ? start : n8;
            for (uint i = from; i < to; i += 4) {
                a0 += src[i] ^ r;
                a1 += src[i + 1] ^ r;
                a2 += src[i + 2] ^ r;
                a3 += src[i + 3] ^ r;
            }
        }
    }
    uint8 a = a0 + a1 + a2 + a3;
    out[g] = a.s0 + a.s1 + a.s2 + a.s3 + a.s4 + a.s5 + a.s6 + a.s7;
}

/* Cache ladder on a GPU: every work-item of a full device reads, however
 * small the working set. Work-item g starts at element g % n and steps by
 * the whole launch's size (neighbours side by side, so each group's loads
 * coalesce, and each round of loads moves on to the next G elements),
 * wrapping at n, `loads` times; the step taken is G mod n, below n, so one
 * subtraction wraps. A step of the work-group's size had every group walk
 * the same elements one step apart: an H200 read 8.5 TB/s from its caches
 * at 256 MiB, twice its memory's peak. */
__kernel void probe_read_wrap(__global const uint *restrict src, __global uint *restrict out, uint n, uint loads)
{
    uint g = (uint)get_global_id(0), step = (uint)(get_global_size(0) % n);
    uint idx = g % n, acc = 0;
    for (uint i = 0; i < loads; i++) {
        acc += src[idx] ^ i;
        idx += step;
        if (idx >= n)
            idx -= n;
    }
    out[g] = acc;
}

/* Latency ladder: a pointer chase. next[] holds one random cycle through
 * every element (built on the host, outside the timed region); work-item g
 * starts at starts[g] and follows it `steps` times, each load waiting for
 * the one before. Built with -DPROBE_MARK the same loop also counts every
 * visit in mark[] (one work-item): the host then checks that a chase of n
 * steps visited each of the n elements exactly once and came home. */
__kernel void probe_chase(__global const uint *restrict next, __global const uint *restrict starts,
                          __global uint *restrict out, __global uint *restrict mark, uint steps)
{
    size_t g = get_global_id(0);
    uint p = starts[g];
    for (uint i = 0; i < steps; i++) {
        p = next[p];
#ifdef PROBE_MARK
        mark[p] += 1;
#endif
    }
    out[g] = p;
}

/* Transaction granularity, stride sweep: one element every `stride`
 * elements (byte stride 4 * stride), the whole walk `reps` times (enough
 * loads per launch to time on a busy host). */
__kernel void probe_stride(__global const uint *restrict src, __global uint *restrict out, uint n_per_item,
                           uint item_pitch, uint iter_pitch, uint stride, uint reps)
{
    size_t g = get_global_id(0);
    uint acc = 0;
    for (uint r = 0; r < reps; r++)
        for (uint i = 0; i < n_per_item; i++)
            acc += src[((size_t)g * item_pitch + (size_t)i * iter_pitch) * stride] ^ r;
    out[g] = acc;
}

/* Transaction granularity, offset sweep: a 32-byte block (uint8) every
 * `pitch` elements, `offset` elements past the aligned base: the block
 * touches one unit or two, depending on the offset modulo the unit; the
 * whole walk `reps` times. */
__kernel void probe_offset(__global const uint *restrict src, __global uint *restrict out, uint n_per_item,
                           uint item_pitch, uint iter_pitch, uint pitch, uint offset, uint reps)
{
    size_t g = get_global_id(0);
    uint8 acc = (uint8)(0);
    for (uint r = 0; r < reps; r++)
        for (uint i = 0; i < n_per_item; i++)
            acc += vload8(0, src + ((size_t)g * item_pitch + (size_t)i * iter_pitch) * pitch + offset) ^ (uint8)(r);
    out[g] = acc.s0 + acc.s1 + acc.s2 + acc.s3 + acc.s4 + acc.s5 + acc.s6 + acc.s7;
}

/* Transaction granularity, sector pairs: element e at word
 * 32 * (e / 2) + (e % 2) * second, so each pair of elements shares a
 * 128-byte block: second = 8 puts the pair in two adjacent 32-byte
 * sectors (bytes 0 and 32), 16 in sectors of different 64-byte halves
 * (bytes 0 and 64), 32 gives every element a 128-byte block of its own.
 * A 64-byte unit makes the second pair cost twice the first; a 32-byte
 * unit makes them cost the same. The whole walk `reps` times. */
__kernel void probe_pair(__global const uint *restrict src, __global uint *restrict out, uint n_per_item,
                         uint item_pitch, uint iter_pitch, uint second, uint reps)
{
    size_t g = get_global_id(0);
    uint acc = 0;
    for (uint r = 0; r < reps; r++)
        for (uint i = 0; i < n_per_item; i++) {
            size_t e = (size_t)g * item_pitch + (size_t)i * iter_pitch;
            acc += src[32 * (e >> 1) + (e & 1) * second] ^ r;
        }
    out[g] = acc;
}

/* Launch latency: nothing to do. */
__kernel void probe_empty(__global uint *restrict out)
{
    (void)out;
}

/* Warp width (GPUs): launched in work-groups of `a` work-items, many
 * groups, each work-item running 8 independent chains of `iters` integer
 * steps (enough independent work to keep the device's issue slots busy).
 * A work-group of a work-items needs ceil(a / W) warps, and a warp costs
 * the same however few of its lanes are used, so the time stays flat
 * while a <= W and grows with a past it. */
__kernel void probe_lanes(__global uint *restrict out, uint iters)
{
    uint g = (uint)get_global_id(0);
    uint x0 = g, x1 = g + 1u, x2 = g + 2u, x3 = g + 3u, x4 = g + 4u, x5 = g + 5u, x6 = g + 6u, x7 = g + 7u;
    for (uint i = 0; i < iters; i++) {
        x0 = x0 * 1664525u + 1013904223u;
        x1 = x1 * 1664525u + 1013904223u;
        x2 = x2 * 1664525u + 1013904223u;
        x3 = x3 * 1664525u + 1013904223u;
        x4 = x4 * 1664525u + 1013904223u;
        x5 = x5 * 1664525u + 1013904223u;
        x6 = x6 * 1664525u + 1013904223u;
        x7 = x7 * 1664525u + 1013904223u;
    }
    out[g] = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
}

/* Banks (devices with dedicated local memory): lane l reads words
 * l * stride + j * 256 + {0, 64, 128, 192} of a local tile of
 * PROBE_BANK_WORDS words, `iters` times: four independent reads per step,
 * their offsets multiples of 64 words so that every read of a lane falls
 * in the same bank for any count up to 64, and the index masked with a
 * compile-time power of two (a run-time % is emulated in software on some
 * GPUs, and a dependent chain of reads would add its latency to every
 * read: both hide the few-way conflicts). Words sharing a bank serialise. */
#define PROBE_BANK_WORDS 4096u
__kernel void probe_banks(__global uint *restrict out, __local uint *restrict tile, uint stride, uint iters)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    for (size_t i = l; i < PROBE_BANK_WORDS; i += n)
        tile[i] = (uint)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint m = PROBE_BANK_WORDS - 1u, base = (uint)l * stride;
    uint a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (uint j = 0; j < iters; j++) {
        uint o = base + j * 256u;
        a0 += tile[o & m];
        a1 += tile[(o + 64u) & m];
        a2 += tile[(o + 128u) & m];
        a3 += tile[(o + 192u) & m];
    }
    out[get_global_id(0)] = a0 ^ a1 ^ a2 ^ a3;
}
