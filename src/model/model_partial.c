/* model_partial: the store footprint's partial sectors over a launch, in
 * closed form where runs of warps shift by a common slope, else by a
 * bitmap of written bytes; and those of a single warp (model_partial.h). */
#include "model_partial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_arith.h"
#include "model_access_priv.h"
#include "model_partial_priv.h"

__extension__ typedef __int128 i128;

/* bytes [a, b) */
typedef struct iv {
    i128 a, b;
} iv;

/* A run of warps in closed form: its bytes are maximal intervals, of
 * which the first and the last may merge with a neighbouring run's;
 * inner_full counts the whole sectors inside all the others. */
typedef struct piece {
    iv first, last;
    int single; /* first and last are one interval */
    int64_t inner_full;
    i128 bytes; /* written, each once */
} piece;

typedef struct pctx {
    const model_geometry *geo;
    const model_access *acc;
    piece *pieces;
    size_t np, cap;
    int irregular;       /* some run cannot be put in closed form */
    i128 lo, hi;         /* bytes touched: [lo, hi) */
    int any;
    i128 marks;          /* bits the bitmap would set */
    i128 bytes;          /* closed form: bytes written by the pieces, each once */
    /* marking */
    uint64_t *bits;
    i128 base;           /* byte of bit 0 */
} pctx;

static i128 floor_div(i128 a, int64_t s)
{
    i128 q = a / s;
    return (a % s != 0 && a < 0) ? q - 1 : q;
}

/* whole sectors inside [a, b) */
static int64_t full_in(i128 a, i128 b, int64_t S)
{
    i128 lo = -floor_div(-a, S), hi = floor_div(b, S);
    return hi > lo ? (int64_t)(hi - lo) : 0;
}

/* sum over k = 0..n-1 of the whole sectors inside I + k*D: each term
 * depends on k*D mod S only, so the sum goes by periods */
static int64_t full_periodic(iv I, int64_t D, int64_t n, int64_t S)
{
    if (n <= 0)
        return 0;
    int64_t Dm = ((D % S) + S) % S;
    int64_t P = S / model_gcd(Dm, S);
    int64_t kmax = P < n ? P : n, sum = 0;
    for (int64_t k = 0; k < kmax; k++)
        sum += full_in(I.a + (i128)k * D, I.b + (i128)k * D, S) * ((n - 1 - k) / P + 1);
    return sum;
}

static int cmp_iv(const void *x, const void *y)
{
    const iv *a = x, *b = y;
    return (a->a > b->a) - (a->a < b->a);
}

/* the lanes' bytes in warp k of the run, as sorted maximal intervals; returns how many */
static int warp_intervals(const model_access_run *s, int64_t k, int64_t E, iv *out)
{
    for (int i = 0; i < s->nl; i++) {
        out[i].a = (i128)s->at[i] + (i128)s->slope[i] * k;
        out[i].b = out[i].a + E;
    }
    qsort(out, (size_t)s->nl, sizeof *out, cmp_iv);
    int m = 0;
    for (int i = 0; i < s->nl; i++) {
        if (m && out[i].a <= out[m - 1].b) {
            if (out[i].b > out[m - 1].b)
                out[m - 1].b = out[i].b;
        } else {
            out[m++] = out[i];
        }
    }
    return m;
}

static bw_code add_piece(pctx *c, const piece *p, bw_error *err)
{
    if (c->np == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 64;
        piece *np = realloc(c->pieces, ncap * sizeof *np);
        if (!np)
            return bw_error_set(err, BW_E_NOMEM, "out of memory counting partial sectors");
        c->pieces = np;
        c->cap = ncap;
    }
    c->pieces[c->np++] = *p;
    return BW_OK;
}

/* The run's piece: warp 0's intervals X (m of them, span bytes) shifted by
 * D >= 0 for n copies (D < 0 is the same copies in reverse order). Copies
 * with a gap between them keep their intervals; copies that abut merge
 * the last interval of one with the first of the next; copies that
 * overlap are irregular. */
