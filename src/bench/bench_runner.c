/* bench_runner: measuring a plan on one device: buffers filled, each
 * pattern built, validated and warmed up, then timed round-robin, its
 * twin's launches interleaved, until its median is stable or the budget
 * ends (bench_runner.h). This file is the run's lifecycle, from its
 * settings to the figures read from its samples at its end; its parts
 * live in bench_runner_*.c (bench_runner_priv.h). */
#include "bench_runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_runner_priv.h"
#include "bench_stats.h"
#include "bench_twin.h"
#include "bw_hook.h"

/* below about 20 us, launch overhead and timer ticks dominate an event time */
#define LAUNCH_FLOOR_NS 20000.0
/* A launch lasts at least this many ticks of its timer: a tick is then at
 * most 1% of one sample and, the tick's phase being random, far less of a
 * median of many. More would hurt: at 1000 ticks a 1 us timer (NVIDIA's)
 * makes a floor longer than a fast GPU takes to stream a default working
 * set, and no pattern of a default run could be measured there. */
#define LAUNCH_FLOOR_TICKS 100.0

bench_settings bench_settings_default(void)
{
    bench_settings s = { 50.0, 0.0, 0.01, 5, 2000, 1, 0.0, 0.2, 0, 0, 0 };
    return s;
}

double bench_launch_floor_ns(const bench_settings *s, uint64_t timer_resolution_ns)
{
    if (s->min_launch_ns > 0)
        return s->min_launch_ns;
    double f = LAUNCH_FLOOR_TICKS * (double)timer_resolution_ns;
    return f > LAUNCH_FLOOR_NS ? f : LAUNCH_FLOOR_NS;
}

int bench_sample_ok(double event_ns)
{
    return event_ns > 0 && isfinite(event_ns);
}

void bench_runner_report(run_ctx *r, const char *phase, size_t done, size_t total, const char *spec,
                         double remaining)
{
    bw_hook_phase(phase); /* test builds only: a signal as this phase begins */
    if (!r->progress)
        return;
    double now = bench_now_s();
    if (remaining < 0 && r->deadline > 0)
        remaining = r->deadline > now ? r->deadline - now : 0;
    bench_progress p = { phase, done, total, spec, now - r->t_start, remaining, NULL, -1 };
    r->progress(r->pctx, &p);
}

/* seconds until the run's deadline (negative once past it) */
double bench_runner_time_left(const run_ctx *r)
{
    return r->deadline - bench_now_s();
}

static void finish_one(run_ctx *r, size_t i);

/* pattern i is done: its figures, once, to the progress callback */
void bench_runner_report_finished(run_ctx *r, size_t i)
{
    if (r->slots[i].reported)
        return;
    r->slots[i].reported = 1;
    if (!r->progress)
        return;
    if (r->res[i].status == BENCH_OK)
        finish_one(r, i);
    bench_progress p = { "finished", i, r->plan->n, r->plan->items[i].spec, bench_now_s() - r->t_start, -1,
                         r->res, (long)i };
    r->progress(r->pctx, &p);
}

void bench_runner_fail(bench_result *res, bw_code code, const char *msg)
{
    res->status = BENCH_FAILED;
    res->failure_code = code;
    free(res->failure);
    res->failure = strdup(msg);
}

/* "3.2 us" with the precision a reader needs */
void bench_runner_format_us(char *buf, size_t n, double ns)
{
    double us = ns / 1000.0;
    snprintf(buf, n, us < 10 ? "%.2f µs" : us < 1000 ? "%.1f µs" : "%.0f µs", us);
}

void bench_runner_not_measurable(bench_result *res, const char *msg)
{
    res->status = BENCH_NOT_MEASURABLE;
    res->failure_code = BW_E_RANGE;
    free(res->failure);
    res->failure = strdup(msg);
}

/* what a kernel-bound item i waits for, by device type, form and addresses */
static bench_limiter limiter(const run_ctx *r, size_t i)
{
    const ocl_device_info *d = ocl_context_device(r->ctx);
    if (d->type == OCL_TYPE_GPU)
        return BENCH_LIMITER_GPU;
    if (d->type != OCL_TYPE_CPU)
        return BENCH_LIMITER_OTHER;
    if (r->res[i].form == BENCH_FORM_SCALAR)
        return BENCH_LIMITER_CPU_SCALAR;
    if (r->res[i].form == BENCH_FORM_WARP)
        return BENCH_LIMITER_CPU_WARP;
    return bench_twin_contiguous(&r->plan->geo, &r->plan->items[i]) ? BENCH_LIMITER_CPU_VECTOR
                                                                     : BENCH_LIMITER_CPU_GATHER;
}

