/* bench_runner: measuring a plan on one device: buffers filled, each
 * pattern built, validated and warmed up, then timed round-robin, its
 * twin's launches interleaved, until its median is stable or the budget
 * ends (bench_runner.h); the results finished from the rounds' samples.
 * Its parts: bench_runner_build.c, _schedule.c, _twin.c, _trace.c. */
#include "bench_runner_ctx.h"

static void finish_one(run_ctx *r, size_t i);
static int meets_rule(const run_ctx *r, size_t i);

bench_settings bench_settings_default(void)
{
    bench_settings s = { 50.0, 0.0, 0.01, 5, 2000, 1, 0.0, 0.2, 0 };
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

void bench_runner_report(run_ctx *r, const char *phase, size_t done, size_t total, const char *spec, double remaining)
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

/* launches per form before item i's form is chosen, at launch time t_ns */
size_t bench_runner_form_launches_of(double t_ns)
{
    double n = t_ns > 0 ? ceil(FORM_CALIBRATION_S * 1e9 / t_ns) : FORM_CALIBRATION;
    return n >= FORM_CALIBRATION ? FORM_CALIBRATION : n <= FORM_CALIBRATION_MIN ? FORM_CALIBRATION_MIN : (size_t)n;
}

/* seconds until the run's deadline (negative once past it) */
double bench_runner_time_left(const run_ctx *r)
{
    return r->deadline - bench_now_s();
}


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

/* room for cap samples; 0 when out of memory */
static int reserve(bench_result *res, slot *sl, size_t cap)
{
    if (cap <= sl->cap)
        return 1;
    double *e = realloc(res->event_ns, cap * sizeof *e);
    if (!e)
        return 0;
    res->event_ns = e;
    double *w = realloc(res->wall_ns, cap * sizeof *w);
    if (!w)
        return 0;
    res->wall_ns = w;
    size_t *rd = realloc(sl->ev_round, cap * sizeof *rd);
    if (!rd)
        return 0;
    sl->ev_round = rd;
    size_t *ps = realloc(sl->ev_pos, cap * sizeof *ps);
    if (!ps)
        return 0;
    sl->ev_pos = ps;
    unsigned char *sd = realloc(sl->ev_slot, cap * sizeof *sd);
    if (!sd)
        return 0;
    sl->ev_slot = sd;
    sl->cap = cap;
    return 1;
}

/* a sample of item i's launch in the round under way, in slot `control`
 * (0: its own, 1: its control slot) */
static int record(run_ctx *r, size_t i, const ocl_timing *t, int control)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    size_t n = res->event.count;
    if (n == sl->cap && !reserve(res, sl, sl->cap ? sl->cap * 2 : 64))
        return 0;
    res->event_ns[n] = t->event_ns;
    res->wall_ns[n] = t->wall_ns;
    sl->ev_round[n] = r->round;
    sl->ev_pos[n] = r->launches++;
    sl->ev_slot[n] = (unsigned char)control;
    sl->total_ns += t->event_ns;
    res->event = bench_stats_of(res->event_ns, n + 1);
    return 1;
}

/* "3.2 us" with the precision a reader needs */
void bench_runner_format_us(char *buf, size_t n, double ns)
{
    double us = ns / 1000.0;
    snprintf(buf, n, us < 10 ? "%.2f µs" : us < 1000 ? "%.1f µs" : "%.0f µs", us);
}

static void not_measurable(bench_result *res, const char *msg)
{
    res->status = BENCH_NOT_MEASURABLE;
    res->failure_code = BW_E_RANGE;
    free(res->failure);
    res->failure = strdup(msg);
}

/* The sub-group size the kernel runs at, and whether a launch is long
 * enough to time at all: a launch shorter than the floor is reported as
 * not measurable, never as a bandwidth. */
