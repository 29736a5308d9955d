/* bench_runner_schedule: what the budget holds: the references prepared
 * first so that their calibration prices the others, the timing plan that
 * leaves out what cannot fit before it costs a validation, the replan that
 * takes patterns out of later rounds, and the take-up of what was left out
 * once time remains; also the estimate bench_fit sizes a working set by
 * (bench_runner_priv.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_family.h"
#include "bench_round.h"
#include "bench_runner_priv.h"
#include "bw_hook.h"
#include "bw_stats.h"

/* launches per form before item i's form is chosen, at launch time t_ns */
static size_t form_launches_of(double t_ns)
{
    double n = t_ns > 0 ? ceil(FORM_CALIBRATION_S * 1e9 / t_ns) : FORM_CALIBRATION;
    return n >= FORM_CALIBRATION ? FORM_CALIBRATION : n <= FORM_CALIBRATION_MIN ? FORM_CALIBRATION_MIN : (size_t)n;
}

/* item i is left out for the budget: never timed, the reason in its result */
void bench_runner_leave_out(run_ctx *r, size_t i, int how, const char *why)
{
    bench_result *res = &r->res[i];
    r->slots[i].left_out = how;
    r->slots[i].left_rank = ++r->left_count;
    free(res->budget_note);
    res->budget_note = strdup(why);
    if (how != 2) {
        res->status = BENCH_NOT_RUN;
        res->failure_code = BW_E_RANGE;
        free(res->failure);
        res->failure = strdup(why);
    }
}

/* whether some item takes item i as its reference (a seq, bank:pitch=33, a copy, a soa form):
 * the budget never leaves such an item out */
int bench_runner_serves_as_reference(const run_ctx *r, size_t i)
{
    for (size_t k = 0; k < r->plan->n; k++)
        if (bench_plan_reference(r->plan, k) == (long)i)
            return 1;
    return 0;
}

/* the item whose rounds item i's figures are read against: its reference, or itself */
size_t bench_runner_group_of(const run_ctx *r, size_t i)
{
    long ref = bench_plan_reference(r->plan, i);
    return ref < 0 || r->res[ref].status != BENCH_OK ? i : (size_t)ref;
}

static int cmp_need(const void *a, const void *b)
{
    const double *x = a, *y = b; /* {need, index}: the largest need first */
    return (x[0] < y[0]) - (x[0] > y[0]);
}

/* Item i's launch for the plan: its calibration launch once it has one,
 * else its modeled instruction bytes at its reference's calibration rate
 * (a bank item at its reference's time), else the slowest reference's
 * time. An estimate: only ever used to share out the budget. */
static double launch_estimate_ns(const run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    if (r->slots[i].cal_ns > 0)
        return r->slots[i].cal_ns;
    long ref = bench_plan_reference(p, i);
    if (ref >= 0 && r->slots[ref].cal_ns > 0) {
        const model_launch *m = &p->items[i].model, *rm = &p->items[ref].model;
        double b = (double)(m->loads.instr_sectors + m->stores.instr_sectors);
        double rb = (double)(rm->loads.instr_sectors + rm->stores.instr_sectors);
        if (!p->items[i].fam->modeled || !(b > 0) || !(rb > 0))
            return r->slots[ref].cal_ns;
        return r->slots[ref].cal_ns * b / rb;
    }
    double most = 0;
    for (size_t k = 0; k < p->n; k++)
        most = r->slots[k].cal_ns > most ? r->slots[k].cal_ns : most;
    return most;
}

/* the whole launches validation and warm-up take: the warm-up's (the
 * validating launches run the sample only: bench_family_io.launch_range) */
static double prepare_launches(const bench_settings *s)
{
    return s->warmup > 0 ? s->warmup : 1;
}

/* the median over the prepared items of their preparation beyond their
 * launches, ns: per item, or per kernel it validated (per_kernel) */
