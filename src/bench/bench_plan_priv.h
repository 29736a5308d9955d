/* bench_plan_priv: the plan's own operations, which only bench uses:
 * building a plan from its options and a device's limits, fitting its
 * items to their built kernels and to K, leaving items out, naming them,
 * and finding each item's reference. The plan's data and the checks a
 * caller makes before any device is known are public (bench_plan.h). */
#ifndef BENCH_PLAN_PRIV_H
#define BENCH_PLAN_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "bench_plan.h"
#include "bw_error.h"

const char *bench_access_name(bench_access a); /* "copy", "read", "write" */

/* The model's traffic of the pattern's own side of an item: its stores in
 * write mode, else its loads. */
struct bench_item;
const model_traffic *bench_item_pattern_traffic(const struct bench_item *it);

/* Work-groups of a bank item's launch: BENCH_BANK_GROUPS_PER_UNIT for
 * each compute unit, so that every unit runs the same number of groups
 * and the launch lasts about as long on a device of 2 units as of 300
 * (above the timer's floor on a large GPU, and no longer than the other
 * patterns' launches on PoCL); BENCH_BANK_GROUPS where the units are
 * unknown. */
#define BENCH_BANK_GROUPS_PER_UNIT 64
#define BENCH_BANK_GROUPS 2048
int64_t bench_plan_bank_groups(uint32_t compute_units);

/* Builds the plan. Fails with BW_E_USAGE for an unknown pattern, bad
 * element size, a --local the device does not allow, or --index 32 on a
 * pattern whose index values are not proven to fit in int; BW_E_SYNTAX /
 * BW_E_EVAL for a bad expression, BW_E_UNSUPPORTED for addresses OpenCL
 * cannot load from (misaligned or below the buffer) or a device that does
 * not allow one warp per work-group, BW_E_TOOBIG when --size exceeds the
 * largest allocation, the memory budget (src and dst of --size bytes each)
 * or a 32-bit device's address space, or a single work-group's buffers do.
 * Messages name the pattern and value; only an error about a --local the
 * user gave mentions --local. */
bw_code bench_plan_make(const bench_plan_opts *opts, const model_geometry *geo,
                        const bench_limits *lim, bench_plan **out, bw_error *err);

/* base's device options (size, K, forms, sub-group) for a plan of `seq`
 * alone in the access modes of `access` (BENCH_ACCESS_BIT): the
 * calibration's and the compression check's */
bench_plan_opts bench_plan_opts_seq(const bench_plan_opts *base, unsigned access);
void bench_plan_free(bench_plan *p); /* accepts NULL */

/* Fits item i to its built kernel, which allows at most kernel_max
 * work-items per group (CL_KERNEL_WORK_GROUP_SIZE, known only after the
 * build). Nothing changes when local_size fits. An automatic size is
 * lowered to the largest multiple of the warp that is at most kernel_max
 * and divides the item's work-items (the launch and its model stay as
 * planned). A --local size that does not fit is BW_E_USAGE ("use --local N
 * or less"); a kernel that allows less than one warp is BW_E_UNSUPPORTED. */
bw_code bench_plan_fit_kernel(bench_plan *p, size_t i, uint64_t kernel_max, bw_error *err);

/* Bytes of the buffer a trace build records addresses in: 8 per work-item
 * of the largest launch (bench_trace_check). */
uint64_t bench_plan_trace_bytes(const bench_plan *p);

/* Leaves item i out before the buffers exist (why, copied, becomes its
 * result's reason) and sizes src_bytes and dst_bytes again over the items
 * left in, so that the run fills only what they touch. BW_E_NOMEM. */
bw_code bench_plan_leave_out(bench_plan *p, size_t i, const char *why, bw_error *err);

/* "a, b and 3 more" into out (cap bytes): the specs of items idx[0..n),
 * eight at most, a spec measured in both modes with " (read)". */
void bench_plan_name_items(const bench_plan *p, const size_t *idx, size_t n, char *out, size_t cap);

/* Index of the item that serves as item i's reference, its family's
 * (bench_family.reference), -1 when the plan has none:
 * - a gather item's is seq in the same access mode, of the same element
 *   size if present, else of element size 4, else any size; a read is
 *   never compared with a copy;
 * - a bank item's is the conflict-free bank:pitch=33,stride=1 (never seq);
 * - a transpose item's is the transpose:version=copy of the same n
 *   (itself for the copy);
 * - a record item's is the soa item of the same fields, type and n.
 * No item is the reference of another family's item. */
long bench_plan_reference(const bench_plan *p, size_t i);

/* Whether an item is the seq reference of the gather patterns (its
 * catalogue family's is_reference); 0 for an --expr item and for every
 * other family's reference (bench_family_is_reference). */
int bench_plan_is_seq_reference(const bench_item *it);

/* Whether items i and j give every lane of every warp the same addresses,
 * in the same access mode and kernel family, element size, work-items and
 * active lanes: both expressions read as the same a*g + b
 * (model_linear_of), an exact test that answers 0 where it cannot tell
 * (stride:s=1, offset:bytes=0 and an --expr of 4*g are seq's; matrix-row,
 * whose expression divides, is not recognised). */
int bench_plan_same_addresses(const bench_plan *p, size_t i, size_t j);

/* K of item it as it runs (1 for the families without one). */
int bench_item_unroll(const bench_item *it);
/* The warp form's work-group, in work-items (each one warp of W lanes):
 * BENCH_WARP_GROUP where its kernel allows that many, the launch's
 * work-items are a multiple of it and BENCH_WARP_GROUP * W items a
 * multiple of local_size; otherwise local_size / W. At local_size / W
 * work-items a group, PoCL's cost per group holds a warp kernel below seq
 * (docs/design.md, "Kernels cost what the pattern costs"). */
#define BENCH_WARP_GROUP 64
int64_t bench_item_warp_group(const bench_item *it, int64_t W);
/* Sets it->unroll and it->launch_items from it->unroll_want, items and
 * local_size: the largest power of two K <= unroll_want with items a
 * multiple of K * lcm(local_size, W); called where either changes. */
void bench_plan_fit_unroll(const bench_plan *p, bench_item *it);
/* Every item of a family that unrolls asks for K, a read-mode item for
 * k_read (bench_plan_fit_unroll); the plan's buffers do not change. */
void bench_plan_set_unrolls(bench_plan *p, int k, int k_read);

/* The default pattern set for warp width W, element size elem (0: the
 * sweep's own sizes) and matrix order n; returns heap specs (caller frees
 * each and the array). */
char **bench_plan_default_specs(int64_t elem, int64_t matrix_n, size_t *count);

#endif