static void after_warmup(run_ctx *r, size_t i, double event_ns)
{
    bench_result *res = &r->res[i];
    bw_error e = BW_ERROR_INIT;
    size_t sg = 0;
    /* unknown (0) when the driver cannot tell: that is no failure */
    if (ocl_kernel_sub_group_size(r->slots[i].kern, (size_t)r->plan->items[i].local_size, &sg, &e) == BW_OK)
        res->sub_group_size = sg;
    bw_error_clear(&e);
    res->check_ns = event_ns;
    uint64_t tick = ocl_context_device(r->ctx)->timer_resolution_ns;
    double floor = bench_runner_run_floor_ns(r);
    if (bench_sample_ok(event_ns) && event_ns >= floor)
        return;
    char took[32], fl[32], msg[256];
    bench_runner_format_us(took, sizeof took, event_ns > 0 ? event_ns : 0);
    bench_runner_format_us(fl, sizeof fl, floor);
    if (r->s->min_launch_ns > 0)
        snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured), below the %s floor "
                 "asked for; use a larger --size", took, fl);
    else if (res->timer_wall)
        snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured, host clock), below the %s floor "
                 "(10x the %.1f µs launch overhead, 100x the clock's resolution, or 20 µs); use a larger --size",
                 took, fl, res->launch_overhead_ns / 1e3);
    else
        snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured), below the %s floor "
                 "(100x the device timer's %llu ns resolution, or 20 µs); use a larger --size",
                 took, fl, (unsigned long long)tick);
    not_measurable(res, msg);
}

/* validation, warm-up and calibration of item i */
void bench_runner_prepare_one(run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    double t0 = bench_now_s();
    bench_runner_report(r, "validating", i, p->n, p->items[i].spec, -1);
    bw_error e = BW_ERROR_INIT;
    bw_code rc = bench_runner_validate_item(r, i, r->slots[i].kern, &e);
    if (rc == BW_OK && r->slots[i].alt && (rc = bench_runner_validate_item(r, i, r->slots[i].alt, &e)) != BW_OK)
        bw_error_prefix(&e, "the scalar form: ");
    r->res[i].validated = rc == BW_OK;
    /* the last warm-up launch is the one checked against the floor */
    ocl_timing t = { 0, 0 };
    for (int w = 0; rc == BW_OK && w < (r->s->warmup > 0 ? r->s->warmup : 1); w++)
        rc = bench_runner_launch(r, i, r->slots[i].kern, &t, &e);
    if (rc == BW_E_INTERRUPTED)
        r->res[i].validated = 0; /* not run: finish() says so */
    else if (rc != BW_OK)
        bench_runner_fail(&r->res[i], e.code, bw_error_text(&e));
    else
        after_warmup(r, i, t.event_ns);
    r->slots[i].cal_ns = t.event_ns;
    r->slots[i].form_launches = bench_runner_form_launches_of(t.event_ns);
    double extra = (bench_now_s() - t0) * 1e9 - bench_runner_prepare_launches(r->s) * t.event_ns;
    r->slots[i].prep_extra_ns = extra > 0 ? extra : 1.0;
    bw_error_clear(&e);
}

/* References first: their calibration prices the others, and the plan
 * leaves out what cannot fit before it costs a validation. */
static void prepare(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    double t0 = bench_now_s();
    bench_runner_build_all(r, stop);
    info->build_s = bench_now_s() - t0;
    for (int pass = 0; pass < 2 && !*stop; pass++) {
        for (size_t i = 0; i < p->n && !*stop; i++)
            if (r->res[i].status == BENCH_OK && !r->slots[i].left_out &&
                bench_runner_serves_as_reference(r, i) == (pass == 0))
                bench_runner_prepare_one(r, i);
        if (*stop)
            break;
        if (pass == 0)
            bench_runner_plan_timing(r, info, 1);
    }
    info->prepare_s = bench_now_s() - t0 - info->build_s;
    if (*stop)
        return;
    bench_runner_plan_twins(r);
    bench_runner_plan_timing(r, info, 0);
    bench_runner_plan_note(r, info);
}

/* Item i's form once both have their calibration launches: the one with
 * the faster median (the headline's statistic: a form whose best launch
 * is lucky but whose typical one is slow must not win) keeps its
 * launches as its samples; the other is released. */
