#include "bench_transpose.h"

#include "bench_validate.h"

#include <stdlib.h>

#include "bench_kernel.h"
#include "bw_buf.h"
#include "model_bank.h"

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

bw_code bench_transpose_validate(bench_transpose_version v, int64_t n, const uint32_t *in, const uint32_t *out,
                                 int64_t row0, int64_t rows, bw_error *err)
{
    for (int64_t y = row0; y < row0 + rows; y++)
        for (int64_t x = 0; x < n; x++) {
            /* out's element (row y, column x) and the element of in it must hold */
            uint32_t want = v == MODEL_TRANSPOSE_COPY ? in[y * n + x] : in[x * n + y];
            uint32_t got = out[(y - row0) * n + x];
            if (got != want)
                return bw_error_set(err, BW_E_VALIDATION,
                                    "transpose:version=%s: element (row %lld, column %lld) of the %lld x %lld "
                                    "result holds 0x%08x, expected 0x%08x",
                                    names[v], (long long)y, (long long)x, (long long)n, (long long)n,
                                    (unsigned)got, (unsigned)want);
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
                return bw_error_set(err, BW_E_VALIDATION,
                                    "transpose:version=%s: element (row %lld, column %lld) of the %lld x %lld "
                                    "result holds 0x%08x, expected 0x%08x",
                                    names[v], (long long)y, (long long)x, (long long)n, (long long)n,
                                    (unsigned)got, (unsigned)want);
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
