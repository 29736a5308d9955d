/* bench_plan: turning `bwlab run`'s patterns and options into a plan for
 * one device: the items and their references, each launch sized from the
 * device's limits to the working-set target, and the model's byte
 * accounting of every launch (bench_plan.h). */
#include "bench_plan_priv.h"

#include "bench_result.h"
#include "bench_twin.h"

#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "bw_format.h"
#include "bench_family.h"
#include "model_expr.h"
#include "model_lanes.h"
#include "model_linear.h"

#define DEFAULT_LOCAL 256
#define MIN_TARGET ((uint64_t)16 << 20)
/* GPU L2 and last-level caches reach hundreds of MiB, and drivers often
 * report only a first-level cache: a GPU's working set is at least this */
#define GPU_MIN_TARGET ((uint64_t)512 << 20)
/* no cache figure at all: CI-class CPUs stop gaining from their caches only
 * past 48-64 MiB per array, so 64 MiB was short of 4x; this is 4x of a
 * 64 MiB last-level cache */
#define UNKNOWN_CACHE_TARGET ((uint64_t)256 << 20)
/* no cache figure for a CPU device: the twin's slices assume a quarter of
 * the 64 MiB that UNKNOWN_CACHE_TARGET allows for, since a small guest of
 * a shared host holds only part of its L3 (docs/measurements.md); the
 * twin's timed slice is usually smaller still (bench_twin_timed_slice) */
#define BENCH_PLAN_ASSUMED_CACHE ((uint64_t)16 << 20)

/* The default sweep, in run order, before the matrix families; modes: the
 * access modes the default run measures it in besides copy: read for seq
 * (both sizes) and the strides, write for seq, the strides, one
 * misaligned offset and reverse (docs/model.md, "Read and copy"). */
#define R BENCH_ACCESS_BIT(BENCH_ACCESS_READ)
#define WR BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE)
static const struct {
    const char *spec;
    unsigned modes;
} sweep[] = {
    { "seq", R | WR },
    { "stride:s=1", R | WR },
    { "stride:s=2", R | WR },
    { "stride:s=4", R | WR },
    { "stride:s=8", R | WR },
    { "stride:s=16", R | WR },
    { "stride:s=32", R | WR },
    { "stride:s=64", R | WR },
    { "offset:bytes=0", 0 },
    { "offset:bytes=4", WR },
    { "offset:bytes=8", 0 },
    { "offset:bytes=16", 0 },
    { "offset:bytes=32", 0 },
    { "offset:bytes=64", 0 },
    { "offset:bytes=128", 0 },
    { "reverse", WR },
    { "permute", 0 },
    { "broadcast", 0 },
    { "one-lane", 0 },
    { "aos:struct=12,field=0", 0 },
    { "aos:struct=16,field=4", 0 },
    { "aos:struct=32,field=8", 0 },
    { "mixed:s=32", 0 },
};
#undef R
#undef WR
#define SWEEP_N (sizeof sweep / sizeof sweep[0])

/* The default bank patterns, after the matrices: 32-way, conflict-free
 * (the bank reference), and 16-, 8-, 4- and 2-way on 32 banks. They take
 * 4-byte floats whatever --elem says. */
static const char *const bank_sweep[] = {
    "bank:pitch=32",           "bank:pitch=33",          "bank:pitch=32,stride=2",
    "bank:pitch=32,stride=4",  "bank:pitch=32,stride=8", "bank:pitch=32,stride=16",
};
#define BANK_SWEEP_N (sizeof bank_sweep / sizeof bank_sweep[0])

/* The default specs (see bench_plan_default_specs); when modes_out is
 * given, it receives a heap array (the caller frees it) that gives, for
 * each spec, the access modes the default run measures it in besides copy
 * (BENCH_ACCESS_BIT). */
static char **default_specs(int64_t elem, int64_t matrix_n, size_t *count, unsigned **modes_out)
{
    size_t nfam;
    const model_pattern_family *fams = model_pattern_families(&nfam);
    size_t nmatrix = 0;
    for (size_t i = 0; i < nfam; i++)
        nmatrix += fams[i].sizing == MODEL_PATTERN_SIZING_MATRIX;
    /* the sweep, the extra seq:elem=16, and one spec per matrix family */
    size_t most = SWEEP_N + 1 + nmatrix + BANK_SWEEP_N;
    char **v = calloc(most, sizeof *v);
    unsigned *read = modes_out ? calloc(most, sizeof *read) : NULL;
    if (!v || (modes_out && !read)) {
        free(v);
        free(read);
        return NULL;
    }
    size_t n = 0;
    char buf[96];
    for (size_t i = 0; i < SWEEP_N; i++) {
        /* the sweep keeps element size 4 unless --elem asks otherwise; an
         * explicit elem= keeps each spec valid for every size */
        if (elem > 0 && elem != 4)
            snprintf(buf, sizeof buf, "%s%celem=%lld", sweep[i].spec, strchr(sweep[i].spec, ':') ? ',' : ':',
                     (long long)elem);
        else
            snprintf(buf, sizeof buf, "%s", sweep[i].spec);
        if (read)
            read[n] = sweep[i].modes;
        v[n++] = strdup(buf);
        if (i == 0 && elem <= 0) {
            /* the second seq size: read, as seq; its writes would add no figure seq's lack */
            if (read)
                read[n] = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
            v[n++] = strdup("seq:elem=16");
        }
    }
    /* square matrices, in catalogue order */
    for (size_t i = 0; i < nfam; i++) {
        if (fams[i].sizing != MODEL_PATTERN_SIZING_MATRIX)
            continue;
        int k = snprintf(buf, sizeof buf, "%s:n=%lld", fams[i].name, (long long)matrix_n);
        if (elem > 0 && elem != 4)
            snprintf(buf + k, sizeof buf - (size_t)k, ",elem=%lld", (long long)elem);
        if (read)
            read[n] = 0;
        v[n++] = strdup(buf);
    }
    for (size_t i = 0; i < BANK_SWEEP_N; i++) {
        if (read)
            read[n] = 0;
        v[n++] = strdup(bank_sweep[i]);
    }
    for (size_t i = 0; i < n; i++) {
        if (!v[i]) {
            for (size_t k = 0; k < n; k++)
                free(v[k]);
            free(v);
            free(read);
            return NULL;
        }
    }
    *count = n;
    if (modes_out)
        *modes_out = read;
    return v;
}