static void choose_form(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    bench_result *res = &r->res[i];
    res->form_ns[BENCH_FORM_PLAIN] = res->event.median;
    res->form_ns[BENCH_FORM_SCALAR] = bench_stats_of(sl->alt_event, sl->alt_n).median;
    /* the other form's samples replace this one's: room for them first */
    reserve(res, sl, FORM_CALIBRATION);
    int plain_timed = res->event.count > 0;
    if (sl->cap >= sl->alt_n &&
        (!plain_timed || res->form_ns[BENCH_FORM_SCALAR] < res->form_ns[BENCH_FORM_PLAIN])) {
        ocl_kernel *k = sl->kern;
        sl->kern = sl->alt;
        sl->alt = k;
        res->form = BENCH_FORM_SCALAR;
        memcpy(res->event_ns, sl->alt_event, sl->alt_n * sizeof *sl->alt_event);
        memcpy(res->wall_ns, sl->alt_wall, sl->alt_n * sizeof *sl->alt_wall);
        memcpy(sl->ev_round, sl->alt_round, sl->alt_n * sizeof *sl->alt_round);
        memcpy(sl->ev_pos, sl->alt_pos, sl->alt_n * sizeof *sl->alt_pos);
        memset(sl->ev_slot, 0, sl->alt_n * sizeof *sl->ev_slot);
        sl->total_ns = 0;
        for (size_t k2 = 0; k2 < sl->alt_n; k2++)
            sl->total_ns += sl->alt_event[k2];
        res->event = bench_stats_of(res->event_ns, sl->alt_n);
    }
    ocl_kernel_free(sl->alt);
    sl->alt = NULL;
}

/* One timed launch of item i's kernel k; 1 when it gave a sample. A launch
 * that fails, or too many that read 0 ns, finish the item. */
static int timed_launch(run_ctx *r, size_t i, ocl_kernel *k, ocl_timing *t)
{
    bench_result *res = &r->res[i];
    bw_error e = BW_ERROR_INIT;
    int64_t after = 0;
    bw_code lrc = bench_runner_launch(r, i, k, t, &e);
    if (lrc == BW_OK && bw_hook_fault("launch", r->plan->items[i].spec, &after) &&
        res->event.count >= (size_t)after)
        lrc = bw_error_set(&e, BW_E_OPENCL, "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES "
                           "(injected after %lld launches: BWLAB_TEST_FAULTS)", (long long)after);
    int ok = 0;
    if (lrc != BW_OK) {
        bench_runner_fail(res, e.code, bw_error_text(&e));
        bench_runner_report_finished(r, i);
    } else if (!bench_sample_ok(t->event_ns)) {
        res->dropped_samples++;
        if (res->dropped_samples >= DROPPED_LIMIT && res->dropped_samples > res->event.count) {
            char msg[256];
            snprintf(msg, sizeof msg, "not measurable: %zu of %zu timed launches took 0 ns "
                     "(measured: shorter than the device timer resolves); use a larger --size",
                     res->dropped_samples, res->dropped_samples + res->event.count);
            not_measurable(res, msg);
            bench_runner_report_finished(r, i);
        }
    } else {
        ok = 1;
    }
    bw_error_clear(&e);
    return ok;
}

/* Test builds only: the hook "slow" (SPEC@PCT) adds PCT% to the event
 * time of SPEC's launches in its own slot, never in its control slot: a
 * disturbance of the reference's launches alone, which the control check
 * must catch. */
static const ocl_timing *disturbed(run_ctx *r, size_t i, ocl_timing *t)
{
    int64_t pct = 0;
    if (bw_hook_fault("slow", r->plan->items[i].spec, &pct) && pct > 0)
        t->event_ns *= 1.0 + (double)pct / 100.0;
    return t;
}

/* A reference's launch in its control slot, half a round from its own:
 * the same kernel at another place in the round. While the reference
 * launches in the rounds (its group is not stopped, its form is chosen). */
static void control_turn(run_ctx *r, size_t i)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    ocl_timing t;
    if (!sl->is_reference || res->status != BENCH_OK || sl->left_out || sl->stable || sl->alt)
        return;
    if (timed_launch(r, i, sl->kern, &t) && !record(r, i, &t, 1)) {
        bench_runner_fail(res, BW_E_NOMEM, "out of memory recording timings");
        bench_runner_report_finished(r, i);
    }
}

