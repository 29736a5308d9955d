#include "bench_plan.h"

#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "bw_format.h"
#include "bw_hook.h"
#include "bench_bank.h"
#include "bench_record.h"
#include "bench_transpose.h"
#include "model_bank.h"
#include "model_expr.h"
#include "model_index.h"

#define DEFAULT_LOCAL 256
#define MIN_TARGET ((uint64_t)16 << 20)
/* GPU L2 and last-level caches reach hundreds of MiB, and drivers often
 * report only a first-level cache: a GPU's working set is at least this */
#define GPU_MIN_TARGET ((uint64_t)512 << 20)
/* no cache figure at all: CI-class CPUs stop gaining from their caches only
 * past 48-64 MiB per array, so 64 MiB was short of 4x; this is 4x of a
 * 64 MiB last-level cache */
#define UNKNOWN_CACHE_TARGET ((uint64_t)256 << 20)

/* The default sweep, in run order, before the matrix families; read: the
 * default run also measures it in read mode (seq, both sizes, and the
 * strides). */
static const struct {
    const char *spec;
    int read;
} sweep[] = {
    { "seq", 1 },
    { "stride:s=1", 1 },
    { "stride:s=2", 1 },
    { "stride:s=4", 1 },
    { "stride:s=8", 1 },
    { "stride:s=16", 1 },
    { "stride:s=32", 1 },
    { "stride:s=64", 1 },
    { "offset:bytes=0", 0 },
    { "offset:bytes=4", 0 },
    { "offset:bytes=8", 0 },
    { "offset:bytes=16", 0 },
    { "offset:bytes=32", 0 },
    { "offset:bytes=64", 0 },
    { "offset:bytes=128", 0 },
    { "reverse", 0 },
    { "permute", 0 },
    { "broadcast", 0 },
    { "one-lane", 0 },
    { "aos:struct=12,field=0", 0 },
    { "aos:struct=16,field=4", 0 },
    { "aos:struct=32,field=8", 0 },
    { "mixed:s=32", 0 },
};
#define SWEEP_N (sizeof sweep / sizeof sweep[0])

/* The default bank patterns, after the matrices: 32-way, conflict-free
 * (the bank reference), and 16-, 8-, 4- and 2-way on 32 banks. They take
 * 4-byte floats whatever --elem says. */
static const char *const bank_sweep[] = {
    "bank:pitch=32",           "bank:pitch=33",          "bank:pitch=32,stride=2",
    "bank:pitch=32,stride=4",  "bank:pitch=32,stride=8", "bank:pitch=32,stride=16",
};
#define BANK_SWEEP_N (sizeof bank_sweep / sizeof bank_sweep[0])

/* The default specs (see bench_plan_default_specs); when read is given, it
 * receives a heap array (the caller frees it) that says, for each spec,
 * whether the default run also measures it in read mode. */
