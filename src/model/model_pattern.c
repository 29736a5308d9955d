/* model_pattern: the pattern catalogue: each family's parameters, address
 * expression and explanation, and the parsing of a spec into a pattern
 * with its canonical form (model_pattern.h). */
#include "model_pattern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_parse.h"
#include "model_arith.h"
#include "model_pattern_priv.h"

#define MAX_BYTES ((int64_t)1 << 20)

/* ---- words the explanations share ---- */

/* "8", "4.5", "0.25": counts averaged over warps without noise digits */
static const char *num(char *buf, size_t n, double v)
{
    if (fabs(v - round(v)) < 1e-9)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.2g", v);
    return buf;
}

const char *model_pattern_sectors_words(char *buf, size_t n, double v)
{
    char k[24];
    snprintf(buf, n, "%s sector%s", num(k, sizeof k, v), fabs(v - 1.0) < 1e-9 ? "" : "s");
    return buf;
}

const char *model_pattern_worth_words(char *buf, size_t n, double v)
{
    char k[24];
    snprintf(buf, n, "%s %s worth", num(k, sizeof k, v), fabs(v - 1.0) < 1e-9 ? "sector's" : "sectors'");
    return buf;
}

static const char *fraction_words(double f, char *buf, size_t n)
{
    static const struct {
        double v;
        const char *w;
    } words[] = { { 0.5, "half" }, { 0.25, "a quarter" }, { 0.75, "three quarters" },
                  { 1.0 / 3.0, "a third" }, { 2.0 / 3.0, "two thirds" } };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (fabs(f - words[i].v) < 1e-6)
            return words[i].w;
    snprintf(buf, n, "%.0f%%", f * 100.0);
    return buf;
}

/* the fraction of every fetched sector that no lane asked for */
static double skipped_fraction(const model_pattern_facts *f)
{
    return f->sectors > 0 ? 1.0 - f->useful / f->sectors : 0;
}

/* ---- the families: how each builds its addresses and explains them ---- */

static bw_code build_seq(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    bw_buf_printf(x, "%lld*g", (long long)p->elem);
    return BW_OK;
}

static void explain_seq(const model_pattern_facts *f, bw_buf *out)
{
    char a[64];
    if (f->useful + 1e-9 >= f->sectors)
        bw_buf_printf(out, "consecutive lanes read consecutive %lld-byte elements: each warp of %d "
                           "lanes touches %s of %lld B and uses every byte.",
                      (long long)f->elem, f->lanes, model_pattern_sectors_words(a, sizeof a, f->sectors), (long long)f->sector);
    else
        bw_buf_printf(out, "consecutive lanes read consecutive %lld-byte elements: each warp of %d "
                           "lanes touches %s of %lld B for %lld requested bytes; the next warp reads "
                           "the rest.",
                      (long long)f->elem, f->lanes, model_pattern_sectors_words(a, sizeof a, f->sectors), (long long)f->sector,
                      (long long)(f->elem * f->lanes));
}

static bw_code build_offset(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    bw_buf_printf(x, "%lld + %lld*g", (long long)p->params[0], (long long)p->elem);
    return BW_OK;
}

static void explain_offset(const model_pattern_facts *f, bw_buf *out)
{
    char a[64], b[64];
    int64_t bytes = model_pattern_param_value(f->pattern, "bytes");
    if (bytes == 0) {
        explain_seq(f, out);
        return;
    }
    bw_buf_printf(out, "the warp's %lld bytes start %lld bytes past a sector boundary, so each warp "
                       "touches %s for %s of data.",
                  (long long)(f->elem * f->lanes), (long long)(bytes % f->sector),
                  model_pattern_sectors_words(a, sizeof a, f->sectors), model_pattern_worth_words(b, sizeof b, f->useful));
}

static bw_code build_stride(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    bw_buf_printf(x, "%lld*g", (long long)(p->params[0] * p->elem));
    return BW_OK;
}

/* stride and aos: lanes spread apart, in words of their own */
static void explain_spread(const model_pattern_facts *f, const char *what, bw_buf *out)
{
    char a[64], b[64], c[64];
    double skipped = skipped_fraction(f);
    if (skipped > 1e-9)
        bw_buf_printf(out, "%s: each warp touches %s to use %s of data; %s of every fetched "
                           "sector is skipped.",
                      what, model_pattern_sectors_words(a, sizeof a, f->sectors), model_pattern_worth_words(b, sizeof b, f->useful),
                      fraction_words(skipped, c, sizeof c));
    else
        bw_buf_printf(out, "each warp touches %s and uses every byte: the spread stays within the "
                           "sectors it needs.",
                      model_pattern_sectors_words(a, sizeof a, f->sectors));
}

static void explain_stride(const model_pattern_facts *f, bw_buf *out)
{
    if (model_pattern_param_value(f->pattern, "s") == 1)
        explain_seq(f, out);
    else
        explain_spread(f, "lanes are spread apart", out);
}

static bw_code build_reverse(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    long long W = p->lanes;
    bw_buf_printf(x, "%lld*(%lld*w + %lld - t)", (long long)p->elem, W, W - 1);
    return BW_OK;
}