/* The run's repeatability: the largest spread of a seq median and of a
 * relative_to_reference, and whether either passes its limit. A figure
 * that cannot be estimated (fewer than 4 samples) says nothing of the
 * machine: its row is unstable, which the row says (bench_stats_noisy). */
/* whether spread a is worse than b: a defined spread is worse than an
 * undefined one (too few launches) */
static int worse(double a, double b)
{
    return !isnan(a) && (isnan(b) || a > b);
}

static void noise(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    info->seq_spread = info->relative_spread = NAN;
    info->seq_item = info->relative_item = -1;
    info->noisy = 0;
    for (size_t i = 0; i < p->n; i++) {
        const bench_result *res = &r->res[i];
        if (res->status != BENCH_OK)
            continue;
        if (bench_plan_is_seq_reference(&p->items[i])) {
            info->noisy |= bench_stats_noisy(res->spread, BENCH_NOISY_SEQ);
            if (info->seq_item < 0 || worse(res->spread, info->seq_spread)) {
                info->seq_spread = res->spread;
                info->seq_item = (long)i;
            }
        }
        if (res->reference >= 0 && (size_t)res->reference != i && isfinite(res->relative_to_reference)) {
            info->noisy |= bench_stats_noisy(res->relative_spread, BENCH_NOISY_RELATIVE);
            if (info->relative_item < 0 || worse(res->relative_spread, info->relative_spread)) {
                info->relative_spread = res->relative_spread;
                info->relative_item = (long)i;
            }
        }
    }
}

/* the figures of measured pattern i that need no other pattern; run again
 * by finish(), so it must be idempotent */
static void finish_one(run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    bench_result *res = &r->res[i];
    res->event = bench_stats_of(res->event_ns, res->event.count);
    res->wall = bench_stats_of(res->wall_ns, res->event.count);
    /* the model's requested bytes, or a bank item's local bytes read */
    double bytes = p->items[i].fam->bytes(&p->items[i]);
    res->effective_gbs = res->event.median > 0 ? bytes / res->event.median : 0.0;
    res->best_gbs = res->event.min > 0 ? bytes / res->event.min : 0.0;
    res->stable = r->slots[i].met;
    res->spread = bench_stats_spread(res->event_ns, res->event.count);
    /* against the pattern's own fastest launch: the twin's figures are
     * fastest launches too, and the full launch is what is explained */
    res->bound = bench_bound_of(res->event.min, res->twin_ns);
    res->twin_ratio = res->bound != BENCH_BOUND_UNKNOWN ? res->twin_ns / res->event.min : NAN;
    /* a twin slower than its own pattern measured the host, not the
     * kernel: its ratio is shown, no bound is derived from it */
    if (res->twin_ratio > BENCH_TWIN_MAX_RATIO) {
        char msg[320];
        snprintf(msg, sizeof msg, "twin not used: the cache-resident twin took %.2fx the pattern's fastest launch "
                 "(measured%s), more than %.2fx: a twin cannot be slower than its own pattern, so this is "
                 "a measurement error, not a bound", res->twin_ratio, r->slots[i].twin_tries > 1 ? ", twice" : "",
                 BENCH_TWIN_MAX_RATIO);
        free(res->twin_reason);
        res->twin_reason = strdup(msg);
        res->bound = BENCH_BOUND_UNKNOWN;
    }
}

/* the lower bound on item i's traffic: its footprint in DRAM units where
 * the geometry has one (the memory fills whole units), else in sectors */
static double footprint_bytes(const bench_plan *p, long i)
{
    const model_launch *m = &p->items[i].model;
    if (p->geo.dram_unit > 0)
        return (double)((m->loads.footprint_dram_units + m->stores.footprint_dram_units) * p->geo.dram_unit);
    return (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * p->geo.sector);
}

/* the upper bound: every instruction fetches its own sectors, and never
 * less than the lower bound (a DRAM footprint can pass the sectors' sum
 * where the units are larger than what the instructions touch) */
static double instruction_bytes(const bench_plan *p, long i)
{
    const model_launch *m = &p->items[i].model;
    double s = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector);
    double lower = footprint_bytes(p, i);
    return lower > s ? lower : s;
}

/* The item whose rate places patterns read against reference ref between
 * the model's bounds: ref itself, or a faster measured seq-family item of
 * the same access mode (seq:elem=16 beside seq). Each moves exactly its
 * modeled bytes, so the fastest is the nearest to memory's own rate; a
 * reference slower than that is limited by its kernel, not by memory, and
 * its rate would put the strided patterns below the model's lower bound. */
