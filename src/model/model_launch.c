/* model_launch: the exact byte accounting of a launch's loads and stores:
 * requested, instruction-model and footprint bytes, by sectors and lines,
 * counted by runs of the affine analysis or a bitmap (model_launch.h). */
#include "model_launch.h"

#include <stdlib.h>
#include <string.h>

#include "model_affine.h"
#include "model_arith.h"
#include "model_partial.h"
#include "model_warp.h"
#include "model_access_priv.h"
#include "model_expr_priv.h"
#include "model_lanes_priv.h"
#include "model_partial_priv.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* A bitmap above this many bits, or a sorted list above this many entries,
 * is refused rather than allocated. */
#define MARK_BITMAP_MAX_BITS ((int64_t)1 << 30)
#define MARK_LIST_MAX ((int64_t)1 << 26)
/* Unit marks of pass 2 per unit of max_work (model_launch_count_bounded):
 * a mark is one bit operation, far cheaper than a lane evaluation. */
#define MARKS_PER_WORK 4

/* floor(a / u), by shift when u is a power of two */
typedef struct unit_div {
    int64_t u;
    int shift;
} unit_div;

static unit_div make_div(int64_t u)
{
    unit_div d = { u, -1 };
    if ((u & (u - 1)) == 0)
        d.shift = __builtin_ctzll((uint64_t)u);
    return d;
}

static inline int64_t udiv(unit_div d, int64_t a)
{
    if (d.shift >= 0)
        return a >= 0 ? a >> d.shift : ~(~a >> d.shift);
    return model_unit_of(a, d.u);
}

/* Footprint summary of one run of warps whose units can be counted in
 * closed form. */
typedef struct piece {
    int64_t fp_s, fp_l;
    int64_t first_s, last_s, first_l, last_l;
} piece;

/* Per-kind (loads or stores) state while walking the accesses. */
typedef struct kind_state {
    model_traffic *t;
    piece *pieces;
    size_t np, cap;
    int needs_marking;
    int any_units;
    int64_t min_s, max_s; /* sector range of everything touched */
    int64_t marks;                      /* upper bound of unit marks */
} kind_state;

typedef struct walk_ctx {
    const model_geometry *geo;
    const model_access *acc;
    kind_state *ks;
    unit_div ds, dl;
    /* marking: a sector bitmap from min_s, or a list of sector numbers */
    uint64_t *bits;
    int64_t *list;
    int64_t nlist;
    /* pass 1 work so far (lane-steps x expression nodes) against max_work;
     * max_work 0: unbounded */
    int64_t work, max_work, nodes;
    /* pass 2: the last simple run's sectors (each lane's first, its step,
     * the warps): a run that marks the same sectors again is skipped */
    int last_nl;
    int64_t last_n, last_sec[MODEL_MAX_LANES], last_step[MODEL_MAX_LANES];
} walk_ctx;

/* adds lane-steps to the work; fails once the bound is passed */
static bw_code add_work(walk_ctx *c, int64_t lane_steps, bw_error *err)
{
    if (!c->max_work)
        return BW_OK;
    if (lane_steps > (c->max_work - c->work) / c->nodes) {
        return bw_error_set(err, BW_E_TOOBIG,
                            "the addresses of this launch of %lld items change shape from warp to "
                            "warp: counting it exactly takes more than %lld node evaluations; use "
                            "fewer --items",
                            (long long)c->acc->items, (long long)c->max_work);
    }
    c->work += lane_steps * c->nodes;
    return BW_OK;
}

static bw_code walk_segments(walk_ctx *c, model_access_run_fn fn, bw_error *err)
{
    int64_t warps = (c->acc->items + c->geo->lanes - 1) / c->geo->lanes;
    return model_access_walk(c->geo, c->acc, 0, warps - 1, fn, c, err);
}

static void copy_units(const walk_ctx *c, const model_access_run *s, int64_t k, model_unit_counts *u)
{
    int64_t addr[MODEL_MAX_LANES];
    for (int i = 0; i < s->nl; i++)
        addr[i] = (int64_t)((i128)s->at[i] + (i128)s->slope[i] * k);
    model_warp_units(addr, s->nl, c->acc->elem_bytes, c->geo->sector, c->geo->line, u);
}

static bw_code add_piece(kind_state *ks, const piece *p)
{
    if (ks->np == ks->cap) {
        size_t ncap = ks->cap ? ks->cap * 2 : 64;
        piece *np = realloc(ks->pieces, ncap * sizeof *np);
        if (!np)
            return BW_E_NOMEM;
        ks->pieces = np;
        ks->cap = ncap;
    }
    ks->pieces[ks->np++] = *p;
    return BW_OK;
}