/* reverse and permute: seq's elements in another order */
static void explain_reorder(const model_pattern_facts *f, bw_buf *out)
{
    char a[64];
    bw_buf_printf(out, "the lanes read seq's elements in another order: the same %s per warp, "
                       "since order inside a warp does not change which sectors are touched.",
                  model_pattern_sectors_words(a, sizeof a, f->sectors));
}

/* splitmix64: a fixed, portable generator for the permutation constants */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A pseudo-random bijection of 0..W-1 written in the address language. For
 * W = 2^k: an odd multiply-add mod 2^k, an xorshift, and a second
 * multiply-add, each a bijection on k bits. Otherwise (a*t + c) mod W with
 * a prime to W. */
static void permutation_text(int64_t seed, int W, bw_buf *b)
{
    uint64_t st = (uint64_t)seed;
    if (W == 1) {
        bw_buf_puts(b, "t");
        return;
    }
    if ((W & (W - 1)) == 0) {
        int k = __builtin_ctz((unsigned)W);
        int64_t m = W - 1;
        /* odd multipliers other than 1 (where W allows), any offsets */
        uint64_t odd = W >= 4 ? (uint64_t)W / 2 - 1 : 1;
        int64_t a1 = W >= 4 ? 3 + 2 * (int64_t)(splitmix64(&st) % odd) : 1;
        int64_t c1 = (int64_t)(splitmix64(&st) % (uint64_t)W);
        int64_t a2 = W >= 4 ? 3 + 2 * (int64_t)(splitmix64(&st) % odd) : 1;
        int64_t c2 = (int64_t)(splitmix64(&st) % (uint64_t)W);
        int h = k / 2 > 0 ? k / 2 : 1;
        bw_buf_printf(b, "(%lld*(((%lld*t + %lld) & %lld) ^ (((%lld*t + %lld) & %lld) >> %d)) + %lld) & %lld",
                      (long long)a2, (long long)a1, (long long)c1, (long long)m, (long long)a1,
                      (long long)c1, (long long)m, h, (long long)c2, (long long)m);
        return;
    }
    int64_t a;
    do
        a = (int64_t)(splitmix64(&st) % (uint64_t)W);
    while (a == 0 || model_gcd(a, W) != 1);
    int64_t c = (int64_t)(splitmix64(&st) % (uint64_t)W);
    bw_buf_printf(b, "(%lld*t + %lld) %% %d", (long long)a, (long long)c, W);
}

static bw_code build_permute(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    bw_buf_printf(x, "%lld*(%lld*w + (", (long long)p->elem, (long long)p->lanes);
    permutation_text(p->params[0], p->lanes, x);
    bw_buf_puts(x, "))");
    return BW_OK;
}

static bw_code build_broadcast(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    bw_buf_printf(x, "%lld*w", (long long)(p->elem * p->lanes));
    return BW_OK;
}

static void explain_broadcast(const model_pattern_facts *f, bw_buf *out)
{
    char a[64];
    bw_buf_printf(out, "all %d lanes of a warp read one address: %s %s %lld requested "
                       "bytes, of which %lld are distinct.",
                  f->lanes, model_pattern_sectors_words(a, sizeof a, f->sectors), fabs(f->sectors - 1.0) < 1e-9 ? "serves" : "serve",
                  (long long)(f->elem * f->lanes), (long long)f->elem);
}

static bw_code build_one_lane(model_pattern *p, bw_buf *x, bw_error *err)
{
    p->active = model_lanes_first(p->lanes, 1);
    return build_seq(p, x, err);
}

static void explain_one_lane(const model_pattern_facts *f, bw_buf *out)
{
    bw_buf_printf(out, "one lane of %d is active: a whole %lld-byte sector is fetched for %lld "
                       "useful bytes.",
                  f->lanes, (long long)f->sector, (long long)f->elem);
}

static bw_code build_aos(model_pattern *p, bw_buf *x, bw_error *err)
{
    long long E = (long long)p->elem, st = (long long)p->params[0], field = (long long)p->params[1];
    if (st < E)
        return bw_error_set(err, BW_E_USAGE, "pattern 'aos': struct=%lld is smaller than the element (elem=%lld)",
                            st, E);
    if (field + E > st)
        return bw_error_set(err, BW_E_USAGE, "pattern 'aos': field=%lld with elem=%lld does not fit in struct=%lld",
                            field, E, st);
    bw_buf_printf(x, "%lld*g + %lld", st, field);
    return BW_OK;
}

static void explain_aos(const model_pattern_facts *f, bw_buf *out)
{
    explain_spread(f, "one field per struct", out);
}

static bw_code build_matrix_row(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    long long n = (long long)p->params[0];
    bw_buf_printf(x, "%lld*((g / %lld)*%lld + g %% %lld)", (long long)p->elem, n, n, n);
    return BW_OK;
}

static bw_code build_matrix_col(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    long long n = (long long)p->params[0];
    bw_buf_printf(x, "%lld*((g %% %lld)*%lld + g / %lld)", (long long)p->elem, n, n, n);
    return BW_OK;
}

