/* bench_transpose: the transpose family's program, load addresses,
 * sizing and checks, and the transpose entry of the family table,
 * bench_family_transpose (bench_transpose.h, bench_family.h). */
#include "bench_transpose.h"

#include "bench_validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_run_row.h"
#include "results_json.h"
#include "bench_kernel.h"
#include "bench_stats.h"
#include "bw_buf.h"
#include "bw_format.h"
#include "model_bank.h"
#include "results_fields.h"
#include "results_run_fields.h"

/* in model_transpose_version order */
static const char *const names[BENCH_TRANSPOSE_VERSIONS] = { "naive", "tiled", "padded", "copy" };
static const char *const macros[BENCH_TRANSPOSE_VERSIONS] = { "NAIVE", "TILED", "PADDED", "COPY" };
static const char *const kernels[BENCH_TRANSPOSE_VERSIONS] = { "bw_transpose_naive", "bw_transpose_tiled",
                                                               "bw_transpose_padded", "bw_transpose_copy" };

const char *bench_transpose_version_name(bench_transpose_version v)
{
    return names[v];
}

const char *bench_transpose_kernel_name(bench_transpose_version v)
{
    return kernels[v];
}

bw_code bench_transpose_check_size(int64_t n, int tile, bw_error *err)
{
    if (tile < 1)
        return bw_error_set(err, BW_E_USAGE, "transpose: tile edge %d is not positive", tile);
    if (n < 1 || n % tile != 0)
        return bw_error_set(err, BW_E_USAGE, "transpose: n=%lld is not a positive multiple of the tile edge %d",
                            (long long)n, tile);
    return BW_OK;
}

bw_code bench_transpose_program(const char *dir, int64_t n, int tile, int trace, char **source, bw_error *err)
{
    *source = NULL;
    char *text = NULL;
    bw_buf b = BW_BUF_INIT;
    bw_code rc = bench_transpose_check_size(n, tile, err);
    if (rc != BW_OK)
        goto fail;
    if ((rc = bench_kernel_source_load(dir, "transpose.cl", &text, NULL, err)) != BW_OK)
        goto fail;
    bw_buf_printf(&b, "/* bwlab: the transpose kernels of a %lld x %lld matrix, tile %d */\n", (long long)n,
                  (long long)n, tile);
    if (trace)
        bw_buf_puts(&b, "#define BWLAB_TRACE 1\n");
    for (int v = 0; v < BENCH_TRANSPOSE_VERSIONS; v++)
        bw_buf_printf(&b, "#define BW_KERNEL_%s %s\n", macros[v], kernels[v]);
    bw_buf_printf(&b, "#define BW_N %lldL\n#define BW_TILE %d\n", (long long)n, tile);
    bw_buf_puts(&b, text);
    *source = bw_buf_steal(&b);
    if (!*source)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
fail:
    bw_buf_free(&b);
    free(text);
    return rc;
}

int64_t bench_transpose_local_size(bench_transpose_version v, int tile, int64_t most)
{
    if (v != MODEL_TRANSPOSE_TILED && v != MODEL_TRANSPOSE_PADDED)
        return 0;
    for (int64_t rows = tile; rows >= 1; rows--)
        if (tile % rows == 0 && (int64_t)tile * rows <= most)
            return (int64_t)tile * rows;
    return -1;
}

int64_t bench_transpose_load_address(bench_transpose_version v, int64_t n, int tile, int64_t g)
{
    if (v == MODEL_TRANSPOSE_COPY || v == MODEL_TRANSPOSE_NAIVE)
        return 4 * g; /* in[y*n + x] with y = g / n, x = g % n is in[g] */
    int64_t T = tile, group = g / (T * T), l = g % (T * T);
    int64_t bx = group % (n / T), by = group / (n / T);
    return 4 * ((by * T + l / T) * n + bx * T + l % T);
}

