/* bench_bank: the local-memory bank kernel's tile size, program,
 * expected output and checks, and the bank entry of the family table,
 * bench_family_bank (bench_bank.h, bench_family.h). */
#include "bench_bank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_run_row.h"
#include "results_json.h"
#include "bench_kernel.h"
#include "bench_plan_priv.h"
#include "bench_validate.h"
#include "bw_buf.h"
#include "bw_hook.h"
#include "model_bank.h"
#include "model_expr.h"
#include "results_fields.h"
#include "results_run_fields.h"

/* the model's local byte address of work-item g's first read */
static bw_code address_of(const model_pattern *p, int64_t g, int64_t *a, bw_error *err)
{
    model_expr_env env = { g % p->lanes, g / p->lanes, g, p->lanes };
    bw_code rc = model_expr_eval(p->expr, &env, a, err);
    if (rc == BW_OK && (*a < 0 || *a % 4 != 0))
        rc = bw_error_set(err, BW_E_USAGE, "pattern '%s': local byte address %lld of work-item %lld is not a "
                                           "word of the tile",
                          p->spec, (long long)*a, (long long)g);
    return rc;
}

bw_code bench_bank_tile_words(const model_pattern *p, int64_t *out, bw_error *err)
{
    *out = 0;
    if (p->family->space != MODEL_PATTERN_SPACE_LOCAL)
        return bw_error_set(err, BW_E_USAGE, "pattern '%s' is not a local-memory pattern", p->spec);
    int64_t most = 0;
    /* the bank family's addresses depend on the lane alone: one warp covers them */
    for (int64_t t = 0; t < p->lanes; t++) {
        int64_t a;
        bw_code rc = address_of(p, t, &a, err);
        if (rc != BW_OK)
            return rc;
        if (a / 4 + p->lanes > most)
            most = a / 4 + p->lanes;
    }
    *out = most;
    return BW_OK;
}

bw_code bench_bank_program(const char *dir, const model_pattern *p, int trace, char **source, bw_error *err)
{
    *source = NULL;
    char *prelude = NULL, *bank = NULL;
    bw_buf b = BW_BUF_INIT;
    int64_t words;
    bw_code rc = bench_bank_tile_words(p, &words, err);
    if (rc != BW_OK)
        goto fail;
    if ((rc = bench_kernel_source_load(dir, "bw_expr.cl", &prelude, NULL, err)) != BW_OK)
        goto fail;
    if ((rc = bench_kernel_source_load(dir, "bank.cl", &bank, NULL, err)) != BW_OK)
        goto fail;
    bw_buf_printf(&b, "/* bwlab: the bank kernel of pattern %s */\n", p->spec);
    if (trace)
        bw_buf_puts(&b, "#define BWLAB_TRACE 1\n");
    bw_buf_puts(&b, prelude);
    bw_buf_printf(&b, "\n#define BW_KERNEL %s\n#define BW_W %dL\n#define BW_TILE_WORDS %lld\n#define BW_READS %d\n",
                  BENCH_BANK_KERNEL, p->lanes, (long long)words, BENCH_BANK_READS);
    bw_buf_puts(&b, "#define BW_ADDR (");
    model_expr_print_opencl(p->expr, &b);
    bw_buf_puts(&b, ")\n");
    bw_buf_puts(&b, bank);
    *source = bw_buf_steal(&b);
    if (!*source)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
fail:
    bw_buf_free(&b);
    free(prelude);
    free(bank);
    return rc;
}

#define FNV_BASIS 2166136261u
#define FNV_PRIME 16777619u

bw_code bench_bank_expect(const model_pattern *p, const uint32_t *tile, int64_t items, uint32_t *out,
                          bw_error *err)
{
    for (int64_t g = 0; g < items; g++) {
        int64_t a;
        bw_code rc = address_of(p, g, &a, err);
        if (rc != BW_OK)
            return rc;
        uint32_t acc = FNV_BASIS;
        for (int j = 0; j < BENCH_BANK_READS; j++)
            acc = (acc ^ tile[a / 4 + j % p->lanes]) * FNV_PRIME;
        out[g] = acc;
    }
    return BW_OK;
}