static void explain_matrix_col(const model_pattern_facts *f, bw_buf *out)
{
    char a[64], b[64];
    bw_buf_printf(out, "consecutive lanes walk down a column, %lld bytes apart: each warp touches %s "
                       "for %s of data.",
                  (long long)(f->elem * model_pattern_param_value(f->pattern, "n")),
                  model_pattern_sectors_words(a, sizeof a, f->sectors), model_pattern_worth_words(b, sizeof b, f->useful));
}

static bw_code build_mixed(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    long long E = (long long)p->elem, W = p->lanes;
    long long h = W / 2, s = (long long)p->params[0], blk = s * W;
    bw_buf_printf(x, "t < %lld ? %lld*(%lld*w + t) : %lld*(%lld*w + %lld + %lld*(t - %lld))", h, E, blk, E, blk,
                  h, s, h);
    return BW_OK;
}

static void explain_mixed(const model_pattern_facts *f, bw_buf *out)
{
    char a[64], b[64];
    bw_buf_printf(out, "half the warp is coalesced and half scattered: %s per warp for %s of data, "
                       "the scattered half costing most of them.",
                  model_pattern_sectors_words(a, sizeof a, f->sectors), model_pattern_worth_words(b, sizeof b, f->useful));
}

/* bank: a W x W tile of 4-byte floats in local memory, row pitch P floats;
 * lane t reads row (t*S) mod W at column 0 (the kernel's later reads shift
 * the column by the same amount for every lane, which moves every lane's
 * bank alike and keeps the conflict ways). The row wraps so that every
 * read stays in the W x W tile. */
static bw_code build_bank(model_pattern *p, bw_buf *x, bw_error *err)
{
    if (p->elem != 4)
        return bw_error_set(err, BW_E_USAGE, "pattern 'bank': elem=%lld: the tile holds 4-byte floats (elem=4)",
                            (long long)p->elem);
    long long P = (long long)p->params[0], S = (long long)p->params[1];
    bw_buf_printf(x, "4*((%lld*t %% %d)*%lld)", S, p->lanes, P);
    return BW_OK;
}

static void explain_bank(const model_pattern_facts *f, bw_buf *out)
{
    long long P = (long long)model_pattern_param_value(f->pattern, "pitch");
    long long S = (long long)model_pattern_param_value(f->pattern, "stride");
    bw_buf_printf(out, "lane t reads row (%lld*t) mod %d of a local tile whose rows are %lld floats apart: "
                       "bwlab model --space local gives the bank-conflict ways.",
                  S, f->lanes, P);
}

/* transpose: an n x n matrix of 4-byte words, one work-item per element,
 * tiles of W x W (the warp width) in work-groups of W*W: group b = g / W^2
 * is tile column b mod (n/W) and tile row b / (n/W), lane lx = g mod W and
 * row ly = (g mod W^2) / W inside it (cl/transpose.cl). Loads: in[g] for
 * naive and copy; the tile's element (by*W + ly, bx*W + lx) for tiled and
 * padded. */
static const char *const transpose_versions[] = { "naive", "tiled", "padded", "copy", NULL };

static bw_code transpose_sizes(const model_pattern *p, bw_error *err)
{
    if (p->elem != 4)
        return bw_error_set(err, BW_E_USAGE, "pattern 'transpose': elem=%lld: the matrix holds 4-byte floats (elem=4)",
                            (long long)p->elem);
    if (p->params[1] % p->lanes != 0)
        return bw_error_set(err, BW_E_USAGE, "pattern 'transpose': n=%lld is not a multiple of the tile edge, the "
                                             "warp width %d",
                            (long long)p->params[1], p->lanes);
    return BW_OK;
}

/* the tiled element (row R, column C) of the matrix: 4*((R)*n + C) with
 * the tile row or column taken as `row_of` and the other as `col_of` */
static void transpose_tiled_text(const model_pattern *p, int store, bw_buf *x)
{
    long long W = p->lanes, Q = W * W, n = (long long)p->params[1], K = n / W;
    /* loads: row by*W + ly, column bx*W + lx; stores: row bx*W + ly, column by*W + lx */
    bw_buf_printf(x, "4*((g / %lld %s %lld*%lld + (g %% %lld) / %lld)*%lld + g / %lld %s %lld*%lld + g %% %lld)", Q,
                  store ? "%" : "/", K, W, Q, W, n, Q, store ? "/" : "%", K, W, W);
}

static bw_code build_transpose(model_pattern *p, bw_buf *x, bw_error *err)
{
    bw_code rc = transpose_sizes(p, err);
    if (rc != BW_OK)
        return rc;
    if (p->params[0] == MODEL_TRANSPOSE_TILED || p->params[0] == MODEL_TRANSPOSE_PADDED)
        transpose_tiled_text(p, 0, x);
    else
        bw_buf_puts(x, "4*g");
    return BW_OK;
}

static bw_code build_transpose_store(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)err;
    long long n = (long long)p->params[1];
    if (p->params[0] == MODEL_TRANSPOSE_TILED || p->params[0] == MODEL_TRANSPOSE_PADDED)
        transpose_tiled_text(p, 1, x);
    else if (p->params[0] == MODEL_TRANSPOSE_NAIVE)
        bw_buf_printf(x, "4*((g %% %lld)*%lld + g / %lld)", n, n, n);
    else
        bw_buf_puts(x, "4*g");
    return BW_OK;
}

