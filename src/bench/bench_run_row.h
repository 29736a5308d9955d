/* bench_run_row: the row model the run's document writer and its
 * families' keys share (bench_run_document.c; bench_bank.c,
 * bench_transpose.c, bench_record.c: bench_family.doc_keys): the figures
 * of one pattern computed once from the plan and the results, and the
 * plan's shape (which access modes, which items stand apart: a family
 * with an access mode of its own). Inline: a private header of bench,
 * not an interface. */
#ifndef BENCH_RUN_ROW_H
#define BENCH_RUN_ROW_H

#include <math.h>
#include <string.h>

#include "bench_family.h"
#include "bench_tune_priv.h"
#include "results_plausibility.h"
#include "bench_run.h"

/* The figures of one row, computed once for every writer. */
typedef struct row {
    const bench_item *it;
    const bench_result *r;
    int ok;
    double requested; /* requested bytes, loads + stores */
    double upper;     /* modeled instruction-model bytes, loads + stores */
    double lower;     /* modeled footprint bytes, loads + stores */
} row;

static inline row row_of(const bench_run_doc *run, size_t i)
{
    row w;
    w.it = &run->plan->items[i];
    w.r = &run->results[i];
    w.ok = w.r->status == BENCH_OK;
    const model_launch *m = &w.it->model;
    int64_t S = run->plan->geo.sector;
    w.requested = (double)(m->loads.requested_bytes + m->stores.requested_bytes);
    w.upper = (double)((m->loads.instr_sectors + m->stores.instr_sectors) * S);
    w.lower = (double)((m->loads.footprint_sectors + m->stores.footprint_sectors) * S);
    return w;
}

/* Row i's figure checked against the device's nominal peak, then against
 * its probe's memory plateau: the median's GB/s, or the best launch's
 * where higher, of a measured global row; NULL when it passes both or is
 * not checked, else the words (results_nominal_plausibility,
 * results_plateau_plausibility) in buf, and the figure in *gbs. */
static inline const char *row_plausibility(const bench_run_doc *run, size_t i, double *gbs, char *buf, size_t n)
{
    const bench_result *r = &run->results[i];
    *gbs = r->best_gbs > r->effective_gbs ? r->best_gbs : r->effective_gbs;
    if (r->status != BENCH_OK || strcmp(run->plan->items[i].fam->space, "global"))
        return NULL;
    return results_figure_plausibility(*gbs, run->nominal_gbs, run->probe_memory_gbs, run->probe_memory_date, buf, n);
}

/* whether an item is shown in a section of its own (bank_rows,
 * transpose_rows, record_rows) instead of the global table */
static inline int in_own_section(const bench_item *it)
{
    return it->fam->access != 0;
}

/* A record item against its soa reference, from the run: the measured
 * median-time ratio and the modeled instruction-model and footprint byte
 * ratios (loads + stores), NAN where one is missing. */
typedef struct record_ratios {
    double time, instr, footprint;
} record_ratios;

static inline record_ratios record_ratios_of(const bench_run_doc *run, size_t i)
{
    record_ratios q = { NAN, NAN, NAN };
    const bench_result *r = &run->results[i];
    if (r->reference < 0)
        return q;
    row a = row_of(run, i), b = row_of(run, (size_t)r->reference);
    if (b.upper > 0)
        q.instr = a.upper / b.upper;
    if (b.lower > 0)
        q.footprint = a.lower / b.lower;
    if (a.ok && b.ok && b.r->event.median > 0)
        q.time = a.r->event.median / b.r->event.median;
    return q;
}

/* A whole-matrix item (matrix-row, matrix-col: every element of the n x n
 * matrix once): the launch model's two bounds (model_launch, loads +
 * stores) as times at the rate the reference moved its modeled bytes in
 * this run (the verdict's rate: implied bytes / median), beside the
 * measured median. 0 when the item has no such figures. */
typedef struct launch_times {
    double footprint_ns, instruction_ns, median_ns;
} launch_times;

static inline int is_whole_matrix(const bench_item *it)
{
    return it->pattern && it->pattern->family->sizing == MODEL_PATTERN_SIZING_MATRIX;
}

static inline int launch_times_of(const row *w, launch_times *lt)
{
    const bench_verdict *v = &w->r->verdict;
    *lt = (launch_times){ 0, 0, 0 };
    if (!is_whole_matrix(w->it) || !w->ok || !(v->implied_bytes > 0) || !(w->r->event.median > 0))
        return 0;
    double ns_per_byte = w->r->event.median / v->implied_bytes;
    lt->footprint_ns = w->lower * ns_per_byte;
    lt->instruction_ns = w->upper * ns_per_byte;
    lt->median_ns = w->r->event.median;
    return 1;
}

/* The peak a pattern's bandwidth is set against: read's for a read-mode
 * pattern, copy's for one that loads and stores to dst[g]. */
static inline bench_tune_mode access_mode(const bench_item *it)
{
    return it->access == BENCH_ACCESS_READ ? BENCH_TUNE_READ : BENCH_TUNE_COPY;
}

/* measured: the pattern's bandwidth over the device's peak of its access
 * mode from `bwlab tune`; NAN without a tuned peak or a bandwidth, and for
 * a pattern that reads local memory: a bank row's GB/s are local bytes,
 * which the global streaming peak does not bound (a conflict-free bank
 * row reads local memory several times faster than global memory streams) */
static inline double fraction_of_peak(const bench_run_doc *run, const row *w)
{
    if (!run->tune || !w->ok || strcmp(w->it->fam->space, "global") != 0)
        return NAN;
    return bench_tune_fraction(run->tune->peak, access_mode(w->it), w->r->effective_gbs);
}

static inline const char *status_name(bench_status s)
{
    return s == BENCH_OK ? "ok" : s == BENCH_FAILED ? "failed" : s == BENCH_NOT_MEASURABLE ? "not-measurable" : "not-run";
}

/* validated: measured or found too short to time */
static inline int validated(const bench_result *r)
{
    /* interrupted after its validation: the check still stands */
    return r->status == BENCH_OK || r->status == BENCH_NOT_MEASURABLE || (r->status == BENCH_NOT_RUN && r->validated);
}

/* the access modes the plan measures: BENCH_ACCESS_BIT of each */
static inline unsigned modes_of(const bench_plan *p)
{
    unsigned m = 0, bank = 0;
    /* bank items read local memory: they have no place in the global
     * table's read and copy columns (bank_rows) */
    /* transpose items (copy, measured once) have their own rows too */
    for (size_t i = 0; i < p->n; i++) {
        if (in_own_section(&p->items[i]))
            bank = BENCH_ACCESS_BIT(p->items[i].access);
        else
            m |= BENCH_ACCESS_BIT(p->items[i].access);
    }
    return m ? m : bank;
}

/* a plan index the run's noise figures name, or -1 when it names none
 * (a run that never reached its timing) */
static inline long noise_item(const bench_run_doc *run, long i)
{
    return run->results && i >= 0 && (size_t)i < run->plan->n && run->results[i].status == BENCH_OK ? i : -1;
}

#endif
