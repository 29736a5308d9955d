/* model_fit: the fits of `bwlab probe`'s curves: the cache ladder's steps
 * and levels, candidate transaction units, warp widths and banks chosen by
 * their residuals, and measured levels matched to the host's caches
 * (model_fit.h). */
#include "model_fit.h"

#include "bw_stats.h"
#include "model_fit_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 512

/* the median of v, which keeps its order */
static double median_of(const double *v, size_t n)
{
    double t[MAX_POINTS];
    memcpy(t, v, n * sizeof *t);
    return bw_median(t, n);
}

/* running median of three; the ends keep their own values */
static void smooth3(const double *in, double *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || i + 1 == n) {
            out[i] = in[i];
            continue;
        }
        double t[3] = { in[i - 1], in[i], in[i + 1] };
        qsort(t, 3, sizeof *t, bw_stats_cmp_double);
        out[i] = t[1];
    }
}

/* squared deviation of the logs of points i..j (inclusive) from their mean */
static double seg_cost(const double *s1, const double *s2, size_t i, size_t j)
{
    double n = (double)(j - i + 1);
    double m = s1[j + 1] - s1[i];
    return (s2[j + 1] - s2[i]) - m * m / n;
}

/* best split of n points into k plateaus of at least 2 points; ends into e */
static double best_split(const double *const s1[2], const double *const s2[2], int nc, size_t n, size_t k,
                         size_t *e)
{
    static double dp[MODEL_FIT_MAX_STEPS + 1][MAX_POINTS + 1];
    static size_t from[MODEL_FIT_MAX_STEPS + 1][MAX_POINTS + 1];
    for (size_t a = 0; a <= k; a++)
        for (size_t j = 0; j <= n; j++)
            dp[a][j] = INFINITY;
    dp[0][0] = 0;
    for (size_t a = 1; a <= k; a++)
        for (size_t j = 2 * a; j <= n; j++) /* j points in a plateaus */
            for (size_t i = 2 * (a - 1); i + 2 <= j; i++) {
                if (!isfinite(dp[a - 1][i]))
                    continue;
                double c = dp[a - 1][i];
                for (int q = 0; q < nc; q++)
                    c += seg_cost(s1[q], s2[q], i, j - 1);
                if (c < dp[a][j]) {
                    dp[a][j] = c;
                    from[a][j] = i;
                }
            }
    if (!isfinite(dp[k][n]))
        return INFINITY;
    size_t j = n;
    for (size_t a = k; a >= 1; a--) {
        e[a - 1] = j - 1;
        j = from[a][j];
    }
    return dp[k][n];
}