char **bench_plan_default_specs(int64_t elem, int64_t matrix_n, size_t *count)
{
    return default_specs(elem, matrix_n, count, NULL);
}

const char *bench_access_name(bench_access a)
{
    return a == BENCH_ACCESS_READ ? "read" : a == BENCH_ACCESS_WRITE ? "write" : "copy";
}

const model_traffic *bench_item_pattern_traffic(const bench_item *it)
{
    return it->access == BENCH_ACCESS_WRITE ? &it->model.stores : &it->model.loads;
}

static void item_clear(bench_item *it)
{
    free(it->spec);
    free(it->expr_text);
    free(it->size_note);
    free(it->left_out);
    model_pattern_free(it->pattern);
    model_expr_free(it->own_expr);
    model_expr_free(it->store_expr);
}

void bench_plan_item_clear(bench_item *it)
{
    item_clear(it);
}

void bench_plan_free(bench_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        item_clear(&p->items[i]);
    free(p->items);
    free(p->note);
    free(p->fit_note);
    free(p->transpose_note);
    free(p);
}

/* Doubles the array when full: one realloc per item made 10 000 specs
 * quadratic (2 minutes under AddressSanitizer, whose realloc always
 * copies). */
static bw_code add_item(bench_plan *p, bench_item **out, bw_error *err)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        bench_item *v = realloc(p->items, cap * sizeof *v);
        if (!v)
            return bw_error_set(err, BW_E_NOMEM, "out of memory");
        p->items = v;
        p->cap = cap;
    }
    memset(&p->items[p->n], 0, sizeof p->items[p->n]);
    *out = &p->items[p->n++];
    return BW_OK;
}

/* Identical items (the same spec in the same access mode) are measured
 * once, the first kept in place; p->merged counts the others. A jansson
 * object is the hash set, so 10 000 specs cost no quadratic time. */
static bw_code merge_repeats(bench_plan *p, bw_error *err)
{
    json_t *seen = json_object();
    if (!seen)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    size_t kept = 0;
    bw_code rc = BW_OK;
    bw_buf key = BW_BUF_INIT;
    for (size_t i = 0; i < p->n; i++) {
        bench_item *it = &p->items[i];
        bw_buf_reset(&key);
        bw_buf_printf(&key, "%s %d %s", bench_access_name(it->access), it->unroll_want, it->spec);
        if (rc == BW_OK && bw_buf_failed(&key))
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        /* keys are UTF-8 for jansson: a spec with other bytes is never merged */
        int dup = rc == BW_OK && json_object_get(seen, bw_buf_str(&key)) != NULL;
        if (!dup && rc == BW_OK)
            json_object_set_new(seen, bw_buf_str(&key), json_true());
        if (dup) {
            item_clear(it);
            p->merged++;
            continue;
        }
        p->items[kept++] = *it;
    }
    p->n = kept;
    bw_buf_free(&key);
    json_decref(seen);
    return rc;
}

/* A family with one access mode (a kernel of its own, one item whatever
 * the access modes asked for) whose spec an earlier item of its family
 * has already: the last item, it, is dropped. */
static int own_kernel_duplicate(const bench_plan *p, const bench_item *it)
{
    if (!it->fam->access)
        return 0;
    for (size_t k = 0; k + 1 < p->n; k++) {
        const bench_item *o = &p->items[k];
        if (o->fam == it->fam && !strcmp(o->spec, it->pattern->spec))
            return 1;
    }
    return 0;
}

static bw_code item_from_spec(bench_plan *p, const char *spec, int64_t elem, bench_access access, bw_error *err)
{
    bench_item *it;
    bw_code rc = add_item(p, &it, err);
    if (rc != BW_OK)
        return rc;
    it->access = access;
    if ((rc = model_pattern_parse(spec, p->geo.lanes, elem, &it->pattern, err)) != BW_OK) {
        p->n--;
        return rc;
    }
    const char *kernel = it->pattern->family->kernel; /* the catalogue's, static */
    it->fam = bench_family_of(kernel);
    if (!it->fam) {
        model_pattern_free(it->pattern);
        it->pattern = NULL;
        p->n--;
        return bw_error_set(err, BW_E_UNSUPPORTED, "pattern '%s': no bench entry runs kernel family '%s'", spec,
                            kernel);
    }
    /* a family with a kernel of its own in one mode: one item whatever
     * the access modes asked for */
    if (it->fam->access)
        it->access = it->fam->access == BENCH_ACCESS_BIT(BENCH_ACCESS_READ) ? BENCH_ACCESS_READ : BENCH_ACCESS_COPY;
    it->auto_n = it->fam->sized_n && !model_pattern_given(it->pattern, "n");
    it->unroll_want = it->fam->unrolls ? (it->access == BENCH_ACCESS_READ ? p->unroll_read : p->unroll) : 1;
    if (own_kernel_duplicate(p, it)) {
        model_pattern_free(it->pattern);
        it->pattern = NULL;
        p->n--;
        return BW_OK;
    }
    it->spec = strdup(it->pattern->spec);
    it->expr_text = strdup(it->pattern->expr_text);
    it->family = it->pattern->family->name;
    it->elem = it->pattern->elem;
    it->active = it->pattern->active;
    it->expr = it->pattern->expr;
    if (!it->spec || !it->expr_text)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    return BW_OK;
}

static bw_code item_from_expr(bench_plan *p, const char *text, int64_t elem, bench_access access, bw_error *err)
{
    bench_item *it;
    bw_code rc = add_item(p, &it, err);
    if (rc != BW_OK)
        return rc;
    it->access = access;
    if ((rc = model_expr_parse(text, &it->own_expr, err)) != BW_OK) {
        p->n--;
        return bw_error_prefix(err, "--expr: ");
    }
    it->expr_text = model_expr_to_string(it->own_expr);
    size_t n = it->expr_text ? strlen(it->expr_text) + 32 : 0;
    it->spec = n ? malloc(n) : NULL;
    if (!it->spec)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (elem != 4)
        snprintf(it->spec, n, "expr:%s,elem=%lld", it->expr_text, (long long)elem);
    else
        snprintf(it->spec, n, "expr:%s", it->expr_text);
    it->family = "expr";
    it->fam = &bench_family_gather;
    it->unroll_want = access == BENCH_ACCESS_READ ? p->unroll_read : p->unroll;
    it->elem = elem;
    it->active = model_lanes_all(p->geo.lanes);
    it->expr = it->own_expr;
    return BW_OK;
}

