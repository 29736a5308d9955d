/* bwlab kernel family "roofline": the device's measured roof for
 * `bwlab roofline` (docs/results.md, "bwlab roofline").
 *
 * The host puts these definitions before the file:
 *   RF_V  float vector width of both kernels: 1, 2, 4, 8 or 16 (the
 *         device's preferred width: PoCL widens a kernel across work-items
 *         only at that width, and runs float4 chains at a quarter of it)
 *
 * rf_peak: peak single-precision FLOP/s. Each work-item runs 8 independent
 * chains of RF_V lanes, `iters` times x = fma(x, a, b) per chain: 8 x RF_V
 * x iters FMAs, 2 FLOP each. Lane l of chain c of work-item g starts at
 * ((g*8*RF_V + c*RF_V + l) & 1023) / 1024 and stores its final value at
 * out[g*8*RF_V + c*RF_V + l]. fma() is correctly rounded, so the host's
 * fmaf() of the same sequence is bit-identical. a and b are arguments: the
 * compiler cannot fold the chains.
 *
 * rf_sweep: k FMAs per float loaded (k = 0: a plain streaming read). Work-
 * item i of group b (L work-items, local id l) loads the 8 float x RF_V
 * vectors b*L*8 + j*L + l, j = 0 .. 7 (each group a contiguous block, its
 * work-items interleaved), applies v = fma(v, a, b) k times to each (8
 * independent chains), adds them up lane-wise in j order, then the lanes
 * in order, and stores the sum at out[i]: every loaded float reaches the
 * stored value, which the host recomputes for chosen work-items. */

#ifndef RF_V
#error "roofline.cl needs RF_V from the host"
#endif

#define RF_CAT_(a, b) a##b
#define RF_CAT(a, b) RF_CAT_(a, b)

#if RF_V == 1
#define RF_T float
#define RF_U uint
/* there is no convert_float1: width 1 is the scalar (NVIDIA's preferred
 * width; Oclgrind refuses convert_float1, tools/oclgrind.sh) */
#define RF_CONVERT convert_float
#define RF_IOTA 0u
#define RF_STORE(x, i, p) ((p)[i] = (x))
#else
#define RF_T RF_CAT(float, RF_V)
#define RF_U RF_CAT(uint, RF_V)
#define RF_CONVERT RF_CAT(convert_float, RF_V)
#define RF_STORE(x, i, p) RF_CAT(vstore, RF_V)((x), (i), (p))
#if RF_V == 2
#define RF_IOTA ((uint2)(0, 1))
#elif RF_V == 4
#define RF_IOTA ((uint4)(0, 1, 2, 3))
#elif RF_V == 8
#define RF_IOTA ((uint8)(0, 1, 2, 3, 4, 5, 6, 7))
#else
#define RF_IOTA ((uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#endif
#endif

/* chain c's start: exact in float (a multiple of 1/1024 below 1) */
#define RF_INIT(c) (RF_CONVERT(((RF_U)(base + (uint)(c) * RF_V) + RF_IOTA) & 1023u) * (1.0f / 1024.0f))

__kernel void rf_peak(__global float *restrict out, float a, float b, uint iters)
{
    size_t g = get_global_id(0);
    uint base = (uint)(g * (8 * RF_V));
    RF_T x0 = RF_INIT(0), x1 = RF_INIT(1), x2 = RF_INIT(2), x3 = RF_INIT(3);
    RF_T x4 = RF_INIT(4), x5 = RF_INIT(5), x6 = RF_INIT(6), x7 = RF_INIT(7);
    RF_T va = (RF_T)(a), vb = (RF_T)(b);
    for (uint i = 0; i < iters; i++) {
        x0 = fma(x0, va, vb);
        x1 = fma(x1, va, vb);
        x2 = fma(x2, va, vb);
        x3 = fma(x3, va, vb);
        x4 = fma(x4, va, vb);
        x5 = fma(x5, va, vb);
        x6 = fma(x6, va, vb);
        x7 = fma(x7, va, vb);
    }
    size_t o = g * 8;
    RF_STORE(x0, o + 0, out);
    RF_STORE(x1, o + 1, out);
    RF_STORE(x2, o + 2, out);
    RF_STORE(x3, o + 3, out);
    RF_STORE(x4, o + 4, out);
    RF_STORE(x5, o + 5, out);
    RF_STORE(x6, o + 6, out);
    RF_STORE(x7, o + 7, out);
}

#if RF_V == 1
#define RF_LOAD(i) (src[i])
#else
#define RF_LOAD(i) RF_CAT(vload, RF_V)((i), src)
#endif

__kernel void rf_sweep(__global const float *restrict src, __global float *restrict out, float a, float b, uint k)
{
    size_t L = get_local_size(0);
    size_t first = get_group_id(0) * L * 8 + get_local_id(0);
    RF_T va = (RF_T)(a), vb = (RF_T)(b);
    RF_T v0 = RF_LOAD(first), v1 = RF_LOAD(first + L), v2 = RF_LOAD(first + 2 * L), v3 = RF_LOAD(first + 3 * L);
    RF_T v4 = RF_LOAD(first + 4 * L), v5 = RF_LOAD(first + 5 * L), v6 = RF_LOAD(first + 6 * L);
    RF_T v7 = RF_LOAD(first + 7 * L);
    for (uint i = 0; i < k; i++) {
        v0 = fma(v0, va, vb);
        v1 = fma(v1, va, vb);
        v2 = fma(v2, va, vb);
        v3 = fma(v3, va, vb);
        v4 = fma(v4, va, vb);
        v5 = fma(v5, va, vb);
        v6 = fma(v6, va, vb);
        v7 = fma(v7, va, vb);
    }
    RF_T acc = ((((((v0 + v1) + v2) + v3) + v4) + v5) + v6) + v7;
#if RF_V == 1
    out[get_global_id(0)] = acc;
#else
    float t[RF_V];
    RF_STORE(acc, 0, t);
    float sum = t[0];
    for (int l = 1; l < RF_V; l++)
        sum += t[l];
    out[get_global_id(0)] = sum;
#endif
}

/* rf_matmul: C = A B for n x n row-major floats, square tiles of T x T
 * (T a runtime argument; n a multiple of T) staged in local memory. A 1-D
 * launch of (n/T)^2 groups of T*T work-items: group q computes tile row
 * q / (n/T), tile column q % (n/T); local id l its element (l / T, l % T).
 * Each element is acc = fma(A[r][m], B[m][c], acc) for m = 0 .. n-1 in
 * order, from 0: the host's fmaf() of the same order is bit-identical.
 * 2n^3 FLOP; the model's traffic 8n^3/T bytes (intensity T/4). */
__kernel void rf_matmul(__global const float *restrict A, __global const float *restrict B, __global float *restrict C,
                        uint n, uint T, __local float *As, __local float *Bs)
{
    uint l = (uint)get_local_id(0), ty = l / T, tx = l % T;
    uint q = (uint)get_group_id(0), nb = n / T;
    uint row = (q / nb) * T + ty, col = (q % nb) * T + tx;
    float acc = 0.0f;
    for (uint t0 = 0; t0 < n; t0 += T) {
        As[ty * T + tx] = A[(size_t)row * n + t0 + tx];
        Bs[ty * T + tx] = B[(size_t)(t0 + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < T; j++)
            acc = fma(As[ty * T + j], Bs[j * T + tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[(size_t)row * n + col] = acc;
}
