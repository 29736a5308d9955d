/* bench_pipeline: the run's devices from plan to results (bench_run.h):
 * plan every device, then per device fit the working set to the budget,
 * measure the patterns (retried smaller when the buffers cannot be had),
 * the short roofline and the transfers. */
#include "bench_run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fit.h"
#include "bench_limits.h"
#include "bench_tune_priv.h"
#include "bench_unroll_memory.h"
#include "bw_buf.h"
#include "bw_format.h"
#include "bw_hook.h"

/* the transfers after each device's patterns: at most this share of the
 * budget, and this long (bench_probe_opts.deadline_s) */
#define TRANSFERS_SHARE 0.1
#define TRANSFERS_MAX_S 4.0
/* Under BENCH_PLAN_MIN_BUDGET_S, where the budget bounds the patterns'
 * rounds only, the transfers still stop: at TRANSFERS_MAX_S of their own
 * (a sweep to 1 GiB takes many times that on a CPU device) */
#define TRANSFERS_SHORT_S TRANSFERS_MAX_S
/* the share of a device's time left that a fitted working set's estimate
 * may take (bench_fit): the rest is for what it leaves out (validation's
 * samples) and the estimate's error (strided launches that the TLB slows
 * beyond their modeled bytes) */
#define FIT_SHARE 0.8
/* an automatically sized transpose's model count: at most this share of
 * the budget, and this long (bench_plan_opts.model_s) */
#define MODEL_SHARE 0.04
#define MODEL_MAX_S 2.0
/* the bound a budget S holds the run to: S + BOUND_SHARE * S + BOUND_S */
#define BOUND_SHARE 0.1
#define BOUND_S 2.0

static void note(const bench_pipeline *p, const char *fmt, ...) BW_PRINTF(2, 3);
static void note(const bench_pipeline *p, const char *fmt, ...)
{
    if (!p->ev.note)
        return;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    p->ev.note(p->ev.ctx, line);
}

static void failed(const bench_pipeline *p, const bw_error *err)
{
    if (p->ev.failed)
        p->ev.failed(p->ev.ctx, err);
}

static void progress(const bench_pipeline *p, size_t k, const char *phase, const char *spec)
{
    if (!p->ev.progress)
        return;
    bench_progress shown = { phase, 0, 1, spec, 0, p->settings.deadline_s - bench_now_s(), NULL, -1 };
    p->ev.progress(p->ev.ctx, k, &shown);
}

static int stopped(const bench_pipeline *p)
{
    return p->stop && *p->stop;
}

static const ocl_device_info *device_of(const bench_pipeline *p, size_t k)
{
    return ocl_device_at(p->plats, p->dev_idx[k]);
}

static void device_free(bench_pipeline_device *d)
{
    bench_results_free(d->results, d->plan ? d->plan->n : 0);
    bench_plan_free(d->plan);
    ocl_context_free(d->ctx);
    free(d->failure);
    free(d->retry);
    bench_roofline_result_free(d->roof);
    free(d->roof_failure);
    bench_probe_result_free(d->xfers);
    free(d->xfer_failure);
    free(d->compression_failure);
}

void bench_pipeline_free(bench_pipeline *p)
{
    for (size_t i = 0; p->devs && i < p->ndev; i++)
        device_free(&p->devs[i]);
    free(p->devs);
    free(p->roof_source);
    free(p->roof_path);
    p->devs = NULL;
    p->roof_source = p->roof_path = NULL;
}

double bench_pipeline_model_s(double budget_s)
{
    if (budget_s < BENCH_PLAN_MIN_BUDGET_S)
        return 0;
    return MODEL_SHARE * budget_s < MODEL_MAX_S ? MODEL_SHARE * budget_s : MODEL_MAX_S;
}

/* Every pattern of a device that failed as a whole is reported failed with
 * the device's reason, so each output format shows what was not measured. */