int bench_plan_is_seq_reference(const bench_item *it)
{
    return it->pattern && it->pattern->family->is_reference;
}

int bench_plan_same_addresses(const bench_plan *p, size_t i, size_t j)
{
    const bench_item *x = &p->items[i], *y = &p->items[j];
    if (x->fam != y->fam || x->access != y->access || x->elem != y->elem || x->items != y->items ||
        x->active.width != y->active.width || !x->expr || !y->expr)
        return 0;
    for (int t = 0; t < x->active.width; t++)
        if (model_lanes_has(&x->active, t) != model_lanes_has(&y->active, t))
            return 0;
    int64_t ax, bx, ay, by;
    return model_linear_of(x->expr, p->geo.lanes, &ax, &bx) && model_linear_of(y->expr, p->geo.lanes, &ay, &by) &&
           ax == ay && bx == by;
}

bench_plan_opts bench_plan_opts_seq(const bench_plan_opts *base, unsigned access)
{
    static const char *const seq[] = { "seq" };
    bench_plan_opts o = *base;
    o.specs = seq;
    o.nspecs = 1;
    o.exprs = NULL;
    o.nexprs = 0;
    o.with_defaults = 0;
    o.elem = 0;
    o.access = access;
    return o;
}

int bench_unroll_valid(int64_t k)
{
    return k >= 1 && k <= BENCH_UNROLL_MAX && (k & (k - 1)) == 0;
}

int bench_item_unroll(const bench_item *it)
{
    return it->unroll > 1 ? it->unroll : 1;
}

int64_t bench_item_warp_group(const bench_item *it, int64_t W)
{
    int64_t small = W > 0 ? it->local_size / W : 0, big = BENCH_WARP_GROUP;
    int64_t warps = W > 0 ? it->items / bench_item_unroll(it) / W : 0;
    if (W <= 0 || it->local_size <= 0 || it->warp_kernel_max < big || (big * W) % it->local_size != 0 ||
        warps % big != 0)
        return small;
    return big;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void bench_plan_fit_unroll(const bench_plan *p, bench_item *it)
{
    int64_t ls = it->local_size > 0 ? it->local_size : 1, W = p->geo.lanes > 0 ? p->geo.lanes : 1;
    /* virtual warps, work-groups and validation's sampled groups (ls
     * rounded up to whole warps) stay whole: the lcm of the three */
    int64_t unit = ls / gcd64(ls, W) * W, sampled = (ls + W - 1) / W * W;
    unit = unit / gcd64(unit, sampled) * sampled;
    int k = it->unroll_want > 1 ? it->unroll_want : 1;
    while (k > 1 && (it->items <= 0 || it->items % ((int64_t)k * unit) != 0))
        k /= 2;
    it->unroll = k;
    if (it->fam && it->fam->unrolls)
        it->launch_items = k > 1 ? it->items / k : 0;
}

void bench_plan_set_unrolls(bench_plan *p, int k, int k_read)
{
    p->unroll = k > 1 ? k : 1;
    p->unroll_read = k_read > 1 ? k_read : 1;
    for (size_t i = 0; i < p->n; i++)
        if (p->items[i].fam->unrolls) {
            p->items[i].unroll_want = p->items[i].access == BENCH_ACCESS_READ ? p->unroll_read : p->unroll;
            bench_plan_fit_unroll(p, &p->items[i]);
        }
}


long bench_plan_reference(const bench_plan *p, size_t i)
{
    return p->items[i].fam->reference(p, i);
}

static int64_t round_up(int64_t v, int64_t m)
{
    return (v + m - 1) / m * m;
}

/* the model's accounting, the span and alignment of the loads, for a size */
bw_code bench_plan_account(const bench_plan *p, bench_item *it, int64_t items, bw_error *err)
{
    /* write mode turns the two round: the pattern's addresses are stored to */
    int write = it->access == BENCH_ACCESS_WRITE;
    model_access acc[2] = {
        { write ? it->store_expr : it->expr, it->elem, it->active, items, 0, 0 },
        { write ? it->expr : it->store_expr, it->elem, it->active, items, 0, 1 },
    };
    bw_code rc = model_access_span_of(&p->geo, &acc[write], &it->span, err);
    /* read mode's rare guarded stores move no bytes worth counting: the
     * launch is its loads alone */
    if (rc == BW_OK)
        rc = model_launch_count(&p->geo, acc, it->access == BENCH_ACCESS_READ ? 1 : 2, &it->model, err);
    if (rc == BW_OK)
        it->items = items;
    return rc;
}

bw_code bench_plan_check_loadable(const bench_item *it, bw_error *err)
{
    int write = it->access == BENCH_ACCESS_WRITE;
    if (!it->span.any)
        return bw_error_set(err, BW_E_UNSUPPORTED, "pattern '%s' has no active lane", it->spec);
    if (it->span.min_addr < 0)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "pattern '%s' %s below the start of the buffer (byte address %lld); "
                            "measured addresses must be >= 0",
                            it->spec, write ? "writes" : "reads", (long long)it->span.min_addr);
    if (it->span.align < 4)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "pattern '%s' %s %lld-byte elements at addresses that are only "
                            "%lld-byte aligned; OpenCL %s them at multiples of 4 bytes at least "
                            "(natural alignment, or 4 through %s): use offsets that are "
                            "multiples of 4 (the model accepts any address: bwlab model)",
                            it->spec, write ? "stores" : "loads", (long long)it->elem, (long long)it->span.align,
                            write ? "stores" : "loads", write ? "vstoren" : "vloadn");
    return BW_OK;
}