int bench_transpose_tile_ways(bench_transpose_version v, const model_geometry *geo, int tile)
{
    if (v != MODEL_TRANSPOSE_TILED && v != MODEL_TRANSPOSE_PADDED)
        return 0;
    if (geo->banks <= 0 || tile < 1 || geo->lanes < 1 || geo->lanes > MODEL_MAX_LANES ||
        (int64_t)geo->lanes > (int64_t)tile * tile)
        return 0;
    int64_t pitch = v == MODEL_TRANSPOSE_PADDED ? tile + 1 : tile;
    int64_t addr[MODEL_MAX_LANES];
    for (int t = 0; t < geo->lanes; t++)
        addr[t] = 4 * ((t % tile) * pitch + t / tile);
    model_lanes all = model_lanes_all(geo->lanes);
    model_bank b;
    model_bank_count(geo, addr, &all, &b);
    return b.applicable ? b.conflict_ways : 0;
}

/* out's element (row y, column x) holds got where want belongs */
static bw_code mismatch(bench_transpose_version v, int64_t n, int64_t y, int64_t x, uint32_t got, uint32_t want,
                        bw_error *err)
{
    return bw_error_set(err, BW_E_VALIDATION,
                        "transpose:version=%s: element (row %lld, column %lld) of the %lld x %lld result holds "
                        "0x%08x, expected 0x%08x",
                        names[v], (long long)y, (long long)x, (long long)n, (long long)n, (unsigned)got,
                        (unsigned)want);
}

bw_code bench_transpose_validate(bench_transpose_version v, int64_t n, const uint32_t *in, const uint32_t *out,
                                 int64_t row0, int64_t rows, bw_error *err)
{
    for (int64_t y = row0; y < row0 + rows; y++)
        for (int64_t x = 0; x < n; x++) {
            /* out's element (row y, column x) and the element of in it must hold */
            uint32_t want = v == MODEL_TRANSPOSE_COPY ? in[y * n + x] : in[x * n + y];
            uint32_t got = out[(y - row0) * n + x];
            if (got != want)
                return mismatch(v, n, y, x, got, want, err);
        }
    return BW_OK;
}

bw_code bench_transpose_validate_stream(bench_transpose_version v, int64_t n, uint64_t seed, const uint32_t *out,
                                        int64_t row0, int64_t rows, bw_error *err)
{
    for (int64_t y = row0; y < row0 + rows; y++)
        for (int64_t x = 0; x < n; x++) {
            uint32_t want;
            int64_t word = v == MODEL_TRANSPOSE_COPY ? y * n + x : x * n + y;
            bench_fill_random_at((uint8_t *)&want, (uint64_t)word * 4, 4, seed);
            uint32_t got = out[(y - row0) * n + x];
            if (got != want)
                return mismatch(v, n, y, x, got, want, err);
        }
    return BW_OK;
}

bw_code bench_transpose_validate_trace(bench_transpose_version v, int64_t n, int tile, const int64_t *trace,
                                       bw_error *err)
{
    for (int64_t g = 0; g < n * n; g++) {
        int64_t want = bench_transpose_load_address(v, n, tile, g);
        if (trace[g] != want)
            return bw_error_set(err, BW_E_VALIDATION,
                                "transpose:version=%s trace: work-item %lld loaded byte %lld, the model says %lld",
                                names[v], (long long)g, (long long)trace[g], (long long)want);
    }
    return BW_OK;
}

/* ---- the transpose entry of the family table (bench_family.h) ---- */

static bench_transpose_version version_of(const bench_item *it)
{
    return (bench_transpose_version)model_pattern_param_value(it->pattern, "version");
}

static bw_code reparse_at(const bench_plan *p, bench_item *it, int64_t n, bw_error *err)
{
    char spec[96];
    snprintf(spec, sizeof spec, "transpose:version=%s,n=%lld", bench_transpose_version_name(version_of(it)),
             (long long)n);
    return bench_plan_reparse(p, it, spec, err);
}

/* The largest n, at most `n`, whose model the plan may count within
 * p->model_s, from a timed count of the tiled version (the costliest: a
 * shape per tile) at n = 64 W, scaled by n^2; *note (heap) says so when
 * it is below n. */