/* One round's turn of item i: its launch (both forms while they are
 * calibrated, in an order that alternates), then its stopping rule. */
static void turn(run_ctx *r, size_t i, size_t round)
{
    const bench_settings *s = r->s;
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    ocl_timing t, ta;
    int alt_first = sl->alt && round % 2;
    if (alt_first && timed_launch(r, i, sl->alt, &ta)) {
        sl->alt_event[sl->alt_n] = ta.event_ns;
        sl->alt_round[sl->alt_n] = r->round;
        sl->alt_pos[sl->alt_n] = r->launches++;
        sl->alt_wall[sl->alt_n++] = ta.wall_ns;
    }
    if (res->status != BENCH_OK)
        return;
    /* once its form is chosen and until it meets the rule, a launch much
     * shorter than the round's typical one is made several times a turn */
    size_t launches = sl->alt || sl->met ? 1 : bench_runner_launches_per_turn(r, i);
    for (size_t j = 0; j < launches && res->status == BENCH_OK; j++)
        if (timed_launch(r, i, sl->kern, &t) && !record(r, i, disturbed(r, i, &t), 0)) {
            bench_runner_fail(res, BW_E_NOMEM, "out of memory recording timings");
            bench_runner_report_finished(r, i);
        }
    if (res->status != BENCH_OK)
        return;
    if (!sl->alt)
        bench_runner_twin_after_launch(r, i);
    if (sl->alt && !alt_first && timed_launch(r, i, sl->alt, &ta)) {
        sl->alt_event[sl->alt_n] = ta.event_ns;
        sl->alt_round[sl->alt_n] = r->round;
        sl->alt_pos[sl->alt_n] = r->launches++;
        sl->alt_wall[sl->alt_n++] = ta.wall_ns;
    }
    if (res->status != BENCH_OK)
        return;
    if (sl->alt && (sl->alt_n >= sl->form_launches || sl->alt_n >= FORM_CALIBRATION ||
                    res->event.count >= (size_t)s->max_reps)) {
        if (sl->alt_n > 0)
            choose_form(r, i);
        else {
            ocl_kernel_free(sl->alt);
            sl->alt = NULL;
        }
    }
    if (sl->alt)
        return; /* no stopping before the form is chosen */
    sl->met = meets_rule(r, i);
    if (sl->met && bw_hook_fault("hold", r->plan->items[i].spec, NULL))
        sl->met = 0; /* test builds only: keeps the run alive */
    /* its figures are settled: journaled now, though its group may still
     * launch it (stop_groups) */
    if (sl->met)
        bench_runner_report_finished(r, i);
    if ((int)(res->event.count + res->dropped_samples) >= s->max_reps)
        sl->stable = 1; /* the launch cap stops it whatever its group does */
}

/* the paired rounds of item i against its reference ref: each of item
 * i's launches against the reference's launch nearest to it in the round,
 * in either of its slots (a time ratio: the item's bandwidth relative to
 * the reference's, less their bytes) */
static bench_pair_ci paired(const run_ctx *r, size_t i, size_t ref)
{
    const bench_result *a = &r->res[ref], *b = &r->res[i];
    bench_pair_series num = { a->event_ns, r->slots[ref].ev_round, r->slots[ref].ev_slot, a->event.count, -1,
                              r->slots[ref].ev_pos };
    bench_pair_series den = { b->event_ns, r->slots[i].ev_round, r->slots[i].ev_slot, b->event.count, 0,
                              r->slots[i].ev_pos };
    return bench_pair_ratio(&num, &den);
}

/* the reference item i reads against for its stopping rule and its
 * ratio: its reference while that is measured, else -1 */
long bench_runner_paired_reference(const run_ctx *r, size_t i)
{
    long ref = bench_plan_reference(r->plan, i);
    return ref < 0 || (size_t)ref == i || r->res[ref].status != BENCH_OK ? -1 : ref;
}

/* The error the stopping rule holds item i to, as a relative standard
 * error: a reference's median's own; for an item read against a reference,
 * its paired ratio's 95% interval (the larger side, relative) over 1.96,
 * so that one --rse holds both (test builds: the hook "noisy" can make it
 * more) */