bw_code bench_plan_check_one_to_one(const bench_item *it, bw_error *err)
{
    const model_traffic *st = &it->model.stores;
    if (it->access != BENCH_ACCESS_WRITE || st->written_bytes == st->requested_bytes)
        return BW_OK;
    if (st->written_bytes < 0)
        return bw_error_set(err, BW_E_USAGE,
                            "pattern '%s' in write mode: its stores are too irregular at %lld work-items for the "
                            "model to prove that no two lanes store to the same byte, and OpenCL leaves "
                            "unspecified which value lands there; measure it with --access read or copy, or "
                            "at a smaller --size",
                            it->spec, (long long)it->items);
    return bw_error_set(err, BW_E_USAGE,
                        "pattern '%s' in write mode: its %lld work-items store %lld bytes but only %lld distinct "
                        "ones (modeled): several lanes store to the same bytes, and OpenCL leaves unspecified "
                        "which value lands; write mode measures one-to-one stores only: use --access read or "
                        "copy for it",
                        it->spec, (long long)it->items, (long long)st->requested_bytes,
                        (long long)st->written_bytes);
}

/* the binding limit of a buffer: the largest allocation, a device of fewer
 * than 64 address bits, and in the second pass half the memory budget;
 * multiples of 16 so that src's rounding up stays within */
static bench_plan_cap cap_of(const bench_limits *lim, uint64_t budget_half)
{
    bench_plan_cap c;
    char a[32], b[32];
    c.bytes = lim->max_alloc_bytes & ~(uint64_t)15;
    bw_format_bytes(a, sizeof a, (double)lim->max_alloc_bytes);
    snprintf(c.note, sizeof c.note, "the largest allocation, %s", a);
    snprintf(c.full, sizeof c.full, "the device's largest allocation, %s (CL_DEVICE_MAX_MEM_ALLOC_SIZE)", a);
    c.items = SIZE_MAX < INT64_MAX ? (uint64_t)SIZE_MAX : (uint64_t)INT64_MAX;
    if (lim->address_bits > 0 && lim->address_bits < 64) {
        uint64_t space = UINT64_C(1) << lim->address_bits;
        if (space - 1 < c.items)
            c.items = space - 1;
        if (space < c.bytes) {
            c.bytes = space;
            bw_format_bytes(a, sizeof a, (double)space);
            snprintf(c.note, sizeof c.note, "%s, what a %u-bit device can address", a, lim->address_bits);
            snprintf(c.full, sizeof c.full, "%s, what a %u-bit device can address (CL_DEVICE_ADDRESS_BITS)", a,
                     lim->address_bits);
        }
    }
    if (budget_half && budget_half < c.bytes) {
        c.bytes = budget_half & ~(uint64_t)15;
        bw_format_bytes(a, sizeof a, (double)budget_half);
        bw_format_bytes(b, sizeof b, (double)lim->global_mem_bytes);
        snprintf(c.note, sizeof c.note, "half the memory budget, %s (src and dst together at most 3/4 of the %s "
                 "global memory)", a, b);
        snprintf(c.full, sizeof c.full, "half the memory budget, %s (src and dst together at most 3/4 of the "
                 "device's %s global memory, CL_DEVICE_GLOBAL_MEM_SIZE)", a, b);
    }
    return c;
}

char *bench_plan_note_below_target(const bench_plan *p, const char *why)
{
    char a[32];
    bw_format_bytes(a, sizeof a, (double)p->target_bytes);
    size_t n = 96 + strlen(why);
    char *note = malloc(n);
    if (note)
        snprintf(note, n, "working set below the %s target: the buffer would exceed %s", a, why);
    return note;
}

char *bench_plan_note_small(const bench_plan *p, const char *what, uint64_t bytes)
{
    if (bytes >= p->target_bytes / 2)
        return NULL;
    char a[32], b[32];
    bw_format_bytes(a, sizeof a, (double)bytes);
    bw_format_bytes(b, sizeof b, (double)p->target_bytes);
    char *note = malloc(160);
    if (note)
        snprintf(note, 160, "the %s %s is smaller than the %s working-set target", a, what, b);
    return note;
}

/* replaces an item's pattern by spec parsed again (a size from the working
 * set), with its expressions */