static void explain_transpose(const model_pattern_facts *f, bw_buf *out)
{
    char a[64];
    long long n = (long long)model_pattern_param_value(f->pattern, "n");
    switch ((model_transpose_version)model_pattern_param_value(f->pattern, "version")) {
    case MODEL_TRANSPOSE_NAIVE:
        bw_buf_printf(out, "a warp reads a row of the %lld x %lld matrix (%s) and writes a column, each lane's "
                           "store %lld bytes from the next: the stores are strided.",
                      n, n, model_pattern_sectors_words(a, sizeof a, f->sectors), n * 4);
        break;
    case MODEL_TRANSPOSE_TILED:
        bw_buf_printf(out, "a warp reads a row of a %d x %d local tile (%s) and writes a row of the result; the "
                           "tile's column read puts every lane %d words apart in local memory.",
                      f->lanes, f->lanes, model_pattern_sectors_words(a, sizeof a, f->sectors), f->lanes);
        break;
    case MODEL_TRANSPOSE_PADDED:
        bw_buf_printf(out, "the tiled transpose with the tile's rows %d words apart: the column read falls in "
                           "distinct banks (%s per warp in global memory).",
                      f->lanes + 1, model_pattern_sectors_words(a, sizeof a, f->sectors));
        break;
    default:
        bw_buf_printf(out, "a plain copy of the %lld x %lld matrix, out[i] = in[i]: %s per warp, the reference "
                           "of the transposes.",
                      n, n, model_pattern_sectors_words(a, sizeof a, f->sectors));
        break;
    }
}

/* record: n records of F fields of E bytes (float 4, uchar 1), one
 * work-item per record reading every field with F scalar loads (no vload3:
 * docs/model.md "The record family"). The expression is field 0's; field f
 * is the same expression plus load_base[f]: f*E in a record (aos), or f
 * planes of n*E bytes further (soa). The kernel stores one 4-byte word per
 * record (the fields folded) at dst[g]. */
static const char *const record_types[] = { "float", "uchar", NULL };
static const char *const record_layouts[] = { "aos", "soa", NULL };

static bw_code build_record(model_pattern *p, bw_buf *x, bw_error *err)
{
    long long F = (long long)p->params[0], n = (long long)p->params[3];
    long long E = p->params[1] == MODEL_RECORD_UCHAR ? 1 : 4;
    if (F > MODEL_PATTERN_MAX_LOADS)
        return bw_error_set(err, BW_E_RANGE, "pattern 'record': fields=%lld is more than %d", F,
                            MODEL_PATTERN_MAX_LOADS);
    p->elem = E; /* the type sets the element size */
    p->loads = (int)F;
    for (long long f = 0; f < F; f++)
        p->load_base[f] = p->params[2] == MODEL_RECORD_AOS ? f * E : f * n * E;
    if (p->params[2] == MODEL_RECORD_AOS)
        bw_buf_printf(x, "%lld*g", F * E);
    else
        bw_buf_printf(x, "%lld*g", E);
    return BW_OK;
}

static bw_code build_record_store(model_pattern *p, bw_buf *x, bw_error *err)
{
    (void)p;
    (void)err;
    bw_buf_puts(x, "4*g");
    return BW_OK;
}

static void explain_record(const model_pattern_facts *f, bw_buf *out)
{
    char a[64];
    long long F = (long long)model_pattern_param_value(f->pattern, "fields");
    int uchar = model_pattern_param_value(f->pattern, "type") == MODEL_RECORD_UCHAR;
    long long E = uchar ? 1 : 4;
    if (model_pattern_param_value(f->pattern, "layout") == MODEL_RECORD_AOS)
        bw_buf_printf(out, "each work-item reads the %lld %s fields of its %lld-byte record, one load per field: "
                           "each of the %lld loads spans the warp's %lld records (%s for field 0), so the "
                           "warp fetches their sectors %lld times over.",
                      F, uchar ? "uchar" : "float", F * E, F, (long long)f->lanes * F * E,
                      model_pattern_sectors_words(a, sizeof a, f->sectors), F);
    else
        bw_buf_printf(out, "the planar (struct-of-arrays) form: field f of every record in its own array, so "
                           "each of the %lld loads is coalesced (%s per warp).",
                      F, model_pattern_sectors_words(a, sizeof a, f->sectors));
}

/* ---- the catalogue ---- */

/* the fields every current family shares: global memory, the gather kernel */
#define GATHER .space = MODEL_PATTERN_SPACE_GLOBAL, .kernel = MODEL_PATTERN_KERNEL_GATHER

/* the built-in families, then room for those model_pattern_family_add
 * appends (the table is data: a family is one entry) */