static bw_code closed_form(pctx *c, const model_access_run *s, iv *X, int m, bw_error *err)
{
    int64_t S = c->geo->sector, n = s->n, D = s->slope[0];
    if (D == 0)
        n = 1; /* every warp writes the same bytes */
    if (D < 0) {
        for (int j = 0; j < m; j++) {
            X[j].a += (i128)D * (n - 1);
            X[j].b += (i128)D * (n - 1);
        }
        D = -D;
    }
    i128 span = X[m - 1].b - X[0].a;
    if (n > 1 && D < span) {
        c->irregular = 1;
        return BW_OK;
    }
    piece p = { X[0], X[m - 1], 0, 0, 0 };
    for (int j = 0; j < m; j++)
        p.bytes += (X[j].b - X[j].a) * n; /* copies that abut or have gaps share no byte */
    i128 shift = (i128)D * (n - 1);
    p.last.a += shift;
    p.last.b += shift;
    if (n == 1 || D > span) {
        int64_t total = 0;
        for (int j = 0; j < m; j++)
            total += full_periodic(X[j], D, n, S);
        p.single = n == 1 && m == 1;
        p.inner_full = total - full_in(p.first.a, p.first.b, S) -
                       (p.single ? 0 : full_in(p.last.a, p.last.b, S));
    } else if (m == 1) {
        /* abutting copies of one interval: one interval */
        p.single = 1;
        p.first.b = p.last.b;
        p.last = p.first;
    } else {
        int64_t inner = 0;
        for (int j = 1; j < m - 1; j++)
            inner += full_periodic(X[j], D, n, S);
        iv J = { X[m - 1].a, X[0].b + D }; /* copy k's last interval and copy k+1's first */
        p.inner_full = inner + full_periodic(J, D, n - 1, S);
    }
    return add_piece(c, &p, err);
}

static bw_code collect(void *ctx, const model_access_run *s, bw_error *err)
{
    pctx *c = ctx;
    if (s->nl == 0 || s->n == 0)
        return BW_OK;
    int64_t E = c->acc->elem_bytes;
    int common = 1;
    for (int i = 0; i < s->nl; i++) {
        i128 a0 = s->at[i], a1 = (i128)s->at[i] + (i128)s->slope[i] * (s->n - 1);
        i128 lo = a0 < a1 ? a0 : a1, hi = (a0 < a1 ? a1 : a0) + E;
        if (!c->any || lo < c->lo)
            c->lo = lo;
        if (!c->any || hi > c->hi)
            c->hi = hi;
        c->any = 1;
        common = common && s->slope[i] == s->slope[0];
    }
    c->marks += (i128)s->n * s->nl * E;
    if (c->irregular)
        return BW_OK;
    if (!common && s->n > 1) {
        c->irregular = 1;
        return BW_OK;
    }
    iv X[MODEL_MAX_LANES];
    int m = warp_intervals(s, 0, E, X);
    return closed_form(c, s, X, m, err);
}

static int cmp_piece(const void *x, const void *y)
{
    const piece *a = x, *b = y;
    return (a->first.a > b->first.a) - (a->first.a < b->first.a);
}

/* Whole sectors inside the pieces' union, intervals that abut across
 * pieces merged, and the bytes written; 0 when two pieces overlap in bytes
 * (irregular). */
static int chain_full(piece *p, size_t np, int64_t S, int64_t *full, i128 *written)
{
    i128 bytes = 0;
    qsort(p, np, sizeof *p, cmp_piece);
    int64_t sum = 0;
    iv cur = p[0].first;
    for (size_t i = 0; i < np; i++) {
        bytes += p[i].bytes;
        if (i > 0) {
            if (p[i].first.a < cur.b)
                return 0;
            if (p[i].first.a == cur.b) {
                cur.b = p[i].first.b;
            } else {
                sum += full_in(cur.a, cur.b, S);
                cur = p[i].first;
            }
        }
        if (!p[i].single) {
            sum += full_in(cur.a, cur.b, S) + p[i].inner_full;
            cur = p[i].last;
        }
    }
    *full = sum + full_in(cur.a, cur.b, S);
    *written = bytes;
    return 1;
}

static bw_code mark(void *ctx, const model_access_run *s, bw_error *err)
{
    pctx *c = ctx;
    int64_t E = c->acc->elem_bytes;
    for (int64_t k = 0; k < s->n; k++)
        for (int i = 0; i < s->nl; i++) {
            int64_t from = (int64_t)((i128)s->at[i] + (i128)s->slope[i] * k - c->base);
            for (int64_t b = from; b < from + E; b++)
                c->bits[b >> 6] |= (uint64_t)1 << (b & 63);
        }
    return BW_OK;
}

static int64_t bits_set(const uint64_t *bits, int64_t from, int64_t len)
{
    int64_t n = 0;
    for (int64_t b = from; b < from + len;) {
        if ((b & 63) == 0 && from + len - b >= 64) {
            n += __builtin_popcountll(bits[b >> 6]);
            b += 64;
        } else {
            n += (bits[b >> 6] >> (b & 63)) & 1u;
            b++;
        }
    }
    return n;
}