bw_code bench_plan_reparse(const bench_plan *p, bench_item *it, const char *spec, bw_error *err)
{
    model_pattern *np = NULL;
    bw_code rc = model_pattern_parse(spec, p->geo.lanes, 0, &np, err);
    if (rc != BW_OK)
        return rc;
    char *nspec = strdup(np->spec), *ntext = strdup(np->expr_text);
    model_expr *store = NULL;
    if (!nspec || !ntext || (rc = model_expr_parse(np->store_text, &store, err)) != BW_OK) {
        free(nspec);
        free(ntext);
        model_pattern_free(np);
        return nspec && ntext ? rc : bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    model_pattern_free(it->pattern);
    free(it->spec);
    free(it->expr_text);
    model_expr_free(it->store_expr);
    it->pattern = np;
    it->spec = nspec;
    it->expr_text = ntext;
    it->expr = np->expr;
    it->store_expr = store;
    return BW_OK;
}

bw_code bench_plan_warp0(const bench_plan *p, bench_item *it, bw_error *err)
{
    int64_t addr[MODEL_MAX_LANES];
    model_access a = { it->expr, it->elem, it->active, it->items, 0, 0 };
    bw_code rc = model_access_addresses(&p->geo, &a, 0, p->geo.lanes, addr, err);
    if (rc != BW_OK)
        return rc;
    model_lanes act = it->active;
    for (int t = 0; t < p->geo.lanes; t++)
        if (addr[t] == MODEL_ADDR_INACTIVE && model_lanes_has(&act, t))
            act.bits[t >> 6] &= ~(UINT64_C(1) << (t & 63));
    return model_warp_count(&p->geo, it->elem, addr, &act, &it->warp0, err);
}

/* The form of the item's index arithmetic, once its launch is sized
 * (--index): its family's (bench_family.index_form). */
static bw_code choose_index_bits(const bench_plan *p, bench_item *it, const bench_plan_opts *o,
                                 const bench_limits *lim, bw_error *err)
{
    if (o->index_bits != 0 && o->index_bits != 32 && o->index_bits != 64)
        return bw_error_set(err, BW_E_USAGE, "--index %d: the index arithmetic is 32 or 64 bits (or auto)",
                            o->index_bits);
    return it->fam->index_form(p, it, o->index_bits, lim->is_gpu, err);
}

/* The device's last-level cache, else for a CPU device the host's (a CPU
 * device shares the host's caches; PoCL may report none), into *bytes
 * and source; 0 when neither is known. */
static int known_cache(const bench_limits *lim, uint64_t *bytes, char *source, size_t n)
{
    if (lim->cache_bytes) {
        *bytes = lim->cache_bytes;
        snprintf(source, n, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
        return 1;
    }
    if (lim->host_llc_bytes && !lim->is_gpu) {
        *bytes = lim->host_llc_bytes;
        snprintf(source, n, "%s", lim->host_llc_source[0] ? lim->host_llc_source : "host last-level cache");
        return 1;
    }
    return 0;
}

/* 4x the last-level cache, and where that figure came from */
static uint64_t auto_target(bench_plan *p, const bench_limits *lim)
{
    uint64_t t;
    p->cache_bytes = 0;
    if (!known_cache(lim, &p->cache_bytes, p->cache_source, sizeof p->cache_source))
        snprintf(p->cache_source, sizeof p->cache_source, "default (no cache size known)");
    /* a nonsense reported cache size must not wrap: the caps below hold it */
    t = !p->cache_bytes                      ? UNKNOWN_CACHE_TARGET
        : p->cache_bytes > UINT64_MAX / 4 ? UINT64_MAX
                                             : 4 * p->cache_bytes;
    uint64_t floor = lim->is_gpu ? GPU_MIN_TARGET : MIN_TARGET;
    if (t < floor)
        t = floor;
    uint64_t cap = lim->max_alloc_bytes;
    if (lim->global_mem_bytes / 4 < cap)
        cap = lim->global_mem_bytes / 4;
    return t < cap ? t : cap;
}

/* the cache a twin's slice must stay in (known_cache, which an auto
 * target's figure is too), and where that figure came from */
static void twin_cache(bench_plan *p, const bench_limits *lim)
{
    p->twin_cache_bytes = 0;
    if (known_cache(lim, &p->twin_cache_bytes, p->twin_cache_source, sizeof p->twin_cache_source))
        return;
    if (!lim->is_gpu) {
        p->twin_cache_bytes = BENCH_PLAN_ASSUMED_CACHE;
        snprintf(p->twin_cache_source, sizeof p->twin_cache_source,
                 "assumed (neither the device nor the host reports a cache size)");
    } else {
        snprintf(p->twin_cache_source, sizeof p->twin_cache_source, "none (the device reports no cache size)");
    }
}

/* the work-group: --local as given, else 256 lowered to the device's
 * maximum in whole warps */
static bw_code choose_local(const bench_plan_opts *o, const model_geometry *geo, const bench_limits *lim,
                            int64_t *out, bw_error *err)
{
    int64_t local = o->local_size ? o->local_size : round_up(DEFAULT_LOCAL, geo->lanes);
    while (!o->local_size && local > geo->lanes && (uint64_t)local > lim->max_work_group)
        local -= geo->lanes;
    if (!o->local_size && (uint64_t)local > lim->max_work_group)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "the device allows at most %llu work-items per group "
                            "(CL_DEVICE_MAX_WORK_GROUP_SIZE), fewer than one warp of %d lanes; bwlab "
                            "launches whole warps",
                            (unsigned long long)lim->max_work_group, geo->lanes);
    if (local % geo->lanes != 0 || (uint64_t)local > lim->max_work_group) {
        int64_t most = (int64_t)(lim->max_work_group / (uint64_t)geo->lanes) * geo->lanes;
        if ((uint64_t)local > lim->max_work_group && most >= geo->lanes)
            return bw_error_set(err, BW_E_USAGE,
                                "--local %lld: a work-group must be a multiple of the warp (%d lanes) and at "
                                "most %llu work-items on this device; use --local %lld or less",
                                (long long)local, geo->lanes, (unsigned long long)lim->max_work_group,
                                (long long)most);
        return bw_error_set(err, BW_E_USAGE,
                            "--local %lld: a work-group must be a multiple of the warp (%d lanes) and at "
                            "most %llu work-items on this device",
                            (long long)local, geo->lanes, (unsigned long long)lim->max_work_group);
    }
    *out = local;
    return BW_OK;
}

/* --size against the largest allocation, the address space and the budget */
static bw_code check_size(uint64_t size, const bench_limits *lim, uint64_t budget, bw_error *err)
{
    char a[32], b[32], c[32];
    bw_format_bytes(a, sizeof a, (double)size);
    if (size > lim->max_alloc_bytes) {
        bw_format_bytes(b, sizeof b, (double)lim->max_alloc_bytes);
        return bw_error_set(err, BW_E_TOOBIG,
                            "--size %s (%llu B) is larger than the device's largest allocation, %s "
                            "(CL_DEVICE_MAX_MEM_ALLOC_SIZE); use --size %llu or less",
                            a, (unsigned long long)size, b, (unsigned long long)lim->max_alloc_bytes);
    }
    if (lim->address_bits > 0 && lim->address_bits < 64 && size > UINT64_C(1) << lim->address_bits) {
        uint64_t space = UINT64_C(1) << lim->address_bits;
        bw_format_bytes(b, sizeof b, (double)space);
        return bw_error_set(err, BW_E_TOOBIG,
                            "--size %s (%llu B) is more than a %u-bit device can address, %s "
                            "(CL_DEVICE_ADDRESS_BITS); use --size %llu or less",
                            a, (unsigned long long)size, lim->address_bits, b, (unsigned long long)space);
    }
    /* every run holds src and dst of at least the working set each */
    if (size > budget / 2) {
        bw_format_bytes(b, sizeof b, (double)budget);
        bw_format_bytes(c, sizeof c, (double)lim->global_mem_bytes);
        return bw_error_set(err, BW_E_TOOBIG,
                            "--size %s (%llu B) needs a source and a destination buffer of %s each, more than "
                            "the memory budget of %s together (3/4 of the device's %s global memory, "
                            "CL_DEVICE_GLOBAL_MEM_SIZE); use --size %llu or less",
                            a, (unsigned long long)size, a, b, c, (unsigned long long)(budget / 2));
    }
    return BW_OK;
}

/* the plan's buffers: the largest of any item it still measures */
static void size_buffers(bench_plan *p)
{
    p->src_bytes = p->dst_bytes = 0;
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        if (it->left_out)
            continue;
        if ((uint64_t)bench_family_src_bytes(it) > p->src_bytes)
            p->src_bytes = (uint64_t)bench_family_src_bytes(it);
        if ((uint64_t)bench_family_dst_bytes(it) > p->dst_bytes)
            p->dst_bytes = (uint64_t)bench_family_dst_bytes(it);
    }
    /* vload reads whole 4-byte words: keep the buffer a multiple of 16 */
    p->src_bytes = (p->src_bytes + 15) / 16 * 16;
}

