/* bench_runner_rounds: the timing rounds: each round launches every
 * pending pattern in an order of its own, a reference again in its
 * control slot beside the patterns read against it (bench_round), records
 * the samples, chooses a pattern's kernel form after its first rounds, and
 * stops a pattern once it meets the stopping rule (a reference once its
 * whole group has) (bench_runner_priv.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_round.h"
#include "bench_runner_priv.h"
#include "bw_hook.h"
#include "bw_stats.h"

/* a pattern whose launches mostly read 0 ns is not measurable: at least this many */
#define DROPPED_LIMIT 3

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

/* the median of item i's own-slot samples from round `from` on; 0: none */
static double median_from(const run_ctx *r, size_t i, size_t from)
{
    const bench_result *res = &r->res[i];
    const slot *sl = &r->slots[i];
    double *v = malloc((res->event.count ? res->event.count : 1) * sizeof *v);
    size_t n = 0;
    for (size_t j = 0; v && j < res->event.count; j++)
        if (sl->ev_round[j] >= from && sl->ev_slot[j] == 0)
            v[n++] = res->event_ns[j];
    double m = n ? bench_stats_of(v, n).median : 0;
    free(v);
    return m;
}

/* the timed form's figures give way to the other form's launches in
 * sl->alt, which become the samples; the twin, timed with the old form's
 * kernel, starts again */
static void switch_form(run_ctx *r, size_t i, bench_form to)
{
    slot *sl = &r->slots[i];
    bench_result *res = &r->res[i];
    ocl_kernel *k = sl->kern;
    sl->kern = sl->alt;
    sl->alt = k;
    res->form = to;
    memcpy(res->event_ns, sl->alt_event, sl->alt_n * sizeof *sl->alt_event);
    memcpy(res->wall_ns, sl->alt_wall, sl->alt_n * sizeof *sl->alt_wall);
    memcpy(sl->ev_round, sl->alt_round, sl->alt_n * sizeof *sl->alt_round);
    memcpy(sl->ev_pos, sl->alt_pos, sl->alt_n * sizeof *sl->alt_pos);
    memset(sl->ev_slot, 0, sl->alt_n * sizeof *sl->ev_slot);
    sl->total_ns = 0;
    for (size_t k2 = 0; k2 < sl->alt_n; k2++)
        sl->total_ns += sl->alt_event[k2];
    res->event = bench_stats_of(res->event_ns, sl->alt_n);
    if (sl->twin_n > 0) {
        sl->twin_n = 0;
        sl->twin_k = 0;
        sl->twin_tries = sl->twin_unresolved = 0;
        sl->twinned = 0;
        res->twin_items = 0;
        res->twin_item_ns = res->twin_ns = res->twin_cold_ns = 0;
        free(res->twin_reason);
        res->twin_reason = NULL;
    }
}

/* Item i's form once both have their launches: the one with the faster
 * median (the headline's statistic: a form whose best launch is lucky but
 * whose typical one is slow must not win). In the first rounds the chosen
 * form keeps its launches as its samples; a calibration that did not tell
 * the forms apart keeps the other for a recheck (FORM_RECHECK_CLOSE). A
 * recheck sets the other form's launches against the timed form's in the
 * same rounds and switches only past FORM_SWITCH_MARGIN. */
static void choose_form(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    bench_result *res = &r->res[i];
    bench_form alt_f = (bench_form)r->plan->items[i].alt_form;
    bench_form cur = res->form, oth = cur == alt_f ? BENCH_FORM_PLAIN : alt_f;
    int recheck = sl->rechecking;
    double cur_ns = recheck ? median_from(r, i, sl->recheck_round) : res->event.median;
    double oth_ns = bench_stats_of(sl->alt_event, sl->alt_n).median;
    /* test builds: a first calibration that reads both forms alike, as a
     * contended host's first rounds can */
    if (!recheck && bw_hook_fault("form_tie", r->plan->items[i].spec, NULL))
        cur_ns = oth_ns = cur_ns > oth_ns ? cur_ns : oth_ns;
    sl->rechecking = 0;
    if (recheck && !(cur_ns > 0)) {
        ocl_kernel_free(sl->alt); /* no launch of the timed form to set it against */
        sl->alt = NULL;
        return;
    }
    res->form_ns[cur] = cur_ns;
    res->form_ns[oth] = oth_ns;
    /* the other form's samples replace this one's: room for them first */
    reserve(res, sl, FORM_CALIBRATION);
    int cur_timed = res->event.count > 0;
    double bar = recheck ? cur_ns * (1.0 - FORM_SWITCH_MARGIN) : cur_ns;
    int close = 0;
    if (sl->cap >= sl->alt_n && (!cur_timed || oth_ns < bar)) {
        switch_form(r, i, oth);
        close = cur_ns <= FORM_RECHECK_CLOSE * oth_ns;
    } else {
        close = oth_ns <= FORM_RECHECK_CLOSE * cur_ns;
    }
    if (!recheck && close && cur_timed && !sl->is_reference) {
        sl->other = sl->alt;
        sl->alt = NULL;
        return;
    }
    ocl_kernel_free(sl->alt);
    sl->alt = NULL;
}