static char **default_specs(int64_t elem, int64_t matrix_n, size_t *count, int **read_out)
{
    size_t nfam;
    const model_pattern_family *fams = model_pattern_families(&nfam);
    size_t nmatrix = 0;
    for (size_t i = 0; i < nfam; i++)
        nmatrix += fams[i].sizing == MODEL_PATTERN_SIZING_MATRIX;
    /* the sweep, the extra seq:elem=16, and one spec per matrix family */
    size_t most = SWEEP_N + 1 + nmatrix + BANK_SWEEP_N;
    char **v = calloc(most, sizeof *v);
    int *read = read_out ? calloc(most, sizeof *read) : NULL;
    if (!v || (read_out && !read)) {
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
            read[n] = sweep[i].read;
        v[n++] = strdup(buf);
        if (i == 0 && elem <= 0) {
            if (read)
                read[n] = sweep[i].read;
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
    if (read_out)
        *read_out = read;
    return v;
}

char **bench_plan_default_specs(int64_t elem, int64_t matrix_n, size_t *count)
{
    return default_specs(elem, matrix_n, count, NULL);
}

const char *bench_access_name(bench_access a)
{
    return a == BENCH_ACCESS_READ ? "read" : "copy";
}

static void item_clear(bench_item *it)
{
    free(it->spec);
    free(it->expr_text);
    free(it->size_note);
    model_pattern_free(it->pattern);
    model_expr_free(it->own_expr);
    model_expr_free(it->store_expr);
}

void bench_plan_free(bench_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        item_clear(&p->items[i]);
    free(p->items);
    free(p);
}

static bw_code add_item(bench_plan *p, bench_item **out, bw_error *err)
{
    bench_item *v = realloc(p->items, (p->n + 1) * sizeof *v);
    if (!v)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    p->items = v;
    memset(&v[p->n], 0, sizeof v[p->n]);
    *out = &v[p->n++];
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
        bw_buf_printf(&key, "%s %s", bench_access_name(it->access), it->spec);
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

/* A bank, transpose or record item (a kernel of its own, one item whatever
 * the access modes asked for) whose spec an earlier item of its kind has
 * already: the last item, it, is dropped. */
static int own_kernel_duplicate(const bench_plan *p, const bench_item *it)
{
    if (!it->bank && !it->transpose && !it->record)
        return 0;
    for (size_t k = 0; k + 1 < p->n; k++) {
        const bench_item *o = &p->items[k];
        if (o->bank == it->bank && o->transpose == it->transpose && o->record == it->record &&
            !strcmp(o->spec, it->pattern->spec))
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
    if (it->pattern->family->space == MODEL_PATTERN_SPACE_LOCAL) {
        /* a bank item reads local memory (cl/bank.cl): one item whatever
         * the access modes asked for */
        it->bank = 1;
        it->access = BENCH_ACCESS_READ;
    }
    if (!strcmp(it->pattern->family->kernel, MODEL_PATTERN_KERNEL_TRANSPOSE)) {
        /* a transpose item copies the matrix (cl/transpose.cl): one item
         * whatever the access modes asked for */
        it->transpose = 1;
        it->access = BENCH_ACCESS_COPY;
        it->transpose_auto_n = !(it->pattern->given & 2u);
    }
    if (!strcmp(it->pattern->family->kernel, MODEL_PATTERN_KERNEL_RECORD)) {
        /* a record item reads its records and stores a fold (cl/record.cl):
         * one item whatever the access modes asked for */
        it->record = 1;
        it->access = BENCH_ACCESS_COPY;
        it->record_auto_n = !(it->pattern->given & 8u);
    }
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
    it->elem = elem;
    it->active = model_lanes_all(p->geo.lanes);
    it->expr = it->own_expr;
    return BW_OK;
}

int bench_plan_is_reference(const bench_item *it)
{
    return it->pattern && it->pattern->family->is_reference;
}

int bench_plan_is_bank_reference(const bench_item *it)
{
    return it->bank && model_pattern_param_value(it->pattern, "pitch") == 33 &&
           model_pattern_param_value(it->pattern, "stride") == 1;
}

int bench_plan_is_transpose_reference(const bench_item *it)
{
    return it->transpose && model_pattern_param_value(it->pattern, "version") == MODEL_TRANSPOSE_COPY;
}

int bench_plan_is_record_reference(const bench_item *it)
{
    return it->record && model_pattern_param_value(it->pattern, "layout") == MODEL_RECORD_SOA;
}

/* whether record item b is the soa counterpart of record item a: the same
 * fields, type and n (both sized from the working set, or the same given n) */
static int record_counterpart(const bench_item *a, const bench_item *b)
{
    return bench_plan_is_record_reference(b) && a->record_auto_n == b->record_auto_n &&
           model_pattern_param_value(a->pattern, "fields") == model_pattern_param_value(b->pattern, "fields") &&
           model_pattern_param_value(a->pattern, "type") == model_pattern_param_value(b->pattern, "type") &&
           model_pattern_param_value(a->pattern, "n") == model_pattern_param_value(b->pattern, "n");
}

long bench_plan_reference(const bench_plan *p, size_t i)
{
    long any = -1;
    if (p->items[i].record) {
        for (size_t k = 0; k < p->n; k++)
            if (record_counterpart(&p->items[i], &p->items[k]))
                return (long)k;
        return -1;
    }
    if (p->items[i].transpose) {
        for (size_t k = 0; k < p->n; k++)
            if (bench_plan_is_transpose_reference(&p->items[k]) &&
                model_pattern_param_value(p->items[k].pattern, "n") ==
                    model_pattern_param_value(p->items[i].pattern, "n"))
                return (long)k;
        return -1;
    }
    if (p->items[i].bank) {
        for (size_t k = 0; k < p->n; k++)
            if (bench_plan_is_bank_reference(&p->items[k]))
                return (long)k;
        return -1;
    }
    for (size_t k = 0; k < p->n; k++) {
        if (p->items[k].bank || p->items[k].transpose || p->items[k].record || !bench_plan_is_reference(&p->items[k]) ||
            p->items[k].access != p->items[i].access)
            continue;
        if (p->items[k].elem == p->items[i].elem)
            return (long)k;
        if (any < 0 || p->items[k].elem == 4)
            any = (long)k;
    }
    return any;
}

static int64_t round_up(int64_t v, int64_t m)
{
    return (v + m - 1) / m * m;
}

/* the model's accounting, the span and alignment of the loads, for a size */
static bw_code account(const bench_plan *p, bench_item *it, int64_t items, bw_error *err)
{
    model_access acc[2] = {
        { it->expr, it->elem, it->active, items, 0, 0 },
        { it->store_expr, it->elem, it->active, items, 0, 1 },
    };
    bw_code rc = model_access_span_of(&p->geo, &acc[0], &it->span, err);
    /* read mode's rare guarded stores move no bytes worth counting: the
     * launch is its loads alone */
    if (rc == BW_OK)
        rc = model_launch_count(&p->geo, acc, it->access == BENCH_ACCESS_READ ? 1 : 2, &it->model, err);
    if (rc == BW_OK)
        it->items = items;
    return rc;
}

static bw_code check_loadable(const bench_item *it, bw_error *err)
{
    if (!it->span.any)
        return bw_error_set(err, BW_E_UNSUPPORTED, "pattern '%s' has no active lane", it->spec);
    if (it->span.min_addr < 0)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "pattern '%s' reads below the start of the buffer (byte address %lld); "
                            "measured addresses must be >= 0",
                            it->spec, (long long)it->span.min_addr);
    if (it->span.align < 4)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "pattern '%s' loads %lld-byte elements at addresses that are only "
                            "%lld-byte aligned; OpenCL loads them at multiples of 4 bytes at least "
                            "(natural alignment, or 4 through vloadn): use offsets that are "
                            "multiples of 4 (the model accepts any address: bwlab model)",
                            it->spec, (long long)it->elem, (long long)it->span.align);
    return BW_OK;
}

/* What one buffer may hold and the limit that sets it, in words for notes
 * ("the buffer would exceed <note>") and errors ("more than <full>"). */
typedef struct buf_cap {
    uint64_t bytes;
    uint64_t items; /* work-items of one launch */
    char note[192];
    char full[256];
} buf_cap;

/* the binding limit of a buffer: the largest allocation, a device of fewer
 * than 64 address bits, and in the second pass half the memory budget;
 * multiples of 16 so that src's rounding up stays within */
static buf_cap cap_of(const bench_limits *lim, uint64_t budget_half)
{
    buf_cap c;
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

static char *note_below_target(const bench_plan *p, const char *why)
{
    char a[32];
    bw_format_bytes(a, sizeof a, (double)p->target_bytes);
    size_t n = 96 + strlen(why);
    char *note = malloc(n);
    if (note)
        snprintf(note, n, "working set below the %s target: the buffer would exceed %s", a, why);
    return note;
}

/* Sizes one item: enough items that its modeled load footprint reaches
 * the target, with src and dst each within cap. */
static bw_code size_item(bench_plan *p, bench_item *it, const buf_cap *cap, bw_error *err)
{
    int64_t local = p->local_size;
    uint64_t max_alloc = cap->bytes;
    int64_t items;
    bw_code rc;
    char *note = NULL;
    free(it->size_note);
    it->size_note = NULL;
    int matrix = it->pattern && it->pattern->family->sizing == MODEL_PATTERN_SIZING_MATRIX;
    if (matrix) {
        /* the whole matrix once; a column walk spans it however few columns
         * it takes, so a matrix too large is an error, not a smaller run */
        int64_t n = model_pattern_param_value(it->pattern, "n");
        if ((uint64_t)n * (uint64_t)n * (uint64_t)it->elem > max_alloc) {
            char a[32];
            bw_format_bytes(a, sizeof a, (double)((uint64_t)n * (uint64_t)n * (uint64_t)it->elem));
            int64_t fit = (int64_t)sqrt((double)max_alloc / (double)it->elem) / 64 * 64;
            return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': the %s matrix is larger than %s; use n=%lld or less",
                                it->spec, a, cap->full, (long long)fit);
        }
        items = round_up(n * n, local);
    } else {
        int64_t probe = round_up((int64_t)p->geo.lanes * 1024, local);
        if ((rc = account(p, it, probe, err)) != BW_OK)
            return rc;
        double per_item = (double)(it->model.loads.footprint_sectors * p->geo.sector) / (double)probe;
        double want = per_item > 0 ? (double)p->target_bytes / per_item : (double)probe;
        /* keep launches of tiny-footprint patterns (broadcast) bounded */
        double most = fmax(4.0 * (double)p->target_bytes / (double)it->elem, (double)local);
        items = round_up((int64_t)fmin(fmax(want, (double)local), most), local);
    }
    if ((uint64_t)items > cap->items) {
        /* the launch's global size itself: a 32-bit device or host counts work-items in 32 bits */
        int64_t fit = (int64_t)(cap->items / (uint64_t)local) * local;
        if (fit < local)
            return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': not even one work-group of %lld fits", it->spec,
                                (long long)local);
        items = fit;
        char why[96];
        snprintf(why, sizeof why, "%llu work-items per launch (CL_DEVICE_ADDRESS_BITS, size_t)",
                 (unsigned long long)cap->items);
        note = note_below_target(p, why);
    }
    for (int tries = 0;; tries++) {
        if ((rc = account(p, it, items, err)) != BW_OK)
            goto fail;
        if ((rc = check_loadable(it, err)) != BW_OK)
            goto fail;
        uint64_t src = (uint64_t)it->span.max_end, dst = (uint64_t)(items * it->elem);
        uint64_t need = src > dst ? src : dst;
        if (need <= max_alloc)
            break;
        if (items == local || tries > 8) {
            char a[32];
            bw_format_bytes(a, sizeof a, (double)need);
            rc = bw_error_set(err, BW_E_TOOBIG, "pattern '%s' needs a %s buffer even for %lld work-items, more than %s",
                              it->spec, a, (long long)items, cap->full);
            goto fail;
        }
        /* shrink in proportion, then check again (extents need not be linear) */
        int64_t smaller = (int64_t)((double)items * (double)max_alloc / (double)need * 0.97);
        smaller = smaller / local * local;
        items = smaller < local ? local : smaller;
        free(note);
        note = note_below_target(p, cap->note);
    }
    uint64_t fp = (uint64_t)(it->model.loads.footprint_sectors * p->geo.sector);
    if (!note && fp < p->target_bytes / 2 && matrix) {
        char a[32], b[32];
        bw_format_bytes(a, sizeof a, (double)fp);
        bw_format_bytes(b, sizeof b, (double)p->target_bytes);
        note = malloc(160);
        if (note)
            snprintf(note, 160, "the %s matrix is smaller than the %s working-set target", a, b);
    }
    it->size_note = note;
    it->local_size = local;
    it->vload = it->span.align < it->elem;
    return BW_OK;
fail:
    free(note);
    return rc;
}

/* A bank item: BENCH_BANK_GROUPS work-groups of the plan's size, one
 * tile each, read from the start of src; the modeled ways of warp 0. */
static bw_code size_bank(const bench_plan *p, bench_item *it, bw_error *err)
{
    bw_code rc = bench_bank_tile_words(it->pattern, &it->tile_words, err);
    if (rc != BW_OK)
        return rc;
    it->local_size = p->local_size;
    int64_t groups = BENCH_BANK_GROUPS;
    /* test builds only: fewer groups, for a simulator (tools/oclgrind.sh) */
    if (bw_hook_fault("bank_groups", NULL, &groups) && (groups < 1 || groups > BENCH_BANK_GROUPS))
        groups = BENCH_BANK_GROUPS;
    it->items = groups * p->local_size;
    memset(&it->span, 0, sizeof it->span);
    it->span.any = 1;
    it->span.align = 4;
    it->span.max_end = it->tile_words * 4;
    int64_t addr[MODEL_MAX_LANES];
    for (int t = 0; t < p->geo.lanes; t++) {
        model_expr_env env = { t, 0, t, p->geo.lanes };
        if ((rc = model_expr_eval(it->expr, &env, &addr[t], err)) != BW_OK)
            return rc;
    }
    model_bank b;
    model_bank_count(&p->geo, addr, &it->active, &b);
    it->conflict_ways = b.applicable ? b.conflict_ways : 0;
    return BW_OK;
}

/* replaces an item's pattern by spec parsed again (a size from the working
 * set), with its expressions */
static bw_code reparse_item(const bench_plan *p, bench_item *it, const char *spec, bw_error *err)
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

/* A transpose item: n from the working set where the spec does not give
 * it (the largest multiple of W whose n x n matrix fits the target and
 * the cap, at least W), the pattern parsed again at that n; one work-item
 * per element, the model's loads and stores, the tile's modeled ways. */
static bw_code size_transpose(bench_plan *p, bench_item *it, const buf_cap *cap, bw_error *err)
{
    int64_t W = p->geo.lanes;
    int64_t version = model_pattern_param_value(it->pattern, "version");
    bw_code rc;
    if (it->transpose_auto_n) {
        uint64_t most = p->target_bytes < cap->bytes ? p->target_bytes : cap->bytes;
        int64_t n = (int64_t)sqrt((double)most / 4.0) / W * W;
        if (n < W)
            n = W;
        if (n > (int64_t)1 << 16)
            n = ((int64_t)1 << 16) / W * W;
        char spec[96];
        snprintf(spec, sizeof spec, "transpose:version=%s,n=%lld", bench_transpose_version_name((bench_transpose_version)version),
                 (long long)n);
        if ((rc = reparse_item(p, it, spec, err)) != BW_OK)
            return rc;
    }
    int64_t n = model_pattern_param_value(it->pattern, "n");
    if ((uint64_t)(n * n * 4) > cap->bytes) {
        char a[32];
        bw_format_bytes(a, sizeof a, (double)(n * n * 4));
        return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': the %s matrix is larger than %s", it->spec, a, cap->full);
    }
    int64_t local = bench_transpose_local_size((bench_transpose_version)version, (int)W, p->local_size);
    if (local < 0)
        return bw_error_set(err, BW_E_USAGE, "pattern '%s': its %lld x %lld tile needs work-groups of at least %lld "
                                             "work-items (one tile row), more than %lld",
                            it->spec, (long long)W, (long long)W, (long long)W, (long long)p->local_size);
    it->launch_items = local > 0 ? n * n / W * (local / W) : 0;
    if (local == 0)
        local = p->local_size;
    if ((n * n) % local != 0)
        return bw_error_set(err, BW_E_USAGE, "pattern '%s': work-groups of %lld do not divide its %lld work-items",
                            it->spec, (long long)local, (long long)(n * n));
    if ((rc = account(p, it, n * n, err)) != BW_OK)
        return rc;
    if ((rc = check_loadable(it, err)) != BW_OK)
        return rc;
    free(it->size_note);
    it->size_note = NULL;
    if (!it->transpose_auto_n && (uint64_t)(n * n * 4) < p->target_bytes / 2) {
        char a[32], b[32];
        bw_format_bytes(a, sizeof a, (double)(n * n * 4));
        bw_format_bytes(b, sizeof b, (double)p->target_bytes);
        it->size_note = malloc(160);
        if (it->size_note)
            snprintf(it->size_note, 160, "the %s matrix is smaller than the %s working-set target", a, b);
    }
    it->local_size = local;
    it->vload = 0;
    it->conflict_ways = bench_transpose_tile_ways((bench_transpose_version)version, &p->geo, (int)W);
    return BW_OK;
}

/* A record item: n from the working set where the spec does not give it
 * (the largest multiple of the work-group whose n*F fields fit the target
 * and the cap), the pattern parsed again at that n; one work-item per
 * record; the model's F loads (expression + load_base[f]) and the store. */
static bw_code size_record(bench_plan *p, bench_item *it, const buf_cap *cap, bw_error *err)
{
    int64_t local = p->local_size;
    bench_record_shape s = bench_record_shape_of(it->pattern);
    int64_t rec = s.fields * bench_record_field_bytes(&s);
    bw_code rc;
    if (it->record_auto_n) {
        uint64_t most = p->target_bytes < cap->bytes ? p->target_bytes : cap->bytes;
        int64_t n = (int64_t)(most / (uint64_t)rec) / local * local;
        if (n > (int64_t)1 << 30)
            n = ((int64_t)1 << 30) / local * local;
        if (n < local)
            n = local;
        char spec[128];
        snprintf(spec, sizeof spec, "record:fields=%d,type=%s,layout=%s,n=%lld", s.fields,
                 bench_record_type_name(s.type), bench_record_layout_name(s.layout), (long long)n);
        if ((rc = reparse_item(p, it, spec, err)) != BW_OK)
            return rc;
        s = bench_record_shape_of(it->pattern);
    }
    int64_t n = s.n;
    if ((uint64_t)(n * rec) > cap->bytes || (uint64_t)(n * 4) > cap->bytes) {
        char a[32];
        bw_format_bytes(a, sizeof a, (double)(n * rec));
        return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': its %s of records (or its 4-byte results) is larger "
                                              "than %s; give a smaller n",
                            it->spec, a, cap->full);
    }
    if (n % local != 0)
        return bw_error_set(err, BW_E_USAGE, "pattern '%s': work-groups of %lld do not divide its %lld records; "
                                             "use an n that is a multiple of %lld",
                            it->spec, (long long)local, (long long)n, (long long)local);
    const model_pattern *pat = it->pattern;
    model_access acc[MODEL_PATTERN_MAX_LOADS + 1];
    it->span = (model_access_span){ 0, INT64_MAX, 0, (int64_t)1 << 20 };
    for (int f = 0; f < pat->loads; f++) {
        acc[f] = (model_access){ pat->expr, pat->elem, pat->active, n, pat->load_base[f], 0 };
        model_access_span sp;
        if ((rc = model_access_span_of(&p->geo, &acc[f], &sp, err)) != BW_OK)
            return rc;
        it->span.any |= sp.any;
        it->span.min_addr = sp.min_addr < it->span.min_addr ? sp.min_addr : it->span.min_addr;
        it->span.max_end = sp.max_end > it->span.max_end ? sp.max_end : it->span.max_end;
        it->span.align = sp.align < it->span.align ? sp.align : it->span.align;
    }
    acc[pat->loads] = (model_access){ it->store_expr, 4, pat->active, n, 0, 1 };
    if ((rc = model_launch_count(&p->geo, acc, (size_t)pat->loads + 1, &it->model, err)) != BW_OK)
        return rc;
    it->items = n;
    it->elem = pat->elem;
    free(it->size_note);
    it->size_note = NULL;
    if (!it->record_auto_n && (uint64_t)(n * rec) < p->target_bytes / 2) {
        char a[32], b[32];
        bw_format_bytes(a, sizeof a, (double)(n * rec));
        bw_format_bytes(b, sizeof b, (double)p->target_bytes);
        it->size_note = malloc(160);
        if (it->size_note)
            snprintf(it->size_note, 160, "the %s of records is smaller than the %s working-set target", a, b);
    }
    it->local_size = local;
    it->vload = 0;
    return BW_OK;
}

