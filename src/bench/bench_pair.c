/* bench_pair: per-round ratios of a pattern to its reference, and of a
 * reference's own slot to its control slot (bench_pair.h). */
#include "bench_pair.h"

#include <math.h>
#include <stdlib.h>

#include "bench_stats.h"

static int counts(const bench_pair_series *s, size_t j)
{
    return !s->slot || s->want < 0 || s->slot[j] == (unsigned char)s->want;
}

/* per-round sums and launch counts of s, in rounds [0, nr) */
static void per_round(const bench_pair_series *s, size_t nr, double *sum, size_t *cnt)
{
    for (size_t j = 0; j < s->n; j++) {
        if (!counts(s, j) || s->round[j] >= nr)
            continue;
        sum[s->round[j]] += s->v[j];
        cnt[s->round[j]]++;
    }
}

static size_t rounds_of(const bench_pair_series *s)
{
    size_t nr = 0;
    for (size_t j = 0; j < s->n; j++)
        if (counts(s, j) && s->round[j] + 1 > nr)
            nr = s->round[j] + 1;
    return nr;
}

bench_pair_ci bench_pair_ratio(const bench_pair_series *num, const bench_pair_series *den)
{
    bench_pair_ci c = { NAN, NAN, NAN, 0 };
    size_t na = rounds_of(num), nb = rounds_of(den);
    size_t nr = na < nb ? na : nb;
    if (nr == 0)
        return c;
    double *sa = calloc(nr, sizeof *sa), *sb = calloc(nr, sizeof *sb), *q = malloc(nr * sizeof *q);
    size_t *ca = calloc(nr, sizeof *ca), *cb = calloc(nr, sizeof *cb);
    if (sa && sb && q && ca && cb) {
        per_round(num, nr, sa, ca);
        per_round(den, nr, sb, cb);
        for (size_t k = 0; k < nr; k++)
            if (ca[k] && cb[k] && sb[k] > 0 && sa[k] > 0)
                q[c.rounds++] = (sa[k] / (double)ca[k]) / (sb[k] / (double)cb[k]);
        if (c.rounds > 0) {
            c.median = bench_stats_of(q, c.rounds).median;
            bench_stats_median_ci(q, c.rounds, &c.lo, &c.hi);
        }
    }
    free(sa);
    free(sb);
    free(q);
    free(ca);
    free(cb);
    return c;
}

double bench_pair_halfwidth(const bench_pair_ci *c)
{
    if (!(c->median > 0) || isnan(c->lo) || isnan(c->hi))
        return INFINITY;
    double up = c->hi - c->median, down = c->median - c->lo;
    return (up > down ? up : down) / c->median;
}

bench_check_verdict bench_pair_check(const bench_pair_ci *c)
{
    if (!(c->median > 0) || isnan(c->lo) || isnan(c->hi))
        return BENCH_CHECK_UNKNOWN;
    int off = fabs(c->median - 1.0) > BENCH_CHECK_TOLERANCE;
    int excluded = c->lo > 1.0 || c->hi < 1.0;
    return off && excluded ? BENCH_CHECK_SUSPECT : BENCH_CHECK_CONSISTENT;
}

const char *bench_check_verdict_name(bench_check_verdict v)
{
    switch (v) {
    case BENCH_CHECK_CONSISTENT: return "consistent";
    case BENCH_CHECK_SUSPECT: return "suspect";
    default: return "unknown";
    }
}
