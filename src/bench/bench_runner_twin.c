/* bench_runner_twin: a pattern's twin within the run: which twins can
 * change a verdict, their size against the cache, their rounds interleaved
 * with the pattern's own launches, and the figure settled from them, or
 * the reason there is none. The twin's sizing and model are host code in
 * bench_twin.c (bench_runner_priv.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_runner_priv.h"
#include "bench_twin.h"
#include "bw_format.h"
#include "bw_hook.h"

#define TWIN_SHRINK 8

void bench_runner_no_twin(bench_result *res, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(res->twin_reason);
    res->twin_reason = strdup(msg);
}

/* the last-level cache the twin must fit in (bench_plan.twin_cache_bytes) */
static uint64_t twin_cache(const run_ctx *r)
{
    return r->plan->twin_cache_bytes;
}

/* N for item i: sized from the modeled bytes per work-item (the
 * instruction-model bytes: no prefix of the launch touches more, warps
 * being alike), then checked against the exact footprint of 2N items and
 * halved while it does not fit; 0 with the reason set when none fits */
static int64_t twin_size(run_ctx *r, size_t i)
{
    const bench_item *it = &r->plan->items[i];
    bench_result *res = &r->res[i];
    const model_launch *m = &it->model;
    uint64_t cache = twin_cache(r), room = cache / BENCH_TWIN_CACHE_DIVISOR;
    double per_item = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * r->plan->geo.sector) /
                      (double)it->items;
    char a[32], b[32];
    if (!cache) {
        bench_runner_no_twin(res, "no twin: no last-level cache size is known (%s)", r->plan->twin_cache_source);
        return 0;
    }
    /* a launch that is itself partly cache-resident has no memory to take
     * out of the way: its twin would compare the cache with the cache */
    uint64_t whole = (uint64_t)((m->loads.footprint_sectors + m->stores.footprint_sectors) * r->plan->geo.sector);
    if (whole < 2 * cache) {
        bw_format_bytes(a, sizeof a, (double)whole);
        bw_format_bytes(b, sizeof b, (double)cache);
        bench_runner_no_twin(res, "no twin: the launch touches %s (modeled), less than twice the %s last-level "
                             "cache, so it is partly served from the cache itself", a, b);
        return 0;
    }
    /* a slice is whole launches of K items per work-item (bench_item.unroll) */
    int64_t unit = it->local_size * bench_item_unroll(it);
    int64_t n = bench_twin_slice(per_item, cache, unit, it->items);
    uint64_t fp = 0;
    for (int k = 0; n > 0 && k <= TWIN_SHRINK; k++) {
        bw_error e = BW_ERROR_INIT;
        if (bench_twin_footprint(&r->plan->geo, it, 2 * n, &fp, &e) != BW_OK) {
            bench_runner_no_twin(res, "no twin: %s", bw_error_text(&e));
            bw_error_clear(&e);
            return 0;
        }
        if (fp <= room) {
            /* no larger than its timing needs: the smaller the slice, the
             * surer it stays in a cache the figure may overstate
             * (bench_twin_timed_slice); twin_settle grows it back toward
             * the cache's N if it does not resolve */
            r->slots[i].twin_cap = n;
            double pace = res->event.count > 0 ? res->event.min : r->slots[i].cal_ns;
            int64_t timed = bench_twin_timed_slice(pace, it->items, bench_runner_device_floor_ns(r), unit);
            return timed > 0 && timed < n ? timed : n;
        }
        n = n / 2 / unit * unit;
    }
    bw_format_bytes(a, sizeof a, (double)cache);
    bw_format_bytes(b, sizeof b, per_item * 2.0 * (double)it->local_size);
    bench_runner_no_twin(res, "no twin: two work-groups (%lld work-items) touch about %s (modeled), more than "
                         "1/%d of the %s last-level cache", (long long)(2 * it->local_size), b,
                         BENCH_TWIN_CACHE_DIVISOR, a);
    return 0;
}

/* One round of item i's twin, right after one of its own timed launches,
 * whose footprint (at least twice the cache) has evicted the slice: the
 * first 2N work-items cold, which is the pattern at its memory's pace;
 * then N and 2N of them warm, which is the twin. Interleaved with the
 * pattern's launches, the twin meets the host the pattern meets, and its
 * evicting launch is a sample, not a cost. A failed launch ends the twin
 * with its reason. */