size_t model_fit_ladder_split(const double *a, const double *b, size_t n, double min_ratio, size_t max_steps,
                              model_fit_ladder *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2 || n > MAX_POINTS || !(min_ratio > 1))
        return 0;
    if (max_steps > MODEL_FIT_MAX_STEPS)
        max_steps = MODEL_FIT_MAX_STEPS;
    if (max_steps < 1)
        max_steps = 1;
    const double *curves[2] = { a, b };
    int nc = b ? 2 : 1;
    static double sm[2][MAX_POINTS], lg[2][MAX_POINTS], p1[2][MAX_POINTS + 1], p2[2][MAX_POINTS + 1];
    for (int q = 0; q < nc; q++) {
        for (size_t i = 0; i < n; i++)
            if (!(curves[q][i] > 0) || !isfinite(curves[q][i]))
                return 0;
        smooth3(curves[q], sm[q], n);
        p1[q][0] = p2[q][0] = 0;
        for (size_t i = 0; i < n; i++) {
            lg[q][i] = log(sm[q][i]);
            p1[q][i + 1] = p1[q][i] + lg[q][i];
            p2[q][i + 1] = p2[q][i] + lg[q][i] * lg[q][i];
        }
    }
    const double *s1[2] = { p1[0], p1[1] }, *s2[2] = { p2[0], p2[1] };
    size_t best_k = 1;
    size_t ends[MODEL_FIT_MAX_STEPS];
    size_t best_e[MODEL_FIT_MAX_STEPS] = { n - 1 };
    double lr = log(min_ratio);
    for (size_t k = 2; k <= max_steps && 2 * k <= n; k++) {
        if (!isfinite(best_split(s1, s2, nc, n, k, ends)))
            break;
        int ok = 1;
        size_t start = 0;
        double prev[2] = { 0, 0 };
        for (size_t s = 0; s < k && ok; s++) {
            double m[2];
            for (int q = 0; q < nc; q++)
                m[q] = median_of(lg[q] + start, ends[s] - start + 1);
            if (s > 0) {
                int big = 0, back = 0;
                for (int q = 0; q < nc; q++) {
                    big |= m[q] - prev[q] >= lr;
                    back |= m[q] - prev[q] <= -lr;
                }
                ok = big && !back;
            }
            memcpy(prev, m, sizeof prev);
            start = ends[s] + 1;
        }
        if (ok) {
            best_k = k;
            memcpy(best_e, ends, k * sizeof *ends);
        }
    }
    out->n_steps = best_k;
    size_t start = 0;
    for (size_t s = 0; s < best_k; s++) {
        out->end[s] = best_e[s];
        for (int q = 0; q < nc; q++)
            out->level[q][s] = median_of(sm[q] + start, best_e[s] - start + 1);
        start = best_e[s] + 1;
    }
    return best_k;
}

double model_fit_stride_curve(double x, int64_t u)
{
    return x < (double)u ? x : (double)u;
}

double model_fit_offset_curve(double x, int64_t block, int64_t u)
{
    int64_t o = (int64_t)x;
    if (u <= 0 || block <= 0 || o < 0)
        return 1; /* no unit: nothing to count */
    return (double)((o + block - 1) / u - o / u + 1);
}

double model_fit_linear(const double *f, const double *y, size_t n, double *a, double *b)
{
    double mf = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mf += f[i];
        my += y[i];
    }
    if (n) {
        mf /= (double)n;
        my /= (double)n;
    }
    double sff = 0, sfy = 0;
    for (size_t i = 0; i < n; i++) {
        sff += (f[i] - mf) * (f[i] - mf);
        sfy += (f[i] - mf) * (y[i] - my);
    }
    double aa = sff > 1e-12 * (1 + mf * mf) ? sfy / sff : 0;
    double bb = my - aa * mf;
    double sse = 0;
    for (size_t i = 0; i < n; i++) {
        double r = y[i] - (aa * f[i] + bb);
        sse += r * r;
    }
    if (a)
        *a = aa;
    if (b)
        *b = bb;
    return sse;
}

double model_fit_flat_sse(const double *y, size_t n)
{
    double m = 0, s = 0;
    for (size_t i = 0; i < n; i++)
        m += y[i];
    if (n)
        m /= (double)n;
    for (size_t i = 0; i < n; i++)
        s += (y[i] - m) * (y[i] - m);
    return s;
}

static void fit_one(const double *f, const double *y, size_t n, int64_t unit, double flat, double mean,
                    model_fit_candidate *c)
{
    c->unit = unit;
    c->sse = model_fit_linear(f, y, n, &c->a, &c->b);
    c->rel = flat > 0 && c->a > 0 ? c->sse / flat : 1.0;
    if (c->rel > 1)
        c->rel = 1;
    c->rms_rel = n && mean > 0 ? sqrt(c->sse / (double)n) / mean : 0;
}

static double mean_of(const double *y, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m += y[i];
    return n ? m / (double)n : 0;
}

void model_fit_candidates_f(const double *f, const double *y, size_t n, const int64_t *units, size_t n_units,
                            model_fit_candidate *out)
{
    double flat = model_fit_flat_sse(y, n), mean = mean_of(y, n);
    for (size_t k = 0; k < n_units; k++)
        fit_one(f + k * n, y, n, units[k], flat, mean, &out[k]);
}

