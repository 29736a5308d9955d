/* report_check: two results documents compared row by row, for a
 * regression gate (report_check.h). */
#include "report_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_format.h"
#include "results_schema.h"
#include "report_check_priv.h"

const char *report_check_status_name(report_check_status s)
{
    return s == REPORT_CHECK_REGRESSED ? "regressed" : s == REPORT_CHECK_IMPROVED ? "improved" : "same";
}

void report_check_free(report_check *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->rows[i].pattern);
        free(c->rows[i].access);
    }
    free(c->rows);
    free(c);
}

static const json_t *results_of(const json_t *doc, const char *name, bw_error *err)
{
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    const json_t *res = json_object_get(doc, "results");
    if (!json_is_object(doc) || !schema || strcmp(schema, RESULTS_RUN_SCHEMA) || !json_is_array(res)) {
        bw_error_set(err, BW_E_FORMAT, "'%s' is not a bwlab run results document (schema \"%s\" with results[]): "
                     "give the JSON 'bwlab run --format json' writes", name, RESULTS_RUN_SCHEMA);
        return NULL;
    }
    return res;
}

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int same_key(const json_t *a, const json_t *b)
{
    const char *pa = json_string_value(json_object_get(a, "pattern")), *pb = json_string_value(json_object_get(b, "pattern"));
    const char *aa = json_string_value(json_object_get(a, "access")), *ab = json_string_value(json_object_get(b, "access"));
    return pa && pb && !strcmp(pa, pb) && ((!aa && !ab) || (aa && ab && !strcmp(aa, ab))) &&
           json_integer_value(json_object_get(a, "device")) == json_integer_value(json_object_get(b, "device")) &&
           json_integer_value(json_object_get(a, "elem_bytes")) == json_integer_value(json_object_get(b, "elem_bytes"));
}

/* whether row r is a reference: it names itself as its reference (a file
 * without "reference": a seq row) */
static int is_reference(const json_t *r)
{
    const char *p = json_string_value(json_object_get(r, "pattern"));
    const char *ref = json_string_value(json_object_get(r, "reference"));
    return p && (ref ? !strcmp(p, ref) : !strcmp(p, "seq"));
}

/* a vs seq figure's half-width: its interval's larger side, else its
 * relative_spread, else the default */
static double vs_width(const json_t *r, double v)
{
    const json_t *ci = json_object_get(r, "relative_to_seq_ci");
    if (json_is_array(ci) && json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) &&
        json_is_number(json_array_get(ci, 1))) {
        double lo = json_number_value(json_array_get(ci, 0)), hi = json_number_value(json_array_get(ci, 1));
        return hi - v > v - lo ? hi - v : v - lo;
    }
    double s = num(r, "relative_spread");
    return isfinite(s) ? s : REPORT_CHECK_DEFAULT;
}

/* seq's repeatability, a fraction: its spread, else the run's noise figure, else the default */
static double seq_width(const json_t *doc, const json_t *r)
{
    double s = num(r, "spread");
    if (isfinite(s))
        return s;
    const json_t *runs = json_object_get(doc, "runs");
    for (size_t k = 0; k < json_array_size(runs); k++) {
        const json_t *run = json_array_get(runs, k);
        const json_t *dev = json_object_get(run, "device");
        if (json_integer_value(json_object_get(dev, "index")) != json_integer_value(json_object_get(r, "device")))
            continue;
        double n = num(json_object_get(run, "noise"), "seq_spread");
        if (isfinite(n))
            return n;
    }
    return REPORT_CHECK_DEFAULT;
}