static void twin_round(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    const bench_item *it = &r->plan->items[i];
    uint64_t n = (uint64_t)sl->twin_n, K = (uint64_t)bench_item_unroll(it);
    ocl_timing tc, t1, t2;
    bw_error e = BW_ERROR_INIT;
    /* the first 2N (N) items: 2N / K (N / K) work-items of span as many,
     * in the form its own launches take */
    bench_form f = r->res[i].form;
    bw_code rc = bench_runner_launch_span(r, i, sl->kern, f, (int64_t)(2 * n / K), &tc, &e);
    if (rc == BW_OK)
        rc = bench_runner_launch_span(r, i, sl->kern, f, (int64_t)(n / K), &t1, &e);
    if (rc == BW_OK)
        rc = bench_runner_launch_span(r, i, sl->kern, f, (int64_t)(2 * n / K), &t2, &e);
    if (rc != BW_OK) {
        bench_runner_no_twin(&r->res[i], "no twin: %s", bw_error_text(&e));
        bw_error_clear(&e);
        sl->twin_n = 0;
        sl->twinned = 1;
        return;
    }
    /* a 0 ns event is no sample: as slow as can be, it is never the fastest */
    size_t k = sl->twin_k++;
    sl->twin_cold[k] = bench_sample_ok(tc.event_ns) ? tc.event_ns : INFINITY;
    sl->twin_one[k] = bench_sample_ok(t1.event_ns) ? t1.event_ns : INFINITY;
    sl->twin_two[k] = bench_sample_ok(t2.event_ns) ? t2.event_ns : INFINITY;
}

/* Item i's twin from its rounds so far. The fastest launch of each kind is
 * the least disturbed by the host (its hiccups only ever add time).
 * Launch overhead cancels: the twin's per-item time is (T(2N) - T(N)) / N
 * warm, and the overhead 2 T(N) - T(2N) comes off the cold slice. A
 * difference below the timer floor grows the slice (4 N, at most the
 * cache's N) for another set of rounds; at the cache's N it is measured
 * once more, and then, or in the last rounds (`last`: the measurement
 * ended), it gives no figure. */
static void twin_settle(run_ctx *r, size_t i, int last)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    const bench_item *it = &r->plan->items[i];
    int64_t n = sl->twin_n;
    double c = bench_stats_of(sl->twin_cold, sl->twin_k).min, t1 = bench_stats_of(sl->twin_one, sl->twin_k).min,
           t2 = bench_stats_of(sl->twin_two, sl->twin_k).min;
    double diff = t2 - t1, overhead = 2 * t1 - t2;
    double floor = bench_runner_run_floor_ns(r);
    sl->twin_k = 0;
    int growing = n < sl->twin_cap && !last;
    /* the test hook: short while the slice grows, and with @N its first set at the cache's N */
    int64_t hook_n = 0;
    int forced =
        bw_hook_fault("twin_short", it->spec, &hook_n) && (growing || (hook_n > 0 && sl->twin_unresolved == 0));
    int unresolved = !(diff >= floor) || forced;
    if (growing && unresolved) {
        /* too short to resolve on this host now: 4 times the slice, within
         * what the cache holds, and its rounds again */
        sl->twin_n = 4 * n < sl->twin_cap ? 4 * n : sl->twin_cap;
        return;
    }
    if (unresolved) {
        /* at the cache's N, a busy host can give every N launch less of the
         * CPUs than the fastest 2N one (T(2N) <= T(N)): once more */
        if (sl->twin_unresolved++ == 0 && !last)
            return;
        char took[32], fl[32];
        bench_runner_format_us(took, sizeof took, diff > 0 && isfinite(diff) ? diff : 0);
        bench_runner_format_us(fl, sizeof fl, floor);
        bench_runner_no_twin(res, "no twin: its launch of %lld more work-items takes %s more (measured), below "
                             "the %s floor%s", (long long)n, took, fl,
                             sl->twin_unresolved > 1 ? ", in two sets of rounds" : "");
        res->twin_items = 0;
        res->twin_item_ns = res->twin_ns = res->twin_cold_ns = 0;
        sl->twinned = 1;
        return;
    }
    if (overhead < 0)
        overhead = 0;
    res->twin_items = n;
    res->twin_item_ns = diff / (double)n;
    res->twin_ns = res->twin_item_ns * (double)it->items;
    res->twin_cold_ns = (c - overhead) / (double)(2 * n) * (double)it->items;
    /* a twin slower than its own pattern is a measurement error: measured
     * once more, interleaved with the pattern's later launches */
    if (res->twin_ns > BENCH_TWIN_MAX_RATIO * res->event.min && res->event.min > 0 && sl->twin_tries++ == 0)
        return;
    sl->twinned = 1;
}

/* whether item i's twin is still collecting its rounds */
int bench_runner_twin_collecting(const slot *sl)
{
    return !sl->twinned && sl->twin_n > 0;
}