static model_pattern_family families[MODEL_PATTERN_FAMILIES_MAX] = {
    { .name = "seq",
      .shows = "coalesced: consecutive lanes read consecutive elements, the ideal every other pattern is compared with",
      GATHER, .is_reference = 1, .build = build_seq, .explain = explain_seq },
    { .name = "offset",
      .shows = "misaligned base: a coalesced warp shifted off the sector boundary straddles one more sector",
      .nparams = 1, .params = { { "bytes", 4, 0, MAX_BYTES, "bytes added to every address" } },
      GATHER, .build = build_offset, .explain = explain_offset },
    { .name = "stride",
      .shows = "strided access: lanes s elements apart skip (s-1)/s of every sector they fetch",
      .nparams = 1, .params = { { "s", 2, 1, MAX_BYTES, "distance between neighbouring lanes, in elements" } },
      GATHER, .build = build_stride, .explain = explain_stride },
    { .name = "reverse",
      .shows = "lanes in reverse order inside each warp: the same sectors as seq",
      GATHER, .build = build_reverse, .explain = explain_reorder },
    { .name = "permute",
      .shows = "lanes permuted at random inside each warp: the same sectors as seq",
      .nparams = 1, .params = { { "seed", 1, 0, INT64_C(0xffffffff), "seed of the fixed pseudo-random permutation" } },
      GATHER, .build = build_permute, .explain = explain_reorder },
    { .name = "broadcast",
      .shows = "every lane of a warp reads one address: one sector serves the whole warp",
      GATHER, .build = build_broadcast, .explain = explain_broadcast },
    { .name = "one-lane",
      .shows = "one active lane per warp: a whole sector is fetched for a single element",
      GATHER, .build = build_one_lane, .explain = explain_one_lane },
    { .name = "aos",
      .shows = "array of structs: reading one field strides by the struct size (seq is the struct-of-arrays layout)",
      .nparams = 2,
      .params = { { "struct", 16, 1, MAX_BYTES, "bytes per struct" },
                  { "field", 0, 0, MAX_BYTES, "byte offset of the field read" } },
      GATHER, .build = build_aos, .explain = explain_aos },
    { .name = "matrix-row",
      .shows = "row-major n x n matrix walked along a row: coalesced",
      .nparams = 1, .params = { { "n", 4096, 1, 1 << 24, "matrix order" } },
      GATHER, .sizing = MODEL_PATTERN_SIZING_MATRIX, .build = build_matrix_row, .explain = explain_seq },
    { .name = "matrix-col",
      .shows = "row-major n x n matrix walked down a column: every lane in a different row, so a different sector",
      .nparams = 1, .params = { { "n", 4096, 1, 1 << 24, "matrix order" } },
      GATHER, .sizing = MODEL_PATTERN_SIZING_MATRIX, .build = build_matrix_col, .explain = explain_matrix_col },
    { .name = "mixed",
      .shows = "half the warp coalesced, half scattered s elements apart: the warp pays for its scattered half",
      .nparams = 1, .params = { { "s", 32, 1, 1 << 16, "distance between the scattered lanes, in elements" } },
      GATHER, .build = build_mixed, .explain = explain_mixed },
    { .name = "bank",
      .shows = "local-memory tile, rows pitch floats apart: pitch 32 puts a warp's column in one bank "
               "(32-way), pitch 33 pads it conflict-free",
      .nparams = 2,
      .params = { { "pitch", 32, 1, 256, "row pitch of the local tile, in floats" },
                  { "stride", 1, 1, 1024, "rows between neighbouring lanes (row t*stride mod W)" } },
      .space = MODEL_PATTERN_SPACE_LOCAL, .kernel = MODEL_PATTERN_KERNEL_BANK,
      .sizing = MODEL_PATTERN_SIZING_LOCAL_TILE, .elem_fixed = 4, .build = build_bank, .explain = explain_bank },
    { .name = "transpose",
      .shows = "n x n matrix transpose: naive (strided stores), tiled through a W x W local tile (W-way bank "
               "conflicts on its column read), padded (pitch W + 1, conflict-free), against a plain copy",
      .nparams = 2,
      .params = { { "version", MODEL_TRANSPOSE_NAIVE, MODEL_TRANSPOSE_NAIVE, MODEL_TRANSPOSE_COPY,
                    "naive, tiled, padded, or copy (the reference)", transpose_versions },
                  { "n", 1024, 1, 1 << 16, "matrix order, a multiple of W (bwlab run sizes it from the working "
                                           "set where not given)", NULL } },
      .space = MODEL_PATTERN_SPACE_GLOBAL, .kernel = MODEL_PATTERN_KERNEL_TRANSPOSE,
      .sizing = MODEL_PATTERN_SIZING_TRANSPOSE, .elem_fixed = 4, .build = build_transpose,
      .build_store = build_transpose_store, .explain = explain_transpose },
    { .name = "record",
      .shows = "whole records, every field read: an array of structs (aos, F loads F*E bytes apart) against "
               "its planar struct-of-arrays form (soa, F coalesced loads); 3 or 6 floats, RGB pixels of bytes",
      .nparams = 4,
      .params = { { "fields", 3, 1, MODEL_PATTERN_MAX_LOADS, "fields per record (3: RGB or xyz, 6: two of them)",
                    NULL },
                  { "type", MODEL_RECORD_FLOAT, MODEL_RECORD_FLOAT, MODEL_RECORD_UCHAR,
                    "field type: float (4 bytes) or uchar (1 byte); sets the element size", record_types },
                  { "layout", MODEL_RECORD_AOS, MODEL_RECORD_AOS, MODEL_RECORD_SOA,
                    "aos (array of structs) or soa (struct of arrays, the planar form)", record_layouts },
                  { "n", 1 << 20, 1, (int64_t)1 << 30, "records (bwlab run sizes it from the working set where "
                                                      "not given)", NULL } },
      .space = MODEL_PATTERN_SPACE_GLOBAL, .kernel = MODEL_PATTERN_KERNEL_RECORD,
      .sizing = MODEL_PATTERN_SIZING_RECORDS, .elem_fixed = -1, .build = build_record,
      .build_store = build_record_store, .explain = explain_record },
};

