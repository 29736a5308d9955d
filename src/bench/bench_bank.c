#include "bench_bank.h"

#include <stdlib.h>

#include "bench_kernel.h"
#include "bench_plan.h"
#include "bw_buf.h"
#include "model_expr.h"

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