double bench_runner_rule_rse(const run_ctx *r, size_t i)
{
    int64_t pct = 0;
    if (bw_hook_fault("noisy", r->plan->items[i].spec, &pct) && pct > 0)
        return (double)pct / 100.0;
    long ref = bench_runner_paired_reference(r, i);
    if (ref < 0)
        return r->res[i].event.rse;
    bench_pair_ci c = paired(r, i, (size_t)ref);
    double h = bench_pair_halfwidth(&c);
    return isfinite(h) ? h / 1.96 : 1.0;
}

/* The stopping rule: min_reps launches, min_total_s of their event time
 * and the error of the figure read from them at most the target
 * (rule_rse: a reference's median, another item's paired ratio); or
 * max_reps launches. */
static int meets_rule(const run_ctx *r, size_t i)
{
    const bench_settings *s = r->s;
    const bench_result *res = &r->res[i];
    size_t n = res->event.count;
    if ((int)(n + res->dropped_samples) >= s->max_reps)
        return 1;
    return (int)n >= s->min_reps && r->slots[i].total_ns >= 1e9 * s->min_total_s &&
           bench_runner_rule_rse(r, i) <= s->rse_target;
}

/* Round-robin timing until every pattern is stable or the deadline; the
 * twins are timed as their forms are chosen, inside the same deadline. */
