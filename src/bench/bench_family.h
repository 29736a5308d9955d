/* bench_family: the bench layer's side of a kernel family, one table entry
 * per family (docs/design.md, "Adding a family").
 *
 * The model's catalogue (model_pattern.c) names, for every pattern family,
 * the kernel family that runs it (model_pattern_family.kernel: gather,
 * bank, transpose, record). bench_family_of maps that name to the entry
 * here, and every place the plan or the runner treats one kernel family
 * differently from another asks the entry: how an item is sized, which
 * item is its reference (and which to add when the plan has none), how its
 * program is made, how one launch is validated, how its trace is checked,
 * whether it has a twin, what the report needs to place it, and the keys
 * of its own on a result of the run's document (doc_keys; the report's
 * section of the run's table is found by the same kernel name,
 * report_section). Each entry lives in its own file:
 * bench_gather.c (the global gather kernel every other pattern and every
 * --expr runs), bench_bank.c, bench_transpose.c, bench_record.c.
 *
 * Entries are static tables: never freed. They hold data and functions,
 * never printed text for the report (the report words what they say);
 * the strings here are the bench layer's own messages and the results'
 * values ("global", "local"). Pure host code: the runner gives a family
 * what it may do with the device through bench_family_io. */
#ifndef BENCH_FAMILY_H
#define BENCH_FAMILY_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_plan_priv.h"
#include "bw_error.h"

struct bench_run_doc;

/* What a buffer may hold during sizing, and the limit that sets it (in
 * words for notes, "the buffer would exceed <note>", and errors, "more
 * than <full>"): bench_plan's, handed to each family's size. */
typedef struct bench_plan_cap {
    uint64_t bytes;
    uint64_t items; /* work-items of one launch */
    char note[192];
    char full[256];
} bench_plan_cap;

/* What a family's validation may do with the run: the runner's item
 * under test, its staging buffer, and callbacks on the device (ctx is the
 * runner's). launch is one launch of the item's kernel; set_key sets a
 * read-mode gather kernel's key (NULL for the other families); read_dst
 * and write_dst move bytes of dst. */
typedef struct bench_family_io {
    const bench_plan *plan;
    size_t index;           /* the item: plan->items[index] */
    uint64_t seed;          /* src holds bench_fill_random_at(seed) from byte 0 */
    uint8_t *stage;         /* the runner's staging buffer, stage_bytes */
    uint64_t stage_bytes;
    volatile sig_atomic_t *stop; /* a signal: long checks stop (BW_E_INTERRUPTED) */
    void *ctx;
    bw_code (*launch)(void *ctx, bw_error *err);
    /* one launch of work-items [first, first + count) only, count a
     * multiple of the item's work-group (a gather item's sampled groups) */
    bw_code (*launch_range)(void *ctx, int64_t first, int64_t count, bw_error *err);
    bw_code (*set_key)(void *ctx, const void *key, size_t n, bw_error *err);
    bw_code (*read_dst)(void *ctx, uint64_t offset, void *buf, uint64_t n, bw_error *err);
    bw_code (*write_dst)(void *ctx, uint64_t offset, const void *buf, uint64_t n, bw_error *err);
} bench_family_io;

/* A family's own program for one item (bench_family.program): the
 * source (the caller frees it), the file name its build log names, the
 * kernel's name in it, and a local-memory argument where local_bytes > 0.
 * Arguments 0 and 1 are src and dst, always. */
typedef struct bench_family_program {
    char *source;
    const char *file;
    const char *kernel;
    unsigned local_arg;
    size_t local_bytes;
} bench_family_program;