static bw_code model_capped_n(const bench_plan *p, int64_t n, int64_t *out, char **note, bw_error *err)
{
    int64_t W = p->geo.lanes, probe = 64 * W;
    *out = n;
    if (!(p->model_s > 0) || n <= probe)
        return BW_OK;
    char spec[96];
    snprintf(spec, sizeof spec, "transpose:version=tiled,n=%lld", (long long)probe);
    bench_item t_it;
    memset(&t_it, 0, sizeof t_it);
    t_it.elem = 4;
    t_it.active = model_lanes_all((int)W);
    bw_code rc = bench_plan_reparse(p, &t_it, spec, err);
    double t0 = bench_now_s();
    if (rc == BW_OK)
        rc = bench_plan_account(p, &t_it, probe * probe, err);
    double t = bench_now_s() - t0;
    bench_plan_item_clear(&t_it);
    if (rc != BW_OK || !(t > 0))
        return rc;
    double scaled = t * ((double)n / (double)probe) * ((double)n / (double)probe);
    if (scaled <= p->model_s)
        return BW_OK;
    int64_t most = (int64_t)((double)probe * sqrt(p->model_s / t)) / W * W;
    *out = most > probe ? most : probe;
    char a[32], b[32];
    bw_format_bytes(a, sizeof a, (double)(*out * *out * 4));
    bw_format_bytes(b, sizeof b, (double)(n * n * 4));
    *note = malloc(400);
    if (*note)
        snprintf(*note, 400,
                 "n = %lld (a %s matrix), below the working set's n = %lld (%s): its addresses change shape "
                 "every tile, so its model is counted tile by tile, about %.0f s at n = %lld (timed at n = %lld, "
                 "scaled by n^2), more than the %.1f s the budget allows it; a larger --budget, or n= in the "
                 "spec, counts more",
                 (long long)*out, a, (long long)n, b, scaled, (long long)n, (long long)probe, p->model_s);
    return BW_OK;
}

/* n from the working set where the spec does not give it (the largest
 * multiple of W whose n x n matrix fits the target and the cap, at least
 * W, and whose model the budget lets the plan count), the pattern parsed
 * again at that n; one work-item per element, the model's loads and
 * stores, the tile's modeled ways. */
static bw_code size_transpose(bench_plan *p, bench_item *it, const bench_plan_cap *cap, bw_error *err)
{
    int64_t W = p->geo.lanes;
    bench_transpose_version version = version_of(it);
    bw_code rc;
    char *model_note = NULL;
    if (it->auto_n) {
        uint64_t most = p->target_bytes < cap->bytes ? p->target_bytes : cap->bytes;
        int64_t n = (int64_t)sqrt((double)most / 4.0) / W * W;
        if (n < W)
            n = W;
        if (n > (int64_t)1 << 16)
            n = ((int64_t)1 << 16) / W * W;
        /* one n for every automatic transpose: each is read against the copy of its n */
        if (p->transpose_n == 0 || p->transpose_cap != cap->bytes) {
            if ((rc = model_capped_n(p, n, &n, &model_note, err)) != BW_OK)
                return rc;
            free(p->transpose_note);
            p->transpose_note = model_note;
            p->transpose_n = n;
            p->transpose_cap = cap->bytes;
        }
        n = p->transpose_n;
        free(it->size_note);
        it->size_note = p->transpose_note ? strdup(p->transpose_note) : NULL;
        if ((rc = reparse_at(p, it, n, err)) != BW_OK)
            return rc;
    }
    int64_t n = model_pattern_param_value(it->pattern, "n");
    if ((uint64_t)(n * n * 4) > cap->bytes) {
        char a[32];
        bw_format_bytes(a, sizeof a, (double)(n * n * 4));
        return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': the %s matrix is larger than %s", it->spec, a, cap->full);
    }
    int64_t local = bench_transpose_local_size(version, (int)W, p->local_size);
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
    if ((rc = bench_plan_account(p, it, n * n, err)) != BW_OK)
        return rc;
    if ((rc = bench_plan_check_loadable(it, err)) != BW_OK)
        return rc;
    if (!it->auto_n) {
        free(it->size_note);
        it->size_note = bench_plan_note_small(p, "matrix", (uint64_t)(n * n * 4));
    }
    it->local_size = local;
    it->vload = 0;
    it->conflict_ways = bench_transpose_tile_ways(version, &p->geo, (int)W);
    return bench_plan_warp0(p, it, err);
}