static void measure(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    double t0 = bench_now_s();
    size_t start = 0;
    int replanned = 0, bounded = s->budget_s >= BENCH_PLAN_MIN_BUDGET_S;
    for (size_t i = 0; i < p->n; i++)
        r->slots[i].is_reference = bench_runner_serves_as_reference(r, i);
    /* the rounds' orders; without them (out of memory) a rotation, and no control slots */
    size_t *order = malloc((p->n ? p->n : 1) * sizeof *order), *pos = malloc((p->n ? p->n : 1) * sizeof *pos);
    if (!order || !pos) {
        free(order);
        free(pos);
        order = pos = NULL;
    }
    for (;;) {
        size_t pending = 0, stable = 0, eligible = 0, collecting = 0, min_count = (size_t)-1;
        for (size_t i = 0; i < p->n; i++) {
            if (r->res[i].status != BENCH_OK || r->slots[i].left_out)
                continue;
            eligible++;
            stable += r->slots[i].stable;
            pending += !r->slots[i].stable;
            collecting += bench_runner_twin_collecting(&r->slots[i]);
            if (!r->slots[i].stable && r->res[i].event.count < min_count)
                min_count = r->res[i].event.count;
        }
        /* the others done with time left: the patterns the replan took out
         * of the later rounds take them up again */
        if (pending == 0 && collecting == 0 && !*stop && bench_runner_time_left(r) > 0 &&
            (bench_runner_resume_dropped(r, info) || bench_runner_take_up_left_out(r, info)))
            continue;
        /* the deadline ends the rounds once every unstable pattern has a
         * few samples (an unbounded budget's twins finish first) */
        if ((pending == 0 && collecting == 0) || *stop ||
            (bench_runner_time_left(r) <= 0 && min_count >= FLOOR_ROUNDS && (bounded || collecting == 0))) {
            info->budget_ended = pending > 0 && !*stop;
            break;
        }
        if (!replanned && min_count != (size_t)-1 && min_count >= (size_t)s->min_reps) {
            replanned = 1;
            bench_runner_replan(r, info);
        }
        bench_runner_report(r, "measuring", stable, eligible, NULL, -1);
        bench_runner_typical_launch(r);
        /* Each round launches the patterns in an order of its own
         * (round_order), so that what runs just before a pattern, and so
         * the state it leaves (a copy's dirty lines, a long local-memory
         * kernel's), varies from round to round and averages out; a
         * stable one whose twin still collects rounds launches on. A
         * reference launches a second time half a round after its own
         * turn: its control slot, and the other half of what its
         * patterns' per-round ratios are read against. */
        r->round = info->rounds;
        bench_runner_round_order(order, pos, p->n, info->rounds);
        for (size_t k = 0; k < p->n && !*stop; k++) {
            size_t i = order ? order[k] : (start + k) % p->n;
            if (!(r->res[i].status != BENCH_OK || r->slots[i].left_out ||
                  (r->slots[i].stable && !bench_runner_twin_collecting(&r->slots[i]))))
                turn(r, i, start);
            for (size_t j = 0; order && j < p->n && !*stop; j++)
                if (r->slots[j].is_reference && (pos[j] + p->n / 2) % p->n == k)
                    control_turn(r, j);
        }
        bench_runner_stop_groups(r);
        for (size_t i = 0; i < p->n && !*stop; i++)
            bench_runner_twin_when_due(r, i);
        start++;
        info->rounds++;
    }
    /* rounds that ended before a form was chosen: chosen from what there
     * is, and the twin given its rounds now, each after a launch */
    for (size_t i = 0; i < p->n && !*stop; i++) {
        slot *sl = &r->slots[i];
        if (!sl->alt || r->res[i].status != BENCH_OK)
            continue;
        if (sl->alt_n > 0 && r->res[i].event.count > 0) {
            choose_form(r, i);
        } else {
            ocl_kernel_free(sl->alt);
            sl->alt = NULL;
        }
        bench_runner_twin_when_due(r, i);
        while (bench_runner_twin_collecting(sl) && !*stop && r->res[i].status == BENCH_OK) {
            ocl_timing t;
            if (timed_launch(r, i, sl->kern, &t) && !record(r, i, disturbed(r, i, &t), 0))
                break;
            if (r->res[i].status == BENCH_OK)
                bench_runner_twin_after_launch(r, i);
        }
    }
    for (size_t i = 0; i < p->n; i++)
        bench_runner_twin_end(r, i);
    free(order);
    free(pos);
    info->timing_s = bench_now_s() - t0;
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

static double footprint_bytes(const bench_plan *p, long i)
{
    const model_launch *m = &p->items[i].model;
    return (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * p->geo.sector);
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
 * per-round ratios (bench_pair_ratio) with its interval, scaled by their
 * bytes; where no round holds both (a reference that stopped before the
 * item was timed), the ratio of their medians, with no interval. */
static double relative_of(run_ctx *r, size_t i, size_t ref)
{
    bench_result *res = &r->res[i];
    res->relative_ci[0] = res->relative_ci[1] = NAN;
    res->paired_rounds = 0;
    double plain = res->effective_gbs / r->res[ref].effective_gbs;
    if (i == ref)
        return plain;
    const bench_plan *p = r->plan;
    bench_pair_ci c = paired(r, i, ref);
    res->paired_rounds = c.rounds;
    if (!(c.median > 0))
        return plain;
    double bytes = p->items[i].fam->bytes(&p->items[i]) / p->items[ref].fam->bytes(&p->items[ref]);
    res->relative_ci[0] = c.lo * bytes;
    res->relative_ci[1] = c.hi * bytes;
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
            if ((size_t)ref != i)
                res->relative_spread = res->relative_to_reference *
                                        bench_stats_ratio_spread(r->res[ref].event_ns, r->res[ref].event.count,
                                                                 res->event_ns, res->event.count);
            continue;
        }
        const model_launch *m = &p->items[i].model;
        double lower = footprint_bytes(p, (long)i);
        double upper = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector);
        long rate = verdict_rate_item(r, ref);
        res->verdict = bench_verdict_of(res->event.median, lower, upper, r->res[rate].event.median,
                                        footprint_bytes(p, rate));
        res->verdict.rate_item = rate;
        res->verdict = bench_verdict_with_bound(res->verdict, res->bound, limiter(r, i));
        /* a CPU's caches allocate on a store miss: the line is read before it is written */
        res->verdict.write_allocate =
            p->items[i].access == BENCH_ACCESS_WRITE && ocl_context_device(r->ctx)->type == OCL_TYPE_CPU;
        if ((size_t)ref != i)
            res->relative_spread = res->relative_to_reference * bench_stats_ratio_spread(r->res[ref].event_ns,
                                                                                   r->res[ref].event.count,
                                                                                   res->event_ns, res->event.count);
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
        r.res[i].check = (bench_pair_ci){ NAN, NAN, NAN, 0 };
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
        prepare(&r, stop, info);
    if (!*stop)
        measure(&r, stop, info);
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