bw_code bench_bank_validate(const model_pattern *p, const uint32_t *tile, const uint32_t *dst, int64_t items,
                            bw_error *err)
{
    uint32_t *want = malloc((size_t)(items > 0 ? items : 1) * sizeof *want);
    if (!want)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = bench_bank_expect(p, tile, items, want, err);
    for (int64_t g = 0; rc == BW_OK && g < items; g++)
        if (dst[g] != want[g])
            rc = bw_error_set(err, BW_E_VALIDATION,
                              "pattern '%s': work-item %lld folded its %d local reads to 0x%08x, the host to 0x%08x",
                              p->spec, (long long)g, BENCH_BANK_READS, dst[g], want[g]);
    free(want);
    return rc;
}

bw_code bench_bank_validate_trace(const model_pattern *p, const int64_t *trace, int64_t items, bw_error *err)
{
    for (int64_t g = 0; g < items; g++) {
        int64_t a;
        bw_code rc = address_of(p, g, &a, err);
        if (rc != BW_OK)
            return rc;
        if (trace[g] != a)
            return bw_error_set(err, BW_E_VALIDATION,
                                "pattern '%s': work-item %lld read local byte %lld first; the model says %lld",
                                p->spec, (long long)g, (long long)trace[g], (long long)a);
    }
    return BW_OK;
}

double bench_bank_local_bytes(const struct bench_item *it)
{
    return (double)it->items * BENCH_BANK_READS * 4.0;
}

/* ---- the bank entry of the family table (bench_family.h) ---- */

/* The plan's bank_groups work-groups of its size, one tile each, read
 * from the start of src; the modeled ways of warp 0. No global target:
 * cap does not apply. */