static bw_code warp0_figures(const bench_plan *p, bench_item *it, bw_error *err)
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
 * (--index): 32 where forced or, on a GPU, where proven to fit. */
static bw_code choose_index_bits(const bench_plan *p, bench_item *it, const bench_plan_opts *o,
                                 const bench_limits *lim, bw_error *err)
{
    if (o->index_bits != 0 && o->index_bits != 32 && o->index_bits != 64)
        return bw_error_set(err, BW_E_USAGE, "--index %d: the index arithmetic is 32 or 64 bits (or auto)",
                            o->index_bits);
    if (it->bank) {
        /* bank.cl has one form of its own: long work-item ids, int tile
         * words; its values fit in int when the launch and the tile do */
        it->index32_proven = it->items <= INT32_MAX && it->tile_words <= INT32_MAX;
        it->index_bits = 64;
        return BW_OK;
    }
    if (it->record) {
        /* record.cl has long indices of its own */
        it->index32_proven = it->items <= INT32_MAX;
        it->index_bits = 64;
        return BW_OK;
    }
    if (it->transpose) {
        /* transpose.cl has long indices of its own */
        it->index32_proven = it->items <= INT32_MAX;
        it->index_bits = 64;
        return BW_OK;
    }
    it->index32_proven = model_index_fits32(it->expr, p->geo.lanes, &it->active, it->items, NULL);
    if (o->index_bits == 32 && !it->index32_proven)
        /* a user expression is its own spec: name it once */
        return bw_error_set(err, BW_E_USAGE,
                            "pattern '%s': --index 32: %s%s%snot proven to stay within 32-bit int for "
                            "%lld work-items; use --index 64 or auto, or a smaller --size",
                            it->spec, it->pattern ? "its address expression '" : "its values are ",
                            it->pattern ? it->expr_text : "", it->pattern ? "' is " : "", (long long)it->items);
    it->index_bits = o->index_bits == 32 || (o->index_bits == 0 && lim->is_gpu && it->index32_proven) ? 32 : 64;
    return BW_OK;
}