static double prep_median_ns(const run_ctx *r, int per_kernel)
{
    const bench_plan *p = r->plan;
    double *v = malloc((p->n ? p->n : 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < p->n; i++)
        if (r->slots[i].prep_extra_ns > 0)
            v[n++] = r->slots[i].prep_extra_ns / (per_kernel && r->slots[i].prep_kernels > 1 ? 2.0 : 1.0);
    double m = n ? bw_median(v, n) : 0;
    free(v);
    return m;
}

/* What preparing an item not yet prepared costs beyond its launches, ns:
 * the median over the items prepared so far (the references, in the first
 * plan). A runtime that compiles each kernel at its first launch (PoCL)
 * makes this a good part of a second an item on an empty kernel cache
 * and milliseconds on a warm one, so it is measured, not assumed. */
static double prep_extra_estimate_ns(const run_ctx *r)
{
    return prep_median_ns(r, 0);
}

/* the plan's estimate of an item: its launch, its minimum of rounds, what
 * it costs besides its rounds (form calibration, validation), whether its
 * twin is planned, its reference's group (stop_groups) and whether it is planned */
typedef struct plan_cost {
    double t, reps, extra; /* ns, rounds, ns */
    int twin, in;
    size_t control; /* a reference: its launches in its control slot each round (bench_round_control_launches) */
    size_t group;
} plan_cost;

/* the control launches reference i makes a round for its members, the
 * items read against it that are still planned (r: the run's state, in
 * which a reference keeps its control slot whatever the plan left out;
 * NULL: the plan's own, where only the members it keeps count) */
static size_t control_launches(const bench_plan *p, size_t i, const run_ctx *r)
{
    size_t members = 0;
    int reference = 0;
    for (size_t k = 0; k < p->n; k++)
        if (k != i && bench_plan_reference(p, k) == (long)i) {
            int in = r ? r->res[k].status == BENCH_OK && !r->slots[k].left_out : !p->items[k].left_out;
            members += (size_t)in;
            reference |= r ? 1 : in;
        }
    return bench_round_control_launches(members, reference);
}

/* whether item i is still planned */
static int planned(const run_ctx *r, size_t i)
{
    return r->res[i].status == BENCH_OK && !r->slots[i].left_out;
}

/* The timing n items need, ns: an item read against a reference launches
 * its own rounds, and the reference as many as its most demanding member
 * (a member stops once it meets the rule, the reference once they all
 * have: stop_groups), and again each round in its control slot, once
 * per run of its members (bench_round_control_launches); a twin's rounds
 * follow its item's launches (twin_launches). rounds[g] gets group g's.
 * One sum for the run's plan and for bench_run_estimate_s, so that a
 * fitted working set is priced as the plan then prices it. */
static double grouped_total(size_t n, const plan_cost *c, double *rounds)
{
    double total = 0;
    for (size_t g = 0; g < n; g++)
        rounds[g] = 0;
    for (size_t i = 0; i < n; i++)
        if (c[i].in) {
            rounds[c[i].group] = c[i].reps > rounds[c[i].group] ? c[i].reps : rounds[c[i].group];
            total += c[i].extra;
        }
    for (size_t i = 0; i < n; i++)
        if (c[i].in) {
            double own = c[i].group == i ? rounds[i] : c[i].reps;
            total += (own * (double)(1 + c[i].control) + (c[i].twin ? bench_runner_twin_launches(own) : 0)) * c[i].t;
        }
    return total;
}

/* item i's minimum of rounds at launch time t_ns: min_reps, min_total_s,
 * and the timing's own floor (FLOOR_ROUNDS) */
static double min_rounds(const bench_settings *s, double t_ns)
{
    double reps = ceil(s->min_total_s * 1e9 / t_ns);
    reps = reps > s->min_reps ? reps : s->min_reps;
    return reps < FLOOR_ROUNDS ? FLOOR_ROUNDS : reps;
}

static double plan_total(const run_ctx *r, plan_cost *c, double *rounds)
{
    for (size_t i = 0; i < r->plan->n; i++)
        c[i].in = planned(r, i);
    return grouped_total(r->plan->n, c, rounds);
}

/* Plans the timing before it starts: each item needs at least its
 * minimum of launches and of launch time (bench_settings min_reps,
 * min_total_s) at its launch estimate, its reference launching as long
 * as its group's most demanding member (plan_total), both forms' launches in the first rounds, its twin, and,
 * while it is not yet validated, its validation and warm-up. When that
 * does not fit the time left, items that no other item takes as its
 * reference are left out, the costliest first, until it does; their twins
 * go before them. Run twice: with the references
 * calibrated (the others estimated, so that what is left out is never
 * validated), then with every item calibrated. The run's figures
 * (info->planned_s, available_s) are the first plan's, or those of the
 * plan that left something out. */
static void plan_timing(run_ctx *r, bench_run_info *info, int first)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    plan_cost *c = calloc(p->n ? p->n : 1, sizeof *c);
    double *rounds = calloc(p->n ? p->n : 1, sizeof *rounds);
    if (!c || !rounds) {
        free(c);
        free(rounds);
        return;
    }
    double prep_extra = prep_extra_estimate_ns(r);
    for (size_t i = 0; i < p->n; i++) {
        slot *sl = &r->slots[i];
        if (!planned(r, i))
            continue;
        double t = launch_estimate_ns(r, i);
        int64_t slow_ms = 0; /* test builds only: a plan that takes this item's launches as slow */
        if (bw_hook_fault("plan_slow", p->items[i].spec, &slow_ms) && slow_ms > 0)
            t = (double)slow_ms * 1e6;
        t = t > 0 ? t : 1.0;
        c[i].t = t;
        c[i].reps = min_rounds(s, t);
        c[i].group = bench_runner_group_of(r, i);
        c[i].control = control_launches(p, i, r);
        /* before plan_twins, a reference's twin is counted as it will be */
        c[i].twin = !s->no_twins && !p->items[i].fam->no_twin &&
                    (sl->need_twin || (first && bench_family_is_reference(&p->items[i])));
        c[i].extra = sl->alt ? (double)form_launches_of(t) * t : 0;
        if (!(sl->cal_ns > 0))
            c[i].extra += prepare_launches(r->s) * t + prep_extra;
    }
    double total = plan_total(r, c, rounds), avail = bench_runner_time_left(r) * 1e9;
    /* Rounds are cut before any pattern is left out: every pattern's
     * minimum is then the timing's floor of rounds (its stopping rule may
     * go unmet, and the output says so). Below BENCH_PLAN_MIN_BUDGET_S
     * every pattern keeps its launches: such a budget promises no bound
     * (bwlab help run). */
    if (total > avail && s->budget_s >= BENCH_PLAN_MIN_BUDGET_S) {
        for (size_t i = 0; i < p->n; i++)
            c[i].reps = FLOOR_ROUNDS;
        total = plan_total(r, c, rounds);
    }
    /* the run's figures: the first plan's, or the one that leaves something out */
    if (first || (total > avail && info->left_out == 0)) {
        info->planned_s = total / 1e9;
        info->available_s = avail > 0 ? avail / 1e9 : 0;
    }
    if (total <= avail || s->budget_s < BENCH_PLAN_MIN_BUDGET_S) {
        free(c);
        free(rounds);
        return;
    }
    /* a twin is worth less than a measurement: the non-reference twins go first */
    for (size_t i = 0; i < p->n; i++) {
        slot *sl = &r->slots[i];
        if (!planned(r, i) || !sl->need_twin || bench_runner_serves_as_reference(r, i))
            continue;
        sl->need_twin = 0;
        c[i].twin = 0;
        bench_runner_no_twin(&r->res[i], "no twin: the budget holds the pattern's own launches only");
    }
    char why[400];
    snprintf(why, sizeof why, "left out before measuring: the %.0f s budget cannot hold its minimum of launches "
             "beside the other patterns' (estimated from calibration launches); a larger --budget measures it",
             s->budget_s);
    /* then the costliest item, by what it adds (its rounds of its launch,
     * and its own extras), until the plan fits */
    while ((total = plan_total(r, c, rounds)) > avail) {
        long worst = -1;
        double most = -1;
        for (size_t i = 0; i < p->n; i++) {
            if (!planned(r, i) || bench_runner_serves_as_reference(r, i))
                continue;
            double g = c[i].group == i ? rounds[i] : c[i].reps;
            double cost = (g + (c[i].twin ? bench_runner_twin_launches(g) : 0)) * c[i].t + c[i].extra;
            if (cost > most) {
                most = cost;
                worst = (long)i;
            }
        }
        if (worst < 0)
            break;
        bench_runner_leave_out(r, (size_t)worst, 1, why);
        info->left_out++;
    }
    free(c);
    free(rounds);
}