static bw_code walk_stores(pctx *c, const model_access *acc, size_t n, model_access_run_fn fn, bw_error *err)
{
    bw_code rc = BW_OK;
    for (size_t i = 0; i < n && rc == BW_OK; i++) {
        if (!acc[i].is_store)
            continue;
        c->acc = &acc[i];
        int64_t warps = (acc[i].items + c->geo->lanes - 1) / c->geo->lanes;
        rc = model_access_walk(c->geo, &acc[i], 0, warps - 1, fn, c, err);
    }
    return rc;
}

/* every written byte marked, then the sectors counted that have some but
 * not all of their bytes set; -1 when the bitmap would be too large */
static bw_code count_marked(pctx *c, const model_access *acc, size_t n, int64_t max_work, int64_t *partial,
                            int64_t *written, char *why, size_t nwhy, bw_error *err)
{
    int64_t S = c->geo->sector;
    i128 first_s = floor_div(c->lo, S), last_s = floor_div(c->hi - 1, S);
    i128 range = (last_s - first_s + 1) * S;
    if (range > MODEL_PARTIAL_MAX_BITS || (max_work > 0 && c->marks > (i128)max_work * 4)) {
        snprintf(why, nwhy,
                 "not counted: the stores are irregular and cover %s%lld bytes, more than this count marks "
                 "byte by byte",
                 range > MODEL_PARTIAL_MAX_BITS ? "more than " : "",
                 (long long)(range > MODEL_PARTIAL_MAX_BITS ? MODEL_PARTIAL_MAX_BITS : range));
        *partial = -1;
        *written = -1;
        return BW_OK;
    }
    c->base = first_s * S;
    c->bits = calloc((size_t)(range + 63) / 64, sizeof *c->bits);
    if (!c->bits)
        return bw_error_set(err, BW_E_NOMEM, "out of memory counting partial sectors");
    bw_code rc = walk_stores(c, acc, n, mark, err);
    int64_t count = 0, bytes = 0;
    for (int64_t off = 0; rc == BW_OK && off < (int64_t)range; off += S) {
        int64_t set = bits_set(c->bits, off, S);
        count += set > 0 && set < S;
        bytes += set;
    }
    free(c->bits);
    c->bits = NULL;
    if (rc == BW_OK) {
        *partial = count;
        *written = bytes;
    }
    return rc;
}

bw_code model_partial_sectors(const model_geometry *geo, const model_access *acc, size_t n, int64_t max_work,
                              int64_t footprint_sectors, int64_t *partial, int64_t *written, char *why,
                              size_t nwhy, bw_error *err)
{
    pctx c;
    memset(&c, 0, sizeof c);
    c.geo = geo;
    *partial = 0;
    *written = 0;
    if (why && nwhy)
        why[0] = '\0';
    bw_code rc = walk_stores(&c, acc, n, collect, err);
    int64_t full = 0;
    i128 bytes = 0;
    if (rc == BW_OK && c.any) {
        if (!c.irregular && c.np && chain_full(c.pieces, c.np, geo->sector, &full, &bytes)) {
            *partial = footprint_sectors - full;
            *written = bytes > INT64_MAX ? -1 : (int64_t)bytes;
        } else {
            rc = count_marked(&c, acc, n, max_work, partial, written, why, nwhy, err);
        }
    }
    free(c.pieces);
    return rc;
}

int64_t model_partial_warp(const int64_t *addr, const model_lanes *active, int64_t elem, int64_t sector)
{
    iv X[MODEL_MAX_LANES];
    int m = 0;
    for (int t = 0; t < active->width; t++)
        if (model_lanes_has(active, t)) {
            X[m].a = addr[t];
            X[m].b = (i128)addr[t] + elem;
            m++;
        }
    qsort(X, (size_t)m, sizeof *X, cmp_iv);
    /* merged intervals in address order: a sector is whole when one
     * interval covers it, and touched when any does */
    int64_t touched = 0, full = 0;
    i128 last_s = 0;
    int any = 0;
    for (int i = 0; i < m;) {
        iv cur = X[i++];
        while (i < m && X[i].a <= cur.b) {
            if (X[i].b > cur.b)
                cur.b = X[i].b;
            i++;
        }
        i128 s0 = floor_div(cur.a, sector), s1 = floor_div(cur.b - 1, sector);
        touched += (int64_t)(s1 - s0 + 1) - (any && s0 == last_s);
        full += full_in(cur.a, cur.b, sector);
        last_s = s1;
        any = 1;
    }
    return touched - full;
}