/* tiled and padded: fewer rows of the tile at a time, the work-items
 * loop over more; copy and naive fit as any kernel does */
static bw_code fit_transpose(bench_plan *p, bench_item *it, uint64_t kernel_max, bw_error *err)
{
    bench_transpose_version v = version_of(it);
    if (v == MODEL_TRANSPOSE_NAIVE || v == MODEL_TRANSPOSE_COPY)
        return bench_plan_fit_generic(p, it, kernel_max, err);
    int64_t W = p->geo.lanes, n = model_pattern_param_value(it->pattern, "n");
    int64_t local = bench_transpose_local_size(v, (int)W, (int64_t)kernel_max);
    if (local < 0)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "pattern '%s': its %lld x %lld tile needs work-groups of at least %lld (one tile "
                            "row), and the kernel allows at most %llu on this device (CL_KERNEL_WORK_GROUP_SIZE)",
                            it->spec, (long long)W, (long long)W, (long long)W, (unsigned long long)kernel_max);
    it->local_size = local;
    it->launch_items = n * n / W * (local / W);
    return BW_OK;
}

static int transpose_is_reference(const bench_item *it)
{
    return bench_family_is(it, MODEL_PATTERN_KERNEL_TRANSPOSE) && version_of(it) == MODEL_TRANSPOSE_COPY;
}

/* the copy of the same n */
static long transpose_reference(const bench_plan *p, size_t i)
{
    for (size_t k = 0; k < p->n; k++)
        if (transpose_is_reference(&p->items[k]) &&
            model_pattern_param_value(p->items[k].pattern, "n") == model_pattern_param_value(p->items[i].pattern, "n"))
            return (long)k;
    return -1;
}

/* a copy of the same matrix: the same n, given or sized from the
 * working set (before sizing, two auto-n items both hold the default n) */
static int transpose_reference_spec(const bench_plan *p, size_t i, char *buf, size_t len)
{
    const bench_item *it = &p->items[i];
    for (size_t k = 0; k < p->n; k++)
        if (transpose_is_reference(&p->items[k]) && p->items[k].auto_n == it->auto_n &&
            model_pattern_param_value(p->items[k].pattern, "n") == model_pattern_param_value(it->pattern, "n"))
            return 0;
    if (it->auto_n)
        snprintf(buf, len, "%s", BENCH_TRANSPOSE_REFERENCE);
    else
        snprintf(buf, len, "%s,n=%lld", BENCH_TRANSPOSE_REFERENCE,
                 (long long)model_pattern_param_value(it->pattern, "n"));
    return 1;
}

/* all four kernels at the item's n with the warp width as tile edge; src
 * is in, dst is out */
static bw_code transpose_program(const char *dir, const bench_plan *p, const bench_item *it, int trace,
                                 bench_family_program *out, bw_error *err)
{
    out->file = "transpose.cl";
    out->kernel = bench_transpose_kernel_name(version_of(it));
    return bench_transpose_program(dir, model_pattern_param_value(it->pattern, "n"), p->geo.lanes, trace,
                                   &out->source, err);
}

/* the bands of rows a transpose's validation reads: at most this many,
 * each one tile high (whole tiles: a tiled kernel's faults are per tile) */
#define TRANSPOSE_SAMPLE_BANDS 16

/* One launch, then a sample of the result's rows, a band of whole tile
 * rows at a time: the first and last bands and others spread between
 * (every band when there are few), each element against the source
 * regenerated where it is needed (bench_transpose_validate_stream). A
 * signal stops it between bands. */
