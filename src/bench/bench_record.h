/* bench_record: the kernel of the record family (cl/record.cl, docs/model.md
 * "The record family") and the host's checks of what it did.
 *
 * n records of F fields (float: 4-byte words moved as bits, or uchar), one
 * work-item per record reading all F fields with F scalar loads, in the
 * array-of-structs layout (field f of record g at word g*F + f) or the
 * planar struct-of-arrays one (at f*n + g); it stores the fold
 * acc = rotl(acc, 5) ^ field (acc from 0, fields in order) at out[g]. Pure
 * host code apart from bench_record_program, which only reads the kernel
 * file.
 *
 * The family's entry of the kernel-family table, bench_family_record
 * (bench_family.h: sizing, reference, program, validation, trace), is
 * defined in the .c file beside these functions. */
#ifndef BENCH_RECORD_H
#define BENCH_RECORD_H

#include <stdint.h>

#include "bw_error.h"
#include "model_geometry.h"
#include "model_pattern.h"

/* Kernel arguments: in, out, then with trace the trace buffer. */
#define BENCH_RECORD_ARG_TRACE 2u
#define BENCH_RECORD_KERNEL "bw_record"

/* A record pattern's shape, from its parameters. */
typedef struct bench_record_shape {
    int fields;                 /* F */
    model_record_type type;
    model_record_layout layout;
    int64_t n;                  /* records */
} bench_record_shape;

bench_record_shape bench_record_shape_of(const model_pattern *p);
/* bytes per field: 4 (float) or 1 (uchar) */
int64_t bench_record_field_bytes(const bench_record_shape *s);
const char *bench_record_type_name(model_record_type t);     /* "float", "uchar" */
const char *bench_record_layout_name(model_record_layout l); /* "aos", "soa" */

/* The program of the record kernel for shape s, each work-item taking
 * `unroll` records (K: the launch is n / K work-items); with trace != 0 it also
 * records the byte address of every field's load (trace[f*n + g]). The
 * kernel file is found as bench_kernel_source_load finds it (dir:
 * --kernels, may be NULL). *source is the caller's. */
bw_code bench_record_program(const char *dir, const bench_record_shape *s, int unroll, int trace, char **source,
                             bw_error *err);

/* The host's fold of record g's fields from in, the source bytes (all of
 * the n*F fields). */
uint32_t bench_record_fold(const bench_record_shape *s, const uint8_t *in, int64_t g);

/* out[0 .. count-1] must be the folds of records g0 .. g0+count-1:
 * BW_E_VALIDATION names the record and what it held and should have. */
bw_code bench_record_validate(const char *spec, const bench_record_shape *s, const uint8_t *in,
                              const uint32_t *out, int64_t g0, int64_t count, bw_error *err);

/* trace (F*n entries, trace[f*n + g]) must hold, for every field f and
 * record g, the model's address of that load: the pattern's expression
 * for g plus the pattern's load_base[f] (model_access_addresses).
 * BW_E_VALIDATION names the first that does not match. */
bw_code bench_record_validate_trace(const model_geometry *geo, const model_pattern *p, const char *spec,
                                    int64_t items, const int64_t *trace, bw_error *err);

#endif
