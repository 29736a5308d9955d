/* bench_kernel: the OpenCL C program of a plan. The kernel files
 * (cl/bw_expr.cl and cl/gather.cl) are read once per run; the program holds
 * bw_expr.cl once and gather.cl once per pattern, behind that pattern's
 * definitions (kernel name, warp width, element type, active lanes, and the
 * address expression as re-printed by the model), so a device builds one
 * program per run. */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include <stddef.h>

#include "bench_run.h"
#include "bench_plan_priv.h"
#include "bench_result.h"
#include "bw_error.h"

/* Reads kernel file `name` from `dir` (--kernels), else $BWLAB_KERNEL_DIR,
 * else the source tree, else the installed data directory: *text (caller
 * frees) and, when path_out is not NULL, where it was found (caller frees).
 * BW_E_IO names the directory and the file. */
bw_code bench_kernel_source_load(const char *dir, const char *name, char **text, char **path_out, bw_error *err);
/* The --kernels directory the files were loaded from, or NULL (for the
 * families' own programs, bench_family.program). */
const char *bench_kernels_dir(const bench_kernels *k);

const char *bench_form_name(bench_form f); /* "plain", "scalar", "warp" */

/* The program source for items[first .. first+count) of the plan (all of
 * them: 0, plan->n), the items of a family with a program of its own left
 * out (bench_family.program: bank, transpose, record): each item's plain
 * kernel, and its other form (bench_item.alt_form) where
 * bench_item.scalar_form; with trace != 0 the kernels also record every
 * work-item's byte address. Arguments: src, dst, the span (a long: the
 * launch's work-items, BENCH_KERNEL_ARG_SPAN, which work-item p's j-th
 * virtual item p + j * span is offset by; bench_item.unroll); then, for an
 * item in read mode, the key (one element: BENCH_KERNEL_ARG_KEY); then,
 * with trace, the trace buffer (bench_kernel_trace_arg). Caller frees. */
bw_code bench_kernel_program(const bench_kernels *k, const bench_plan *plan, size_t first, size_t count,
                             int trace, char **source, bw_error *err);
/* Argument index of a read-mode kernel's key, and of the trace buffer of
 * an item's traced kernel. */
#define BENCH_KERNEL_ARG_SPAN 2u
#define BENCH_KERNEL_ARG_KEY 3u
unsigned bench_kernel_trace_arg(const bench_item *it);

/* The kernel name of item i's form in that program: "bw_gather_<i>",
 * "bw_gather_<i>_scalar" or "bw_gather_<i>_warp", into buf. */
void bench_kernel_name(size_t i, bench_form form, char *buf, size_t n);

#endif