double model_fit_lanes_curve(double active, int64_t w)
{
    int64_t a = (int64_t)active;
    if (w <= 0)
        return a;
    return (double)((a + w - 1) / w);
}

double model_fit_banks_curve(double stride, int64_t banks, int64_t width, int64_t w)
{
    /* words per bank of the first w lanes: count distinct words per bank */
    int64_t s = (int64_t)stride, best = 0;
    if (banks <= 0 || width <= 0)
        return 1;
    for (int64_t b = 0; b < banks && b < 1024; b++) {
        int64_t words[1024], nw = 0;
        for (int64_t l = 0; l < w && l < 1024; l++) {
            int64_t byte = l * s * 4, word = byte / width;
            if (word % banks != b)
                continue;
            int seen = 0;
            for (int64_t q = 0; q < nw && !seen; q++)
                seen = words[q] == word;
            if (!seen)
                words[nw++] = word;
        }
        if (nw > best)
            best = nw;
    }
    return (double)(best ? best : 1);
}

void model_fit_banks(const double *x, const double *y, size_t n, int64_t w, int64_t *banks, double *floor,
                     double *explained)
{
    static const int64_t cand[] = { 8, 16, 32, 64 };
    double f[64], flat[64], best = INFINITY;
    *banks = 0;
    *floor = 1;
    *explained = 0;
    if (n == 0 || n > 64)
        return;
    for (size_t i = 0; i < n; i++)
        flat[i] = 1;
    double flat_sse = model_fit_log_ratio_sse(flat, y, n);
    for (size_t k = 0; k < sizeof cand / sizeof cand[0]; k++) {
        double ways[64];
        for (size_t i = 0; i < n; i++)
            ways[i] = model_fit_banks_curve(x[i], cand[k], 4, w);
        for (double F = 1.0; F <= MODEL_FIT_BANK_FLOOR_MAX + 1e-9; F += 0.02) {
            for (size_t i = 0; i < n; i++)
                f[i] = ways[i] > F ? ways[i] : F;
            double s = model_fit_log_ratio_sse(f, y, n);
            /* ties go to the fewer banks and the lower floor: the simpler answer */
            if (s < best - 1e-12) {
                best = s;
                *banks = cand[k];
                *floor = F;
            }
        }
    }
    if (!isfinite(best) || !(flat_sse > 0)) {
        *banks = 0;
        return;
    }
    *explained = 1 - best / flat_sse;
}

void model_fit_candidates(const double *x, const double *y, size_t n, int64_t block, const int64_t *units,
                          size_t n_units, model_fit_candidate *out)
{
    double f[MAX_POINTS];
    if (n > MAX_POINTS)
        n = MAX_POINTS;
    double flat = model_fit_flat_sse(y, n), mean = mean_of(y, n);
    for (size_t k = 0; k < n_units; k++) {
        for (size_t i = 0; i < n; i++)
            f[i] = block ? model_fit_offset_curve(x[i], block, units[k]) : model_fit_stride_curve(x[i], units[k]);
        fit_one(f, y, n, units[k], flat, mean, &out[k]);
    }
}