static long verdict_rate_item(const run_ctx *r, long ref)
{
    const bench_plan *p = r->plan;
    long best = ref;
    double best_rate = footprint_bytes(p, ref) / r->res[ref].event.median;
    if (!bench_plan_is_seq_reference(&p->items[ref]))
        return ref;
    for (size_t k = 0; k < p->n; k++) {
        const bench_item *it = &p->items[k];
        const bench_result *res = &r->res[k];
        if (!bench_plan_is_seq_reference(it) || it->access != p->items[ref].access || it->fam != p->items[ref].fam ||
            res->status != BENCH_OK || !(res->event.median > 0))
            continue;
        double rate = footprint_bytes(p, (long)k) / res->event.median;
        if (rate > best_rate) {
            best_rate = rate;
            best = (long)k;
        }
    }
    return best;
}

/* Item i's bandwidth relative to its reference's: the median of their
 * per-round ratios (bench_pair_ratio) with its interval and its spread,
 * scaled by their bytes; where no round holds both (a reference that
 * stopped before the item was timed), the ratio of their medians, with no
 * interval and no spread. */
static double relative_of(run_ctx *r, size_t i, size_t ref)
{
    bench_result *res = &r->res[i];
    res->relative_ci[0] = res->relative_ci[1] = res->relative_spread = NAN;
    res->paired_rounds = 0;
    double plain = res->effective_gbs / r->res[ref].effective_gbs;
    if (i == ref)
        return plain;
    bench_pair_ci c = bench_runner_paired(r, i, ref);
    res->paired_rounds = c.rounds;
    if (!(c.median > 0))
        return plain;
    double bytes = bench_runner_bytes_ratio(r, i, ref);
    res->relative_ci[0] = c.lo * bytes;
    res->relative_ci[1] = c.hi * bytes;
    res->relative_spread = c.spread * c.median * bytes;
    return c.median * bytes;
}

/* Reference i against its control slot: each slot's median and the
 * paired ratio of their bandwidths (own over control) with its verdict */
static void check_reference(run_ctx *r, size_t i)
{
    bench_result *res = &r->res[i];
    const slot *sl = &r->slots[i];
    res->has_check = sl->is_reference && res->status == BENCH_OK;
    if (!res->has_check)
        return;
    bench_pair_series own = { res->event_ns, sl->ev_round, sl->ev_slot, res->event.count, 0, sl->ev_pos };
    bench_pair_series ctl = { res->event_ns, sl->ev_round, sl->ev_slot, res->event.count, 1, sl->ev_pos };
    /* control's time over own's: the own slot's bandwidth over the control's */
    res->check = bench_pair_ratio(&ctl, &own);
    res->check_verdict = bench_pair_check(&res->check);
    double bytes = r->plan->items[i].fam->bytes(&r->plan->items[i]);
    double *v = malloc((res->event.count ? res->event.count : 1) * sizeof *v);
    res->own_gbs = res->control_gbs = NAN;
    for (int k = 0; v && k < 2; k++) {
        size_t n = 0;
        for (size_t j = 0; j < res->event.count; j++)
            if (sl->ev_slot[j] == k)
                v[n++] = res->event_ns[j];
        double m = n ? bench_stats_of(v, n).median : 0;
        *(k ? &res->control_gbs : &res->own_gbs) = m > 0 ? bytes / m : NAN;
    }
    free(v);
}

static void finish(run_ctx *r, int interrupted, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    for (size_t i = 0; i < p->n; i++) {
        bench_result *res = &r->res[i];
        res->spread = res->relative_spread = res->twin_ratio = NAN;
        if (res->status == BENCH_OK && res->event.count == 0) {
            res->status = BENCH_NOT_RUN;
            res->failure_code = BW_E_INTERRUPTED;
            free(res->failure);
            res->failure = strdup(interrupted ? "interrupted before it was measured" : "not measured");
            continue;
        }
        if (res->status == BENCH_OK) {
            finish_one(r, i);
            check_reference(r, i);
        }
    }
    for (size_t i = 0; i < p->n; i++) {
        bench_result *res = &r->res[i];
        long ref = bench_plan_reference(p, i);
        res->reference = ref;
        res->relative_to_reference = NAN;
        if (res->status != BENCH_OK || ref < 0 || r->res[ref].status != BENCH_OK ||
            !(r->res[ref].effective_gbs > 0)) {
            res->verdict = bench_verdict_of(0, 0, 0, 0, 0);
            continue;
        }
        res->relative_to_reference = relative_of(r, i, (size_t)ref);
        if (!p->items[i].fam->modeled) {
            /* no global traffic to place between bounds: no verdict */
            res->verdict = bench_verdict_of(0, 0, 0, 0, 0);
            continue;
        }
        double lower = footprint_bytes(p, (long)i);
        double upper = instruction_bytes(p, (long)i);
        long rate = verdict_rate_item(r, ref);
        res->verdict = bench_verdict_of(res->event.median, lower, upper, r->res[rate].event.median,
                                        footprint_bytes(p, rate));
        res->verdict.rate_item = rate;
        res->verdict.bound_dram = p->geo.dram_unit > 0;
        res->verdict.bound_unit_bytes = p->geo.dram_unit > 0 ? p->geo.dram_unit : p->geo.sector;
        res->verdict = bench_verdict_with_bound(res->verdict, res->bound, limiter(r, i));
        /* the reference, or an item with its addresses, slower than a wider
         * element streams the same bytes: the kernel's, by this run's own figures */
        int same_stream = rate != ref && ((long)i == ref || bench_plan_same_addresses(p, i, (size_t)ref));
        res->verdict = bench_verdict_with_rate(res->verdict, same_stream, limiter(r, i));
        /* a CPU's caches allocate on a store miss: the line is read before it is written */
        res->verdict.write_allocate =
            p->items[i].access == BENCH_ACCESS_WRITE && ocl_context_device(r->ctx)->type == OCL_TYPE_CPU;
    }
    noise(r, info);
    /* what completed without a notice (the budget ended, an interrupt, a
     * failure before timing) is finished now */
    for (size_t i = 0; i < p->n; i++)
        if (r->res[i].status != BENCH_NOT_RUN)
            bench_runner_report_finished(r, i);
}