/* sizes every item or, with only_over, those whose buffers exceed the
 * cap (its family's size); then the plan's buffers are the largest of
 * any item */
static bw_code size_items(bench_plan *p, const bench_plan_cap *cap, int only_over, bw_error *err)
{
    bw_code rc = BW_OK;
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        bench_item *it = &p->items[i];
        if (only_over && (uint64_t)bench_family_src_bytes(it) <= cap->bytes &&
            (uint64_t)bench_family_dst_bytes(it) <= cap->bytes)
            continue;
        rc = it->fam->size(p, it, cap, err);
        if (rc != BW_OK && it->pattern == NULL)
            bw_error_prefix(err, "--expr '%s': ", it->expr_text);
    }
    if (rc == BW_OK)
        size_buffers(p);
    return rc;
}

bw_code bench_plan_leave_out(bench_plan *p, size_t i, const char *why, bw_error *err)
{
    char *w = strdup(why);
    if (!w)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    free(p->items[i].left_out);
    p->items[i].left_out = w;
    size_buffers(p);
    return BW_OK;
}

uint64_t bench_plan_trace_bytes(const bench_plan *p)
{
    int64_t most = 0;
    for (size_t i = 0; i < p->n; i++) {
        /* an item traces each of its loads per work-item (record: one per field) */
        int64_t k = p->items[i].items * (p->items[i].pattern ? p->items[i].pattern->loads : 1);
        most = k > most ? k : most;
    }
    return (uint64_t)most * sizeof(int64_t);
}

bw_code bench_plan_fit_kernel(bench_plan *p, size_t i, uint64_t kernel_max, bw_error *err)
{
    bench_item *it = &p->items[i];
    if ((uint64_t)it->local_size <= kernel_max)
        return BW_OK;
    if (it->fam->fit_kernel)
        return it->fam->fit_kernel(p, it, kernel_max, err);
    return bench_plan_fit_generic(p, it, kernel_max, err);
}

bw_code bench_plan_fit_generic(bench_plan *p, bench_item *it, uint64_t kernel_max, bw_error *err)
{
    int64_t W = p->geo.lanes;
    int64_t most = (int64_t)(kernel_max / (uint64_t)W) * W;
    if (most < W)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "pattern '%s': the kernel allows at most %llu work-items per group on this device "
                            "(CL_KERNEL_WORK_GROUP_SIZE), fewer than one warp of %lld lanes",
                            it->spec, (unsigned long long)kernel_max, (long long)W);
    if (p->local_given)
        return bw_error_set(err, BW_E_USAGE,
                            "pattern '%s': --local %lld: the kernel allows at most %llu work-items per group on "
                            "this device (CL_KERNEL_WORK_GROUP_SIZE); use --local %lld or less",
                            it->spec, (long long)it->local_size, (unsigned long long)kernel_max, (long long)most);
    /* W divides the launch (a multiple of the planned group): the search ends at W */
    int64_t launch = it->items / bench_item_unroll(it);
    int64_t local = most;
    while (launch % local != 0)
        local -= W;
    it->local_size = local;
    bench_plan_fit_unroll(p, it);
    return BW_OK;
}

static bw_code check_elem(int64_t elem, bw_error *err)
{
    if (elem != 0 && elem != 4 && elem != 8 && elem != 16)
        return bw_error_set(err, BW_E_USAGE, "--elem %lld: measured kernels load 4, 8 or 16 bytes per lane",
                            (long long)elem);
    return BW_OK;
}

/* the --access value that asked for modes */
static const char *access_option(unsigned modes)
{
    const unsigned copy = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY), read = BENCH_ACCESS_BIT(BENCH_ACCESS_READ),
                   write = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    return modes == (copy | read | write) ? "all"
           : modes == (copy | read)       ? "both"
           : modes == read                ? "read"
           : modes == write               ? "write"
                                          : "copy";
}

/* what a named pattern's family has no kernel for (bench_plan_check_input) */
static bw_code check_family_options(const model_pattern *pat, const bench_plan_opts *o, bw_error *err)
{
    const model_pattern_family *f = pat->family;
    const bench_family *bf = bench_family_of(f->kernel);
    unsigned own = bf ? bf->access : 0;
    const char *why = bf ? bf->access_why : NULL;
    if (own && o->access && o->access != own)
        return bw_error_set(err, BW_E_USAGE,
                            "--access %s with pattern '%s': the %s family runs in %s mode only (%s); drop --access, "
                            "or measure it in a run of its own",
                            access_option(o->access), pat->spec, f->name, access_option(own), why);
    if (own && o->index_bits == 32)
        return bw_error_set(err, BW_E_USAGE,
                            "--index 32 with pattern '%s': the %s family's kernel has 64-bit indices of its own "
                            "(--index applies to the gather patterns); drop --index 32",
                            pat->spec, f->name);
    return BW_OK;
}

bw_code bench_plan_check_input(const bench_plan_opts *o, bw_error *err)
{
    bw_code rc = check_elem(o->elem, err);
    for (size_t i = 0; i < o->nspecs && rc == BW_OK; i++) {
        model_pattern *pat = NULL;
        rc = model_pattern_parse(o->specs[i], 1, o->elem, &pat, err);
        if (rc == BW_OK)
            rc = check_family_options(pat, o, err);
        model_pattern_free(pat);
    }
    for (size_t i = 0; i < o->nexprs && rc == BW_OK; i++) {
        model_expr *e = NULL;
        if ((rc = model_expr_parse(o->exprs[i], &e, err)) != BW_OK)
            bw_error_prefix(err, "--expr: ");
        model_expr_free(e);
    }
    return rc;
}

/* A new plan's device-wide figures: the memory budget, --size checked,
 * the working-set target and where it came from, the work-group. */