int64_t model_fit_choose(const model_fit_candidate *c1, const model_fit_candidate *c2, size_t n_units,
                         double min_explained, char *why, size_t n)
{
    if (n && why)
        why[0] = '\0';
    if (n_units == 0) {
        snprintf(why, n, "no candidate unit sizes");
        return 0;
    }
    size_t best = 0;
    double best_score = INFINITY;
    for (size_t k = 0; k < n_units; k++) {
        double s = c1[k].rel + (c2 ? c2[k].rel : 0);
        if (s < best_score - 1e-12) {
            best_score = s;
            best = k;
        }
    }
    int explained = c1[best].rel <= 1 - min_explained || (c2 && c2[best].rel <= 1 - min_explained);
    if (!explained) {
        snprintf(why, n,
                 "no knee and no period: the sweeps are flat within noise (the best candidate, %lld B, explains "
                 "%.0f%% of their variation)",
                 (long long)c1[best].unit, 100 * (1 - (c1[best].rel < (c2 ? c2[best].rel : 1) ? c1[best].rel
                                                                                                : (c2 ? c2[best].rel : 1))));
        return 0;
    }
    /* the sweeps disagree: the offset sweep prefers another unit by a wide
     * margin while the stride sweep's choice leaves most of it unexplained
     * (a CPU's stride sweep in cache grows past its line with the pages) */
    if (c2) {
        size_t ob = 0;
        for (size_t k = 1; k < n_units; k++)
            if (c2[k].rel < c2[ob].rel)
                ob = k;
        if (ob != best && c2[ob].rel <= 0.6 && c2[best].rel >= c2[ob].rel + 0.3) {
            snprintf(why, n,
                     "the sweeps disagree within noise: the stride sweep fits %lld B, the offset sweep %lld B "
                     "(which leaves %.0f%% of its variation to %lld B)",
                     (long long)c1[best].unit, (long long)c2[ob].unit, 100 * c2[best].rel, (long long)c1[best].unit);
            return 0;
        }
    }
    if (best == n_units - 1 && c1[best].rel <= 1 - min_explained && (!c2 || c2[best].rel > 1 - min_explained)) {
        snprintf(why, n, "no knee: the cost per element still grows at the largest stride (%lld B)",
                 (long long)c1[best].unit);
        return 0;
    }
    return c1[best].unit;
}

double model_fit_log_ratio_sse(const double *f, const double *y, size_t n)
{
    double m = 0, s = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(f[i] > 0) || !(y[i] > 0))
            return INFINITY;
        m += log(y[i]) - log(f[i]);
    }
    if (n)
        m /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = log(y[i]) - log(f[i]) - m;
        s += d * d;
    }
    return s;
}

#define SEEN_OF(q) ((q) ? MODEL_FIT_SEEN_B : MODEL_FIT_SEEN_A)

/* one curve's knee: the last point of the plateau before it */
typedef struct knee {
    size_t end;
    int by; /* the curve that placed it (MODEL_FIT_SEEN_*), once it stands */
    size_t at[2]; /* where each curve that shows it places it (a, b) */
    int seen;
    double step;
    int persists;
} knee;

/* the knees of curve y split alone, with whether each persists */
static size_t curve_knees(const double *y, size_t n, double min_ratio, int seen, knee *k)
{
    model_fit_ladder f;
    size_t steps = model_fit_ladder_split(y, NULL, n, min_ratio, MODEL_FIT_MAX_STEPS, &f);
    size_t m = 0;
    for (size_t s = 0; s + 1 < steps; s++) {
        size_t e = f.end[s];
        double lo = f.level[0][s], hi = f.level[0][s + 1], r = sqrt(min_ratio);
        k[m].end = e;
        k[m].at[seen == MODEL_FIT_SEEN_B] = e;
        k[m].seen = seen;
        k[m].step = lo > 0 ? hi / lo : 0;
        /* each plateau has at least 2 points: e - 1 and e + 2 exist */
        k[m].persists = y[e - 1] * r <= hi && y[e] * r <= hi && y[e + 1] >= lo * r && y[e + 2] >= lo * r;
        m++;
    }
    return m;
}

static int cmp_knee(const void *x, const void *y)
{
    const knee *a = x, *b = y;
    return (a->end > b->end) - (a->end < b->end);
}

/* how much faster curve s (smoothed) rises after point e than up to it:
 * the difference of its mean rises per point (on logarithms) over the
 * span points after e and the span points before, scaled to span points;
 * the rise after it, so scaled, into *after. Near the ladder's ends the
 * fewer points there are averaged alike; point 0 has none before it: 0 */