double bench_run_estimate_s(const bench_plan *p, const bench_settings *s, double copy_gbs)
{
    plan_cost *c = calloc(p->n ? p->n : 1, sizeof *c);
    double *rounds = calloc(p->n ? p->n : 1, sizeof *rounds);
    double total = 0;
    for (size_t i = 0; c && rounds && i < p->n && copy_gbs > 0; i++) {
        const bench_item *it = &p->items[i];
        if (it->left_out)
            continue; /* no launch, and no buffer of its own */
        const model_launch *m = &it->model;
        double bytes = it->fam->modeled ? (double)((m->loads.instr_sectors + m->stores.instr_sectors) * p->geo.sector)
                                        : it->fam->bytes(it);
        double t = bytes / copy_gbs; /* ns */
        if (!(t > 0))
            continue;
        long ref = bench_plan_reference(p, i);
        c[i] = (plan_cost){ .t = t, .reps = min_rounds(s, t), .in = 1, .group = ref < 0 ? i : (size_t)ref };
        /* read against: its control slot launches each round too (measure) */
        c[i].control = control_launches(p, i, NULL);
        c[i].extra = (prepare_launches(s) + (it->scalar_form ? (double)form_launches_of(t) : 0)) * t;
        c[i].twin = !it->fam->no_twin && !s->no_twins && bench_family_is_reference(it);
    }
    if (c && rounds)
        total = grouped_total(p->n, c, rounds);
    free(c);
    free(rounds);
    return total / 1e9;
}