static bw_code plan_start(const bench_plan_opts *o, const model_geometry *geo, const bench_limits *lim,
                          bench_plan **out, bw_error *err)
{
    bench_plan *p = calloc(1, sizeof *p);
    if (!p)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    *out = p;
    p->geo = *geo;
    if (o->dram_unit > 0)
        p->geo.dram_unit = o->dram_unit;
    p->budget_bytes = lim->global_mem_bytes ? lim->global_mem_bytes / 4 * 3 : UINT64_MAX;
    bw_code rc;
    if (o->size > 0 && (rc = check_size(o->size, lim, p->budget_bytes, err)) != BW_OK)
        return rc;
    p->target_auto = o->size == 0;
    if (o->size) {
        p->target_bytes = o->size;
        snprintf(p->cache_source, sizeof p->cache_source, "--size");
    } else {
        p->target_bytes = auto_target(p, lim);
    }
    twin_cache(p, lim);
    p->local_given = o->local_size != 0;
    p->unroll = o->unroll > 1 ? o->unroll : 1;
    p->unroll_read = o->unroll_read > 0 ? o->unroll_read : p->unroll;
    p->model_s = o->model_s;
    p->reqd_sub_group_size = o->reqd_sub_group_size;
    p->bank_groups = bench_plan_bank_groups(o->compute_units);
    p->scalar_form = o->scalar_form;
    p->read_flag = o->read_flag;
    return choose_local(o, geo, lim, &p->local_size, err);
}

/* The default set's items, each in its modes: --access's, else copy and
 * read for the specs the sweep marks, copy for the others. */
/* text joins the plan's note ("; " between) */
static bw_code note_append(bench_plan *p, const char *text, bw_error *err)
{
    size_t k = p->note ? strlen(p->note) : 0, n = k + strlen(text) + 3;
    char *joined = malloc(n);
    if (!joined)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    snprintf(joined, n, "%s%s%s", p->note ? p->note : "", k ? "; " : "", text);
    free(p->note);
    p->note = joined;
    return BW_OK;
}

/* A default spec that --elem makes invalid (an aos field narrower than
 * the element) is left out of the default set, named in the plan's note
 * with the first reason: a named one stays an error. */
static bw_code add_defaults(bench_plan *p, const bench_plan_opts *o, bw_error *err)
{
    /* square matrices filling the target, in whole 64x64 tiles */
    int64_t e = o->elem ? o->elem : 4;
    int64_t n = (int64_t)sqrt((double)p->target_bytes / (double)e) / 64 * 64;
    unsigned *default_modes = NULL;
    size_t ndefaults = 0;
    char **defaults = default_specs(o->elem, n < 64 ? 64 : n, &ndefaults, &default_modes);
    if (!defaults)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    const unsigned copy = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    bw_code rc = BW_OK;
    bw_buf skipped = BW_BUF_INIT;
    char *why = NULL;
    for (size_t i = 0; i < ndefaults && rc == BW_OK; i++) {
        unsigned modes = o->access ? o->access : copy | default_modes[i];
        for (int a = 0; a < BENCH_ACCESS_MODES && rc == BW_OK; a++)
            if (modes & BENCH_ACCESS_BIT(a)) {
                size_t before = p->n;
                bw_error ie = BW_ERROR_INIT;
                rc = item_from_spec(p, defaults[i], 0, (bench_access)a, &ie);
                if (rc == BW_E_USAGE && o->elem) {
                    bw_buf_printf(&skipped, "%s%s", skipped.len ? ", " : "", defaults[i]);
                    if (!why)
                        why = strdup(bw_error_text(&ie));
                    bw_error_clear(&ie);
                    rc = BW_OK;
                    break; /* its other modes fail alike */
                }
                if (rc != BW_OK) {
                    bw_error_set(err, rc, "%s", bw_error_text(&ie));
                    bw_error_clear(&ie);
                }
                if (rc == BW_OK && p->n > before)
                    p->items[p->n - 1].from_defaults = 1;
            }
    }
    if (rc == BW_OK && skipped.len) {
        bw_buf msg = BW_BUF_INIT;
        bw_buf_printf(&msg, "not in the default set at --elem %lld: %s (%s)", (long long)o->elem,
                      bw_buf_str(&skipped), why ? why : "");
        rc = note_append(p, bw_buf_str(&msg), err);
        bw_buf_free(&msg);
    }
    bw_buf_free(&skipped);
    free(why);
    for (size_t i = 0; i < ndefaults; i++)
        free(defaults[i]);
    free(defaults);
    free(default_modes);
    return rc;
}

/* Every pattern asked for, in each of its modes, copy first: the default
 * set, then the specs, then the expressions; repeats merged, and the
 * plan's count checked. */
static bw_code add_patterns(bench_plan *p, const bench_plan_opts *o, bw_error *err)
{
    bw_code rc = BW_OK;
    if (o->with_defaults || (o->nspecs == 0 && o->nexprs == 0))
        rc = add_defaults(p, o, err);
    unsigned given = o->access ? o->access : BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    unsigned ladder = o->unroll_ladder ? o->unroll_ladder : 0;
    for (size_t i = 0; i < o->nspecs && rc == BW_OK; i++)
        for (int a = 0; a < BENCH_ACCESS_MODES && rc == BW_OK; a++)
            for (int k = 0; k <= 4 && rc == BW_OK && (given & BENCH_ACCESS_BIT(a)); k++) {
                if (ladder ? !(ladder & (1u << k)) : k > 0)
                    continue;
                size_t before = p->n;
                rc = item_from_spec(p, o->specs[i], o->elem, (bench_access)a, err);
                if (rc == BW_OK && ladder && p->n > before && p->items[p->n - 1].fam->unrolls)
                    p->items[p->n - 1].unroll_want = 1 << k;
            }
    for (size_t i = 0; i < o->nexprs && rc == BW_OK; i++)
        for (int a = 0; a < BENCH_ACCESS_MODES && rc == BW_OK; a++)
            if (given & BENCH_ACCESS_BIT(a))
                rc = item_from_expr(p, o->exprs[i], o->elem ? o->elem : 4, (bench_access)a, err);
    if (rc == BW_OK)
        rc = merge_repeats(p, err);
    if (rc == BW_OK && p->n > BENCH_PLAN_MAX_PATTERNS)
        rc = bw_error_set(err, BW_E_USAGE,
                          "%zu patterns in one run (identical ones merged), more than the limit of %d; "
                          "split the list over several runs",
                          p->n, BENCH_PLAN_MAX_PATTERNS);
    if (rc == BW_OK && p->n == 0)
        rc = bw_error_set(err, BW_E_USAGE, "no access mode to measure");
    return rc;
}