static double bend_at(const double *s, size_t n, size_t e, size_t span, double *after)
{
    *after = 0;
    if (e == 0 || e + 1 >= n)
        return 0;
    size_t lo = e > span ? e - span : 0, hi = e + span < n ? e + span : n - 1;
    double up = log(s[hi] / s[e]) / (double)(hi - e), before = log(s[e] / s[lo]) / (double)(e - lo);
    *after = up * (double)span;
    return (up - before) * (double)span;
}

/* Whether knee k bends: the strongest bend of the curves that show it
 * (k->seen) at the place each gives it or a neighbouring point; that
 * curve into *by (MODEL_FIT_SEEN_*). A knee is a bend when the curve
 * climbs at least sqrt(min_ratio) faster after it than before it, and by
 * at least that much: the end of a plateau, not a cut through a steady
 * ramp, which climbs alike on both sides. *at gets the knee's place: the
 * sharpest point (the largest rise of one point over the rise of the
 * point before) at or beside the strongest bend, in its curve: the
 * bend's windows reach span points ahead, the sharpest point does not. */
static int knee_bends(const double *const sm[2], size_t n, size_t span, double min_ratio, const knee *k,
                      size_t *at, int *by)
{
    double best = -INFINITY, lr = 0.5 * log(min_ratio);
    int ok = 0, curve = 0;
    for (int q = 1; q >= 0; q--) { /* the latency first: a tie is its */
        if (!sm[q] || !(k->seen & SEEN_OF(q)))
            continue;
        size_t c = k->at[q];
        for (size_t e = c ? c - 1 : 0; e <= c + 1 && e + 1 < n; e++) {
            double after, b = bend_at(sm[q], n, e, span, &after);
            if (b > best) {
                best = b;
                *at = e;
                curve = q;
                ok = b >= lr - 1e-12 && after >= lr - 1e-12;
            }
        }
    }
    if (!ok)
        return 0;
    *by = SEEN_OF(curve);
    const double *s = sm[curve];
    size_t c = *at;
    double sharp = -INFINITY;
    for (size_t e = c > 1 ? c - 1 : 1; e <= c + 1 && e + 1 < n; e++) {
        double d2 = log(s[e + 1] / s[e]) - log(s[e] / s[e - 1]);
        if (d2 > sharp + 1e-12) {
            sharp = d2;
            *at = e;
        }
    }
    return 1;
}