/* 4x the last-level cache, and where that figure came from */
static uint64_t auto_target(bench_plan *p, const bench_limits *lim)
{
    uint64_t t;
    p->cache_bytes = 0;
    if (lim->cache_bytes) {
        p->cache_bytes = lim->cache_bytes;
        snprintf(p->cache_source, sizeof p->cache_source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
    } else if (lim->host_llc_bytes && !lim->is_gpu) {
        /* a CPU device shares the host's caches (PoCL may report none) */
        p->cache_bytes = lim->host_llc_bytes;
        snprintf(p->cache_source, sizeof p->cache_source, "%s",
                 lim->host_llc_source[0] ? lim->host_llc_source : "host last-level cache");
    } else {
        snprintf(p->cache_source, sizeof p->cache_source, "default (no cache size known)");
    }
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

/* the destination bytes an item's launch writes: elem per work-item, but
 * one 4-byte fold per record for a record item */
static int64_t item_dst_bytes(const bench_item *it)
{
    return it->items * (it->record ? 4 : it->elem);
}

/* sizes every item or, with only_over, those whose buffers exceed the
 * cap; then the plan's buffers are the largest of any item */
static bw_code size_items(bench_plan *p, const buf_cap *cap, int only_over, bw_error *err)
{
    bw_code rc = BW_OK;
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        bench_item *it = &p->items[i];
        if (only_over && (uint64_t)it->span.max_end <= cap->bytes && (uint64_t)item_dst_bytes(it) <= cap->bytes)
            continue;
        if (it->bank) {
            rc = size_bank(p, it, err);
            continue;
        }
        rc = it->transpose ? size_transpose(p, it, cap, err)
             : it->record  ? size_record(p, it, cap, err)
                           : size_item(p, it, cap, err);
        if (rc == BW_OK)
            rc = warp0_figures(p, it, err);
        if (rc != BW_OK && it->pattern == NULL)
            bw_error_prefix(err, "--expr '%s': ", it->expr_text);
    }
    p->src_bytes = p->dst_bytes = 0;
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        const bench_item *it = &p->items[i];
        if ((uint64_t)it->span.max_end > p->src_bytes)
            p->src_bytes = (uint64_t)it->span.max_end;
        if ((uint64_t)item_dst_bytes(it) > p->dst_bytes)
            p->dst_bytes = (uint64_t)item_dst_bytes(it);
    }
    /* vload reads whole 4-byte words: keep the buffer a multiple of 16 */
    p->src_bytes = (p->src_bytes + 15) / 16 * 16;
    return rc;
}