typedef struct bench_family {
    const char *kernel;     /* the model's kernel family name: MODEL_PATTERN_KERNEL_* */
    const char *space;      /* the memory its figures are of: "global" or "local" (results' "space") */
    /* the only access mode its kernel has (BENCH_ACCESS_BIT): one item
     * whatever --access asks for, and another --access is a usage error
     * that says why; 0: measured in each mode asked for (gather) */
    unsigned access;
    const char *access_why;
    int modeled;            /* its traffic is global and modeled: a verdict, a launch estimate from
                             * the model; 0: bank (local memory) */
    int retry_half;         /* a launch that fails for its size is retried at half the work-group; 0
                             * where a local tile is sized by the work-group (bank, transpose) */
    int64_t dst_elem;       /* bytes each work-item stores at dst[g]; 0: the item's elem */
    int sized_n;            /* its parameter n is sized from the working set where the spec does not
                             * give it (bench_item.auto_n) */
    int unrolls;            /* its kernel takes K items per work-item (bench_item.unroll) */
    const char *no_twin;    /* NULL: the twin is timed (bench_twin); else why there is none */

    /* Sizes an item (items, local_size, span, model, size_note ...)
     * within cap. */
    bw_code (*size)(bench_plan *p, bench_item *it, const bench_plan_cap *cap, bw_error *err);
    /* The form of its index arithmetic (it->index_bits, index32_proven)
     * once sized; index_opt is --index (0 auto, 32 or 64, already
     * checked), is_gpu the device's kind. */
    bw_code (*index_form)(const bench_plan *p, bench_item *it, int index_opt, int is_gpu, bw_error *err);
    /* Whether it is the family's reference (seq, bank:pitch=33,stride=1,
     * transpose:version=copy, record:layout=soa). */
    int (*is_reference)(const bench_item *it);
    /* Index of item i's reference in the plan, -1 when absent
     * (bench_plan_reference). */
    long (*reference)(const bench_plan *p, size_t i);
    /* When item i has no reference in the plan yet, 1 and the spec of the
     * one to add into buf; 0 when it has one. */
    int (*reference_spec)(const bench_plan *p, size_t i, char *buf, size_t n);
    /* NULL: its kernels are in the plan's shared program
     * (bench_kernel_program). Else item `it`'s own program; with trace,
     * the kernel also records its addresses (argument trace_arg). */
    bw_code (*program)(const char *dir, const bench_plan *p, const bench_item *it, int trace,
                       bench_family_program *out, bw_error *err);
    /* NULL: the generic fit to the built kernel's group limit
     * (bench_plan_fit_kernel). */
    bw_code (*fit_kernel)(bench_plan *p, bench_item *it, uint64_t kernel_max, bw_error *err);
    /* One launch and the host's check of what it stored (dst holds
     * anything on entry). */
    bw_code (*validate)(const bench_family_io *io, bw_error *err);
    /* The argument index of the traced kernel's trace buffer. */
    unsigned (*trace_arg)(const bench_item *it);
    /* The traced launch's addresses (it->items x loads entries) against
     * the model's. */
    bw_code (*check_trace)(const bench_plan *p, const bench_item *it, const int64_t *trace, bw_error *err);
    /* The bytes its figures count per launch (effective_gbs): the model's
     * requested loads and stores, or a bank's local reads. */
    double (*bytes)(const bench_item *it);
    /* Sets the keys of its own on result o of the run's document for the
     * run's item i (docs/results.md, results[]; bench_run_document); NULL:
     * none. */
    void (*doc_keys)(json_t *o, const struct bench_run_doc *run, size_t i);
} bench_family;

/* The entries (bench_gather.c, bench_bank.c, bench_transpose.c, bench_record.c). */
extern const bench_family bench_family_gather, bench_family_bank, bench_family_transpose, bench_family_record;

/* The entry of the kernel family named kernel (model_pattern_family.kernel),
 * or NULL for a name no entry has. */
const bench_family *bench_family_of(const char *kernel);
/* Whether item it's family is kernel (MODEL_PATTERN_KERNEL_*). */
int bench_family_is(const bench_item *it, const char *kernel);
/* Whether item it is its family's reference. */
int bench_family_is_reference(const bench_item *it);
/* Whether it runs in the shared gather program, in read mode: its kernel
 * takes a key (BENCH_KERNEL_ARG_KEY), validation launches once per key. */
int bench_family_keyed(const bench_item *it);
/* The extent item it's launch reads in src and writes in dst: in write
 * mode src[g] and the pattern's stores, else the pattern's loads and the
 * family's stores at dst[g]. */
int64_t bench_family_src_bytes(const bench_item *it);
int64_t bench_family_dst_bytes(const bench_item *it);

/* Shared by the entries: the model's requested bytes of a launch, loads
 * and stores (bench_family.bytes); the sentinel over dst's first bytes (io's staging buffer at
 * a time), which every own-kernel family writes before its launch. */
double bench_family_model_bytes(const bench_item *it);
/* The index form of a kernel with long indices of its own (transpose.cl,
 * record.cl): 64 bits; their values proven to fit in int when the launch
 * does. --index does not apply. */
bw_code bench_family_index_long(const bench_plan *p, bench_item *it, int index_opt, int is_gpu, bw_error *err);
bw_code bench_family_fill_dst(const bench_family_io *io, uint64_t bytes, bw_error *err);

/* The plan's sizing helpers an entry's size uses (bench_plan.c). */
bw_code bench_plan_account(const bench_plan *p, bench_item *it, int64_t items, bw_error *err);
bw_code bench_plan_check_loadable(const bench_item *it, bw_error *err);
/* frees what an item owns (a scratch item of an entry's own sizing) */
void bench_plan_item_clear(bench_item *it);
/* BW_E_USAGE, with the reason, for a write item whose stores are not
 * one-to-one in bytes (modeled written bytes below the requested), or
 * that the model could not count; BW_OK for every other item. */
bw_code bench_plan_check_one_to_one(const bench_item *it, bw_error *err);
bw_code bench_plan_reparse(const bench_plan *p, bench_item *it, const char *spec, bw_error *err);
char *bench_plan_note_below_target(const bench_plan *p, const char *why);
/* "the <what> is smaller than the <target> working-set target" as a
 * heap note, bytes being what it covers; NULL when not below half of it. */
char *bench_plan_note_small(const bench_plan *p, const char *what, uint64_t bytes);
/* warp 0's figures (it->warp0) of a global item, once sized */
bw_code bench_plan_warp0(const bench_plan *p, bench_item *it, bw_error *err);
/* the generic fit of bench_plan_fit_kernel (an automatic group lowered in
 * whole warps, a --local one refused) */
bw_code bench_plan_fit_generic(bench_plan *p, bench_item *it, uint64_t kernel_max, bw_error *err);

#endif