bw_code bench_run(ocl_context *ctx, bench_plan *plan, const bench_kernels *kernels,
                  const bench_settings *s, volatile sig_atomic_t *stop, bench_progress_fn progress,
                  void *progress_ctx, bench_result **results, bench_run_info *info, bw_error *err)
{
    *results = NULL;
    memset(info, 0, sizeof *info);
    info->seq_item = info->relative_item = -1;
    info->seq_spread = info->relative_spread = NAN;
    info->timer_wall = !ocl_context_timer(ctx, &info->timer_resolution_ns, &info->launch_overhead_ns);
    run_ctx r = { .ctx = ctx, .plan = plan, .kernels = kernels, .s = s, .progress = progress,
                  .pctx = progress_ctx, .stop = stop, .t_start = bench_now_s() };
    r.deadline = s->deadline_s > 0 ? s->deadline_s : r.t_start + s->budget_s;
    r.res = calloc(plan->n, sizeof *r.res);
    r.slots = calloc(plan->n, sizeof *r.slots);
    bw_code rc = BW_OK;
    if (!r.res || !r.slots)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    /* the figures that need other patterns are unknown until finish(): a
     * result reported finished before then (the journal) says so, not 0 */
    for (size_t i = 0; rc == BW_OK && i < plan->n; i++) {
        r.res[i].reference = -1;
        r.res[i].relative_to_reference = r.res[i].relative_spread = NAN;
        r.res[i].relative_ci[0] = r.res[i].relative_ci[1] = NAN;
        r.res[i].own_gbs = r.res[i].control_gbs = NAN;
        r.res[i].check = (bench_pair_ci){ NAN, NAN, NAN, 0, NAN };
        r.res[i].spread = r.res[i].twin_ratio = NAN;
        r.res[i].verdict = bench_verdict_of(0, 0, 0, 0, 0);
        if (plan->items[i].left_out)
            bench_runner_leave_out(&r, i, 3, plan->items[i].left_out);
    }
    if (rc == BW_OK)
        rc = bench_runner_setup_buffers(&r, info, err);
    info->buffers_s = bench_now_s() - r.t_start;
    /* a signal while the buffers fill: nothing measured, every result says so */
    if (rc == BW_E_INTERRUPTED)
        bw_error_clear(err);
    else if (rc != BW_OK) {
        bench_runner_teardown(&r);
        bench_results_free(r.res, plan->n);
        return rc;
    }
    if (rc == BW_OK)
        bench_runner_prepare(&r, stop, info);
    if (!*stop)
        bench_runner_measure(&r, stop, info);
    info->interrupted = *stop != 0;
    finish(&r, info->interrupted, info);
    bench_runner_teardown(&r);
    info->total_s = bench_now_s() - r.t_start;
    *results = r.res;
    return info->interrupted ? bw_error_set(err, BW_E_INTERRUPTED, "interrupted") : BW_OK;
}

void bench_results_free(bench_result *r, size_t n)
{
    if (!r)
        return;
    for (size_t i = 0; i < n; i++) {
        free(r[i].failure);
        free(r[i].event_ns);
        free(r[i].wall_ns);
        free(r[i].twin_reason);
        free(r[i].budget_note);
        free(r[i].retry);
    }
    free(r);
}