uint64_t bench_plan_trace_bytes(const bench_plan *p)
{
    int64_t most = 0;
    for (size_t i = 0; i < p->n; i++) {
        /* a record item traces each of its loads per work-item */
        int64_t k = p->items[i].items * (p->items[i].record ? p->items[i].pattern->loads : 1);
        most = k > most ? k : most;
    }
    return (uint64_t)most * sizeof(int64_t);
}

bw_code bench_plan_fit_kernel(bench_plan *p, size_t i, uint64_t kernel_max, bw_error *err)
{
    bench_item *it = &p->items[i];
    int64_t W = p->geo.lanes;
    if ((uint64_t)it->local_size <= kernel_max)
        return BW_OK;
    if (it->transpose && model_pattern_param_value(it->pattern, "version") != MODEL_TRANSPOSE_NAIVE &&
        model_pattern_param_value(it->pattern, "version") != MODEL_TRANSPOSE_COPY) {
        /* fewer rows of the tile at a time: the work-items loop over more */
        int64_t v = model_pattern_param_value(it->pattern, "version"), n = model_pattern_param_value(it->pattern, "n");
        int64_t local = bench_transpose_local_size((bench_transpose_version)v, (int)W, (int64_t)kernel_max);
        if (local < 0)
            return bw_error_set(err, BW_E_UNSUPPORTED,
                                "pattern '%s': its %lld x %lld tile needs work-groups of at least %lld (one tile "
                                "row), and the kernel allows at most %llu on this device (CL_KERNEL_WORK_GROUP_SIZE)",
                                it->spec, (long long)W, (long long)W, (long long)W, (unsigned long long)kernel_max);
        it->local_size = local;
        it->launch_items = n * n / W * (local / W);
        return BW_OK;
    }
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
    /* W divides items (a multiple of the planned group): the search ends at W */
    int64_t local = most;
    while (it->items % local != 0)
        local -= W;
    it->local_size = local;
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
    const unsigned copy = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY), read = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    return modes == (copy | read) ? "both" : modes == read ? "read" : "copy";
}