size_t model_fit_ladder_levels(const double *a, const double *b, size_t n, double min_ratio, size_t span,
                               model_fit_ladder *out)
{
    memset(out, 0, sizeof *out);
    model_fit_ladder chk;
    if (model_fit_ladder_split(a, b, n, min_ratio, 1, &chk) == 0)
        return 0; /* bad input: the same rules as the split */
    if (span < 1)
        span = 1;
    knee ka[MODEL_FIT_MAX_STEPS], kb[MODEL_FIT_MAX_STEPS], all[2 * MODEL_FIT_MAX_STEPS];
    size_t na = curve_knees(a, n, min_ratio, MODEL_FIT_SEEN_A, ka);
    size_t nb = b ? curve_knees(b, n, min_ratio, MODEL_FIT_SEEN_B, kb) : 0;
    size_t m = 0;
    int used[MODEL_FIT_MAX_STEPS] = { 0 };
    /* the latency's knees first; the nearest bandwidth knee within
     * `span` points (a doubling of the working set) joins it: one
     * transition, which the two ladders may place an octave apart */
    for (size_t i = 0; i < nb; i++) {
        all[m] = kb[i];
        size_t pick = na, gap = span + 1;
        for (size_t j = 0; j < na; j++) {
            size_t d = ka[j].end > kb[i].end ? ka[j].end - kb[i].end : kb[i].end - ka[j].end;
            if (!used[j] && d < gap) {
                gap = d;
                pick = j;
            }
        }
        if (pick < na) {
            used[pick] = 1;
            all[m].at[0] = ka[pick].end;
            all[m].seen |= MODEL_FIT_SEEN_A;
            if (ka[pick].step > all[m].step)
                all[m].step = ka[pick].step;
        }
        m++;
    }
    for (size_t j = 0; j < na; j++)
        if (!used[j])
            all[m++] = ka[j];
    qsort(all, m, sizeof *all, cmp_knee);
    const double *curves[2] = { a, b };
    static double sm[2][MAX_POINTS];
    int nc = b ? 2 : 1;
    for (int q = 0; q < nc; q++)
        smooth3(curves[q], sm[q], n);
    const double *smc[2] = { sm[0], b ? sm[1] : NULL };
    /* a knee stands when both ladders show it or it persists, and it is
     * a bend; two knees at one bend are one */
    size_t kept = 0, bend_of[MODEL_FIT_MAX_STEPS] = { 0 };
    knee keep[MODEL_FIT_MAX_STEPS];
    for (size_t i = 0; i < m && kept + 1 < MODEL_FIT_MAX_STEPS; i++) {
        int both = all[i].seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B);
        size_t at = all[i].end;
        if ((!both && !all[i].persists) || !knee_bends(smc, n, span, min_ratio, &all[i], &at, &all[i].by))
            continue;
        if (kept && at <= bend_of[kept - 1] + 1) {
            keep[kept - 1].seen |= all[i].seen;
            if (all[i].step > keep[kept - 1].step)
                keep[kept - 1].step = all[i].step;
            continue;
        }
        if (at + 3 <= n && (!kept || at >= keep[kept - 1].end + 2))
            all[i].end = at; /* placed where it bends, both plateaus keeping 2 points */
        if (kept && all[i].end < keep[kept - 1].end + 2)
            continue; /* a plateau of one point between two knees: the first stands */
        bend_of[kept] = at;
        keep[kept++] = all[i];
    }
    /* the plateaus the kept knees make, with both curves' medians */
    size_t start = 0;
    out->n_steps = kept + 1;
    for (size_t s = 0; s <= kept; s++) {
        size_t e = s < kept ? keep[s].end : n - 1;
        out->end[s] = e;
        for (int q = 0; q < nc; q++)
            out->level[q][s] = median_of(sm[q] + start, e - start + 1);
        out->seen[s] = s < kept ? keep[s].seen : 0;
        out->step[s] = s < kept ? keep[s].step : 0;
        out->placed[s] = s < kept ? keep[s].by : 0;
        start = e + 1;
    }
    return out->n_steps;
}

/* log distance of c from [lo, hi]: 0 inside */
static double log_gap(uint64_t c, uint64_t lo, uint64_t hi)
{
    if (c < lo)
        return log((double)lo / (double)(c ? c : 1));
    if (c > hi)
        return log((double)c / (double)(hi ? hi : 1));
    return 0;
}

int model_fit_size_agrees(uint64_t c, uint64_t last, uint64_t next)
{
    if (!c || !last)
        return 0;
    if (next < last)
        next = last;
    return log_gap(c, last, next) <= log(2.0) + 1e-9;
}

void model_fit_match_caches(const uint64_t *last, const uint64_t *next, const double *step, size_t n_levels,
                            const uint64_t *host, size_t n_host, int *match)
{
    for (size_t k = 0; k < n_levels; k++)
        match[k] = -1;
    size_t from = 0;
    for (size_t h = 0; h < n_host && from < n_levels; h++) {
        size_t best = from;
        double bd = INFINITY;
        for (size_t k = from; k < n_levels; k++) {
            double d = log_gap(host[h], last[k], next[k] > last[k] ? next[k] : last[k]);
            if (last[k] > host[h])
                d *= 2; /* a plateau past the cache's size holds what it cannot: the farther match */
            if (d < bd - 1e-9 || (fabs(d - bd) <= 1e-9 && step[k] > step[best])) {
                bd = d;
                best = k;
            }
        }
        match[best] = (int)h;
        from = best + 1;
    }
}