/* Item i's kept form comes back for its recheck: timed beside the chosen
 * one from the next round on (turn), while the item does not stop. */
static void start_recheck(run_ctx *r, size_t i)
{
    slot *sl = &r->slots[i];
    sl->alt = sl->other;
    sl->other = NULL;
    sl->alt_n = 0;
    sl->rechecking = 1;
    sl->recheck_round = r->round + 1;
}

/* One timed launch of item i's kernel k; 1 when it gave a sample. A launch
 * that fails, or too many that read 0 ns, finish the item. */
static int timed_launch(run_ctx *r, size_t i, ocl_kernel *k, bench_form form, ocl_timing *t)
{
    bench_result *res = &r->res[i];
    bw_error e = BW_ERROR_INIT;
    int64_t after = 0;
    bw_code lrc = bench_runner_launch(r, i, k, form, t, &e);
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
            bench_runner_not_measurable(res, msg);
            bench_runner_report_finished(r, i);
        }
    } else {
        ok = 1;
    }
    bw_error_clear(&e);
    return ok;
}

static int meets_rule(const run_ctx *r, size_t i);

/* at most this many launches of one item a turn */
#define TURN_LAUNCHES_MAX 8

/* Launches of item i in its turn: its median launch's share of the
 * round's typical one (run_ctx.typical_ns), rounded, 1 to
 * TURN_LAUNCHES_MAX. Rounds give every item one turn; a pattern whose
 * launch takes a third of the others' gets three launches, so that the
 * short ones, whose noise is no smaller, reach the rule in the rounds the
 * long ones take, and still see the host each round sees. */
size_t bench_runner_launches_per_turn(const run_ctx *r, size_t i)
{
    double m = r->res[i].event.median;
    if (!(r->typical_ns > 0) || !(m > 0))
        return 1;
    double k = floor(r->typical_ns / m + 0.5);
    return k < 1 ? 1 : k > TURN_LAUNCHES_MAX ? TURN_LAUNCHES_MAX : (size_t)k;
}