/* the entries in use: those with a name */
static size_t families_count(void)
{
    size_t n = 0;
    while (n < MODEL_PATTERN_FAMILIES_MAX && families[n].name)
        n++;
    return n;
}

const model_pattern_family *model_pattern_families(size_t *count)
{
    *count = families_count();
    return families;
}

const model_pattern_family *model_pattern_family_find(const char *name)
{
    for (size_t i = 0; i < families_count(); i++)
        if (strcmp(families[i].name, name) == 0)
            return &families[i];
    return NULL;
}

bw_code model_pattern_family_add(const model_pattern_family *f, bw_error *err)
{
    size_t n = families_count();
    if (!f->name || !*f->name || !f->kernel || !f->build || !f->explain)
        return bw_error_set(err, BW_E_USAGE, "a pattern family needs a name, a kernel family, a build and an "
                                             "explain function");
    if (model_pattern_family_find(f->name))
        return bw_error_set(err, BW_E_USAGE, "pattern family '%s' is in the catalogue already", f->name);
    if (n == MODEL_PATTERN_FAMILIES_MAX)
        return bw_error_set(err, BW_E_RANGE, "the catalogue holds at most %d families", MODEL_PATTERN_FAMILIES_MAX);
    families[n] = *f;
    return BW_OK;
}

static const model_pattern_param elem_param = { "elem", MODEL_PATTERN_DEFAULT_ELEM, 4, 16,
                                                "bytes per lane: 4, 8 or 16", NULL };

static bw_code unknown_pattern(const char *name, bw_error *err)
{
    bw_buf b = BW_BUF_INIT;
    for (size_t i = 0; i < families_count(); i++)
        bw_buf_printf(&b, "%s%s", i ? ", " : "", families[i].name);
    bw_code rc = bw_error_set(err, BW_E_USAGE, "unknown pattern '%s' (known: %s; see 'bwlab patterns')",
                              name, bw_buf_str(&b));
    bw_buf_free(&b);
    return rc;
}

static bw_code unknown_key(const model_pattern_family *f, const char *key, bw_error *err)
{
    bw_buf b = BW_BUF_INIT;
    for (int i = 0; i < f->nparams; i++)
        bw_buf_printf(&b, "%s, ", f->params[i].key);
    bw_buf_puts(&b, "elem");
    bw_code rc = bw_error_set(err, BW_E_USAGE, "pattern '%s' has no parameter '%s' (allowed: %s)",
                              f->name, key, bw_buf_str(&b));
    bw_buf_free(&b);
    return rc;
}

/* one rule with the list splitter: an empty item after the ':' is an
 * error, with its column in spec (copy is spec's copy, item inside it) */
static bw_code check_items(const char *spec, const char *copy, const char *item, bw_error *err)
{
    if (!*item)
        return bw_error_set(err, BW_E_USAGE, "pattern '%s': nothing after ':' (expected key=value)", spec);
    for (const char *c = item;; c++) {
        if (*c == ',' && (c == item || c[-1] == ',' || c[1] == '\0')) {
            size_t col = (size_t)(c - copy) + 1 + (c[1] == '\0' && c != item && c[-1] != ',');
            return bw_error_set(err, BW_E_USAGE, "pattern '%s': empty item at column %zu (expected key=value)",
                                spec, col);
        }
        if (!*c)
            return BW_OK;
    }
}

/* the value of one key=value item: a named value's index or a number,
 * within the parameter's range (and elem's three sizes) */
static bw_code param_value(const model_pattern_family *f, const model_pattern_param *def, const char *key,
                           const char *text, uint64_t *val, bw_error *err)
{
    char what[96];
    snprintf(what, sizeof what, "pattern '%s' parameter %s", f->name, key);
    if (def->names) {
        int64_t v = def->min;
        while (def->names[v] && strcmp(def->names[v], text) != 0)
            v++;
        if (!def->names[v]) {
            bw_buf allowed = BW_BUF_INIT;
            for (int64_t k = def->min; def->names[k]; k++)
                bw_buf_printf(&allowed, "%s%s", k > def->min ? ", " : "", def->names[k]);
            bw_code rc = bw_error_set(err, BW_E_USAGE, "%s=%s: allowed %s", what, text, bw_buf_str(&allowed));
            bw_buf_free(&allowed);
            return rc;
        }
        *val = (uint64_t)v;
    } else {
        bw_code rc = bw_parse_u64(text, what, val, err);
        if (rc != BW_OK)
            return rc;
    }
    if (def == &elem_param && *val != 4 && *val != 8 && *val != 16)
        return bw_error_set(err, BW_E_RANGE, "%s=%s: elem must be 4, 8 or 16", what, text);
    if ((int64_t)*val < def->min || *val > (uint64_t)def->max)
        return bw_error_set(err, BW_E_RANGE, "%s=%s is out of range (%s: %lld..%lld)", what, text, def->meaning,
                            (long long)def->min, (long long)def->max);
    return BW_OK;
}

