/* bench_fit: the copy-rate calibration, and the working set and buffers
 * chosen so that a run fits its budget, with the note that says what
 * was shrunk (bench_fit.h). */
#include "bench_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bw_format.h"
#include "bw_hook.h"

#define MiB ((uint64_t)1 << 20)

static uint64_t fit_floor(const bench_plan *p)
{
    return p->cache_bytes > BENCH_FIT_FLOOR_BYTES ? p->cache_bytes : BENCH_FIT_FLOOR_BYTES;
}

int bench_fit_may_shrink(const bench_plan *p, double budget_s)
{
    if (p->target_bytes > fit_floor(p))
        return 1;
    return budget_s < BENCH_FIT_FULL_CALIBRATION_S && p->target_bytes > BENCH_FIT_MIN_BYTES;
}

bw_code bench_fit_measure(ocl_context *ctx, const bench_plan_opts *base, const model_geometry *geo,
                          const bench_limits *lim, const bench_kernels *kernels, uint64_t bytes, double left_s,
                          int fresh, volatile sig_atomic_t *stop, bench_fit_rate *out, bw_error *err)
{
    memset(out, 0, sizeof *out);
    double t0 = bench_now_s();
    /* a ladder of K: read too, whose compares K divides (cl/gather.cl) */
    bench_plan_opts o = bench_plan_opts_seq(
        base, BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) | (base->unroll_ladder ? BENCH_ACCESS_BIT(BENCH_ACCESS_READ) : 0));
    /* a short budget gets a short calibration: its size and time scale
     * with the time left, so that it costs about a tenth of it */
    double scale = left_s > 0 && left_s < BENCH_FIT_FULL_CALIBRATION_S ? left_s / BENCH_FIT_FULL_CALIBRATION_S : 1;
    uint64_t cal = (uint64_t)((double)BENCH_FIT_CALIBRATION_BYTES * scale);
    cal = cal > BENCH_FIT_MIN_BYTES ? cal : BENCH_FIT_MIN_BYTES;
    o.size = bytes < cal ? bytes : cal;
    o.size = o.size / MiB * MiB > 0 ? o.size / MiB * MiB : MiB;
    bench_plan *p = NULL;
    bw_code rc = bench_plan_make(&o, geo, lim, &p, err);
    if (rc != BW_OK)
        return rc;
    bench_settings s = bench_settings_default();
    s.budget_s = 2.0 * scale > 0.25 ? 2.0 * scale : 0.25;
    s.rse_target = 0.05;
    s.min_total_s = 0;
    s.no_twins = 1;
    s.fresh_build = fresh;
    bench_result *res = NULL;
    bench_run_info info;
    rc = bench_run(ctx, p, kernels, &s, stop, NULL, NULL, &res, &info, err);
    if (rc == BW_OK && (res[0].status != BENCH_OK || !(res[0].effective_gbs > 0)))
        rc = bw_error_set(err, BW_E_RANGE, "the calibration copy gave no rate: %s",
                          res[0].failure ? res[0].failure : "no timed launch");
    if (rc == BW_OK) {
        out->bytes = p->target_bytes;
        out->copy_gbs = res[0].effective_gbs;
        for (size_t i = 0; o.unroll_ladder && i < p->n; i++) {
            int k = 0;
            while ((1 << (k + 1)) <= bench_item_unroll(&p->items[i]) && k + 1 < BENCH_FIT_UNROLLS)
                k++;
            double *g = p->items[i].access == BENCH_ACCESS_READ ? out->unroll_read_gbs : out->unroll_gbs;
            /* K = 1 (the mode's reference) times each K's ratio to it from
             * paired rounds: a host whose bandwidth moves during the
             * calibration moves every K alike, and the choice is a ratio */
            long ref = res[i].reference;
            double gbs = res[i].effective_gbs;
            if (ref >= 0 && (size_t)ref < p->n && res[ref].status == BENCH_OK)
                gbs = bench_fit_ladder_rate(gbs, res[ref].effective_gbs, res[i].relative_to_reference);
            if (res[i].status == BENCH_OK && gbs > g[k])
                g[k] = gbs;
        }
        int K = o.unroll_ladder ? bench_fit_unroll_choose(out->unroll_gbs, out->unroll_read_gbs) : 0;
        bench_fit_rate_at(out, K > 0 ? K : 1);
        out->unroll = K; /* 0: no ladder, or nothing of it measured */
        out->fill_gbs = info.buffers_s > 0 ? (double)(p->src_bytes + p->dst_bytes) / info.buffers_s / 1e9 : 0;
        out->build_s = info.build_s;
        out->prep_kernel_s = info.prep_kernel_s;
        int64_t mbs = 0; /* test builds only: a fill as slow as asked */
        if (bw_hook_fault("fit_fill", NULL, &mbs) && mbs > 0)
            out->fill_gbs = (double)mbs / 1000.0;
    }
    bench_results_free(res, p->n);
    bench_plan_free(p);
    out->elapsed_s = bench_now_s() - t0;
    return rc;
}

