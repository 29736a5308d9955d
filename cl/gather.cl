/* bwlab kernel family "gather": global-memory loads at a pattern's addresses.
 *
 * Work-item g (lane t = g % W of warp w = g / W) loads one BW_ELEM at the
 * byte address BW_ADDR, the pattern's expression over t, w, g and W, and
 * stores it at dst[g]: every warp-instruction carries exactly the pattern's
 * addresses, the store is coalesced, and the host checks dst against its
 * own copy of src. Work-groups are contiguous blocks of g, which is what
 * CPU runtimes vectorise well.
 *
 * A run builds one program per device: bw_expr.cl once, then this file
 * once per pattern behind that pattern's definitions of BW_KERNEL (the
 * kernel's name), BW_W, BW_E, BW_ELEM, BW_ADDR, BW_ACTIVE(t) and
 * BW_LOAD(p, a). With BWLAB_TRACE the kernel also records each work-item's
 * byte address (-1: lane inactive). */

#if !defined(BW_KERNEL) || !defined(BW_W) || !defined(BW_ADDR) || !defined(BW_ELEM) || !defined(BW_LOAD)
#error "gather.cl needs BW_KERNEL, BW_W, BW_E, BW_ELEM, BW_ADDR, BW_ACTIVE and BW_LOAD from the runner"
#endif

__kernel void BW_KERNEL(__global const BW_ELEM *restrict src, __global BW_ELEM *restrict dst
#ifdef BWLAB_TRACE
                        , __global long *restrict trace
#endif
                        )
{
    const long g = get_global_id(0);
    const long W = BW_W;
    const long t = g % W;
    const long w = g / W;
    if (!(BW_ACTIVE(t))) {
#ifdef BWLAB_TRACE
        trace[g] = -1;
#endif
        return;
    }
    const long a = BW_ADDR;
#ifdef BWLAB_TRACE
    trace[g] = a;
#endif
    dst[g] = BW_LOAD(src, a);
}