static bw_code device_failed_results(bench_pipeline_device *dev, bw_code code)
{
    const bench_plan *p = dev->plan;
    bench_result *r = calloc(p->n, sizeof *r);
    if (!r)
        return BW_E_NOMEM;
    dev->results = r;
    for (size_t i = 0; i < p->n; i++) {
        r[i].status = BENCH_FAILED;
        r[i].failure_code = code;
        r[i].reference = -1;
        r[i].relative_to_reference = NAN;
        if (!(r[i].failure = strdup(dev->failure)))
            return BW_E_NOMEM;
    }
    return BW_OK;
}

static double roofline_budget(const bench_pipeline *p)
{
    return p->settings.budget_s < BENCH_PIPELINE_ROOFLINE_S ? p->settings.budget_s : BENCH_PIPELINE_ROOFLINE_S;
}

static double transfers_budget(const bench_pipeline *p)
{
    double b = TRANSFERS_SHARE * p->settings.budget_s;
    return b < TRANSFERS_MAX_S ? b : TRANSFERS_MAX_S;
}

/* device k's plan options at a working set of `size` bytes (0: automatic) */
static bench_plan_opts device_opts(const bench_pipeline *p, const ocl_device_info *d, uint64_t size)
{
    bench_plan_opts o = p->popts;
    o.size = size;
    /* the device's K once chosen (bench_pipeline_device.unroll and
     * unroll_read), else 1 */
    o.unroll = p->unroll > 0 ? p->unroll : 1;
    o.unroll_read = o.unroll;
    for (size_t k = 0; k < p->ndev && p->devs; k++)
        if (device_of(p, k) == d && p->devs[k].unroll > 0) {
            o.unroll = p->devs[k].unroll;
            o.unroll_read = p->devs[k].unroll_read > 0 ? p->devs[k].unroll_read : o.unroll;
        }
    o.unroll_ladder = 0;
    /* the kernel asks for the sub-group size the device takes as W (Intel) */
    o.reqd_sub_group_size = (int)d->reqd_sub_group_size;
    o.compute_units = d->compute_units;
    /* a CPU runtime vectorises across work-items: time the scalar form too;
     * test builds only: a GPU simulator (tools/oclgrind.sh) builds it too */
    o.scalar_form = d->type == OCL_TYPE_CPU || bw_hook_fault("scalar_form", NULL, NULL);
    o.read_flag = d->type == OCL_TYPE_CPU;
    return o;
}

/* Device k's plan at a working set of `size` bytes (0: automatic); what
 * the plan left out is said before anything is measured. */
static bw_code plan_device(const bench_pipeline *p, size_t k, uint64_t size, bench_plan **out, bw_error *err)
{
    const ocl_device_info *d = device_of(p, k);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o = device_opts(p, d, size);
    bw_code rc = bench_plan_make(&o, &d->geo, &lim, out, err);
    if (rc == BW_OK && (*out)->note)
        note(p, "device %zu: %s", p->dev_idx[k], (*out)->note);
    return rc;
}

bw_code bench_pipeline_plan(bench_pipeline *p, size_t *planned)
{
    *planned = 0;
    if (!(p->devs = calloc(p->ndev ? p->ndev : 1, sizeof *p->devs)))
        return BW_E_NOMEM;
    bw_code first = BW_OK;
    for (size_t k = 0; k < p->ndev; k++) {
        bench_pipeline_device *dev = &p->devs[k];
        bw_error err = BW_ERROR_INIT;
        bw_code rc = plan_device(p, k, p->popts.size, &dev->plan, &err);
        if (rc == BW_OK) {
            /* the same list on every device: said once */
            if ((*planned)++ == 0 && dev->plan->merged)
                note(p, "%zu repeated pattern%s merged: each pattern is measured once", dev->plan->merged,
                     dev->plan->merged == 1 ? "" : "s");
            continue;
        }
        const ocl_device_info *d = device_of(p, k);
        bw_error_prefix(&err, "on device %zu (%s): ", d->index, d->name);
        failed(p, &err);
        if (first == BW_OK)
            first = rc;
        if (p->ndev == 1) {
            bw_error_clear(&err);
            return rc;
        }
        dev->failure = strdup(bw_error_text(&err));
        bw_error_clear(&err);
        if (!dev->failure)
            return BW_E_NOMEM;
    }
    return *planned ? BW_OK : first;
}