static int add_row(report_check *c, size_t *cap, const json_t *b, const json_t *r, const json_t *bdoc,
                   const json_t *rdoc)
{
    if (c->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 32;
        report_check_row *nr = realloc(c->rows, nc * sizeof *nr);
        if (!nr)
            return 0;
        c->rows = nr;
        *cap = nc;
    }
    report_check_row *w = &c->rows[c->n];
    memset(w, 0, sizeof *w);
    const char *access = json_string_value(json_object_get(r, "access"));
    w->pattern = strdup(json_string_value(json_object_get(r, "pattern")));
    w->access = strdup(access ? access : "copy");
    if (!w->pattern || !w->access) {
        free(w->pattern);
        free(w->access);
        return 0;
    }
    c->n++;
    w->device = json_integer_value(json_object_get(r, "device"));
    w->elem = json_integer_value(json_object_get(r, "elem_bytes"));
    w->is_seq = is_reference(r);
    if (w->is_seq) {
        w->baseline = num(b, "effective_gbs");
        w->run = num(r, "effective_gbs");
        double sb = seq_width(bdoc, b), sr = seq_width(rdoc, r);
        double frac = sqrt(sb * sb + sr * sr);
        w->tolerance = (frac > REPORT_CHECK_FLOOR ? frac : REPORT_CHECK_FLOOR) * w->baseline;
    } else {
        w->baseline = num(b, "relative_to_seq");
        w->run = num(r, "relative_to_seq");
        double hb = vs_width(b, w->baseline), hr = vs_width(r, w->run);
        double tol = sqrt(hb * hb + hr * hr);
        w->tolerance = tol > REPORT_CHECK_FLOOR ? tol : REPORT_CHECK_FLOOR;
    }
    w->delta = w->run - w->baseline;
    w->status = w->delta < -w->tolerance  ? REPORT_CHECK_REGRESSED
                : w->delta > w->tolerance ? REPORT_CHECK_IMPROVED
                                          : REPORT_CHECK_SAME;
    c->regressed += w->status == REPORT_CHECK_REGRESSED;
    c->improved += w->status == REPORT_CHECK_IMPROVED;
    return 1;
}

/* the figure a row is compared by is there and positive */
static int has_figure(const json_t *r)
{
    double v = num(r, is_reference(r) ? "effective_gbs" : "relative_to_seq");
    return v > 0 && isfinite(v);
}

bw_code report_check_make(const json_t *baseline, const char *baseline_name, const json_t *run,
                          const char *run_name, report_check **out, bw_error *err)
{
    *out = NULL;
    const json_t *rb = results_of(baseline, baseline_name, err), *rr = rb ? results_of(run, run_name, err) : NULL;
    if (!rb || !rr)
        return err ? err->code : BW_E_FORMAT;
    report_check *c = calloc(1, sizeof *c);
    if (!c)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    size_t cap = 0, nb = json_array_size(rb), nr = json_array_size(rr);
    char *matched = calloc(nb ? nb : 1, 1);
    if (!matched) {
        report_check_free(c);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    for (size_t j = 0; j < nr; j++) {
        const json_t *r = json_array_get(rr, j);
        size_t k = 0;
        while (k < nb && (matched[k] || !same_key(json_array_get(rb, k), r)))
            k++;
        const json_t *b = k < nb ? json_array_get(rb, k) : NULL;
        if (b)
            matched[k] = 1;
        if (!b || !has_figure(b) || !has_figure(r)) {
            c->only_run += !b || !has_figure(r) ? 1 : 0;
            c->only_baseline += b && !has_figure(b) ? 1 : 0;
            continue;
        }
        if (!add_row(c, &cap, b, r, baseline, run)) {
            free(matched);
            report_check_free(c);
            return bw_error_set(err, BW_E_NOMEM, "out of memory");
        }
    }
    for (size_t k = 0; k < nb; k++)
        c->only_baseline += !matched[k];
    free(matched);
    if (c->n == 0) {
        report_check_free(c);
        return bw_error_set(err, BW_E_FORMAT, "'%s' and '%s' share no measured row (same device position, pattern, "
                            "access mode and element size): compare a run with a baseline of the same patterns",
                            baseline_name, run_name);
    }
    *out = c;
    return BW_OK;
}

static void row_md(const report_check_row *w, bw_buf *out)
{
    const char *unit = w->is_seq ? " GB/s" : "";
    bw_buf_printf(out, "| %s | %s | %s | %.4g%s | %.4g%s | %+.4g | ±%.4g | %s |\n", w->pattern, w->access,
                  w->is_seq ? "GB/s" : "vs seq", w->baseline, unit, w->run, unit, w->delta, w->tolerance,
                  report_check_status_name(w->status));
}

void report_check_markdown(const report_check *c, const char *baseline_name, const char *run_name, bw_buf *out)
{
    bw_buf_printf(out, "bwlab compare --check: %s against the baseline %s: ", run_name, baseline_name);
    if (c->regressed)
        bw_buf_printf(out, "%zu of %zu rows REGRESSED", c->regressed, c->n);
    else
        bw_buf_printf(out, "no row regressed (%zu compared)", c->n);
    if (c->improved)
        bw_buf_printf(out, ", %zu improved", c->improved);
    bw_buf_puts(out, "\n\n");
    bw_buf_puts(out, "A row moved when the difference exceeds the tolerance: the root sum of squares of the two runs' "
                     "own uncertainties (vs seq: the 95% interval's larger side, else relative_spread; seq's GB/s: "
                     "each run's spread), never below 0.02 (of seq's GB/s: 2%). All figures measured.\n\n");
    bw_buf_puts(out, "| pattern | mode | figure | baseline | run | change | tolerance | status |\n"
                     "|---|---|---|---|---|---|---|---|\n");
    /* the rows that moved first, then the rest, each in the run's order */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < c->n; i++)
            if ((c->rows[i].status != REPORT_CHECK_SAME) == (pass == 0))
                row_md(&c->rows[i], out);
    if (c->only_baseline || c->only_run)
        bw_buf_printf(out, "\nnot compared: %zu rows measured in the baseline only, %zu in the run only\n",
                      c->only_baseline, c->only_run);
}