void bench_fit_rate_at(bench_fit_rate *rate, int K)
{
    int k = 0;
    while ((1 << k) < K && k + 1 < BENCH_FIT_UNROLLS)
        k++;
    rate->unroll = K;
    if (rate->unroll_gbs[k] > 0)
        rate->copy_gbs = rate->unroll_gbs[k];
    int64_t mbs = 0; /* test builds only: a device as slow as asked */
    if (bw_hook_fault("fit_rate", NULL, &mbs) && mbs > 0)
        rate->copy_gbs = (double)mbs / 1000.0;
}

/* the worst of K = 1 << k's rates over its mode's best (1: every mode at
 * its best; 0: a mode measured elsewhere is not at this K; -1: nothing) */
static double unroll_score(const double *const modes[2], int k)
{
    double worst = -1;
    for (int m = 0; m < 2; m++) {
        if (!modes[m])
            continue;
        double best = 0;
        for (int i = 0; i < BENCH_FIT_UNROLLS; i++)
            best = modes[m][i] > best ? modes[m][i] : best;
        if (best <= 0)
            continue;
        double r = modes[m][k] > 0 ? modes[m][k] / best : 0;
        worst = worst < 0 || r < worst ? r : worst;
    }
    return worst;
}

double bench_fit_ladder_rate(double own_gbs, double ref_gbs, double paired)
{
    if (!(ref_gbs > 0) || !(paired > 0))
        return own_gbs;
    double est = ref_gbs * paired;
    return est <= BENCH_FIT_PAIRED_AGREE * own_gbs && est * BENCH_FIT_PAIRED_AGREE >= own_gbs ? est : own_gbs;
}

int bench_fit_unroll_choose(const double copy[BENCH_FIT_UNROLLS], const double *read)
{
    const double *const modes[2] = { copy, read };
    int most = 0;
    double top = 0;
    for (int k = 0; k < BENCH_FIT_UNROLLS; k++) {
        double s = unroll_score(modes, k);
        if (s >= 1.0 - BENCH_FIT_UNROLL_WITHIN)
            return 1 << k;
        if (s > top) {
            top = s;
            most = 1 << k;
        }
    }
    return most;
}

int bench_fit_unroll_keep(const double scores[BENCH_FIT_UNROLLS], int last)
{
    int plain = bench_fit_unroll_choose(scores, NULL);
    double best = 0;
    int at = -1;
    for (int k = 0; k < BENCH_FIT_UNROLLS; k++) {
        best = scores[k] > best ? scores[k] : best;
        at = (1 << k) == last ? k : at;
    }
    if (plain <= 0 || at < 0 || !(scores[at] > 0))
        return plain;
    /* a tie, a smaller K's included, keeps last: only a clear loss moves K */
    return scores[at] >= (1.0 - BENCH_FIT_UNROLL_WITHIN - BENCH_FIT_UNROLL_BAND) * best ? last : plain;
}

/* the buffers' fill of plan p at the calibration's rate */
static double fill_s(const bench_plan *p, const bench_fit_rate *rate)
{
    return rate->fill_gbs > 0 ? (double)(p->src_bytes + p->dst_bytes) / rate->fill_gbs / 1e9 : 0;
}

size_t bench_fit_kernels(const bench_plan *p)
{
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!p->items[i].left_out)
            k += p->items[i].scalar_form ? 2 : 1;
    return k;
}

/* the estimate of a run of plan p: its launches, its buffers' fill, its
 * program's build and its kernels' preparation; a runtime that compiles
 * each kernel at its first launch (PoCL) spends a good part of a second on
 * each on an empty kernel cache, and a program whose working set is new
 * is on one */
static double estimate_s(const bench_plan *p, const bench_settings *s, const bench_fit_rate *rate)
{
    return bench_run_estimate_s(p, s, rate->copy_gbs) + fill_s(p, rate) + rate->build_s +
           rate->prep_kernel_s * (double)bench_fit_kernels(p);
}