/* the median of the pending items' median launches: a round's typical launch */
void bench_runner_typical_launch(run_ctx *r)
{
    const bench_plan *p = r->plan;
    double *v = malloc((p->n ? p->n : 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < p->n; i++)
        if (r->res[i].status == BENCH_OK && !r->slots[i].left_out && !r->slots[i].stable &&
            r->res[i].event.median > 0)
            v[n++] = r->res[i].event.median;
    r->typical_ns = n ? bw_median(v, n) : 0;
    free(v);
}

/* the event time of item i's turn once its form is chosen: its median
 * launch, as many times as it launches a turn (a met item launches once) */
double bench_runner_turn_ns(const run_ctx *r, size_t i)
{
    double k = r->slots[i].met ? 1 : (double)bench_runner_launches_per_turn(r, i);
    return k * r->res[i].event.median;
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

/* whether reference i launches in its control slot this round: while it
 * launches in the rounds (its group is not stopped, its form is chosen) */
static int control_due(const run_ctx *r, size_t i)
{
    const slot *sl = &r->slots[i];
    return sl->is_reference && r->res[i].status == BENCH_OK && !sl->left_out && !sl->stable && !sl->alt;
}

/* whether item i takes its turn in the round: a stable one only while
 * its twin collects rounds */
static int takes_turn(const run_ctx *r, size_t i)
{
    const slot *sl = &r->slots[i];
    return r->res[i].status == BENCH_OK && !sl->left_out && (!sl->stable || bench_runner_twin_collecting(sl));
}

/* A reference's launch in its control slot, in the middle of a run of
 * the patterns read against it, or half a round from its own turn: the
 * same kernel at another place in the round. */
static void control_turn(run_ctx *r, size_t i)
{
    bench_result *res = &r->res[i];
    slot *sl = &r->slots[i];
    ocl_timing t;
    if (!control_due(r, i))
        return;
    if (timed_launch(r, i, sl->kern, res->form, &t) && !record(r, i, &t, 1)) {
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
    bench_form alt = (bench_form)r->plan->items[i].alt_form;
    if (alt_first && timed_launch(r, i, sl->alt, alt, &ta)) {
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
        if (timed_launch(r, i, sl->kern, res->form, &t) && !record(r, i, disturbed(r, i, &t), 0)) {
            bench_runner_fail(res, BW_E_NOMEM, "out of memory recording timings");
            bench_runner_report_finished(r, i);
        }
    if (res->status != BENCH_OK)
        return;
    if (!sl->alt)
        bench_runner_twin_after_launch(r, i);
    if (sl->alt && !alt_first && timed_launch(r, i, sl->alt, alt, &ta)) {
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
            sl->rechecking = 0;
        }
    }
    if (sl->alt)
        return; /* no stopping before the form is chosen, or while it is rechecked */
    sl->met = meets_rule(r, i);
    /* the recheck waits for the rule, or for half the rounds' time: a run
     * too noisy for the rule still rechecks, in a later state of the host */
    if ((sl->met || bench_now_s() >= r->recheck_at) && sl->other &&
        (int)(res->event.count + FORM_CALIBRATION) < s->max_reps) {
        start_recheck(r, i);
        sl->met = 0;
        return;
    }
    if (sl->met && bw_hook_fault("hold", r->plan->items[i].spec, NULL))
        sl->met = 0; /* test builds only: keeps the run alive */
    /* its figures are settled: journaled now, though a reference launches
     * on while its group does (stop_groups) */
    if (sl->met)
        bench_runner_report_finished(r, i);
    if ((int)(res->event.count + res->dropped_samples) >= s->max_reps)
        sl->stable = 1; /* the launch cap stops it whatever its group does */
}

/* the paired rounds of item i against its reference ref: each of item
 * i's launches against the reference's launch nearest to it in the round,
 * in either of its slots (a time ratio: the item's bandwidth relative to
 * the reference's, less their bytes) */
bench_pair_ci bench_runner_paired(const run_ctx *r, size_t i, size_t ref)
{
    const bench_result *a = &r->res[ref], *b = &r->res[i];
    bench_pair_series num = { a->event_ns, r->slots[ref].ev_round, r->slots[ref].ev_slot, a->event.count, -1,
                              r->slots[ref].ev_pos };
    bench_pair_series den = { b->event_ns, r->slots[i].ev_round, r->slots[i].ev_slot, b->event.count, 0,
                              r->slots[i].ev_pos };
    return bench_pair_ratio(&num, &den);
}

double bench_runner_bytes_ratio(const run_ctx *r, size_t i, size_t ref)
{
    const bench_item *a = &r->plan->items[i], *b = &r->plan->items[ref];
    return a->fam->bytes(a) / b->fam->bytes(b);
}

/* the reference item i reads against for its stopping rule and its
 * ratio: its reference while that is measured, else -1 */
long bench_runner_paired_reference(const run_ctx *r, size_t i)
{
    long ref = bench_plan_reference(r->plan, i);
    return ref < 0 || (size_t)ref == i || r->res[ref].status != BENCH_OK ? -1 : ref;
}

/* The error the stopping rule holds item i to, as a relative standard
 * error: a reference's median's own; for an item read against a
 * reference, its paired ratio's (bench_pair_rule_error: in units of the
 * faster figure), so that one --rse means one thing for both. Test
 * builds: the hook "noisy" can make it more. */
double bench_runner_rule_rse(const run_ctx *r, size_t i)
{
    int64_t pct = 0;
    if (bw_hook_fault("noisy", r->plan->items[i].spec, &pct) && pct > 0)
        return (double)pct / 100.0;
    long ref = bench_runner_paired_reference(r, i);
    if (ref < 0)
        return r->res[i].event.rse;
    bench_pair_ci c = bench_runner_paired(r, i, (size_t)ref);
    double e = bench_pair_rule_error(&c, bench_runner_bytes_ratio(r, i, (size_t)ref));
    return isfinite(e) ? e : 1.0;
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

/* An item read against a reference stops once it meets the rule: its
 * ratio comes from the rounds in which both launched, so it needs none of
 * the reference's later ones, and the round gets shorter for those still
 * going. A reference stops once it meets the rule and every item read
 * against it has stopped (or left the rounds). */
static void stop_groups(run_ctx *r)
{
    const bench_plan *p = r->plan;
    for (size_t i = 0; i < p->n; i++)
        if (r->res[i].status == BENCH_OK && !r->slots[i].left_out && !r->slots[i].stable && r->slots[i].met &&
            bench_runner_group_of(r, i) != i)
            r->slots[i].stable = 1;
    for (size_t g = 0; g < p->n; g++) {
        if (r->res[g].status != BENCH_OK || r->slots[g].left_out || r->slots[g].stable || !r->slots[g].met)
            continue;
        int all = 1;
        for (size_t i = 0; i < p->n && all; i++)
            if (i != g && bench_runner_group_of(r, i) == g && r->res[i].status == BENCH_OK &&
                !r->slots[i].left_out && !r->slots[i].stable)
                all = 0;
        if (all)
            r->slots[g].stable = 1;
    }
}

/* what ordering the rounds needs, n items: the shuffle, the round's
 * launches (bench_round_sequence) and their inputs */
typedef struct round_space {
    size_t *order, *pos, *scratch;
    long *beside;
    unsigned char *control;
    bench_round_entry *seq;
} round_space;

static void round_space_free(round_space *rs)
{
    free(rs->order);
    free(rs->pos);
    free(rs->scratch);
    free(rs->beside);
    free(rs->control);
    free(rs->seq);
}

/* 0 when out of memory (nothing held) */
static int round_space_make(round_space *rs, size_t n)
{
    size_t m = n ? n : 1;
    rs->order = malloc(m * sizeof *rs->order);
    rs->pos = malloc(m * sizeof *rs->pos);
    rs->scratch = malloc(3 * m * sizeof *rs->scratch);
    rs->beside = malloc(m * sizeof *rs->beside);
    rs->control = malloc(m * sizeof *rs->control);
    rs->seq = malloc(3 * m * sizeof *rs->seq);
    if (rs->order && rs->pos && rs->scratch && rs->beside && rs->control && rs->seq)
        return 1;
    round_space_free(rs);
    return 0;
}

/* Round k's launches into rs->seq, their count: a pattern that still
 * works to meet its rule goes beside a control launch of its reference
 * where that reference has one due */
static size_t round_sequence(const run_ctx *r, round_space *rs, size_t k)
{
    size_t n = r->plan->n;
    for (size_t i = 0; i < n; i++)
        rs->control[i] = (unsigned char)control_due(r, i);
    for (size_t i = 0; i < n; i++) {
        long ref = bench_runner_paired_reference(r, i);
        rs->beside[i] = takes_turn(r, i) && !r->slots[i].stable && ref >= 0 && rs->control[ref] ? ref : -1;
    }
    bench_round_shuffle(rs->order, rs->pos, n, k);
    bench_round_input in = { n, rs->beside, rs->control };
    return bench_round_sequence(&in, rs->order, rs->pos, k, rs->seq, rs->scratch);
}

/* Round-robin timing until every pattern is stable or the deadline; the
 * twins are timed as their forms are chosen, inside the same deadline. */
void bench_runner_measure(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    double t0 = bench_now_s();
    r->recheck_at = isfinite(r->deadline) && r->deadline > t0 ? t0 + (r->deadline - t0) / 2 : INFINITY;
    size_t start = 0;
    int replanned = 0, bounded = s->budget_s >= BENCH_PLAN_MIN_BUDGET_S;
    /* the last round's wall time: a bounded run starts no round that
     * would end past its deadline (a round of the default set takes up
     * to a second on a slow host, and the run's whole budget counts it) */
    double last_round_s = 0;
    for (size_t i = 0; i < p->n; i++)
        r->slots[i].is_reference = bench_runner_serves_as_reference(r, i);
    /* the rounds' orders; without them (out of memory) a rotation, and no control slots */
    round_space rs;
    int ordered = round_space_make(&rs, p->n);
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
            (bench_runner_time_left(r) <= (bounded ? last_round_s : 0) && min_count >= FLOOR_ROUNDS &&
             (bounded || collecting == 0))) {
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
         * (bench_round), so that what runs just before a pattern, and so
         * the state it leaves (a copy's dirty lines, a long local-memory
         * kernel's), varies from round to round and averages out; a
         * stable one whose twin still collects rounds launches on. The
         * patterns read against a reference launch in runs around one
         * launch of it in its control slot, what their per-round ratios
         * are read against. */
        r->round = info->rounds;
        double round_t0 = bench_now_s();
        size_t ne = ordered ? round_sequence(r, &rs, info->rounds) : p->n;
        for (size_t e = 0; e < ne && !*stop; e++) {
            size_t i = ordered ? rs.seq[e].item : (start + e) % p->n;
            if (ordered && rs.seq[e].control)
                control_turn(r, i);
            else if (takes_turn(r, i))
                turn(r, i, start);
        }
        stop_groups(r);
        for (size_t i = 0; i < p->n && !*stop; i++)
            bench_runner_twin_when_due(r, i);
        start++;
        info->rounds++;
        last_round_s = bench_now_s() - round_t0;
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
            sl->rechecking = 0;
        }
        ocl_kernel_free(sl->other); /* no rounds are left for a recheck */
        sl->other = NULL;
        bench_runner_twin_when_due(r, i);
        while (bench_runner_twin_collecting(sl) && !*stop && r->res[i].status == BENCH_OK) {
            ocl_timing t;
            if (timed_launch(r, i, sl->kern, r->res[i].form, &t) && !record(r, i, disturbed(r, i, &t), 0))
                break;
            if (r->res[i].status == BENCH_OK)
                bench_runner_twin_after_launch(r, i);
        }
    }
    for (size_t i = 0; i < p->n; i++)
        bench_runner_twin_end(r, i);
    round_space_free(&rs);
    info->timing_s = bench_now_s() - t0;
}