/* pass 1: instruction-model sums by periods, and closed-form footprints */
/* Byte-disjoint copies of warp w_lo (u0) shifted by k*D, in address
 * order, share at most the unit where one ends and the next begins: the
 * sectors and lines so shared among n copies, whose pattern repeats with
 * period P. */
static void shared_units(const walk_ctx *c, const model_unit_counts *u0, int64_t n, int64_t D, int64_t P,
                         int64_t *shared_s, int64_t *shared_l)
{
    int64_t pmax = P < n - 1 ? P : n - 1;
    for (int64_t k = 0; k < pmax; k++) {
        int64_t weight = (n - 2 - k) / P + 1;
        /* last byte of the lower copy, first byte of the upper one */
        int64_t lower = D > 0 ? k : k + 1, upper = D > 0 ? k + 1 : k;
        int64_t end_b = (int64_t)((i128)u0->max_byte + (i128)lower * D);
        int64_t start_b = (int64_t)((i128)u0->min_addr + (i128)upper * D);
        *shared_s += (udiv(c->ds, end_b) == udiv(c->ds, start_b)) * weight;
        *shared_l += (udiv(c->dl, end_b) == udiv(c->dl, start_b)) * weight;
    }
}

static bw_code count_segment(void *ctx, const model_access_run *s, bw_error *err)
{
    walk_ctx *c = ctx;
    kind_state *ks = c->ks;
    model_traffic *t = ks->t;
    int64_t E = c->acc->elem_bytes, S = c->geo->sector, L = c->geo->line;
    int64_t n = s->n;
    bw_code rc = add_work(c, s->nl, err);
    if (rc != BW_OK)
        return rc;
    t->instructions += n;
    t->requested_bytes += E * s->nl * n;

    int64_t lo_b = INT64_MAX, hi_b = INT64_MIN; /* bytes touched by the whole run */
    int common = 1;
    for (int i = 0; i < s->nl; i++) {
        int64_t a0 = s->at[i], a1 = (int64_t)((i128)s->at[i] + (i128)s->slope[i] * (n - 1));
        int64_t mn = a0 < a1 ? a0 : a1, mx = (a0 < a1 ? a1 : a0) + (E - 1);
        lo_b = mn < lo_b ? mn : lo_b;
        hi_b = mx > hi_b ? mx : hi_b;
        common = common && s->slope[i] == s->slope[0];
    }
    int64_t s_lo = udiv(c->ds, lo_b), s_hi = udiv(c->ds, hi_b);
    int64_t l_lo = udiv(c->dl, lo_b), l_hi = udiv(c->dl, hi_b);
    if (!ks->any_units || s_lo < ks->min_s)
        ks->min_s = s_lo;
    if (!ks->any_units || s_hi > ks->max_s)
        ks->max_s = s_hi;
    ks->any_units = 1;
    int64_t per_lane = E / S + 2;
    ks->marks += n * s->nl * per_lane;

    model_unit_counts u0;
    copy_units(c, s, 0, &u0);
    if (!common) {
        /* lanes move at different speeds: every warp has its own shape */
        if ((rc = add_work(c, n * s->nl, err)) != BW_OK) /* n < 2^35 warps: no overflow */
            return rc;
        for (int64_t k = 0; k < n; k++) {
            model_unit_counts u;
            copy_units(c, s, k, &u);
            t->instr_sectors += u.sectors;
            t->instr_lines += u.lines;
        }
        if (n > 1) {
            ks->needs_marking = 1;
            return BW_OK;
        }
        piece p = { u0.sectors, u0.lines, s_lo, s_hi, l_lo, l_hi };
        return add_piece(ks, &p) == BW_OK ? BW_OK : bw_error_set(err, BW_E_NOMEM, "out of memory");
    }

    /* every warp is warp w_lo shifted by k*D bytes: its unit counts depend on
     * k*D mod L only, so they repeat with period P */
    int64_t D = s->slope[0];
    int64_t Dm = ((D % L) + L) % L;
    int64_t P = L / model_gcd(Dm, L);
    int64_t kmax = P < n ? P : n;
    if ((rc = add_work(c, kmax * s->nl, err)) != BW_OK) /* kmax <= L: no overflow */
        return rc;
    int64_t sum_s = 0, sum_l = 0;
    for (int64_t k = 0; k < kmax; k++) {
        model_unit_counts u;
        if (k == 0)
            u = u0;
        else
            copy_units(c, s, k, &u);
        int64_t weight = (n - 1 - k) / P + 1;
        sum_s += u.sectors * weight;
        sum_l += u.lines * weight;
    }
    t->instr_sectors += sum_s;
    t->instr_lines += sum_l;

    piece p = { u0.sectors, u0.lines, s_lo, s_hi, l_lo, l_hi };
    if (n > 1 && D != 0) {
        /* 128-bit: a warp may span nearly the whole 64-bit range */
        i128 span = (i128)u0.max_byte - u0.min_addr + 1;
        i128 absD = D < 0 ? -(i128)D : (i128)D;
        if (absD < span) {
            ks->needs_marking = 1; /* neighbouring warps overlap in bytes */
            return BW_OK;
        }
        int64_t shared_s = 0, shared_l = 0;
        shared_units(c, &u0, n, D, P, &shared_s, &shared_l);
        p.fp_s = sum_s - shared_s;
        p.fp_l = sum_l - shared_l;
    }
    if (add_piece(ks, &p) != BW_OK)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    return BW_OK;
}