/* what a named pattern's family has no kernel for (bench_plan_check_input) */
static bw_code check_family_options(const model_pattern *pat, const bench_plan_opts *o, bw_error *err)
{
    const model_pattern_family *f = pat->family;
    unsigned own = 0;
    const char *why = NULL;
    if (f->space == MODEL_PATTERN_SPACE_LOCAL) {
        own = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
        why = "its kernel reads a local-memory tile";
    } else if (!strcmp(f->kernel, MODEL_PATTERN_KERNEL_TRANSPOSE)) {
        own = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
        why = "its kernel copies the matrix into its transpose";
    } else if (!strcmp(f->kernel, MODEL_PATTERN_KERNEL_RECORD)) {
        own = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
        why = "its kernel reads every field and stores their fold";
    }
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

bw_code bench_plan_make(const bench_plan_opts *o, const model_geometry *geo,
                        const bench_limits *lim, bench_plan **out, bw_error *err)
{
    *out = NULL;
    bw_code rc = bench_plan_check_input(o, err);
    if (rc != BW_OK)
        return rc;
    bench_plan *p = calloc(1, sizeof *p);
    if (!p)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    p->geo = *geo;
    char **defaults = NULL;
    int *default_read = NULL;
    size_t ndefaults = 0;
    p->budget_bytes = lim->global_mem_bytes ? lim->global_mem_bytes / 4 * 3 : UINT64_MAX;
    if (o->size > 0 && (rc = check_size(o->size, lim, p->budget_bytes, err)) != BW_OK)
        goto fail;
    p->target_auto = o->size == 0;
    if (o->size) {
        p->target_bytes = o->size;
        snprintf(p->cache_source, sizeof p->cache_source, "--size");
    } else {
        p->target_bytes = auto_target(p, lim);
    }
    p->local_given = o->local_size != 0;
    if ((rc = choose_local(o, geo, lim, &p->local_size, err)) != BW_OK)
        goto fail;

    if (o->with_defaults || (o->nspecs == 0 && o->nexprs == 0)) {
        /* square matrices filling the target, in whole 64x64 tiles */
        int64_t e = o->elem ? o->elem : 4;
        int64_t n = (int64_t)sqrt((double)p->target_bytes / (double)e) / 64 * 64;
        defaults = default_specs(o->elem, n < 64 ? 64 : n, &ndefaults, &default_read);
        if (!defaults) {
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
            goto fail;
        }
    }
    /* each pattern in each of its modes, copy first */
    const unsigned copy = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY), read = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    for (size_t i = 0; i < ndefaults && rc == BW_OK; i++) {
        unsigned modes = o->access ? o->access : default_read[i] ? copy | read : copy;
        for (int a = BENCH_ACCESS_COPY; a <= BENCH_ACCESS_READ && rc == BW_OK; a++)
            if (modes & BENCH_ACCESS_BIT(a))
                rc = item_from_spec(p, defaults[i], 0, (bench_access)a, err);
    }
    unsigned given = o->access ? o->access : copy;
    for (size_t i = 0; i < o->nspecs && rc == BW_OK; i++)
        for (int a = BENCH_ACCESS_COPY; a <= BENCH_ACCESS_READ && rc == BW_OK; a++)
            if (given & BENCH_ACCESS_BIT(a))
                rc = item_from_spec(p, o->specs[i], o->elem, (bench_access)a, err);
    for (size_t i = 0; i < o->nexprs && rc == BW_OK; i++)
        for (int a = BENCH_ACCESS_COPY; a <= BENCH_ACCESS_READ && rc == BW_OK; a++)
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
    if (rc != BW_OK)
        goto fail;
    /* every pattern is compared with seq of its element size in its own
     * access mode: add it */
    for (size_t i = 0, n0 = p->n; i < n0 && rc == BW_OK; i++) {
        long ref = bench_plan_reference(p, i);
        if (p->items[i].bank) {
            /* bank items are compared with the conflict-free bank:pitch=33 */
            if (ref < 0 && (rc = item_from_spec(p, BENCH_BANK_REFERENCE, 0, BENCH_ACCESS_READ, err)) == BW_OK)
                p->items[p->n - 1].added_as_reference = 1;
            continue;
        }
        if (p->items[i].record) {
            /* records are compared with their planar (soa) form: the same
             * fields, type and n, given or sized from the working set */
            if (ref >= 0)
                continue;
            const model_pattern *pat = p->items[i].pattern;
            char spec[128];
            int len = snprintf(spec, sizeof spec, "record:fields=%lld,type=%s,layout=soa",
                               (long long)model_pattern_param_value(pat, "fields"),
                               bench_record_type_name((model_record_type)model_pattern_param_value(pat, "type")));
            if (!p->items[i].record_auto_n)
                snprintf(spec + len, sizeof spec - (size_t)len, ",n=%lld",
                         (long long)model_pattern_param_value(pat, "n"));
            if ((rc = item_from_spec(p, spec, 0, BENCH_ACCESS_COPY, err)) == BW_OK)
                p->items[p->n - 1].added_as_reference = 1;
            continue;
        }
        if (p->items[i].transpose) {
            /* transposes are compared with a copy of the same matrix: the
             * same n, given or sized from the working set */
            int found = 0;
            for (size_t k = 0; k < p->n && !found; k++)
                found = bench_plan_is_transpose_reference(&p->items[k]) &&
                        p->items[k].transpose_auto_n == p->items[i].transpose_auto_n &&
                        model_pattern_param_value(p->items[k].pattern, "n") ==
                            model_pattern_param_value(p->items[i].pattern, "n");
            char spec[64];
            if (p->items[i].transpose_auto_n)
                snprintf(spec, sizeof spec, "%s", BENCH_TRANSPOSE_REFERENCE);
            else
                snprintf(spec, sizeof spec, "%s,n=%lld", BENCH_TRANSPOSE_REFERENCE,
                         (long long)model_pattern_param_value(p->items[i].pattern, "n"));
            if (!found && (rc = item_from_spec(p, spec, 0, BENCH_ACCESS_COPY, err)) == BW_OK)
                p->items[p->n - 1].added_as_reference = 1;
            continue;
        }
        if (ref >= 0 && p->items[ref].elem == p->items[i].elem)
            continue;
        char spec[32];
        snprintf(spec, sizeof spec, "seq:elem=%lld", (long long)p->items[i].elem);
        if ((rc = item_from_spec(p, spec, 0, p->items[i].access, err)) == BW_OK)
            p->items[p->n - 1].added_as_reference = 1;
    }
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        char store[48];
        snprintf(store, sizeof store, "%lld*g", (long long)p->items[i].elem);
        /* a family with stores of its own (transpose) says where */
        const model_pattern *pat = p->items[i].pattern;
        rc = model_expr_parse(pat && pat->store_text ? pat->store_text : store, &p->items[i].store_expr, err);
    }
    buf_cap cap = cap_of(lim, 0);
    if (rc == BW_OK)
        rc = size_items(p, &cap, 0, err);
    /* both buffers over the budget: hold each to half of it, so that the
     * largest src and the largest dst fit together whichever items they serve */
    if (rc == BW_OK && p->src_bytes + p->dst_bytes > p->budget_bytes) {
        cap = cap_of(lim, p->budget_bytes / 2);
        rc = size_items(p, &cap, 1, err);
    }
    /* the index form follows the final sizes */
    for (size_t i = 0; i < p->n && rc == BW_OK; i++) {
        rc = choose_index_bits(p, &p->items[i], o, lim, err);
        if (rc != BW_OK && p->items[i].pattern == NULL)
            bw_error_prefix(err, "--expr '%s': ", p->items[i].expr_text);
    }
    if (rc != BW_OK)
        goto fail;
    p->reqd_sub_group_size = o->reqd_sub_group_size;
    p->scalar_form = o->scalar_form;
    for (size_t i = 0; i < ndefaults; i++)
        free(defaults[i]);
    free(defaults);
    free(default_read);
    *out = p;
    return BW_OK;
fail:
    for (size_t i = 0; i < ndefaults; i++)
        free(defaults[i]);
    free(defaults);
    free(default_read);
    bench_plan_free(p);
    return rc;
}