/* Whether a plan whose estimate is need_s and whose fill is fill may
 * still shrink from size: down to the floor while the estimate exceeds
 * the time; below it, down to BENCH_FIT_MIN_BYTES, only while the fill
 * alone would take more than BENCH_FIT_FILL_SHARE of it (a short
 * budget), since the cache may then serve part of each launch. */
static int may_step(uint64_t size, uint64_t floor, double need_s, double fill, double avail_s)
{
    if (size > floor)
        return need_s > avail_s;
    return size > BENCH_FIT_MIN_BYTES && need_s > avail_s && fill > BENCH_FIT_FILL_SHARE * avail_s;
}

static void fitted_note(bench_fit_choice *c, const bench_plan *fitted, const bench_settings *s)
{
    char now[32], full[32], cache[32];
    bw_format_bytes(now, sizeof now, (double)c->bytes);
    bw_format_bytes(full, sizeof full, (double)c->auto_bytes);
    bw_format_bytes(cache, sizeof cache, (double)fitted->cache_bytes);
    /* at the floor and still over, or below it: said, since the plan then
     * leaves patterns out, or the cache may serve part of each launch */
    const char *fl = fitted->cache_bytes > BENCH_FIT_FLOOR_BYTES ? "the cache figure" : "256 MiB";
    char floor[200] = "";
    if (c->bytes < c->floor_bytes)
        snprintf(floor, sizeof floor,
                 "; below %s, since the buffers' fill alone would take most of so short a budget: the cache "
                 "may serve part of each launch",
                 fl);
    else if (c->need_s > c->avail_s)
        snprintf(floor, sizeof floor, "; no smaller working set is tried: below %s the cache would serve part of it",
                 fl);
    snprintf(c->note, sizeof c->note,
             "working set %s per pattern, fitted to the %.0f s budget: at %s (4 x the %s cache) the patterns' "
             "buffers, kernels and minimum of launches would take about %.0f s, at %s about %.0f s, of %.0f s left "
             "(estimated from a calibration copy: its rate at the modeled bytes, its fill, its "
             "kernels' preparation)%s; a larger --budget, or --size %lluM, measures at the full size",
             now, s->budget_s, full, cache, c->auto_s, now, c->need_s, c->avail_s, floor,
             (unsigned long long)(c->auto_bytes / MiB));
}

/* o's plan at size, each buffer within twice it, as a fitted automatic
 * plan (its cache figure kept); an error (a size the device cannot hold)
 * is cleared and returned */
static bw_code plan_at(const bench_plan_opts *o, const model_geometry *geo, const bench_limits *lim,
                       const bench_plan *auto_plan, uint64_t size, const bench_fit_choice *c, bench_plan **out)
{
    bench_plan_opts so = *o;
    so.size = size;
    so.span_cap = 2 * size;
    bw_error e = BW_ERROR_INIT;
    bw_code rc = bench_plan_make(&so, geo, lim, out, &e);
    bw_error_clear(&e);
    if (rc != BW_OK)
        return rc;
    bench_plan *p = *out;
    p->target_auto = 1;
    p->fitted_from = c->auto_bytes;
    p->cache_bytes = auto_plan->cache_bytes;
    memcpy(p->cache_source, auto_plan->cache_source, sizeof p->cache_source);
    p->twin_cache_bytes = auto_plan->twin_cache_bytes;
    memcpy(p->twin_cache_source, auto_plan->twin_cache_source, sizeof p->twin_cache_source);
    return BW_OK;
}