/* the plan's one line, once both plans are made: what was left out */
static void plan_note(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    size_t *out = calloc(p->n ? p->n : 1, sizeof *out), nout = 0;
    /* in the order they were left out: the costliest first */
    for (size_t rank = 1; out && rank <= r->left_count; rank++)
        for (size_t i = 0; i < p->n; i++)
            if (r->slots[i].left_out == 1 && r->slots[i].left_rank == rank)
                out[nout++] = i;
    if (nout) {
        char names[400];
        bench_plan_name_items(r->plan, out, nout, names, sizeof names);
        snprintf(info->plan_note, sizeof info->plan_note,
                 "the budget cannot hold every pattern even at its fewest rounds: %.1f s were left for validating "
                 "and timing, and the minimum of launches needs about %.1f s (estimated from calibration launches "
                 "and modeled bytes); left out, costliest first: %s; a larger --budget measures them",
                 info->available_s, info->planned_s, names);
        bench_runner_report(r, "plan", 0, p->n, info->plan_note, -1);
    }
    free(out);
}

/* validation, warm-up and calibration of item i */
static void prepare_one(run_ctx *r, size_t i)
{
    const bench_plan *p = r->plan;
    double t0 = bench_now_s();
    bench_runner_report(r, "validating", i, p->n, p->items[i].spec, -1);
    bw_error e = BW_ERROR_INIT;
    bench_form alt = (bench_form)r->plan->items[i].alt_form;
    bw_code rc = bench_runner_validate_item(r, i, r->slots[i].kern, BENCH_FORM_PLAIN, &e);
    if (rc == BW_OK && r->slots[i].alt && (rc = bench_runner_validate_item(r, i, r->slots[i].alt, alt, &e)) != BW_OK)
        bw_error_prefix(&e, "the %s form: ", bench_form_name(alt));
    r->res[i].validated = rc == BW_OK;
    /* the last warm-up launch is the one checked against the floor */
    ocl_timing t = { 0, 0 };
    for (int w = 0; rc == BW_OK && w < (r->s->warmup > 0 ? r->s->warmup : 1); w++)
        rc = bench_runner_launch(r, i, r->slots[i].kern, r->res[i].form, &t, &e);
    if (rc == BW_E_INTERRUPTED)
        r->res[i].validated = 0; /* not run: finish() says so */
    else if (rc != BW_OK)
        bench_runner_fail(&r->res[i], e.code, bw_error_text(&e));
    else
        bench_runner_after_warmup(r, i, t.event_ns);
    r->slots[i].cal_ns = t.event_ns;
    r->slots[i].form_launches = form_launches_of(t.event_ns);
    double extra = (bench_now_s() - t0) * 1e9 - prepare_launches(r->s) * t.event_ns;
    r->slots[i].prep_extra_ns = extra > 0 ? extra : 1.0;
    r->slots[i].prep_kernels = r->slots[i].alt ? 2 : 1;
    bw_error_clear(&e);
}