static bw_code size_bank(bench_plan *p, bench_item *it, const bench_plan_cap *cap, bw_error *err)
{
    (void)cap;
    bw_code rc = bench_bank_tile_words(it->pattern, &it->tile_words, err);
    if (rc != BW_OK)
        return rc;
    it->local_size = p->local_size;
    int64_t most = p->bank_groups > 0 ? p->bank_groups : BENCH_BANK_GROUPS, groups = most;
    /* test builds only: fewer groups, for a simulator (tools/oclgrind.sh) */
    if (bw_hook_fault("bank_groups", NULL, &groups) && (groups < 1 || groups > most))
        groups = most;
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

/* bank.cl has one form of its own: long work-item ids, int tile words;
 * its values fit in int when the launch and the tile do */
static bw_code bank_index_form(const bench_plan *p, bench_item *it, int index_opt, int is_gpu, bw_error *err)
{
    (void)p, (void)index_opt, (void)is_gpu, (void)err;
    it->index32_proven = it->items <= INT32_MAX && it->tile_words <= INT32_MAX;
    it->index_bits = 64;
    return BW_OK;
}

/* the conflict-free bank:pitch=33,stride=1 */
static int bank_is_reference(const bench_item *it)
{
    return bench_family_is(it, MODEL_PATTERN_KERNEL_BANK) && model_pattern_param_value(it->pattern, "pitch") == 33 &&
           model_pattern_param_value(it->pattern, "stride") == 1;
}

static long bank_reference(const bench_plan *p, size_t i)
{
    (void)i;
    for (size_t k = 0; k < p->n; k++)
        if (bank_is_reference(&p->items[k]))
            return (long)k;
    return -1;
}

static int bank_reference_spec(const bench_plan *p, size_t i, char *buf, size_t n)
{
    if (bank_reference(p, i) >= 0)
        return 0;
    snprintf(buf, n, "%s", BENCH_BANK_REFERENCE);
    return 1;
}

/* its own program, src, dst and the local tile */
static bw_code bank_program(const char *dir, const bench_plan *p, const bench_item *it, int trace,
                            bench_family_program *out, bw_error *err)
{
    (void)p;
    out->file = "bank.cl";
    out->kernel = BENCH_BANK_KERNEL;
    out->local_arg = BENCH_BANK_ARG_TILE;
    out->local_bytes = (size_t)it->tile_words * 4;
    return bench_bank_program(dir, it->pattern, trace, &out->source, err);
}

/* One launch, then every work-item's fold against the host's
 * (bench_bank_validate) over the tile, the first words of src. */
static bw_code bank_validate(const bench_family_io *io, bw_error *err)
{
    const bench_item *it = &io->plan->items[io->index];
    bw_code rc = bench_family_fill_dst(io, (uint64_t)(it->items * it->elem), err);
    if (rc != BW_OK)
        return rc;
    uint32_t *tile = malloc((size_t)it->tile_words * 4);
    uint32_t *dst = malloc((size_t)it->items * 4);
    rc = tile && dst ? BW_OK : bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (rc == BW_OK) {
        bench_fill_random_at((uint8_t *)tile, 0, (uint64_t)it->tile_words * 4, io->seed);
        rc = io->launch(io->ctx, err);
    }
    if (rc == BW_OK)
        rc = io->read_dst(io->ctx, 0, dst, (uint64_t)it->items * 4, err);
    if (rc == BW_OK)
        rc = bench_bank_validate(it->pattern, tile, dst, it->items, err);
    free(tile);
    free(dst);
    return rc;
}

static unsigned bank_trace_arg(const bench_item *it)
{
    (void)it;
    return BENCH_BANK_ARG_TRACE;
}

/* every work-item's first local address against the model */
static bw_code bank_check_trace(const bench_plan *p, const bench_item *it, const int64_t *trace, bw_error *err)
{
    (void)p;
    return bench_bank_validate_trace(it->pattern, trace, it->items, err);
}

/* its keys of its own on a result of the run's document (docs/results.md, results[]) */
static void bank_doc_keys(json_t *o, const bench_run_doc *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    /* local_gbs is effective_gbs: local bytes read / median time;
     * relative_to_seq and relative_to_reference are against the bank
     * reference (bank:pitch=33,stride=1), never seq */
    json_object_set_new(o, RF_KEY(RF_CONFLICT_WAYS), it->conflict_ways > 0 ? json_integer(it->conflict_ways) : json_null());
    json_object_set_new(o, RUN_KEY(RUNY_LOCAL_READS_PER_ITEM), json_integer(BENCH_BANK_READS));
    json_object_set_new(o, RUN_KEY(RUNY_LOCAL_BYTES), json_integer((json_int_t)bench_bank_local_bytes(it)));
    json_object_set_new(o, RF_KEY(RF_LOCAL_GBS), results_json_real(r->effective_gbs, w.ok));
    json_object_set_new(o, RF_KEY(RF_RELATIVE_TO_REFERENCE), results_json_real(r->relative_to_reference, w.ok));
    json_object_set_new(o, RUN_KEY(RUNY_TILE_BYTES), json_integer(it->tile_words * 4));
}

const bench_family bench_family_bank = {
    .kernel = MODEL_PATTERN_KERNEL_BANK,
    .space = "local",
    .access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ),
    .access_why = "its kernel reads a local-memory tile",
    .modeled = 0,
    .retry_half = 0,
    .no_twin = "no twin: local memory",
    .size = size_bank,
    .index_form = bank_index_form,
    .is_reference = bank_is_reference,
    .reference = bank_reference,
    .reference_spec = bank_reference_spec,
    .program = bank_program,
    .validate = bank_validate,
    .trace_arg = bank_trace_arg,
    .check_trace = bank_check_trace,
    .bytes = bench_bank_local_bytes,
    .doc_keys = bank_doc_keys,
};