bw_code bench_fit_choose(const bench_plan_opts *o, const model_geometry *geo, const bench_limits *lim,
                         const bench_settings *s, const bench_fit_rate *rate, double avail_s,
                         const bench_plan *auto_plan, bench_plan **out, bench_fit_choice *choice, bw_error *err)
{
    (void)err;
    memset(choice, 0, sizeof *choice);
    *out = NULL;
    choice->avail_s = avail_s;
    choice->auto_bytes = choice->bytes = auto_plan->target_bytes;
    choice->auto_s = choice->need_s = estimate_s(auto_plan, s, rate);
    uint64_t floor = fit_floor(auto_plan);
    choice->floor_bytes = floor;
    uint64_t size = auto_plan->target_bytes;
    double fill = fill_s(auto_plan, rate);
    bench_plan *best = NULL;
    /* the floor first: where even it does not fit, the steps above it are
     * plans made for nothing (each counts every pattern's model again) */
    if (choice->need_s > avail_s && size > floor) {
        bench_plan *at_floor = NULL;
        if (plan_at(o, geo, lim, auto_plan, floor / MiB * MiB, choice, &at_floor) == BW_OK &&
            estimate_s(at_floor, s, rate) > avail_s) {
            best = at_floor;
            size = at_floor->target_bytes;
            choice->bytes = size;
            choice->need_s = estimate_s(at_floor, s, rate);
            fill = fill_s(at_floor, rate);
        } else {
            bench_plan_free(at_floor);
        }
    }
    while (may_step(size, floor, choice->need_s, fill, avail_s)) {
        uint64_t stop_at = size > floor ? floor : BENCH_FIT_MIN_BYTES;
        size = (uint64_t)((double)size / sqrt(2.0)) / MiB * MiB;
        size = size > stop_at ? size : stop_at / MiB * MiB;
        bench_plan *p = NULL;
        if (plan_at(o, geo, lim, auto_plan, size, choice, &p) != BW_OK)
            break; /* a size the device cannot hold: the last one stands */
        bench_plan_free(best);
        best = p;
        choice->bytes = p->target_bytes;
        choice->need_s = estimate_s(p, s, rate);
        fill = fill_s(p, rate);
    }
    if (best) {
        fitted_note(choice, best, s);
        best->fit_note = strdup(choice->note);
    }
    *out = best;
    return BW_OK;
}

/* which items serve as some item's reference (never left out): a heap
 * array of p->n flags, NULL when out of memory */
static char *references_of(const bench_plan *p)
{
    char *ref = calloc(p->n ? p->n : 1, 1);
    for (size_t k = 0; ref && k < p->n; k++) {
        long r = bench_plan_reference(p, k);
        if (r >= 0)
            ref[r] = 1;
    }
    return ref;
}

/* the buffers the references alone need: what no leaving out can spare */
static void reference_buffers(const bench_plan *p, const char *ref, uint64_t *src, uint64_t *dst)
{
    *src = *dst = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].left_out || !ref[i])
            continue;
        uint64_t a = (uint64_t)bench_family_src_bytes(&p->items[i]), b = (uint64_t)bench_family_dst_bytes(&p->items[i]);
        *src = a > *src ? a : *src;
        *dst = b > *dst ? b : *dst;
    }
}

int bench_fit_buffers_worth(const bench_plan *p)
{
    char *ref = references_of(p);
    if (!ref)
        return 0;
    uint64_t src, dst;
    reference_buffers(p, ref, &src, &dst);
    free(ref);
    return p->src_bytes + p->dst_bytes > BENCH_FIT_BUFFERS_CHECK_BYTES ||
           p->src_bytes + p->dst_bytes > src + dst + BENCH_FIT_CALIBRATION_BYTES;
}

/* the widest item that is no reference, by what its buffers add to the
 * references'; -1 when none adds anything */
static long widest(const bench_plan *p, const char *ref)
{
    uint64_t src, dst, most = 0;
    reference_buffers(p, ref, &src, &dst);
    long w = -1;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].left_out || ref[i])
            continue;
        uint64_t a = (uint64_t)bench_family_src_bytes(&p->items[i]), b = (uint64_t)bench_family_dst_bytes(&p->items[i]);
        uint64_t x = (a > src ? a - src : 0) + (b > dst ? b - dst : 0);
        if (x > most) {
            most = x;
            w = (long)i;
        }
    }
    return w;
}

/* the refusal: even the references' buffers take longer to fill than the
 * budget's bound holds */
static bw_code too_slow_to_fill(const bench_plan *p, const bench_settings *s, const bench_fit_rate *rate,
                                double need_s, double bound_s, bw_error *err)
{
    char size[32], a[32], b[32];
    bw_format_bytes(size, sizeof size, (double)p->target_bytes);
    bw_format_bytes(a, sizeof a, (double)p->src_bytes);
    bw_format_bytes(b, sizeof b, (double)p->dst_bytes);
    double over = need_s - (bound_s > 0 ? bound_s : 0);
    uint64_t most = (uint64_t)((double)p->target_bytes * (bound_s > 0 ? bound_s : 0) / need_s * 0.8) / MiB;
    return bw_error_set(err, BW_E_RANGE,
                        "--size %s: the buffers of the patterns the others are read against (src %s, dst %s) would "
                        "take about %.1f s to fill and build at the measured %.2f GB/s, beyond what the %.0f s "
                        "--budget holds (within 10%% + 2 s); use a --budget of at least %.0f, or a --size of at "
                        "most %lluM",
                        size, a, b, need_s, rate->fill_gbs, s->budget_s, ceil(s->budget_s + over / 1.1 + 1),
                        (unsigned long long)(most > 0 ? most : 1));
}