/* Every item is compared with its family's reference (seq of its element
 * size in its own access mode, the conflict-free bank, the copy of the
 * same matrix, the planar records): the ones the plan lacks are added. */
static bw_code add_references(bench_plan *p, bw_error *err)
{
    bw_code rc = BW_OK;
    for (size_t i = 0, n0 = p->n; i < n0 && rc == BW_OK; i++) {
        char spec[128];
        if (!p->items[i].fam->reference_spec(p, i, spec, sizeof spec))
            continue;
        if ((rc = item_from_spec(p, spec, 0, p->items[i].access, err)) == BW_OK)
            p->items[p->n - 1].added_as_reference = 1;
    }
    return rc;
}

/* each item's store expression: dst[g], or its family's own (transpose) */
static bw_code parse_stores(bench_plan *p, bw_error *err)
{
    bw_code rc = BW_OK;
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        char store[48];
        snprintf(store, sizeof store, "%lld*g", (long long)p->items[i].elem);
        const model_pattern *pat = p->items[i].pattern;
        rc = model_expr_parse(pat && pat->store_text ? pat->store_text : store, &p->items[i].store_expr, err);
    }
    return rc;
}

/* Write mode measures one-to-one stores only (bench_plan_check_one_to_one):
 * a named pattern whose stores share bytes is an error, a default one is
 * left out of write mode and named in the plan's note. */
static bw_code drop_shared_writes(bench_plan *p, bw_error *err)
{
    bw_buf note = BW_BUF_INIT;
    size_t kept = 0;
    bw_code rc = BW_OK;
    for (size_t i = 0; i < p->n; i++) {
        bench_item *it = &p->items[i];
        bw_error e = BW_ERROR_INIT;
        if (rc == BW_OK && bench_plan_check_one_to_one(it, &e) != BW_OK) {
            if (!it->from_defaults) {
                rc = bw_error_set(err, e.code, "%s", bw_error_text(&e));
            } else {
                bw_buf_printf(&note, "%s%s", note.len ? ", " : "", it->spec);
                item_clear(it);
                bw_error_clear(&e);
                continue;
            }
        }
        bw_error_clear(&e);
        p->items[kept++] = *it;
    }
    p->n = kept;
    if (rc == BW_OK && note.len) {
        bw_buf msg = BW_BUF_INIT;
        bw_buf_printf(&msg, "not measured in write mode: %s (several lanes store to the same bytes, and OpenCL "
                            "leaves unspecified which value lands)",
                      bw_buf_str(&note));
        rc = note_append(p, bw_buf_str(&msg), err);
        bw_buf_free(&msg);
    }
    bw_buf_free(&note);
    return rc;
}

/* Sizes every item within the device's caps; when both buffers exceed
 * the budget, the items over half of it again within that half, so that
 * the largest src and the largest dst fit together whichever items they
 * serve. Then each item's index form, which follows the final sizes. */
/* a fitted working set's cap on each buffer (bench_plan_opts.span_cap) */
static void cap_span(bench_plan_cap *c, uint64_t span_cap)
{
    if (!span_cap || span_cap >= c->bytes)
        return;
    char a[32];
    c->bytes = span_cap & ~(uint64_t)15;
    bw_format_bytes(a, sizeof a, (double)span_cap);
    snprintf(c->note, sizeof c->note, "%s, twice the working set fitted to the budget", a);
    snprintf(c->full, sizeof c->full, "%s, twice the working set fitted to the budget", a);
}

static bw_code size_plan(bench_plan *p, const bench_plan_opts *o, const bench_limits *lim, bw_error *err)
{
    bench_plan_cap cap = cap_of(lim, 0);
    cap_span(&cap, o->span_cap);
    bw_code rc = size_items(p, &cap, 0, err);
    if (rc == BW_OK && p->src_bytes + p->dst_bytes > p->budget_bytes) {
        cap = cap_of(lim, p->budget_bytes / 2);
        cap_span(&cap, o->span_cap);
        rc = size_items(p, &cap, 1, err);
    }
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        bench_item *it = &p->items[i];
        rc = choose_index_bits(p, it, o, lim, err);
        if (rc != BW_OK && it->pattern == NULL)
            bw_error_prefix(err, "--expr '%s': ", it->expr_text);
        it->scalar_form = p->scalar_form && !it->fam->program && !bench_twin_contiguous(&p->geo, it);
        it->alt_form = it->scalar_form && it->local_size % p->geo.lanes == 0 && bench_twin_warp_dense(&p->geo, it)
                           ? BENCH_FORM_WARP
                           : BENCH_FORM_SCALAR;
    }
    return rc;
}

bw_code bench_plan_make(const bench_plan_opts *o, const model_geometry *geo,
                        const bench_limits *lim, bench_plan **out, bw_error *err)
{
    *out = NULL;
    bench_plan *p = NULL;
    bw_code rc = bench_plan_check_input(o, err);
    if (rc == BW_OK)
        rc = plan_start(o, geo, lim, &p, err);
    if (rc == BW_OK)
        rc = add_patterns(p, o, err);
    if (rc == BW_OK)
        rc = add_references(p, err);
    if (rc == BW_OK)
        rc = parse_stores(p, err);
    if (rc == BW_OK)
        rc = size_plan(p, o, lim, err);
    if (rc == BW_OK)
        rc = drop_shared_writes(p, err);
    if (rc != BW_OK) {
        bench_plan_free(p);
        return rc;
    }
    *out = p;
    return BW_OK;
}

void bench_plan_name_items(const bench_plan *p, const size_t *idx, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = 0;
    for (size_t j = 0; j < n && k + 1 < cap; j++) {
        if (j == 8) {
            snprintf(out + k, cap - k, " and %zu more", n - j);
            return;
        }
        const bench_item *it = &p->items[idx[j]];
        /* a spec measured in both modes is named with its mode */
        k += (size_t)snprintf(out + k, cap - k, "%s%s%s", j ? ", " : "", it->spec,
                              it->access == BENCH_ACCESS_READ && !it->fam->access ? " (read)" : "");
        if (k >= cap)
            return;
    }
}

int64_t bench_plan_bank_groups(uint32_t compute_units)
{
    return compute_units ? (int64_t)compute_units * BENCH_BANK_GROUPS_PER_UNIT : BENCH_BANK_GROUPS;
}