/* the key=value items after the ':' (item, inside copy), into p; *seen
 * gets a bit per parameter given (MODEL_PATTERN_MAX_PARAMS: elem) */
static bw_code parse_params(model_pattern *p, const char *spec, const char *copy, char *item, unsigned *seen,
                            bw_error *err)
{
    const model_pattern_family *f = p->family;
    bw_code rc = check_items(spec, copy, item, err);
    char *save = NULL;
    for (char *kv = strtok_r(item, ",", &save); rc == BW_OK && kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv)
            return bw_error_set(err, BW_E_USAGE, "pattern '%s': '%s' is not key=value", spec, kv);
        *eq = '\0';
        const model_pattern_param *def = NULL;
        int idx = -1;
        for (int i = 0; i < f->nparams; i++)
            if (!strcmp(f->params[i].key, kv)) {
                def = &f->params[i];
                idx = i;
            }
        if (!def && !strcmp(kv, "elem")) {
            def = &elem_param;
            idx = MODEL_PATTERN_MAX_PARAMS;
        }
        if (!def)
            return unknown_key(f, kv, err);
        if (*seen & (1u << idx))
            return bw_error_set(err, BW_E_USAGE, "pattern '%s': parameter '%s' given twice", spec, kv);
        *seen |= 1u << idx;
        uint64_t val = 0;
        if ((rc = param_value(f, def, kv, eq + 1, &val, err)) != BW_OK)
            return rc;
        if (def == &elem_param) {
            p->elem = (int64_t)val;
        } else {
            p->params[idx] = (int64_t)val;
            p->given |= 1u << idx;
        }
    }
    return rc;
}

/* --elem beside the spec's own elem=: the override becomes the spec's
 * elem=, so it obeys the same rule and the printed spec re-parses */
static bw_code settle_elem(model_pattern *p, const char *spec, int64_t elem_override, unsigned seen, bw_error *err)
{
    if (elem_override > 0 && elem_override != 4 && elem_override != 8 && elem_override != 16)
        return bw_error_set(err, BW_E_RANGE,
                            "--elem %lld with pattern '%s': a pattern's elements are 4, 8 or 16 bytes "
                            "(use --expr for other sizes)",
                            (long long)elem_override, spec);
    if (elem_override > 0 && p->elem > 0 && p->elem != elem_override)
        return bw_error_set(err, BW_E_USAGE, "conflicting element sizes: --elem %lld but pattern '%s' says elem=%lld",
                            (long long)elem_override, spec, (long long)p->elem);
    if (p->elem == 0)
        p->elem = elem_override > 0 ? elem_override : MODEL_PATTERN_DEFAULT_ELEM;
    if (p->family->elem_fixed < 0 && (seen & (1u << MODEL_PATTERN_MAX_PARAMS)))
        return bw_error_set(err, BW_E_USAGE, "pattern '%s': elem is set by the family's parameters, not given", spec);
    return BW_OK;
}

