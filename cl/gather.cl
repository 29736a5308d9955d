/* bwlab kernel family "gather": global-memory loads at a pattern's addresses.
 *
 Item g (lane t = g % W of warp w = g / W) loads one BW_ELEM at the byte
 * address BW_ADDR, the pattern's expression over t, w, g and W, and (copy
 * mode) stores it at dst[g]: every warp-instruction carries exactly the
 * pattern's addresses, the store is coalesced, and the host checks dst
 * against its own copy of src. Work-groups are contiguous blocks of g,
 * which is what CPU runtimes vectorise well.
 *
 * Each work-item performs BW_UNROLL such items (K, the unroll): work-item
 * p runs the virtual items g = p + j * span, j < K, where span (an
 * argument) is the launch's work-items, a multiple of the work-group and
 * of W. All K loads are issued before any store and none depends on
 * another, so a work-item keeps K requests in flight; virtual warps stay
 * aligned (span is a multiple of W), so each warp-instruction still
 * carries one virtual warp's addresses and lane t is the same for every j.
 *
 * A run builds one program per device: bw_expr.cl once, then this file
 * once per pattern and kernel form behind that pattern's definitions of BW_KERNEL (the
 * kernel's name), BW_W, BW_E, BW_ELEM, BW_ADDR, BW_ACTIVE(t) and
 * BW_LOAD(p, a). With BWLAB_TRACE the kernel also records each work-item's
 * byte address (-1: lane inactive).
 *
 * With BW_INDEX32 the index arithmetic (g, t, w, W and every value of
 * BW_ADDR) is int rather than long: GPUs emulate 64-bit division and
 * modulo in software. The host defines it only where it has proved that
 * every value fits (model_index_fits32). With BW_REQD_SG (a sub-group
 * size) the kernel asks Intel's compiler for that SIMD width. With
 * BW_SCALAR (CPU devices) it is the scalar form, and with BW_WARP (CPU
 * devices) the warp form: one work-item q runs the W lanes of virtual
 * warp q in turn, each lane exactly as work-item q * W + lane of the
 * plain form, so the launch has items / (K * W) work-items. See
 * bench_form in src/bench/include/bench_result.h.
 *
 * With BW_READ (read mode) the kernel takes a key and stores the element
 * at dst[g] only where BW_MATCH(element, key) holds, every component
 * equal: the load must happen, since its value decides the store, yet
 * almost no bytes are stored. With K > 1 work-item p compares the fold of
 * its K elements (below) and stores it at dst[p]: one compare and one
 * masked store per work-item instead of one per element, which on a CPU
 * runtime otherwise cost more than the load they guard. A per-work-group
 * reduction would need local memory and a barrier per step, which splits
 * PoCL's work-item loop and made stride 2 cost 1.6-3x seq (docs/model.md,
 * "Read and copy"). The host picks keys that some work-items' elements
 * (folds) hold, predicts exactly which work-items store, and checks dst: a
 * kernel that skips its loads, or loads elsewhere, stores where it should
 * not or not where it should.
 *
 * With BW_READ_FLAG as well (CPU devices) the store waits on a work-group
 * flag that any matching work-item raises: a CPU runtime vectorises the
 * work-items, and on some cores (AMD's) its masked vector store fetches
 * dst's line even when no lane stores, a read of dst per K elements that
 * stalls the loads (docs/measurements.md). Behind the flag, almost every
 * work-group skips the store as one branch. A GPU lane that does not store
 * touches nothing, so GPUs go without the barriers.
 *
 * With BW_WRITE (write mode) the roles turn round: the work-item loads
 * src[g], coalesced, and stores it at the pattern's address,
 * BW_STORE(dst, a, v); the host checks that every address written holds
 * its writer's element and that every other byte of dst still holds its
 * fill. */

#if !defined(BW_KERNEL) || !defined(BW_W) || !defined(BW_ADDR) || !defined(BW_ELEM) || !defined(BW_LOAD) || !defined(BW_UNROLL)
#error "gather.cl needs BW_KERNEL, BW_W, BW_E, BW_ELEM, BW_ADDR, BW_ACTIVE, BW_LOAD and BW_UNROLL from the runner"
#endif
#if defined(BW_WARP) && defined(BW_READ_FLAG)
#error "gather.cl: the warp form has no work-group flag (BW_READ_FLAG): a lane's store is its own branch"
#endif
#if defined(BW_WRITE) && !defined(BW_STORE)
#error "gather.cl in write mode needs BW_STORE from the runner"
#endif

#undef BW_IDX
#ifdef BW_INDEX32
#define BW_IDX int
#else
#define BW_IDX long
#endif