static int cmp_first_s(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    return (x->first_s > y->first_s) - (x->first_s < y->first_s);
}

static int cmp_first_l(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    return (x->first_l > y->first_l) - (x->first_l < y->first_l);
}

/* Pieces whose unit ranges follow one another (sharing at most an end
 * unit) add up; returns 0 when they overlap and marking is needed. */
static int chain(piece *p, size_t np, int lines, int64_t *total)
{
    qsort(p, np, sizeof *p, lines ? cmp_first_l : cmp_first_s);
    int64_t sum = 0;
    for (size_t i = 0; i < np; i++) {
        sum += lines ? p[i].fp_l : p[i].fp_s;
        if (i == 0)
            continue;
        int64_t prev_last = lines ? p[i - 1].last_l : p[i - 1].last_s;
        int64_t first = lines ? p[i].first_l : p[i].first_s;
        if (prev_last > first)
            return 0;
        sum -= prev_last == first;
    }
    *total = sum;
    return 1;
}

static inline void set_bit(uint64_t *bits, int64_t i)
{
    bits[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* pass 2: mark every sector of every active lane (lines follow from the
 * sectors, since a line is a whole number of sectors) */
static bw_code mark_segment(void *ctx, const model_access_run *s, bw_error *err)
{
    walk_ctx *c = ctx;
    kind_state *ks = c->ks;
    int64_t E = c->acc->elem_bytes, S = c->geo->sector;
    int64_t cur[MODEL_MAX_LANES], step[MODEL_MAX_LANES];
    int simple = c->bits != NULL;
    for (int i = 0; i < s->nl; i++) {
        int64_t a = s->at[i], sec = udiv(c->ds, a);
        /* the common case: each lane in one sector per warp, a whole number
         * of sectors further each warp; then marking is one bit operation */
        simple = simple && s->slope[i] % S == 0 && a - sec * S + E <= S;
        cur[i] = a;
        step[i] = s->slope[i];
    }
    if (simple) {
        int same = s->nl == c->last_nl && s->n == c->last_n;
        for (int i = 0; i < s->nl; i++) {
            cur[i] = udiv(c->ds, cur[i]) - ks->min_s;
            step[i] /= S;
            same = same && cur[i] == c->last_sec[i] && step[i] == c->last_step[i];
        }
        /* neighbouring columns of a matrix share their sectors (16 of
         * 4-byte elements in 64 bytes): the same bits again change nothing */
        if (same)
            return BW_OK;
        c->last_nl = s->nl;
        c->last_n = s->n;
        memcpy(c->last_sec, cur, (size_t)s->nl * sizeof *cur);
        memcpy(c->last_step, step, (size_t)s->nl * sizeof *step);
        /* warp by warp: neighbouring lanes mark neighbouring bits */
        for (int64_t k = 0; k < s->n; k++)
            for (int i = 0; i < s->nl; i++) {
                set_bit(c->bits, cur[i]);
                cur[i] += step[i];
            }
        return BW_OK;
    }
    for (int64_t k = 0; k < s->n; k++) {
        for (int i = 0; i < s->nl; i++) {
            int64_t a = cur[i];
            /* stepping (not multiplying) keeps every value in range */
            if (k + 1 < s->n)
                cur[i] += step[i];
            int64_t s0 = udiv(c->ds, a), s1 = udiv(c->ds, a + (E - 1));
            for (int64_t u = s0; u <= s1; u++) {
                if (c->bits)
                    set_bit(c->bits, u - ks->min_s);
                else
                    c->list[c->nlist++] = u;
            }
        }
    }
    (void)err;
    return BW_OK;
}

/* distinct sectors and distinct lines (sector / r) among the set bits */
static void count_bitmap(const uint64_t *bits, int64_t nbits, int64_t min_s, int64_t r,
                         int64_t *sectors, int64_t *lines)
{
    int64_t ns = 0, nl = 0, last = 0;
    for (int64_t w = 0; w < (nbits + 63) / 64; w++) {
        uint64_t x = bits[w];
        ns += __builtin_popcountll(x);
        while (x) {
            int64_t sec = min_s + w * 64 + __builtin_ctzll(x);
            int64_t line = model_unit_of(sec, r);
            if (nl == 0 || line != last) {
                nl++;
                last = line;
            }
            x &= x - 1;
        }
    }
    *sectors = ns;
    *lines = nl;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void count_list(int64_t *v, int64_t n, int64_t r, int64_t *sectors, int64_t *lines)
{
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int64_t ns = 0, nl = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i > 0 && v[i] == v[i - 1])
            continue;
        ns++;
        if (nl == 0 || model_unit_of(v[i], r) != model_unit_of(v[i - 1], r))
            nl++;
    }
    *sectors = ns;
    *lines = nl;
}

static bw_code mark_kind(const model_geometry *geo, const model_access *acc, size_t n, int store,
                         kind_state *ks, int64_t max_work, bw_error *err)
{
    walk_ctx c = { .geo = geo, .ks = ks, .ds = make_div(geo->sector), .dl = make_div(geo->line) };
    i128 range = (i128)ks->max_s - ks->min_s + 1; /* can exceed int64 */
    int64_t range_s = range > MARK_BITMAP_MAX_BITS ? INT64_MAX : (int64_t)range;
    int64_t r = geo->line / geo->sector;
    bw_code rc = BW_OK;
    int64_t max_marks = max_work > INT64_MAX / MARKS_PER_WORK ? INT64_MAX : max_work * MARKS_PER_WORK;
    if (max_work && ks->marks > max_marks) {
        rc = bw_error_set(err, BW_E_TOOBIG,
                          "the footprint of this irregular launch needs about %lld sector marks "
                          "to count exactly, more than %lld (use fewer --items)",
                          (long long)ks->marks, (long long)max_marks);
    } else if (range_s > 0 && range_s <= MARK_BITMAP_MAX_BITS) {
        c.bits = calloc((size_t)(range_s + 63) / 64, sizeof(uint64_t));
        if (!c.bits)
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory counting the launch footprint");
    } else if (ks->marks <= MARK_LIST_MAX) {
        c.list = malloc((size_t)ks->marks * sizeof(int64_t));
        if (!c.list)
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory counting the launch footprint");
    } else {
        rc = bw_error_set(err, BW_E_TOOBIG,
                          "the footprint of this irregular launch spans %s%lld sectors: too many "
                          "to count exactly (use fewer --items)",
                          range_s == INT64_MAX ? "more than " : "",
                          (long long)(range_s == INT64_MAX ? MARK_BITMAP_MAX_BITS : range_s));
    }
    for (size_t i = 0; i < n && rc == BW_OK; i++) {
        if ((acc[i].is_store != 0) != store)
            continue;
        c.acc = &acc[i];
        rc = walk_segments(&c, mark_segment, err);
    }
    if (rc == BW_OK && c.bits)
        count_bitmap(c.bits, range_s, ks->min_s, r, &ks->t->footprint_sectors, &ks->t->footprint_lines);
    else if (rc == BW_OK)
        count_list(c.list, c.nlist, r, &ks->t->footprint_sectors, &ks->t->footprint_lines);
    free(c.bits);
    free(c.list);
    return rc;
}

/* Evaluates the active lanes of the first and the last warp: an address
 * that overflows at the end of a huge launch (g*g) is reported at once,
 * not after walking every warp up to it. */
static bw_code check_ends(const model_geometry *geo, const model_access *a, bw_error *err)
{
    int W = geo->lanes;
    int64_t last_w = (a->items - 1) / W, last_g = a->items - 1;
    int lanes[MODEL_MAX_LANES];
    int nl = model_lanes_list(&a->active, lanes);
    for (int pass = 0; pass < 2; pass++) {
        int64_t w = pass ? last_w : 0;
        for (int i = 0; i < nl; i++) {
            int64_t g = w * W + lanes[i], v;
            if (g > last_g)
                break;
            model_expr_env env = { lanes[i], w, g, W };
            bw_code rc = model_expr_eval(a->expr, &env, &v, err);
            if (rc != BW_OK)
                return rc;
        }
    }
    return BW_OK;
}

bw_code model_launch_count(const model_geometry *geo, const model_access *acc, size_t n,
                           model_launch *out, bw_error *err)
{
    return model_launch_count_bounded(geo, acc, n, 0, out, err);
}

static bw_code count_launch(const model_geometry *geo, const model_access *acc, size_t n, int64_t max_work,
                            model_launch *out, bw_error *err);

bw_code model_launch_count_bounded(const model_geometry *geo, const model_access *acc, size_t n,
                                   int64_t max_work, model_launch *out, bw_error *err)
{
    bw_code rc = count_launch(geo, acc, n, max_work, out, err);
    if (rc != BW_OK || geo->dram_unit <= 0)
        return rc;
    /* the DRAM unit: the same count with D as the sector (and the line) */
    model_geometry d = *geo;
    d.sector = d.line = geo->dram_unit;
    d.dram_unit = 0;
    model_launch m;
    if ((rc = count_launch(&d, acc, n, max_work, &m, err)) != BW_OK) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    model_traffic *t[2] = { &out->loads, &out->stores }, *u[2] = { &m.loads, &m.stores };
    for (int k = 0; k < 2; k++) {
        t[k]->dram_unit_bytes = geo->dram_unit;
        t[k]->instr_dram_units = u[k]->instr_sectors;
        t[k]->footprint_dram_units = u[k]->footprint_sectors;
    }
    return BW_OK;
}

static bw_code count_launch(const model_geometry *geo, const model_access *acc, size_t n, int64_t max_work,
                            model_launch *out, bw_error *err)
{
    memset(out, 0, sizeof *out);
    bw_code rc = model_geometry_check(geo, err);
    for (size_t i = 0; i < n && rc == BW_OK; i++)
        rc = model_access_check(geo, &acc[i], err);
    for (size_t i = 0; i < n && rc == BW_OK; i++)
        rc = check_ends(geo, &acc[i], err);
    if (rc != BW_OK)
        return rc;
    kind_state kinds[2];
    memset(kinds, 0, sizeof kinds);
    kinds[0].t = &out->loads;
    kinds[1].t = &out->stores;
    for (int k = 0; k < 2 && rc == BW_OK; k++) {
        kind_state *ks = &kinds[k];
        ks->t->sector_bytes = geo->sector;
        ks->t->line_bytes = geo->line;
        walk_ctx c = { .geo = geo, .ks = ks, .ds = make_div(geo->sector), .dl = make_div(geo->line),
                       .max_work = max_work < 0 ? 0 : max_work };
        for (size_t i = 0; i < n && rc == BW_OK; i++) {
            if ((acc[i].is_store != 0) != k)
                continue;
            c.acc = &acc[i];
            int count = 0;
            model_expr_nodes(acc[i].expr, &count, NULL);
            c.nodes = count > 0 ? count : 1;
            rc = walk_segments(&c, count_segment, err);
        }
        if (rc != BW_OK || !ks->any_units)
            continue;
        int chained = !ks->needs_marking &&
                      chain(ks->pieces, ks->np, 0, &ks->t->footprint_sectors) &&
                      chain(ks->pieces, ks->np, 1, &ks->t->footprint_lines);
        if (!chained)
            rc = mark_kind(geo, acc, n, k, ks, max_work < 0 ? 0 : max_work, err);
        if (rc == BW_OK && k == 1)
            rc = model_partial_sectors(geo, acc, n, max_work < 0 ? 0 : max_work, ks->t->footprint_sectors,
                                       &ks->t->partial_sectors, &ks->t->written_bytes, NULL, 0, err);
    }
    free(kinds[0].pieces);
    free(kinds[1].pieces);
    if (rc != BW_OK)
        memset(out, 0, sizeof *out);
    return rc;
}

double model_traffic_predicted_efficiency(const model_traffic *t)
{
    if (t->instr_sectors <= 0)
        return 0.0;
    return (double)t->requested_bytes / ((double)t->instr_sectors * (double)t->sector_bytes);
}
