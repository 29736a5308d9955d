/* bench_pair: per-round ratios of a pattern to its reference, and of a
 * reference's own slot to its control slot (bench_pair.h). */
#include "bench_pair.h"

#include <math.h>
#include <stdlib.h>

#include "bench_stats.h"
#include "bw_stats.h"

static int counts(const bench_pair_series *s, size_t j)
{
    return !s->slot || s->want < 0 || s->slot[j] == (unsigned char)s->want;
}

static size_t rounds_of(const bench_pair_series *s)
{
    size_t nr = 0;
    for (size_t j = 0; j < s->n; j++)
        if (counts(s, j) && s->round[j] + 1 > nr)
            nr = s->round[j] + 1;
    return nr;
}

static size_t position(const bench_pair_series *s, size_t j)
{
    return s->pos ? s->pos[j] : j;
}

/* The launches of s that count, in rounds [0, nr), grouped by round in
 * launch order: idx[first[k] .. first[k + 1]) are round k's (a counting
 * sort). first has nr + 1 entries, idx s->n. */
static void by_round(const bench_pair_series *s, size_t nr, size_t *first, size_t *idx)
{
    for (size_t k = 0; k <= nr; k++)
        first[k] = 0;
    for (size_t j = 0; j < s->n; j++)
        if (counts(s, j) && s->round[j] < nr)
            first[s->round[j] + 1]++;
    for (size_t k = 0; k < nr; k++)
        first[k + 1] += first[k];
    size_t *fill = first + nr + 1; /* nr scratch entries after first's own */
    for (size_t k = 0; k < nr; k++)
        fill[k] = first[k];
    for (size_t j = 0; j < s->n; j++)
        if (counts(s, j) && s->round[j] < nr)
            idx[fill[s->round[j]]++] = j;
}

bench_pair_ci bench_pair_ratio(const bench_pair_series *num, const bench_pair_series *den)
{
    bench_pair_ci c = { NAN, NAN, NAN, 0, NAN };
    size_t na = rounds_of(num), nb = rounds_of(den);
    size_t nr = na < nb ? na : nb;
    if (nr == 0)
        return c;
    size_t *fa = malloc((2 * nr + 1) * sizeof *fa), *fb = malloc((2 * nr + 1) * sizeof *fb);
    size_t *ia = malloc((num->n ? num->n : 1) * sizeof *ia), *ib = malloc((den->n ? den->n : 1) * sizeof *ib);
    double *q = malloc(nr * sizeof *q), *w = malloc((den->n ? den->n : 1) * sizeof *w);
    if (fa && fb && ia && ib && q && w) {
        by_round(num, nr, fa, ia);
        by_round(den, nr, fb, ib);
        for (size_t k = 0; k < nr; k++) {
            /* each den launch against the num launch nearest to it in the round */
            size_t m = 0;
            for (size_t x = fb[k]; x < fb[k + 1]; x++) {
                size_t j = ib[x], pj = position(den, j), best = (size_t)-1, dist = (size_t)-1;
                for (size_t y = fa[k]; y < fa[k + 1]; y++) {
                    size_t pa = position(num, ia[y]), d = pa > pj ? pa - pj : pj - pa;
                    if (d < dist) {
                        dist = d;
                        best = ia[y];
                    }
                }
                if (best != (size_t)-1 && num->v[best] > 0 && den->v[j] > 0)
                    w[m++] = num->v[best] / den->v[j];
            }
            if (m > 0)
                q[c.rounds++] = bw_median(w, m);
        }
        if (c.rounds > 0) {
            c.median = bench_stats_of(q, c.rounds).median;
            bench_stats_median_ci(q, c.rounds, &c.lo, &c.hi);
            c.spread = bench_stats_spread(q, c.rounds);
        }
    }
    free(fa);
    free(fb);
    free(ia);
    free(ib);
    free(q);
    free(w);
    return c;
}

double bench_pair_halfwidth(const bench_pair_ci *c)
{
    if (!(c->median > 0) || isnan(c->lo) || isnan(c->hi))
        return INFINITY;
    double up = c->hi - c->median, down = c->median - c->lo;
    return (up > down ? up : down) / c->median;
}

double bench_pair_rule_error(const bench_pair_ci *c, double bytes)
{
    double h = bench_pair_halfwidth(c);
    if (!isfinite(h))
        return INFINITY;
    double value = c->median * bytes;
    return h * (value < 1.0 ? value : 1.0) / 1.96;
}

bench_check_verdict bench_pair_check(const bench_pair_ci *c)
{
    if (!(c->median > 0) || isnan(c->lo) || isnan(c->hi))
        return BENCH_CHECK_UNKNOWN;
    /* the whole interval past the tolerance: a difference larger than
     * identical rows are held to, and beyond the slots' own noise; an
     * interval that merely excludes 1 would call one run in four suspect
     * where a run holds six references and each check errs one time in
     * twenty at 95% */
    int outside = c->lo > 1.0 + BENCH_CHECK_TOLERANCE || c->hi < 1.0 - BENCH_CHECK_TOLERANCE;
    return outside ? BENCH_CHECK_SUSPECT : BENCH_CHECK_CONSISTENT;
}

const char *bench_check_verdict_name(bench_check_verdict v)
{
    switch (v) {
    case BENCH_CHECK_CONSISTENT: return "consistent";
    case BENCH_CHECK_SUSPECT: return "suspect";
    default: return "unknown";
    }
}