/* References first: their calibration prices the others, and the plan
 * leaves out what cannot fit before it costs a validation. */
void bench_runner_prepare(run_ctx *r, volatile sig_atomic_t *stop, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    double t0 = bench_now_s();
    bench_runner_build_all(r, stop);
    info->build_s = bench_now_s() - t0;
    for (int pass = 0; pass < 2 && !*stop; pass++) {
        for (size_t i = 0; i < p->n && !*stop; i++)
            if (r->res[i].status == BENCH_OK && !r->slots[i].left_out &&
                bench_runner_serves_as_reference(r, i) == (pass == 0))
                prepare_one(r, i);
        if (*stop)
            break;
        if (pass == 0)
            plan_timing(r, info, 1);
    }
    info->prepare_s = bench_now_s() - t0 - info->build_s;
    info->prep_kernel_s = prep_median_ns(r, 1) / 1e9;
    if (*stop)
        return;
    bench_runner_plan_twins(r);
    plan_timing(r, info, 0);
    plan_note(r, info);
}

/* After every pending item has min_reps launches: the rounds each still
 * needs for its standard error to reach the target (it falls as
 * 1/sqrt(n)), in turns of as many launches as it makes a turn
 * (launches_per_turn). When the rounds of the one that needs most, at the
 * cost of a round of everything still launched, do not fit the time left, the
 * items needing most rounds (none that another is read against) leave the
 * later rounds, keeping their launches so far, so that the others can
 * reach the rule, as long as at least half of them can; else nothing
 * changes. Once per run. */
void bench_runner_replan(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    const bench_settings *s = r->s;
    /* {rounds still needed, index} of the pending items no other reads against */
    double (*need)[2] = calloc(p->n ? p->n : 1, sizeof *need);
    size_t *out = calloc(p->n ? p->n : 1, sizeof *out);
    double round_ns = 0, ref_rounds = 0;
    size_t nn = 0, nout = 0;
    bench_runner_typical_launch(r);
    for (size_t i = 0; need && i < p->n; i++) {
        const bench_result *res = &r->res[i];
        if (res->status != BENCH_OK || r->slots[i].stable || r->slots[i].left_out || res->event.count == 0)
            continue;
        round_ns += bench_runner_turn_ns(r, i); /* a met reference launches on while its group does */
        if (r->slots[i].met)
            continue;
        double n = (double)res->event.count, rse = bench_runner_rule_rse(r, i);
        double want = s->rse_target > 0 ? n * (rse / s->rse_target) * (rse / s->rse_target) : (double)s->max_reps;
        want = want < s->max_reps ? want : s->max_reps;
        /* a short launch is made several times a turn once its form is chosen */
        double rounds = want > n ? ceil((want - n) / (double)bench_runner_launches_per_turn(r, i)) : 0;
        if (bench_runner_serves_as_reference(r, i)) {
            ref_rounds = rounds > ref_rounds ? rounds : ref_rounds;
            continue;
        }
        need[nn][0] = rounds;
        need[nn++][1] = (double)i;
    }
    double avail = bench_runner_time_left(r) * 1e9;
    if (need && out && nn) {
        /* the rounds the slowest pending item needs, at the cost of a round
         * of every item still launched: while that does not fit, the item
         * needing the most rounds leaves, and its launch leaves each round */
        qsort(need, nn, sizeof *need, cmp_need);
        size_t j = 0;
        for (; j < nn; j++) {
            double most = need[j][0] > ref_rounds ? need[j][0] : ref_rounds;
            if (most * round_ns <= avail)
                break;
            round_ns -= bench_runner_turn_ns(r, (size_t)need[j][1]);
        }
        double most = j < nn ? (need[j][0] > ref_rounds ? need[j][0] : ref_rounds) : ref_rounds;
        /* Only when most can still make it: on a machine too noisy for the
         * rule, every pattern keeps its share of the rounds instead. */
        if (most * round_ns <= avail && 2 * (nn - j) >= nn)
            for (size_t k = 0; k < j; k++)
                out[nout++] = (size_t)need[k][1];
    }
    if (nout) {
        char names[400], why[300];
        snprintf(why, sizeof why, "left out of later rounds: at its standard error it needed more launches than "
                 "the budget had left, so the other patterns could reach the stopping rule; a larger --budget "
                 "times it longer");
        for (size_t j = 0; j < nout; j++) {
            bench_runner_leave_out(r, out[j], 2, why);
            bench_runner_report_finished(r, out[j]);
        }
        bench_plan_name_items(r->plan, out, nout, names, sizeof names);
        info->dropped = nout;
        snprintf(info->replan_note, sizeof info->replan_note,
                 "left out of later rounds to let the others reach the stopping rule (their standard error "
                 "needed more launches than the %.1f s left): %s", avail > 0 ? avail / 1e9 : 0, names);
        bench_runner_report(r, "plan", 0, p->n, info->replan_note, -1);
    }
    free(need);
    free(out);
}