/* Device k's buffers could not be had at its plan's size (bench_run's
 * BW_E_TOOBIG: the allocation, or the first write, fill or launch of a
 * lazily allocating driver, answered -4, -5 or -61, err says which): the
 * device is planned once more at half the working set, through the plan's
 * own sizing as --size would be, and retry says what changed. BW_OK with
 * the plan replaced; else err says why (the first failure when there is
 * nothing smaller to try, which is never retried twice). */
static bw_code retry_smaller(bench_pipeline *p, size_t k, bw_error *err)
{
    bench_pipeline_device *dev = &p->devs[k];
    bench_plan *old = dev->plan;
    uint64_t half = old->target_bytes / 2;
    if (dev->retry || half < 4096)
        return BW_E_TOOBIG;
    char was[32], now[32];
    bw_format_bytes(was, sizeof was, (double)old->target_bytes);
    bw_format_bytes(now, sizeof now, (double)half);
    bw_buf why = BW_BUF_INIT;
    bw_buf_printf(&why, "working set %s failed (%s); ran at %s, half of it", was, bw_error_text(err), now);
    bench_plan *np = NULL;
    bw_error perr = BW_ERROR_INIT;
    if (plan_device(p, k, half, &np, &perr) != BW_OK) {
        bw_error_clear(&perr);
        bw_buf_free(&why);
        return BW_E_TOOBIG; /* err keeps the first failure */
    }
    if (!(dev->retry = strdup(bw_buf_str(&why)))) {
        bench_plan_free(np);
        bw_buf_free(&why);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    bw_buf_free(&why);
    note(p, "on device %zu: %s", device_of(p, k)->index, dev->retry);
    bw_error_clear(err);
    bench_plan_free(old);
    dev->plan = np;
    return BW_OK;
}

/* Whether device k's calibration is built afresh (bench_fit_measure): where
 * a fit will price the plan's compiles from it, on a budget of
 * BENCH_FIT_FULL_CALIBRATION_S or more; a shorter one has no time for
 * compiles it does not need, and its fit is the buffers' fill's. */
static int fresh_calibration(const bench_pipeline *p, size_t k)
{
    const bench_plan *plan = p->devs[k].plan;
    if (p->settings.budget_s < BENCH_FIT_FULL_CALIBRATION_S)
        return 0;
    return plan->target_auto ? bench_fit_may_shrink(plan, p->settings.budget_s) : bench_fit_buffers_worth(plan);
}

/* One calibration copy on device k (bench_fit_measure) into rate; *have
 * is 0 when it failed, which a note says (the plan then stays as it is).
 * BW_E_INTERRUPTED on a signal. */
static bw_code calibrate(bench_pipeline *p, size_t k, bench_fit_rate *rate, int *have)
{
    bench_pipeline_device *dev = &p->devs[k];
    *have = 0;
    memset(rate, 0, sizeof *rate);
    if (dev->have_rate) { /* the unroll ladder's calibration, measured at the chosen K */
        rate->bytes = dev->rate_bytes;
        rate->copy_gbs = dev->rate_gbs;
        rate->fill_gbs = dev->rate_fill_gbs;
        rate->build_s = dev->rate_build_s;
        rate->elapsed_s = dev->rate_elapsed_s;
        rate->prep_kernel_s = dev->rate_prep_kernel_s;
        *have = 1;
        return BW_OK;
    }
    bw_hook_phase("calibrating"); /* test builds only: a signal as this phase begins */
    progress(p, k, "calibrating", "the device's copy rate");
    const ocl_device_info *d = device_of(p, k);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o = device_opts(p, d, 0);
    bw_error e = BW_ERROR_INIT;
    bw_code rc = bench_fit_measure(dev->ctx, &o, &d->geo, &lim, p->kernels, dev->plan->target_bytes,
                                   p->settings.deadline_s - bench_now_s(), fresh_calibration(p, k), p->stop, rate,
                                   &e);
    if (rc == BW_E_INTERRUPTED || stopped(p)) {
        bw_error_clear(&e);
        return BW_E_INTERRUPTED;
    }
    if (rc != BW_OK) {
        note(p, "device %zu: the %s is not fitted to the budget: %s", d->index,
             dev->plan->target_auto ? "working set" : "plan", bw_error_text(&e));
        bw_error_clear(&e);
        return BW_OK;
    }
    *have = 1;
    return BW_OK;
}

/* auto's K for each mode from this calibration averaged with the
 * device's last ones (bench_unroll_memory), which it then keeps with the
 * K chosen: copy's for the copy and write items, read's for the read
 * items, each the smallest within BENCH_FIT_UNROLL_WITHIN of its mode's
 * best, the K the device last ran kept while within BENCH_FIT_UNROLL_BAND
 * of that edge (bench_fit_unroll_keep); rate->copy_gbs becomes the
 * calibration's copy at copy's K. A memory that cannot be read or written is said in a
 * note, and this calibration alone decides. */
static void remembered_unrolls(bench_pipeline *p, size_t k, bench_fit_rate *rate, int *k_copy, int *k_read)
{
    bench_pipeline_device *dev = &p->devs[k];
    const ocl_device_info *d = device_of(p, k);
    bench_tune_key key = bench_tune_key_of(d, p->bwlab_version ? p->bwlab_version : "");
    bench_unroll_memory m;
    memset(&m, 0, sizeof m);
    bw_error e = BW_ERROR_INIT;
    int kept = p->unroll_memory != NULL;
    if (kept && bench_unroll_memory_lookup(p->unroll_memory, &key, &m, &e) != BW_OK) {
        note(p, "device %zu: K from this run's calibration alone: %s", d->index, bw_error_text(&e));
        bw_error_clear(&e);
        memset(&m, 0, sizeof m);
        kept = 0;
    }
    bench_unroll_memory_add(&m, rate->unroll_gbs, rate->unroll_read_gbs);
    dev->unroll_runs = m.runs;
    *k_copy = bench_fit_unroll_keep(m.copy, m.copy_k);
    if (*k_copy <= 0)
        *k_copy = rate->unroll;
    *k_read = bench_fit_unroll_keep(m.read, m.read_k);
    if (*k_read <= 0)
        *k_read = *k_copy;
    m.copy_k = *k_copy;
    m.read_k = *k_read;
    if (kept && bench_unroll_memory_store(p->unroll_memory, &key, &m, &e) != BW_OK) {
        note(p, "device %zu: the unroll memory is not kept: %s", d->index, bw_error_text(&e));
        bw_error_clear(&e);
    }
    bench_fit_rate_at(rate, *k_copy);
}

/* Device k's K (bench_item.unroll). --unroll K: K. auto: seq copy and
 * read at every K of the ladder in one calibration (timed in the same
 * rounds, so a host whose bandwidth moves between seconds moves all of
 * them), the smallest K within BENCH_FIT_UNROLL_WITHIN of the best in
 * both (bench_fit_unroll_choose); the calibration
 * is kept for the fit. Without a budget for it, or when it fails, K is 1
 * and unroll_why says why. The plan's items are set to K. BW_OK, or
 * BW_E_INTERRUPTED on a signal. */
static bw_code choose_unroll(bench_pipeline *p, size_t k)
{
    bench_pipeline_device *dev = &p->devs[k];
    const ocl_device_info *d = device_of(p, k);
    dev->unroll_read = 0;
    if (p->unroll > 0) {
        dev->unroll = p->unroll;
        dev->unroll_source = BENCH_UNROLL_OPTION;
    } else if (p->settings.budget_s < BENCH_PLAN_MIN_BUDGET_S) {
        dev->unroll = 1;
        dev->unroll_source = BENCH_UNROLL_DEFAULT;
        snprintf(dev->unroll_why, sizeof dev->unroll_why,
                 "a budget under %.0f s has no calibration to choose K from", BENCH_PLAN_MIN_BUDGET_S);
    } else {
        bw_hook_phase("calibrating"); /* test builds only: a signal as this phase begins */
        progress(p, k, "calibrating", "seq read and copy at each unroll");
        bench_limits lim = bench_device_limits(d);
        bench_plan_opts o = device_opts(p, d, 0);
        o.unroll_ladder = (1u << BENCH_FIT_UNROLLS) - 1;
        bench_fit_rate rate;
        bw_error e = BW_ERROR_INIT;
        int fresh = fresh_calibration(p, k);
        bw_code rc = bench_fit_measure(dev->ctx, &o, &d->geo, &lim, p->kernels, dev->plan->target_bytes,
                                       p->settings.deadline_s - bench_now_s(), fresh, p->stop, &rate, &e);
        if (rc == BW_E_INTERRUPTED || stopped(p)) {
            bw_error_clear(&e);
            return BW_E_INTERRUPTED;
        }
        if (rc == BW_OK && rate.unroll > 0) {
            remembered_unrolls(p, k, &rate, &dev->unroll, &dev->unroll_read);
            dev->unroll_source = BENCH_UNROLL_CALIBRATION;
            memcpy(dev->unroll_gbs, rate.unroll_gbs, sizeof dev->unroll_gbs);
            memcpy(dev->unroll_read_gbs, rate.unroll_read_gbs, sizeof dev->unroll_read_gbs);
            dev->rate_bytes = rate.bytes;
            dev->rate_gbs = rate.copy_gbs;
            dev->rate_fill_gbs = rate.fill_gbs;
            dev->rate_build_s = rate.build_s;
            dev->rate_elapsed_s = rate.elapsed_s;
            dev->rate_prep_kernel_s = rate.prep_kernel_s;
            dev->have_rate = 1;
        } else {
            dev->unroll = 1;
            dev->unroll_source = BENCH_UNROLL_DEFAULT;
            snprintf(dev->unroll_why, sizeof dev->unroll_why, "the calibration failed: %s",
                     rc != BW_OK ? bw_error_text(&e) : "no K gave a rate");
            note(p, "device %zu: unroll 1: %s", d->index, dev->unroll_why);
        }
        bw_error_clear(&e);
    }
    if (dev->unroll_read <= 0)
        dev->unroll_read = dev->unroll;
    bench_plan_set_unrolls(dev->plan, dev->unroll, dev->unroll_read);
    return BW_OK;
}

/* Device k's automatic working set, fitted to the time its patterns have
 * (bench_fit): one calibration copy, then the plan at the largest size
 * whose estimate fits, said in a note. A calibration that fails leaves
 * the plan as it is, with a note; BW_E_INTERRUPTED on a signal. */
static bw_code fit_to_budget(bench_pipeline *p, size_t k, bw_error *err)
{
    bench_pipeline_device *dev = &p->devs[k];
    if (!bench_fit_may_shrink(dev->plan, p->settings.budget_s))
        return BW_OK; /* nothing smaller may be tried: no calibration */
    bench_fit_rate rate;
    int have = 0;
    bw_code rc = calibrate(p, k, &rate, &have);
    if (rc != BW_OK || !have)
        return rc;
    const ocl_device_info *d = device_of(p, k);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o = device_opts(p, d, 0);
    /* what the estimate leaves out (validation's samples, the rounds'
     * grouping) is allowed for */
    double avail = (p->settings.deadline_s - bench_now_s()) * FIT_SHARE;
    bench_plan *np = NULL;
    bench_fit_choice c;
    if ((rc = bench_fit_choose(&o, &d->geo, &lim, &p->settings, &rate, avail, dev->plan, &np, &c, err)) != BW_OK)
        return rc;
    if (!np)
        return BW_OK; /* the auto plan fits, or nothing smaller may be tried */
    note(p, "device %zu: %s", d->index, c.note);
    bench_plan_free(dev->plan);
    dev->plan = np;
    return BW_OK;
}

/* Device k's plan at the user's --size, whose buffers the budget may not
 * fill (bench_fit_buffers): the widest patterns left out, named, before
 * the buffers are made; BW_E_RANGE when even the references' fill would
 * break the budget's bound, BW_E_INTERRUPTED on a signal. */
static bw_code fit_buffers_to_budget(bench_pipeline *p, size_t k, bw_error *err)
{
    bench_pipeline_device *dev = &p->devs[k];
    if (!bench_fit_buffers_worth(dev->plan))
        return BW_OK;
    bench_fit_rate rate;
    int have = 0;
    bw_code rc = calibrate(p, k, &rate, &have);
    if (rc != BW_OK || !have)
        return rc;
    double left = p->settings.deadline_s - bench_now_s();
    bench_fit_choice c;
    rc = bench_fit_buffers(dev->plan, &p->settings, &rate, left * FIT_SHARE,
                           left + BOUND_SHARE * p->settings.budget_s + BOUND_S, &c, err);
    if (rc == BW_E_RANGE)
        p->refused = 1;
    if (rc == BW_OK && c.note[0])
        note(p, "device %zu: %s", device_of(p, k)->index, c.note);
    return rc;
}

/* the runner's progress, as device k's */
typedef struct device_progress {
    const bench_pipeline *p;
    size_t k;
} device_progress;

static void on_runner_progress(void *ctx, const bench_progress *pr)
{
    const device_progress *dp = ctx;
    if (dp->p->ev.progress)
        dp->p->ev.progress(dp->p->ev.ctx, dp->k, pr);
}

/* Device k's patterns, on a context of its own, retried once at half the
 * working set when its buffers cannot be had. A device that fails is
 * reported and its patterns marked failed; BW_OK, or BW_E_NOMEM. */
static bw_code measure_patterns(bench_pipeline *p, size_t k, int *any_failed)
{
    bench_pipeline_device *dev = &p->devs[k];
    bw_error err = BW_ERROR_INIT;
    device_progress dp = { p, k };
    bw_code rc = ocl_context_create(p->plats, p->dev_idx[k], &dev->ctx, &err);
    if (rc == BW_OK && choose_unroll(p, k) != BW_OK)
        rc = BW_OK; /* a signal: the run below marks every pattern not run */
    /* an automatic working set on a bounded budget: fitted to it; a
     * signal meanwhile leaves the plan as it is, and the run below then
     * marks every pattern not run */
    if (rc == BW_OK && p->settings.budget_s >= BENCH_PLAN_MIN_BUDGET_S &&
        (dev->plan->target_auto ? fit_to_budget(p, k, &err) : fit_buffers_to_budget(p, k, &err)) != BW_OK) {
        if (!stopped(p))
            rc = err.code;
        else
            bw_error_clear(&err);
    }
    if (rc == BW_OK)
        rc = bench_run(dev->ctx, dev->plan, p->kernels, &p->settings, p->stop, on_runner_progress, &dp,
                       &dev->results, &dev->info, &err);
    if (rc == BW_E_TOOBIG && !stopped(p) && (rc = retry_smaller(p, k, &err)) == BW_OK)
        rc = bench_run(dev->ctx, dev->plan, p->kernels, &p->settings, p->stop, on_runner_progress, &dp,
                       &dev->results, &dev->info, &err);
    progress(p, k, "idle", NULL);
    if ((rc == BW_OK || rc == BW_E_INTERRUPTED) && dev->info.fill_note[0])
        note(p, "device %zu: %s", device_of(p, k)->index, dev->info.fill_note);
    bw_code out = BW_OK;
    if (rc != BW_OK && rc != BW_E_INTERRUPTED) {
        /* this device is lost; what the others measured is kept */
        const ocl_device_info *d = device_of(p, k);
        bw_error_prefix(&err, "on device %zu (%s): ", d->index, d->name);
        failed(p, &err);
        dev->failure = strdup(bw_error_text(&err));
        if (!dev->failure || device_failed_results(dev, rc) != BW_OK)
            out = BW_E_NOMEM;
        *any_failed = 1;
    } else {
        for (size_t i = 0; i < dev->plan->n; i++)
            *any_failed |= dev->results[i].status == BENCH_FAILED || dev->results[i].status == BENCH_NOT_MEASURABLE;
    }
    bw_error_clear(&err);
    return out;
}

/* The short roofline on device k after its patterns, on the run's context:
 * roofline.cl from the run's kernel directory, the buffer `bwlab roofline`
 * takes (bench_roofline_opts_of; roofline_size when given) and at most
 * BENCH_PIPELINE_ROOFLINE_S (the run's budget when smaller), stopped by
 * *stop (what was measured is kept, marked). A failure is reported beside
 * the patterns' results, which are kept. BW_OK, or BW_E_NOMEM. */
static bw_code measure_roofline(bench_pipeline *p, size_t k, int *any_failed)
{
    bench_pipeline_device *dev = &p->devs[k];
    const ocl_device_info *d = device_of(p, k);
    bw_error err = BW_ERROR_INIT;
    progress(p, k, "roofline", NULL);
    bench_roofline_opts o;
    bw_code rc = bench_roofline_opts_of(d, &p->settings, roofline_budget(p), p->roofline_size, &o, &err);
    o.stop = p->stop;
    if (rc == BW_OK && !p->roof_source)
        rc = bench_roofline_kernel_load(p->kernels_dir, &p->roof_source, &p->roof_path, &err);
    if (rc == BW_OK)
        rc = bench_roofline_run(dev->ctx, p->roof_source, &o, &dev->roof, &err);
    progress(p, k, "idle", NULL);
    bw_code out = BW_OK;
    if (rc != BW_OK && rc != BW_E_INTERRUPTED) {
        bw_error_prefix(&err, "roofline on device %zu (%s): ", d->index, d->name);
        failed(p, &err);
        if (!(dev->roof_failure = strdup(bw_error_text(&err))))
            out = BW_E_NOMEM;
        *any_failed = 1;
    }
    bw_error_clear(&err);
    return out;
}

/* The transfers on device k: host<->device copies and launch latency, on
 * the run's context. BW_OK, or BW_E_NOMEM. */
static bw_code measure_transfers(bench_pipeline *p, size_t k, int *any_failed)
{
    bench_pipeline_device *dev = &p->devs[k];
    bw_error err = BW_ERROR_INIT;
    progress(p, k, "transfers", NULL);
    bench_probe_opts po;
    memset(&po, 0, sizeof po);
    po.transfers_only = 1;
    po.kernel_dir = p->kernels_dir;
    po.stop = p->stop; /* a signal stops the copies too; those finished are kept */
    /* their share, and what the patterns and the roofline left of theirs */
    if (p->settings.budget_s >= BENCH_PLAN_MIN_BUDGET_S) {
        double end = p->settings.deadline_s + (p->no_roofline ? 0 : roofline_budget(p));
        po.deadline_s = (end > bench_now_s() ? end : bench_now_s()) + transfers_budget(p);
    } else {
        po.deadline_s = bench_now_s() + TRANSFERS_SHORT_S;
    }
    bw_code rc = bench_probe_run(dev->ctx, &po, &dev->xfers, &err);
    progress(p, k, "idle", NULL);
    if (rc == BW_E_INTERRUPTED) {
        dev->info.interrupted = 1; /* the transfers are partial: the run says so */
        rc = BW_OK;
    }
    bw_code out = BW_OK;
    if (rc != BW_OK) {
        failed(p, &err);
        if (!(dev->xfer_failure = strdup(bw_error_text(&err))))
            out = BW_E_NOMEM;
        *any_failed = 1;
    }
    bw_error_clear(&err);
    return out;
}

/* one seq read of plan pl on device k with src zero-filled or not: its
 * effective GB/s into *gbs; BW_OK, or why it failed in err */
static bw_code seq_read(bench_pipeline *p, size_t k, bench_plan *pl, int zeros, double *gbs, bw_error *err)
{
    bench_settings s = bench_settings_default();
    s.budget_s = BENCH_PIPELINE_COMPRESSION_RUN_S;
    s.no_twins = 1;
    s.min_total_s = 0;
    s.fill_zeros = zeros;
    bench_result *res = NULL;
    bench_run_info info;
    bw_code rc = bench_run(p->devs[k].ctx, pl, p->kernels, &s, p->stop, NULL, NULL, &res, &info, err);
    if (rc == BW_OK && (res[0].status != BENCH_OK || !(res[0].effective_gbs > 0)))
        rc = bw_error_set(err, BW_E_RANGE, "seq read on %s data gave no rate: %s", zeros ? "zero" : "random",
                          res[0].failure ? res[0].failure : "no timed launch");
    if (rc == BW_OK)
        *gbs = res[0].effective_gbs;
    bench_results_free(res, pl->n);
    return rc;
}

/* The compression check on device k (--fill zeros): seq read, validated,
 * at the run's working set and K, on a zero-filled source and then on the
 * random one; a device whose memory path compresses moves the zeros
 * faster. A failure is reported beside the patterns' results, which are
 * kept. BW_OK, or BW_E_NOMEM. */
static bw_code measure_compression(bench_pipeline *p, size_t k, int *any_failed)
{
    bench_pipeline_device *dev = &p->devs[k];
    const ocl_device_info *d = device_of(p, k);
    bw_error err = BW_ERROR_INIT;
    progress(p, k, "compression", NULL);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts dopts = device_opts(p, d, dev->plan->target_bytes);
    bench_plan_opts o = bench_plan_opts_seq(&dopts, BENCH_ACCESS_BIT(BENCH_ACCESS_READ));
    bench_plan *pl = NULL;
    bw_code rc = bench_plan_make(&o, &d->geo, &lim, &pl, &err);
    /* zeros, random, random, zeros: a host whose bandwidth drifts moves
     * both means alike */
    static const int order[4] = { 1, 0, 0, 1 };
    double sum[2] = { 0, 0 };
    for (int i = 0; i < 4 && rc == BW_OK; i++) {
        double g = 0;
        if ((rc = seq_read(p, k, pl, order[i], &g, &err)) == BW_OK)
            sum[order[i]] += g;
    }
    dev->zero_fill_gbs = sum[1] / 2;
    dev->random_fill_gbs = sum[0] / 2;
    bench_plan_free(pl);
    progress(p, k, "idle", NULL);
    bw_code out = BW_OK;
    if (rc == BW_E_INTERRUPTED) {
        dev->info.interrupted = 1;
        dev->zero_fill_gbs = dev->random_fill_gbs = 0;
    } else if (rc != BW_OK) {
        dev->zero_fill_gbs = dev->random_fill_gbs = 0;
        bw_error_prefix(&err, "compression check on device %zu (%s): ", d->index, d->name);
        failed(p, &err);
        if (!(dev->compression_failure = strdup(bw_error_text(&err))))
            out = BW_E_NOMEM;
        *any_failed = 1;
    }
    bw_error_clear(&err);
    return out;
}

bw_code bench_pipeline_measure(bench_pipeline *p, double run_end, int *any_failed)
{
    for (size_t k = 0; k < p->ndev && !stopped(p); k++) {
        p->nrun = k + 1;
        if (!p->devs[k].plan)
            continue;
        size_t left = 0;
        for (size_t j = k; j < p->ndev; j++)
            left += p->devs[j].plan != NULL;
        /* each device's patterns get an equal share of what is left, less
         * its roofline and transfers */
        double roof = p->no_roofline ? 0 : roofline_budget(p);
        double xfer = p->transfers ? transfers_budget(p) : 0;
        /* the compression check: four seq reads and what each prepares */
        double comp = p->fill_zeros ? 6.0 * BENCH_PIPELINE_COMPRESSION_RUN_S : 0;
        double share = (run_end - bench_now_s()) / (double)left - roof - xfer - comp;
        p->settings.deadline_s = bench_now_s() + (share > 0 ? share : 0);
        bw_code rc = measure_patterns(p, k, any_failed);
        if (rc != BW_OK)
            return rc;
        if (p->ev.measured)
            p->ev.measured(p->ev.ctx, k);
        if (p->devs[k].failure)
            continue;
        if (!p->no_roofline && !stopped(p) && (rc = measure_roofline(p, k, any_failed)) != BW_OK)
            return rc;
        if (p->transfers && !stopped(p) && (rc = measure_transfers(p, k, any_failed)) != BW_OK)
            return rc;
        if (p->fill_zeros && !stopped(p) && (rc = measure_compression(p, k, any_failed)) != BW_OK)
            return rc;
    }
    return BW_OK;
}