#ifdef BW_REQD_SG
__attribute__((intel_reqd_sub_group_size(BW_REQD_SG)))
#endif
__kernel void BW_KERNEL(__global const BW_ELEM *restrict src, __global BW_ELEM *restrict dst, const long span
#ifdef BW_READ
                        , const BW_ELEM key
#endif
#ifdef BWLAB_TRACE
                        , __global long *restrict trace
#endif
                        )
{
    const BW_IDX S = (BW_IDX)span;
    const BW_IDX W = BW_W;
#ifdef BW_READ_FLAG
    __local int any; /* local memory is declared at the kernel's outermost scope */
#endif
#ifdef BW_WARP
    /* the warp form: this work-item runs virtual warp q's lanes one after
     * another. The volatile keeps the runtime from vectorising across
     * work-items; each lane's address is then warp q's base plus a
     * constant, which the compiler may merge into vector loads and
     * shuffles. w is counted in warps (S is a multiple of W), so that it
     * stays visibly the same for every lane. */
    volatile BW_IDX warp_of_item = (BW_IDX)get_global_id(0);
    const BW_IDX q = warp_of_item;
    const BW_IDX SW = S / W;
#define BW_WARP_OF(g, j) (q + (BW_IDX)(j) * SW)
    /* virtual item j of this lane, p + j * S, written from its warp: the
     * compiler then sees that the lanes' items are consecutive for each j,
     * which it does not prove of p + j * S beside the loads' warp index */
#define BW_G(j) (BW_WARP_OF(0, j) * W + lane)
#define BW_NEXT_LANE continue
#pragma unroll
    for (int lane = 0; lane < BW_W; lane++) {
    const BW_IDX p = q * W + lane;
    const BW_IDX t = lane;
#else
#define BW_WARP_OF(g, j) ((g) / W)
#define BW_G(j) (p + (BW_IDX)(j) * S)
#define BW_NEXT_LANE return
    {
    const BW_IDX p = (BW_IDX)get_global_id(0);
    const BW_IDX t = p % W;
#endif
#ifdef BW_READ_FLAG
    /* every work-item reaches both barriers, so an inactive lane does not
     * return early: it skips its loads and never matches. The barriers
     * come after the loads: values carried across a barrier are kept in
     * memory by PoCL, and an index read back from there hides the loads'
     * contiguity from its vectoriser. */
    const int live = BW_ACTIVE(t);
#else
    const int live = 1;
#endif
    if (!(BW_ACTIVE(t))) {
#ifdef BWLAB_TRACE
        for (int j = 0; j < BW_UNROLL; j++)
            trace[BW_G(j)] = -1;
#endif
#ifndef BW_READ_FLAG
        BW_NEXT_LANE;
#endif
    }
    BW_ELEM v[BW_UNROLL];
#if !defined(BW_WRITE)
#pragma unroll
    for (int j = 0; j < BW_UNROLL; j++) {
        const BW_IDX g = BW_G(j);
        const BW_IDX w = BW_WARP_OF(g, j);
        v[j] = (BW_ELEM)(0);
        if (!live)
            continue;
        /* the 32-bit form widens here: a / BW_E (a power of two) is a shift */
#ifdef BW_SCALAR
        /* the scalar form (CPU devices only): a volatile keeps the runtime's
         * vectoriser off, so this work-item issues its own scalar loads */
        volatile long scalar_a = BW_ADDR;
        const long a = scalar_a;
#else
        const long a = BW_ADDR;
#endif
#ifdef BWLAB_TRACE
        trace[g] = a;
#endif
        v[j] = BW_LOAD(src, a);
    }
#if defined(BW_READ)
    /* one compare and one rarely taken store per work-item: the fold of
     * its K elements (its element itself at K = 1) against the key, from
     * the last element down, adding the even j and XORing the odd ones:
     * a fold of one operator is a reduction the compilers turn into a
     * vector gather across j, which leaves the work-items unvectorised */
    BW_ELEM f = v[BW_UNROLL - 1];
#pragma unroll
    for (int j = BW_UNROLL - 2; j >= 0; j--)
        f = (j & 1) ? (f ^ v[j]) : (f + v[j]);
#ifdef BW_READ_FLAG
    const int m = live && BW_MATCH(f, key);
    if (get_local_id(0) == 0)
        any = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (m)
        any = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* a match's fold equals the key, so only m lives across the barriers */
    if (any) {
        if (m)
            dst[get_global_id(0)] = key;
    }
#else
    if (BW_MATCH(f, key))
        dst[p] = f;
#endif
#else
#pragma unroll
    for (int j = 0; j < BW_UNROLL; j++)
        dst[BW_G(j)] = v[j];
#endif
#else
#pragma unroll
    for (int j = 0; j < BW_UNROLL; j++)
        v[j] = src[BW_G(j)];
#pragma unroll
    for (int j = 0; j < BW_UNROLL; j++) {
        const BW_IDX g = BW_G(j);
        const BW_IDX w = BW_WARP_OF(g, j);
#ifdef BW_SCALAR
        volatile long scalar_a = BW_ADDR;
        const long a = scalar_a;
#else
        const long a = BW_ADDR;
#endif
#ifdef BWLAB_TRACE
        trace[g] = a;
#endif
        BW_STORE(dst, a, v[j]);
    }
#endif
    }
#undef BW_WARP_OF
#undef BW_G
#undef BW_NEXT_LANE
}