static bw_code transpose_validate(const bench_family_io *io, bw_error *err)
{
    const bench_item *it = &io->plan->items[io->index];
    bw_code rc = bench_family_fill_dst(io, (uint64_t)(it->items * it->elem), err);
    if (rc != BW_OK)
        return rc;
    bench_transpose_version v = version_of(it);
    int64_t n = model_pattern_param_value(it->pattern, "n");
    int64_t tile = io->plan->geo.lanes, band = (int64_t)(io->stage_bytes / (uint64_t)(n * 4));
    band = band < tile ? band : tile;
    if (band < 1)
        rc = bw_error_set(err, BW_E_NOMEM, "pattern '%s': a row of the result is larger than the staging buffer",
                          it->spec);
    if (rc == BW_OK)
        rc = io->launch(io->ctx, err);
    int64_t bands = (n + band - 1) / band;
    int64_t checks = bands < TRANSPOSE_SAMPLE_BANDS ? bands : TRANSPOSE_SAMPLE_BANDS;
    for (int64_t k = 0; rc == BW_OK && k < checks; k++) {
        if (io->stop && *io->stop)
            return bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
        /* k = 0 and checks - 1 are the first and the last band */
        int64_t b = checks > 1 ? k * (bands - 1) / (checks - 1) : 0;
        int64_t first = b * band, rows = n - first < band ? n - first : band;
        rc = io->read_dst(io->ctx, (uint64_t)(first * n) * 4, io->stage, (uint64_t)(rows * n) * 4, err);
        if (rc == BW_OK)
            rc = bench_transpose_validate_stream(v, n, io->seed, (const uint32_t *)io->stage, first, rows, err);
    }
    return rc;
}

static unsigned transpose_trace_arg(const bench_item *it)
{
    (void)it;
    return BENCH_TRANSPOSE_ARG_TRACE;
}

/* every work-item's global load address against the model's expression */
static bw_code transpose_check_trace(const bench_plan *p, const bench_item *it, const int64_t *trace, bw_error *err)
{
    return bench_validate_trace(&p->geo, it, trace, err);
}

/* its keys of its own on a result of the run's document (docs/results.md, results[]) */
static void transpose_doc_keys(json_t *o, const bench_run_doc *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    /* relative_to_seq and relative_to_reference are against the copy
     * of the same matrix (transpose:version=copy), never seq */
    int64_t v = model_pattern_param_value(it->pattern, "version");
    int tiled = v == MODEL_TRANSPOSE_TILED || v == MODEL_TRANSPOSE_PADDED;
    json_object_set_new(o, RUN_KEY(RUNY_VERSION), results_json_text(bench_transpose_version_name((bench_transpose_version)v)));
    json_object_set_new(o, RUN_KEY(RUNY_N), json_integer(model_pattern_param_value(it->pattern, "n")));
    json_object_set_new(o, RUN_KEY(RUNY_N_FROM), results_json_text(it->auto_n ? "working set" : "spec"));
    json_object_set_new(o, RUN_KEY(RUNY_STORE_EXPRESSION),
                        it->pattern->store_text ? results_json_text(it->pattern->store_text) : json_null());
    json_object_set_new(o, RUN_KEY(RUNY_TILE), tiled ? json_integer(run->plan->geo.lanes) : json_null());
    json_object_set_new(o, RUN_KEY(RUNY_LAUNCH_ITEMS), json_integer(it->launch_items > 0 ? it->launch_items : it->items));
    json_object_set_new(o, RUN_KEY(RUNY_TILE_PITCH), tiled ? json_integer(run->plan->geo.lanes + (v == MODEL_TRANSPOSE_PADDED))
                                               : json_null());
    json_object_set_new(o, RF_KEY(RF_CONFLICT_WAYS), tiled && it->conflict_ways > 0 ? json_integer(it->conflict_ways)
                                                                            : json_null());
    json_object_set_new(o, RF_KEY(RF_RELATIVE_TO_REFERENCE), results_json_real(r->relative_to_reference, w.ok));
}

const bench_family bench_family_transpose = {
    .kernel = MODEL_PATTERN_KERNEL_TRANSPOSE,
    .space = "global",
    .access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY),
    .access_why = "its kernel copies the matrix into its transpose",
    .modeled = 1,
    .retry_half = 0,
    .sized_n = 1,
    .no_twin = "no twin: a transpose covers its whole matrix",
    .size = size_transpose,
    .index_form = bench_family_index_long,
    .is_reference = transpose_is_reference,
    .reference = transpose_reference,
    .reference_spec = transpose_reference_spec,
    .program = transpose_program,
    .fit_kernel = fit_transpose,
    .validate = transpose_validate,
    .trace_arg = transpose_trace_arg,
    .check_trace = transpose_check_trace,
    .bytes = bench_family_model_bytes,
    .doc_keys = transpose_doc_keys,
};