static bw_code buffers_note(bench_plan *p, const bench_fit_choice *c, const bench_fit_rate *rate,
                            const size_t *out, size_t nout, bw_error *err)
{
    char size[32], a[32], b[32], names[400];
    bw_format_bytes(size, sizeof size, (double)p->target_bytes);
    bw_format_bytes(a, sizeof a, (double)p->src_bytes);
    bw_format_bytes(b, sizeof b, (double)p->dst_bytes);
    bench_plan_name_items(p, out, nout, names, sizeof names);
    char note[900];
    snprintf(note, sizeof note,
             "left out before the buffers are made, widest first: %s; at --size %s their buffers' fill (at the "
             "measured %.2f GB/s) and minimum of launches would take about %.0f s, of %.0f s left; without "
             "them the buffers are src %s and dst %s, about %.0f s (estimated from a calibration copy: its "
             "rate at the modeled bytes, its fill, its kernels' preparation); a larger --budget, or a smaller "
             "--size, measures them",
             names, size, rate->fill_gbs, c->auto_s, c->avail_s, a, b, c->need_s);
    size_t k = p->note ? strlen(p->note) : 0;
    char *joined = malloc(k + strlen(note) + 3);
    if (!joined)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    snprintf(joined, k + strlen(note) + 3, "%s%s%s", p->note ? p->note : "", k ? "; " : "", note);
    free(p->note);
    p->note = joined;
    return BW_OK;
}

bw_code bench_fit_buffers(bench_plan *p, const bench_settings *s, const bench_fit_rate *rate, double avail_s,
                          double bound_s, bench_fit_choice *c, bw_error *err)
{
    memset(c, 0, sizeof *c);
    c->avail_s = avail_s;
    c->auto_bytes = c->bytes = c->floor_bytes = p->target_bytes;
    c->auto_s = c->need_s = estimate_s(p, s, rate);
    size_t *out = calloc(p->n ? p->n : 1, sizeof *out), nout = 0;
    char *ref = references_of(p);
    if (!out || !ref) {
        free(out);
        free(ref);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    bw_code rc = BW_OK;
    long w;
    /* width is what the fill costs: left out for it only while the fill is
     * a large part of the time (the launches' excess is the runner's to
     * leave out, costliest first) */
    while (rc == BW_OK && c->need_s > avail_s && fill_s(p, rate) > BENCH_FIT_FILL_SHARE * avail_s &&
           (w = widest(p, ref)) >= 0) {
        const bench_item *it = &p->items[w];
        char a[32], b[32], size[32], why[400];
        bw_format_bytes(a, sizeof a, (double)bench_family_src_bytes(it));
        bw_format_bytes(b, sizeof b, (double)bench_family_dst_bytes(it));
        bw_format_bytes(size, sizeof size, (double)p->target_bytes);
        snprintf(why, sizeof why,
                 "left out before measuring: at --size %s its buffers (src %s, dst %s) are wider than the %.0f s "
                 "budget can fill: with them the run's estimate was about %.1f s of %.1f s left (the buffers' "
                 "fill at the measured %.2f GB/s, and the minimum of launches); a larger --budget, or a smaller "
                 "--size, measures it",
                 size, a, b, s->budget_s, c->need_s, avail_s, rate->fill_gbs);
        if ((rc = bench_plan_leave_out(p, (size_t)w, why, err)) == BW_OK) {
            out[nout++] = (size_t)w;
            c->need_s = estimate_s(p, s, rate);
        }
    }
    double fill = fill_s(p, rate) + rate->build_s;
    if (rc == BW_OK && fill > bound_s)
        rc = too_slow_to_fill(p, s, rate, fill, bound_s, err);
    if (rc == BW_OK && nout) {
        rc = buffers_note(p, c, rate, out, nout, err);
        snprintf(c->note, sizeof c->note, "%s", p->note);
    }
    free(out);
    free(ref);
    return rc;
}