/* Item i back in the rounds: its reference, if its group had stopped,
 * launches again (once a turn: it has met its rule), so that item i's
 * rounds are paired too */
static void reopen_reference(run_ctx *r, size_t i)
{
    long ref = bench_runner_paired_reference(r, i);
    if (ref >= 0 && !r->slots[ref].left_out)
        r->slots[ref].stable = 0;
}

/* The items the replan left out of later rounds back in them; 1 when
 * there were any. Their results no longer say they were left out, and the
 * replan's note says they were taken up again. */
int bench_runner_resume_dropped(run_ctx *r, bench_run_info *info)
{
    int any = 0;
    for (size_t i = 0; i < r->plan->n; i++) {
        if (r->slots[i].left_out != 2 || r->res[i].status != BENCH_OK)
            continue;
        r->slots[i].left_out = 0;
        free(r->res[i].budget_note);
        r->res[i].budget_note = NULL;
        reopen_reference(r, i);
        any = 1;
    }
    if (any) {
        size_t k = strlen(info->replan_note);
        snprintf(info->replan_note + k, sizeof info->replan_note - k, "; taken up again once the others were done");
        info->dropped = 0;
    }
    return any;
}

/* The others done with time left: the patterns the plan left out before
 * measuring, the cheapest first, each whose minimum of launches (and its
 * validation and warm-up) the time left holds at its estimate now (its
 * reference's measured rate), are validated now and join the rounds,
 * in their plain form and without a twin; 1 when any did. The plan's
 * note names them. */
int bench_runner_take_up_left_out(run_ctx *r, bench_run_info *info)
{
    const bench_plan *p = r->plan;
    int any = 0;
    for (;;) {
        long best = -1;
        double cheapest = INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            if (r->slots[i].left_out != 1 || r->res[i].status != BENCH_NOT_RUN)
                continue;
            double need = (r->s->min_reps + 2) * launch_estimate_ns(r, i);
            if (need < cheapest) {
                cheapest = need;
                best = (long)i;
            }
        }
        if (best < 0 || cheapest > bench_runner_time_left(r) * 1e9)
            break;
        size_t i = (size_t)best;
        bench_result *res = &r->res[i];
        r->slots[i].left_out = 0;
        res->status = BENCH_OK;
        res->failure_code = BW_OK;
        free(res->failure);
        res->failure = NULL;
        free(res->budget_note);
        res->budget_note = NULL;
        /* no time for a form calibration or a twin: the plain form, alone */
        ocl_kernel_free(r->slots[i].alt);
        r->slots[i].alt = NULL;
        r->slots[i].rechecking = 0;
        ocl_kernel_free(r->slots[i].other);
        r->slots[i].other = NULL;
        r->slots[i].need_twin = 0;
        bench_runner_no_twin(res, "no twin: taken up at the end, when the budget had time for the pattern's own "
                             "launches only");
        prepare_one(r, i);
        reopen_reference(r, i);
        info->left_out--;
        size_t k = strlen(info->plan_note);
        snprintf(info->plan_note + k, sizeof info->plan_note - k, "%s%s", any ? ", " : "; taken up at the end: ",
                 p->items[i].spec);
        any = 1;
    }
    return any;
}