bw_code report_check_json(const report_check *c, const char *baseline_name, const char *run_name, bw_buf *out,
                          bw_error *err)
{
    json_t *o = json_object(), *rows = json_array();
    if (!o || !rows) {
        json_decref(o);
        json_decref(rows);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    json_object_set_new(o, "schema", json_string("bwlab.check"));
    json_object_set_new(o, "schema_version", json_integer(1));
    json_object_set_new(o, "baseline", results_json_text(baseline_name));
    json_object_set_new(o, "run", results_json_text(run_name));
    json_object_set_new(o, "compared", json_integer((json_int_t)c->n));
    json_object_set_new(o, "regressed", json_integer((json_int_t)c->regressed));
    json_object_set_new(o, "improved", json_integer((json_int_t)c->improved));
    json_object_set_new(o, "only_baseline", json_integer((json_int_t)c->only_baseline));
    json_object_set_new(o, "only_run", json_integer((json_int_t)c->only_run));
    json_object_set_new(o, "floor", json_real(REPORT_CHECK_FLOOR));
    for (size_t i = 0; i < c->n; i++) {
        const report_check_row *w = &c->rows[i];
        json_t *r = json_object();
        json_object_set_new(r, "device", json_integer(w->device));
        json_object_set_new(r, "pattern", results_json_text(w->pattern));
        json_object_set_new(r, "access", results_json_text(w->access));
        json_object_set_new(r, "elem_bytes", json_integer(w->elem));
        json_object_set_new(r, "figure", json_string(w->is_seq ? "effective_gbs" : "relative_to_seq"));
        json_object_set_new(r, "baseline", json_real(w->baseline));
        json_object_set_new(r, "run", json_real(w->run));
        json_object_set_new(r, "change", json_real(w->delta));
        json_object_set_new(r, "tolerance", json_real(w->tolerance));
        json_object_set_new(r, "status", json_string(report_check_status_name(w->status)));
        json_array_append_new(rows, r);
    }
    json_object_set_new(o, "rows", rows);
    return results_json_dump(o, out, err);
}