/* the family's load (and store) expressions, built and parsed */
static bw_code build_exprs(model_pattern *p, const char *spec, int64_t elem_override, bw_error *err)
{
    const model_pattern_family *f = p->family;
    bw_buf x = BW_BUF_INIT;
    bw_code rc = f->build(p, &x, err);
    /* a family whose parameters set the element size (record: type) never
     * drops --elem silently */
    if (rc == BW_OK && f->elem_fixed < 0 && elem_override > 0 && p->elem != elem_override)
        rc = bw_error_set(err, BW_E_USAGE,
                          "--elem %lld with pattern '%s': its parameters set the element size (%lld bytes); "
                          "drop --elem",
                          (long long)elem_override, spec, (long long)p->elem);
    if (rc == BW_OK && (rc = model_expr_parse(bw_buf_str(&x), &p->expr, err)) != BW_OK)
        bw_error_prefix(err, "internal error in pattern '%s': ", spec);
    if (rc == BW_OK && f->build_store) {
        bw_buf_reset(&x);
        if ((rc = f->build_store(p, &x, err)) == BW_OK &&
            (rc = model_expr_parse(bw_buf_str(&x), &p->store, err)) != BW_OK)
            bw_error_prefix(err, "internal error in pattern '%s' (store): ", spec);
        if (rc == BW_OK && !(p->store_text = model_expr_to_string(p->store)))
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    bw_buf_free(&x);
    return rc;
}

/* the canonical spec: every parameter in the family's order, elem only
 * where it is not the default; NULL when out of memory */
static char *canonical_spec(const model_pattern *p)
{
    const model_pattern_family *f = p->family;
    bw_buf canon = BW_BUF_INIT;
    bw_buf_puts(&canon, f->name);
    for (int i = 0; i < f->nparams; i++) {
        if (f->params[i].names)
            bw_buf_printf(&canon, "%c%s=%s", i ? ',' : ':', f->params[i].key, f->params[i].names[p->params[i]]);
        else
            bw_buf_printf(&canon, "%c%s=%lld", i ? ',' : ':', f->params[i].key, (long long)p->params[i]);
    }
    if (p->elem != MODEL_PATTERN_DEFAULT_ELEM && f->elem_fixed >= 0)
        bw_buf_printf(&canon, "%celem=%lld", f->nparams ? ',' : ':', (long long)p->elem);
    return bw_buf_steal(&canon);
}

bw_code model_pattern_parse(const char *spec, int W, int64_t elem_override, model_pattern **out,
                            bw_error *err)
{
    *out = NULL;
    if (!spec || !*spec)
        return bw_error_set(err, BW_E_USAGE, "empty pattern name (see 'bwlab patterns')");
    if (W < 1 || W > MODEL_MAX_LANES)
        return bw_error_set(err, BW_E_USAGE, "lanes per warp %d is out of range (1..%d)", W,
                            MODEL_MAX_LANES);
    char *copy = strdup(spec);
    model_pattern *p = calloc(1, sizeof *p);
    bw_code rc = BW_OK;
    if (!copy || !p) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        goto fail;
    }
    char *colon = strchr(copy, ':');
    if (colon)
        *colon = '\0';
    p->family = model_pattern_family_find(copy);
    if (!p->family) {
        rc = unknown_pattern(copy, err);
        goto fail;
    }
    for (int i = 0; i < p->family->nparams; i++)
        p->params[i] = p->family->params[i].def;
    p->elem = 0;
    p->lanes = W;
    unsigned seen = 0;
    if (colon && (rc = parse_params(p, spec, copy, colon + 1, &seen, err)) != BW_OK)
        goto fail;
    if ((rc = settle_elem(p, spec, elem_override, seen, err)) != BW_OK)
        goto fail;
    p->active = model_lanes_all(p->lanes);
    p->loads = 1;
    if ((rc = build_exprs(p, spec, elem_override, err)) != BW_OK)
        goto fail;
    p->spec = canonical_spec(p);
    p->expr_text = model_expr_to_string(p->expr);
    if (!p->spec || !p->expr_text) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        goto fail;
    }
    free(copy);
    *out = p;
    return BW_OK;
fail:
    free(copy);
    model_pattern_free(p);
    return rc;
}

void model_pattern_free(model_pattern *p)
{
    if (!p)
        return;
    model_expr_free(p->expr);
    model_expr_free(p->store);
    free(p->store_text);
    free(p->spec);
    free(p->expr_text);
    free(p);
}

int64_t model_pattern_param_value(const model_pattern *p, const char *key)
{
    if (!strcmp(key, "elem"))
        return p->elem;
    for (int i = 0; i < p->family->nparams; i++)
        if (!strcmp(p->family->params[i].key, key))
            return p->params[i];
    return 0;
}

int model_pattern_given(const model_pattern *p, const char *key)
{
    if (!strcmp(key, "elem"))
        return 0;
    for (int i = 0; i < p->family->nparams; i++)
        if (!strcmp(p->family->params[i].key, key))
            return (p->given >> i) & 1u;
    return 0;
}

static bw_code push_spec(char ***specs, size_t *n, const char *s, size_t len, bw_error *err)
{
    char **v = realloc(*specs, (*n + 1) * sizeof *v);
    if (!v)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    *specs = v;
    v[*n] = malloc(len + 1);
    if (!v[*n])
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    memcpy(v[*n], s, len);
    v[*n][len] = '\0';
    (*n)++;
    return BW_OK;
}

bw_code model_pattern_split_list(const char *list, char ***specs, size_t *n, bw_error *err)
{
    bw_buf cur = BW_BUF_INIT;
    bw_code rc = BW_OK;
    const char *p = list;
    if (!*p)
        return bw_error_set(err, BW_E_USAGE, "--pattern: empty list");
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0) {
            rc = bw_error_set(err, BW_E_USAGE, "--pattern: empty item at column %zu of '%s'",
                              (size_t)(p - list) + 1, list);
            break;
        }
        int continues = memchr(p, '=', len) && !memchr(p, ':', len);
        if (continues) {
            if (cur.len == 0) {
                rc = bw_error_set(err, BW_E_USAGE, "--pattern: '%.*s' in '%s' follows no pattern name",
                                  (int)len, p, list);
                break;
            }
            bw_buf_putc(&cur, strchr(bw_buf_str(&cur), ':') ? ',' : ':');
            bw_buf_putn(&cur, p, len);
        } else {
            if (cur.len && (rc = push_spec(specs, n, cur.data, cur.len, err)) != BW_OK)
                break;
            bw_buf_reset(&cur);
            bw_buf_putn(&cur, p, len);
        }
        if (!end)
            break;
        p = end + 1;
    }
    if (rc == BW_OK && cur.len)
        rc = push_spec(specs, n, cur.data, cur.len, err);
    if (rc == BW_OK && bw_buf_failed(&cur))
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_buf_free(&cur);
    return rc;
}