/* after one of item i's timed launches: its twin's next round while it collects them */
void bench_runner_twin_after_launch(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    if (!bench_runner_twin_collecting(sl) || r->res[i].status != BENCH_OK)
        return;
    twin_round(r, i);
    if (bench_runner_twin_collecting(sl) && sl->twin_k == TWIN_ROUNDS)
        twin_settle(r, i, 0);
}

/* the rounds end: a twin still collecting is read from the rounds it has */
void bench_runner_twin_end(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    if (!bench_runner_twin_collecting(sl))
        return;
    if (sl->twin_k >= TWIN_ROUNDS_MIN)
        twin_settle(r, i, 1);
    else if (r->res[i].twin_items == 0)
        bench_runner_no_twin(&r->res[i], "no twin: the budget ended after %zu of its rounds (at least %d are needed)",
                sl->twin_k, TWIN_ROUNDS_MIN);
    sl->twinned = 1;
}

/* The twin's rounds in launches of its item, an estimate for the plan:
 * three slices a round, whose footprint is at most an eighth of the
 * launch's (twin_size: 2N within a quarter of a cache the launch touches
 * at least twice over), so at most 5/16 of a launch; and the evicting
 * launches beyond the item's `reps`, which are samples too. */
double bench_runner_twin_launches(double reps)
{
    double beyond = TWIN_ROUNDS > reps ? TWIN_ROUNDS - reps : 0;
    return TWIN_ROUNDS * 5.0 / 16.0 + beyond;
}

static double twin_cost_ns(const run_ctx *r, const slot *sl)
{
    return bench_runner_twin_launches(r->s->min_reps) * sl->cal_ns;
}

/* Which twins can change a verdict. The twin only turns "slower than the
 * model explains" into "kernel-bound" (bench_verdict_with_bound), so it is
 * timed for references, whose bound the report states, and for items
 * whose calibration launch already reads near or above the model's upper
 * bound at the reference's calibration rate (a single launch's noise is
 * allowed for: 0.8 of the bound). Every other item says why it has none. */
void bench_runner_plan_twins(run_ctx *r)
{
    const bench_plan *p = r->plan;
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        slot *sl = &r->slots[i];
        if (r->res[i].status != BENCH_OK || it->fam->no_twin)
            continue;
        long ref = bench_plan_reference(p, i);
        if (ref < 0 || (size_t)ref == i) {
            sl->need_twin = 1;
            continue;
        }
        if (r->res[ref].status != BENCH_OK || !(r->slots[ref].cal_ns > 0)) {
            sl->need_twin = 1;
            continue;
        }
        const model_launch *m = &it->model, *rm = &p->items[ref].model;
        double lower = (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * p->geo.sector);
        double upper = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector);
        double ref_bytes = (double)((rm->loads.footprint_sectors + rm->stores.footprint_sectors) * p->geo.sector);
        bench_verdict v = bench_verdict_of(sl->cal_ns, lower, upper, r->slots[ref].cal_ns, ref_bytes);
        sl->need_twin = v.code == BENCH_VERDICT_ABOVE || v.implied_bytes >= 0.8 * upper;
        if (!sl->need_twin) {
            free(r->res[i].twin_reason);
            r->res[i].twin_reason =
                strdup("no twin: its calibration launch sits within the model's bounds (measured against the "
                       "reference's), where a twin cannot change the verdict");
        }
    }
}

/* The twin of item i once its form is chosen, if the plan asks for it
 * and the time left holds it twice over (else it says why it has none):
 * sized now, its rounds then follow the item's own timed launches
 * (twin_after_launch). */
void bench_runner_twin_when_due(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    bench_result *res = &r->res[i];
    if (sl->twinned || sl->twin_n > 0 || sl->alt || res->status != BENCH_OK)
        return;
    res->twin_ratio = NAN;
    if (r->plan->items[i].fam->no_twin) {
        bench_runner_no_twin(res, "%s", r->plan->items[i].fam->no_twin);
        sl->twinned = 1;
        return;
    }
    if (!sl->need_twin || r->s->no_twins) {
        sl->twinned = 1;
        return;
    }
    /* below BENCH_PLAN_MIN_BUDGET_S nothing is bounded, and the twin is timed anyway */
    int bounded = r->s->budget_s >= BENCH_PLAN_MIN_BUDGET_S;
    if (bounded && bench_runner_time_left(r) * 1e9 < 2 * twin_cost_ns(r, sl)) {
        bench_runner_no_twin(res, "no twin: the budget had no time left for it");
        sl->twinned = 1;
        return;
    }
    sl->twin_n = twin_size(r, i);
    if (sl->twin_n == 0)
        sl->twinned = 1;
}
