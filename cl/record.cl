/* bwlab kernel family "record": n records of BW_FIELDS fields of type
 * bw_field (uint for float fields, moved as bits; uchar), every field of
 * every record read (docs/model.md "The record family").
 *
 Each work-item handles BW_UNROLL records (K), launched 1-D over BW_N / K
 * work-items: work-item p takes records g = p + j * span, j < K, span being
 * the launch's size (a multiple of the work-group and of W, so virtual
 * warps stay aligned), and issues all their loads before any store. Record
 * g's fields f = 0 .. BW_FIELDS-1 are read with one scalar load each (no
 * vload3: the model counts one warp-instruction per field, and a vload3
 * compiles to three loads on many devices anyway):
 *   BW_AOS  (array of structs)  in[g*BW_FIELDS + f];
 *   else    (struct of arrays)  in[f*BW_N + g], field f's plane.
 * It folds them, acc = rotate(acc, 5) ^ field, which keeps every load
 * alive and catches a field read in the wrong order, and stores the fold
 * at out[g] (a coalesced 4-byte store, counted by the model).
 *
 * The host defines BW_KERNEL_RECORD, BW_FIELDS, BW_N, BW_UNROLL, BW_UCHAR
 * (1: uchar fields, 0: float fields) and BW_AOS (1: aos, 0: soa). With BWLAB_TRACE
 * the kernel also records the byte address of every field's load:
 * trace[f*BW_N + g]. */

#if !defined(BW_KERNEL_RECORD) || !defined(BW_FIELDS) || !defined(BW_N) || !defined(BW_UNROLL) || !defined(BW_UCHAR) || !defined(BW_AOS)
#error "record.cl needs BW_KERNEL_RECORD, BW_FIELDS, BW_N, BW_UNROLL, BW_UCHAR and BW_AOS from the host"
#endif

#if BW_UCHAR
typedef uchar bw_field;
#else
typedef uint bw_field;
#endif

#ifdef BWLAB_TRACE
#define BW_TRACE_ARG , __global long *restrict trace
#define BW_TRACE(f, g, idx) trace[(f) * BW_N + (g)] = (long)sizeof(bw_field) * (long)(idx)
#else
#define BW_TRACE_ARG
#define BW_TRACE(f, g, idx)
#endif

__kernel void BW_KERNEL_RECORD(__global const bw_field *restrict in, __global uint *restrict out BW_TRACE_ARG)
{
    const long p = (long)get_global_id(0);
    const long span = (long)get_global_size(0);
    bw_field v[BW_UNROLL][BW_FIELDS];
#pragma unroll
    for (int j = 0; j < BW_UNROLL; j++) {
        const long g = p + j * span;
#pragma unroll
        for (int f = 0; f < BW_FIELDS; f++) {
#if BW_AOS
            const long idx = g * BW_FIELDS + f;
#else
            const long idx = (long)f * BW_N + g;
#endif
            BW_TRACE(f, g, idx);
            v[j][f] = in[idx];
        }
    }
#pragma unroll
    for (int j = 0; j < BW_UNROLL; j++) {
        uint acc = 0;
#pragma unroll
        for (int f = 0; f < BW_FIELDS; f++)
            acc = rotate(acc, 5u) ^ (uint)v[j][f];
        out[p + j * span] = acc;
    }
}
