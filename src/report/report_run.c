/* report_run: the run's results for people and spreadsheets, rendered from
 * its results document (docs/results.md): the table and its Markdown form
 * (one code path with a Markdown flag: the header lines, the global or
 * side-by-side table through report_grid, the families' sections, the
 * short roofline and the transfers) and the CSV (results_csv.h's
 * columns). Rendering only: every figure and sentence comes from the
 * document (report_run.h). */
#include "report_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_format.h"
#include "model_pattern.h"
#include "report_device_head.h"
#include "report_format.h"
#include "report_grid.h"
#include "report_probe.h"
#include "report_roofline.h"
#include "report_run_doc.h"
#include "report_section.h"
#include "report_tune.h"
#include "results_csv.h"
#include "results_fields.h"
#include "results_plausibility.h"
#include "results_probe_fields.h"
#include "results_run_fields.h"
#include "report_device_head_priv.h"
#include "report_probe_priv.h"
#include "report_roofline_priv.h"
#include "report_tune_priv.h"

static const char *const mode_name[RD_MODES] = { "copy", "read", "write" };
/* the side-by-side table's column order of the modes */
static const int side_order[RD_MODES] = { RD_READ, RD_COPY, RD_WRITE };

/* ---- a run's results ---- */

/* Device k's run: runs[k] and the results whose "device" is its index. 0,
 * or -1 when out of memory. */
static int run_at(const json_t *doc, size_t k, int explain, report_doc_run *r)
{
    const json_t *results = json_object_get(doc, RUN_KEY(RUND_RESULTS));
    memset(r, 0, sizeof *r);
    r->doc = doc;
    r->explain = explain;
    r->run = json_array_get(json_object_get(doc, RUN_KEY(RUND_RUNS)), k);
    long long dev = rd_int(json_object_get(r->run, RUN_KEY(RUNF_DEVICE)), "index");
    size_t cap = json_array_size(results);
    r->items = calloc(cap ? cap : 1, sizeof *r->items);
    r->sec = calloc(cap ? cap : 1, sizeof *r->sec);
    if (!r->items || !r->sec) {
        free(r->items);
        free(r->sec);
        return -1;
    }
    size_t i;
    const json_t *o;
    json_array_foreach(results, i, o) {
        if (rd_int(o, RF_KEY(RF_DEVICE)) != dev)
            continue;
        r->sec[r->n] = report_section_of_family(rd_str(o, RF_KEY(RF_FAMILY)));
        r->items[r->n++] = o;
    }
    return 0;
}

static void run_free(report_doc_run *r)
{
    free(r->items);
    free(r->sec);
}

/* a device with a plan has its working set */
static int planned(const json_t *run)
{
    return rd_has(run, RUN_KEY(RUNF_WORKING_SET_TARGET_BYTES));
}

/* the access modes of the run's global table: RD_BIT of each (the
 * sections' modes where it has none) */
static unsigned modes_of(const report_doc_run *r)
{
    unsigned m = 0, apart = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->sec[i]->apart)
            apart = RD_BIT(rd_access(r->items[i]));
        else
            m |= RD_BIT(rd_access(r->items[i]));
    }
    return m ? m : apart;
}

/* whether the global table has more than one access mode: then a row
 * per pattern, the modes side by side (side_table) */
static int several_modes(const report_doc_run *r)
{
    unsigned mo = modes_of(r);
    return (mo & (mo - 1u)) != 0;
}

static int has_global(const report_doc_run *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (!r->sec[i]->apart)
            return 1;
    return 0;
}

/* the first line of s */
static void first_line(bw_buf *out, const char *s)
{
    const char *nl = strchr(s, '\n');
    bw_buf_putn(out, s, nl ? (size_t)(nl - s) : strlen(s));
}

/* the lead of a row without a bandwidth */
static const char *failure_lead(const json_t *o, int upper)
{
    const char *s = rd_str(o, RF_KEY(RF_STATUS));
    if (s && !strcmp(s, "failed"))
        return upper ? "FAILED: " : "failed: ";
    /* the reason of a pattern too short to time begins "not measurable" */
    return s && !strcmp(s, "not-measurable") ? "" : "not run: ";
}

void report_run_failure(bw_buf *out, const json_t *o, int md)
{
    bw_buf_puts(out, failure_lead(o, !md));
    bw_buf seg = BW_BUF_INIT;
    first_line(&seg, rd_failure(o));
    if (md)
        report_md_escape(out, bw_buf_str(&seg));
    else
        bw_buf_puts(out, bw_buf_str(&seg));
    bw_buf_free(&seg);
}

void report_md_escape(bw_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            bw_buf_puts(out, "\\|");
        else if (*s == '\n')
            bw_buf_putc(out, ' ');
        else if ((unsigned char)*s < 0x20 || *s == 0x7f)
            bw_buf_printf(out, "\\x%02x", (unsigned char)*s);
        else
            bw_buf_putc(out, *s);
    }
}

void report_cell_ratio(bw_buf *out, double v, int valid, int width)
{
    char buf[32];
    if (valid && isfinite(v))
        snprintf(buf, sizeof buf, "%.2f", v);
    else
        snprintf(buf, sizeof buf, "-");
    bw_buf_printf(out, "%*s", width, buf);
}

void report_ways_text(char *buf, size_t n, const json_t *o)
{
    if (rd_int(o, RF_KEY(RF_CONFLICT_WAYS)) > 0)
        snprintf(buf, n, "%lld-way", rd_int(o, RF_KEY(RF_CONFLICT_WAYS)));
    else
        snprintf(buf, n, "n/a");
}

void report_section_row(bw_buf *out, const json_t *o, const char *cells, int md)
{
    const char *spec = rd_spec(o);
    if (md) {
        bw_buf_puts(out, "| `");
        report_md_escape(out, spec);
        bw_buf_puts(out, "` | ");
    } else {
        bw_buf_printf(out, "%-24s", spec);
        if (strlen(spec) > 24)
            bw_buf_puts(out, "\n                        ");
    }
    if (!rd_ok(o)) {
        if (!md)
            bw_buf_puts(out, "  ");
        report_run_failure(out, o, md);
        bw_buf_puts(out, md ? " | | | |\n" : "\n");
        return;
    }
    double best = rd_num(o, RF_KEY(RF_BEST_GBS));
    int added = rd_true(o, RF_KEY(RF_ADDED_AS_REFERENCE));
    if (md) {
        report_cell_ratio(out, rd_num(o, RF_KEY(RF_EFFECTIVE_GBS)), 1, 0);
        bw_buf_puts(out, " | ");
        report_cell_ratio(out, rd_num(o, RF_KEY(RF_RELATIVE_TO_SEQ)), 1, 0);
        bw_buf_puts(out, " | ");
        report_cell_ratio(out, best, best > 0, 0);
        bw_buf_printf(out, " | %s%s |\n", cells, added ? " (added as reference)" : "");
        return;
    }
    report_cell_ratio(out, rd_num(o, RF_KEY(RF_EFFECTIVE_GBS)), 1, 7);
    report_cell_ratio(out, rd_num(o, RF_KEY(RF_RELATIVE_TO_SEQ)), 1, 9);
    report_cell_ratio(out, best, best > 0, 8);
    bw_buf_printf(out, "%9s", cells);
    if (added)
        bw_buf_puts(out, " [added as reference]");
    bw_buf_putc(out, '\n');
}

/* ---- the header lines ---- */

/* the launch model's bounds under a whole-matrix row (table) */
static void launch_line(const json_t *o, const json_t *run, bw_buf *out)
{
    const json_t *lb = json_object_get(o, RUN_KEY(RUNR_LAUNCH_BOUNDS));
    if (!lb || !rd_has(lb, RUN_KEY(RUNL_FOOTPRINT_TIME_NS)))
        return;
    long long n = 0;
    model_pattern *p = NULL;
    const char *spec = rd_spec(o);
    int lanes = (int)rd_int(json_object_get(run, RUN_KEY(RUNF_PROFILE)), RUN_KEY(RUNP_LANES));
    if (*spec && model_pattern_parse(spec, lanes, 0, &p, NULL) == BW_OK)
        n = (long long)model_pattern_param_value(p, "n");
    model_pattern_free(p);
    char a[32], b[32];
    bw_format_bytes(a, sizeof a, rd_num(lb, RUN_KEY(RUNL_FOOTPRINT_BYTES)));
    bw_format_bytes(b, sizeof b, rd_num(lb, RUN_KEY(RUNL_INSTRUCTION_MODEL_BYTES)));
    bw_buf_printf(out, "    launch model (the whole %lld x %lld matrix, %lld warp-instructions): footprint %s .. "
                       "instruction model %s (modeled), %.3f .. %.3f ms at the fastest seq-family rate; "
                       "measured %.3f ms\n",
                  n, n, rd_int(lb, RUN_KEY(RUNL_WARP_INSTRUCTIONS)), a, b,
                  rd_num(lb, RUN_KEY(RUNL_FOOTPRINT_TIME_NS)) / 1e6,
                  rd_num(lb, RUN_KEY(RUNL_INSTRUCTION_TIME_NS)) / 1e6, rd_num(lb, RUN_KEY(RUNL_MEDIAN_TIME_NS)) / 1e6);
}

/* which form of index arithmetic the kernels used (requested or planned,
 * never measured): 64-bit long, or 32-bit int where the model proved it */
static void index_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    size_t n32 = 0, n = 0;
    /* the gather kernels' form: a family with a kernel of its own says so */
    for (size_t i = 0; i < r->n; i++) {
        n += r->sec[i]->gather_index;
        n32 += r->sec[i]->gather_index && rd_int(r->items[i], RF_KEY(RF_INDEX_BITS)) == 32;
    }
    bw_buf_printf(out, "%sindex arithmetic: ", lead);
    if (n32 == 0) {
        bw_buf_puts(out, "64-bit (long) in every kernel\n");
        return;
    }
    if (n32 == n) {
        bw_buf_puts(out, "32-bit (int) in every kernel, each proven by the model to fit its launch\n");
        return;
    }
    bw_buf_printf(out, "32-bit (int) in %zu kernels, proven by the model to fit their launches; 64-bit (long) in ", n32);
    const char *sep = "";
    for (size_t i = 0; i < r->n; i++) {
        if (r->sec[i]->gather_index && rd_int(r->items[i], RF_KEY(RF_INDEX_BITS)) != 32) {
            bw_buf_printf(out, "%s%s", sep, rd_spec(r->items[i]));
            sep = ", ";
        }
    }
    bw_buf_putc(out, '\n');
}

/* --fill zeros: seq read on zeros beside random data, and what the ratio says */
static void compression_line(const json_t *run, bw_buf *out, const char *lead)
{
    const json_t *c = json_object_get(run, RUN_KEY(RUNF_COMPRESSION_CHECK));
    if (!json_is_object(c))
        return;
    if (rd_has(c, RUN_KEY(RUNC_FAILURE))) {
        bw_buf_printf(out, "%scompression check: failed: %s\n", lead, rd_str(c, RUN_KEY(RUNC_FAILURE)));
        return;
    }
    double z = rd_num(c, RUN_KEY(RUNC_ZERO_FILL_GBS)), rnd = rd_num(c, RUN_KEY(RUNC_RANDOM_FILL_GBS));
    if (!(z > 0 && rnd > 0)) {
        bw_buf_printf(out, "%scompression check: not measured (interrupted)\n", lead);
        return;
    }
    double ratio = z / rnd;
    bw_buf_printf(out, "%scompression check (measured, --fill zeros): seq read %.2f GB/s on zeros, %.2f GB/s on "
                       "random data: %.2fx, %s\n",
                  lead, z, rnd, ratio,
                  ratio > REPORT_COMPRESSION_RATIO ? "the zeros move faster: the memory path may compress them, and a "
                                                     "zero-filled benchmark would overstate the bandwidth"
                                                   : "no sign of compression");
}

/* the rows whose measured GB/s pass the device's nominal peak or lie far
 * above its probe's memory plateau, in words (such a figure is never left
 * bare), or that none did */
static void plausibility_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    double nominal = rd_num(r->run, RUN_KEY(RUNF_NOMINAL_DRAM_GBS));
    double plateau = rd_num(r->run, RUN_KEY(RUNF_PROBE_MEMORY_GBS));
    if (!(nominal > 0) && !(plateau > 0))
        return;
    int any = 0;
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->items[i];
        if (!rd_has(o, RF_KEY(RF_PLAUSIBILITY)))
            continue;
        double e = rd_num(o, RF_KEY(RF_EFFECTIVE_GBS)), b = rd_num(o, RF_KEY(RF_BEST_GBS));
        double gbs = b > e ? b : e;
        bw_buf_printf(out, "%splausibility: %s (%s) measured %.2f GB/s, %s\n", lead, rd_spec(o),
                      mode_name[rd_access(o)], gbs, rd_str(o, RF_KEY(RF_PLAUSIBILITY)));
        any = 1;
    }
    const char *name = rd_str(r->run, RUN_KEY(RUNF_NOMINAL_NAME)), *date = rd_str(r->run, RUN_KEY(RUNF_PROBE_MEMORY_DATE));
    if (!any && nominal > 0)
        bw_buf_printf(out, "%splausibility: every global figure at or below the device's nominal %.0f GB/s (%s, "
                           "data/nominal.json)\n",
                      lead, nominal, name ? name : "?");
    if (!any && plateau > 0)
        bw_buf_printf(out, "%splausibility: every global figure within %.1fx the probe's memory plateau of %.1f GB/s "
                           "(measured %s)\n",
                      lead, RESULTS_PLATEAU_FACTOR, plateau, date ? date : "?");
}

/* seq's GB/s at K = 1 << k in the calibration's ladder for access a, or 0 */
static double ladder_gbs(const json_t *ladder, const char *access, int k)
{
    size_t i;
    const json_t *e;
    json_array_foreach(ladder, i, e) {
        const char *a = rd_str(e, RUN_KEY(RUND_ACCESS));
        if (a && !strcmp(a, access) && rd_int(e, RUN_KEY(RUNF_UNROLL)) == (1 << k))
            return rd_num(e, RUN_KEY(RUNU_GBS));
    }
    return 0;
}

/* K of the gather and record kernels (requested, or chosen from a
 * measured calibration), and the items whose launch took a smaller K */
static void unroll_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    const json_t *run = r->run;
    const char *source = rd_str(run, RUN_KEY(RUNF_UNROLL_SOURCE));
    int k = (int)rd_int(run, RUN_KEY(RUNF_UNROLL));
    if (!source || k <= 0)
        return;
    int kr = rd_int(run, RUN_KEY(RUNF_UNROLL_READ)) > 0 ? (int)rd_int(run, RUN_KEY(RUNF_UNROLL_READ)) : k;
    if (kr == k)
        bw_buf_printf(out, "%sunroll: K = %d items per work-item in the gather and record kernels (", lead, k);
    else
        bw_buf_printf(out, "%sunroll: K = %d (copy, write) and %d (read) items per work-item in the gather and record "
                           "kernels (",
                      lead, k, kr);
    if (!strcmp(source, RESULTS_UNROLL_OPTION)) {
        bw_buf_printf(out, "--unroll %d", k);
    } else if (!strcmp(source, RESULTS_UNROLL_CALIBRATION)) {
        bw_buf_puts(out, "auto: seq measured at K = 1, 2, 4, 8, 16");
        const json_t *ladder = json_object_get(run, RUN_KEY(RUNF_UNROLL_CALIBRATION));
        static const char *const modes[2] = { "copy", "read" };
        for (int m = 0; m < 2; m++) {
            bw_buf_printf(out, "; %s", modes[m]);
            for (int j = 0; j < 5; j++) {
                double g = ladder_gbs(ladder, modes[m], j);
                if (g > 0)
                    bw_buf_printf(out, "%s%.2f", j ? ", " : " ", g);
                else
                    bw_buf_printf(out, "%s-", j ? ", " : " ");
            }
            bw_buf_puts(out, " GB/s");
        }
        long long runs = rd_int(run, RUN_KEY(RUNF_UNROLL_CALIBRATIONS));
        if (runs > 1)
            bw_buf_printf(out, "; averaged with this device's %lld calibrations before it (unroll.json)", runs - 1);
        bw_buf_puts(out, "; in each mode the smallest K within 3% of its best");
        if (runs > 1)
            bw_buf_puts(out, ", or the K this device last ran while within 4% of it");
    } else {
        const char *why = rd_str(run, RUN_KEY(RUNF_UNROLL_NOTE));
        bw_buf_printf(out, "auto fell back to 1: %s", why ? why : "no calibration");
    }
    bw_buf_putc(out, ')');
    const char *sep = "; smaller where the launch does not split into K whole work-groups: ";
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->items[i];
        if (!rd_has(o, RF_KEY(RF_UNROLL))) /* a family that does not unroll */
            continue;
        if (rd_int(o, RF_KEY(RF_UNROLL)) != (rd_access(o) == RD_READ ? kr : k)) {
            bw_buf_printf(out, "%s%s at %lld", sep, rd_spec(o), rd_int(o, RF_KEY(RF_UNROLL)));
            sep = ", ";
        }
    }
    bw_buf_putc(out, '\n');
}

/* which kernel form each pattern was timed in, where more than one was
 * built (CPU devices): the faster of the plain form and one other */
static void form_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    if (json_array_size(json_object_get(r->run, RUN_KEY(RUNF_KERNEL_FORMS))) < 2)
        return;
    bw_buf_printf(out, "%skernel form: per pattern, where lanes do not load consecutive elements, the faster of "
                       "plain (vectorised across work-items) and one other, measured: scalar (one load per "
                       "work-item) or warp (one work-item runs a warp's lanes);",
                  lead);
    static const char *const others[] = { "scalar", "warp" };
    int both = several_modes(r);
    for (size_t f = 0; f < sizeof others / sizeof others[0]; f++) {
        bw_buf_printf(out, " %s for ", others[f]);
        const char *sep = "";
        for (size_t i = 0; i < r->n; i++) {
            const json_t *o = r->items[i];
            if (rd_ok(o) && rd_is(o, "kernel_form", others[f])) {
                bw_buf_printf(out, "%s%s", sep, rd_spec(o));
                if (both)
                    bw_buf_printf(out, " (%s)", mode_name[rd_access(o)]);
                sep = ", ";
            }
        }
        bw_buf_puts(out, *sep ? "" : "none");
        bw_buf_putc(out, f + 1 < sizeof others / sizeof others[0] ? ';' : '\n');
    }
}

/* what the kernels do with the element they load (requested, not measured) */
static void access_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    static const char copy[] = "copy stores each loaded element at dst[g], and the model counts that store";
    static const char read[] = "read compares each loaded element with a key and stores only on a match: the "
                               "model counts the loads alone";
    static const char write[] = "write loads src[g] and stores it at the pattern's address: the pattern's side "
                                "is the stores, and the model counts the coalesced load too";
    unsigned mo = modes_of(r);
    const char *say[RD_MODES] = { copy, read, write };
    int k = 0;
    for (int a = 0; a < RD_MODES; a++)
        k += (mo >> a) & 1u;
    if (k <= 1) {
        for (int a = 0; a < RD_MODES; a++)
            if (mo == RD_BIT(a))
                bw_buf_printf(out, "%saccess: %s\n", lead, say[a]);
        return;
    }
    bw_buf_printf(out, "%saccess: ", lead);
    for (int n = 0, shown = 0; n < RD_MODES; n++)
        if (mo & RD_BIT(side_order[n])) {
            shown++;
            bw_buf_printf(out, "%s%s", shown == 1 ? "" : shown == k ? " and " : ", ", mode_name[side_order[n]]);
        }
    bw_buf_puts(out, " side by side");
    for (int n = 0; n < RD_MODES; n++)
        if (mo & RD_BIT(side_order[n]))
            bw_buf_printf(out, "; %s", say[side_order[n]]);
    bw_buf_putc(out, '\n');
}

/* The patterns the budget ended before they were stable, each with what
 * held it: a ratio's interval (its larger side, in vs seq units, as the
 * rule reads it below 1), a reference's standard error, or too few
 * launches or rounds for either */
static void unstable_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->items[i];
        if (!rd_ok(o) || rd_true(o, RF_KEY(RF_STABLE)))
            continue;
        if (k++ == 0)
            bw_buf_printf(out, "%snot stable when the budget ended (measured; the rule asks for a vs seq interval "
                               "within +-1.96 x --rse of the faster figure, or a reference's standard error "
                               "within --rse): ", lead);
        else
            bw_buf_puts(out, ", ");
        bw_buf_printf(out, "%s (%s, ", rd_spec(o), mode_name[rd_access(o)]);
        const json_t *ci = json_object_get(o, RUN_KEY(RUNR_RELATIVE_TO_SEQ_CI));
        double lo = json_is_array(ci) ? json_number_value(json_array_get(ci, 0)) : NAN;
        double hi = json_is_array(ci) ? json_number_value(json_array_get(ci, 1)) : NAN;
        double v = rd_num(o, RF_KEY(RF_RELATIVE_TO_SEQ));
        const char *ref = rd_str(o, RF_KEY(RF_REFERENCE)), *spec = rd_spec(o);
        const json_t *t = json_object_get(o, RUN_KEY(RUNR_TIME_NS));
        if (isfinite(lo) && isfinite(hi) && v > 0) {
            double h = hi - v > v - lo ? hi - v : v - lo;
            bw_buf_printf(out, "vs seq %.3f +-%.3f)", v, h);
        } else if (ref && spec && strcmp(ref, spec)) {
            bw_buf_printf(out, "%lld rounds paired: too few for an interval)", rd_int(o, RF_KEY(RF_PAIRED_ROUNDS)));
        } else {
            bw_buf_printf(out, "standard error %.1f%% over %lld launches)", rd_num(t, RTIME_KEY(RTIME_RSE)) * 100.0,
                          rd_int(t, RTIME_KEY(RTIME_COUNT)));
        }
    }
    if (k)
        bw_buf_putc(out, '\n');
}

/* the run's own estimate of how well its figures would repeat */
static void noise_line(const json_t *run, bw_buf *out, const char *lead)
{
    const json_t *nz = json_object_get(run, RUN_KEY(RUNF_NOISE));
    const char *sp = rd_str(nz, RUN_KEY(RUNN_SEQ_PATTERN)), *rp = rd_str(nz, RUN_KEY(RUNN_RELATIVE_PATTERN));
    if (!sp && !rp)
        return;
    int noisy = rd_true(nz, RUN_KEY(RUND_NOISY));
    bw_buf_printf(out, "%s%s", lead, noisy ? "this machine is noisy: " : "repeatability: ");
    if (sp) {
        if (rd_has(nz, RUN_KEY(RUNN_SEQ_SPREAD)))
            bw_buf_printf(out, "%s's median could differ by %.1f%% in another run (measured spread; limit %.0f%%)", sp,
                          rd_num(nz, RUN_KEY(RUNN_SEQ_SPREAD)) * 100.0, rd_num(nz, RUN_KEY(RUNN_SEQ_LIMIT)) * 100.0);
        else
            bw_buf_printf(out, "%s has too few launches to estimate its spread", sp);
    }
    if (rp) {
        bw_buf_puts(out, sp ? "; " : "");
        if (rd_has(nz, RUN_KEY(RUNN_RELATIVE_SPREAD)))
            bw_buf_printf(out, "a vs seq figure by up to %.3f (%s; limit %.2f)",
                          rd_num(nz, RUN_KEY(RUNN_RELATIVE_SPREAD)), rp,
                          rd_num(nz, RUN_KEY(RUNN_RELATIVE_LIMIT)));
        else
            bw_buf_printf(out, "%s has too few launches to estimate its vs seq spread", rp);
    }
    bw_buf_puts(out, noisy ? "; compare runs with care, or give a larger --budget\n" : "\n");
}

/* Each reference against its control slot: one line for a suspect one
 * (by how much every figure read against it is off), one line for the
 * rest together */
static void reference_check_lines(const report_doc_run *r, bw_buf *out, const char *lead)
{
    size_t fine = 0, checked = 0;
    double tolerance = 0;
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->items[i], *c = json_object_get(o, RUN_KEY(RUNR_REFERENCE_CHECK));
        if (!rd_ok(o) || !json_is_object(c))
            continue;
        checked++;
        tolerance = rd_num(c, RUN_KEY(RUNK_TOLERANCE));
        const char *verdict = rd_str(c, RUN_KEY(RUNK_VERDICT));
        if (!verdict || strcmp(verdict, "suspect")) {
            fine += verdict && !strcmp(verdict, "consistent");
            continue;
        }
        const json_t *ci = json_object_get(c, RUN_KEY(RUNK_RATIO_CI));
        double ratio = rd_num(c, RUN_KEY(RUNK_RATIO));
        bw_buf_printf(out, "%sreference suspect: %s (%s) measured %.1f GB/s in its own slot and %.1f GB/s in its "
                      "control slot of the same rounds (medians; measured: own over control per round, median %.3fx, "
                      "95%% interval %.3f-%.3f, over %lld rounds; "
                      "tolerance %.0f%%): every figure read against it may be off by %.1f%%\n",
                      lead, rd_spec(o), mode_name[rd_access(o)], rd_num(c, RUN_KEY(RUNK_OWN_MEDIAN_GBS)),
                      rd_num(c, RUN_KEY(RUNK_CONTROL_MEDIAN_GBS)), ratio,
                      json_is_array(ci) ? json_number_value(json_array_get(ci, 0)) : NAN,
                      json_is_array(ci) ? json_number_value(json_array_get(ci, 1)) : NAN,
                      rd_int(c, RUN_KEY(RUNI_ROUNDS)),
                      tolerance * 100.0, fabs(ratio - 1.0) * 100.0);
    }
    if (checked && fine == checked)
        bw_buf_printf(out, "%sreference check: %s control slot of the same rounds (within %.0f%% or their noise; "
                      "measured)\n",
                      lead, checked == 1 ? "the reference measured as in its" : "every reference measured as in its own",
                      tolerance * 100.0);
}

/* "LEAD peak (measured by bwlab tune on DATE, cached in FILE): read X
 * GB/s with ...; copy Y GB/s with ...\n": the run's tuned peak, in the
 * words the tune table uses */
static void tune_peak_line(bw_buf *out, const char *lead, const json_t *t)
{
    const char *src = rd_str(t, RUN_KEY(RUNT_SOURCE));
    /* "cache FILE": the file */
    src = src && !strncmp(src, "cache ", 6) ? src + 6 : src ? src : "";
    bw_buf_printf(out, "%speak (measured by bwlab tune on %s, cached in ", lead, rd_str(t, RUN_KEY(RUNT_DATE)));
    bw_quote_append(out, src, strlen(src), 0, 0); /* a path from the environment */
    bw_buf_puts(out, "): ");
    report_tune_peak_text(out, "read", json_object_get(t, RUN_KEY(RUNT_READ)));
    bw_buf_puts(out, "; ");
    report_tune_peak_text(out, "copy", json_object_get(t, RUN_KEY(RUNT_COPY)));
    bw_buf_putc(out, '\n');
}

static void working_set_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    const json_t *run = r->run, *dev = json_object_get(run, RUN_KEY(RUNF_DEVICE));
    const char *source = rd_str(run, RUN_KEY(RUNF_WORKING_SET_SOURCE));
    const char *cache_source = rd_str(run, RUN_KEY(RUNF_WORKING_SET_CACHE_SOURCE));
    double target = (double)rd_int(run, RUN_KEY(RUNF_WORKING_SET_TARGET_BYTES));
    long long cache = rd_int(run, RUN_KEY(RUNF_WORKING_SET_CACHE_BYTES));
    int is_auto = source && strcmp(source, "--size");
    bw_buf_printf(out, "%sworking set: ", lead);
    report_bytes(out, target);
    if (is_auto && cache_source && !strcmp(cache_source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE")) {
        bw_buf_puts(out, " per pattern (auto, from the ");
        report_bytes(out, (double)rd_int(dev, "global_cache_bytes"));
        bw_buf_puts(out, " global cache)");
    } else if (is_auto && cache) {
        /* the device reports no cache: the host's, for a CPU device */
        bw_buf_puts(out, " per pattern (auto, from the ");
        report_bytes(out, (double)cache);
        bw_buf_printf(out, " last-level cache in %s; the device reports none)", cache_source);
    } else if (is_auto) {
        bw_buf_puts(out, " per pattern (auto, default: no cache size known)");
    } else {
        bw_buf_puts(out, " per pattern (--size)");
    }
    if (rd_has(run, RUN_KEY(RUNF_WORKING_SET_AUTO_BYTES))) {
        bw_buf_puts(out, ", fitted to the budget from ");
        report_bytes(out, (double)rd_int(run, RUN_KEY(RUNF_WORKING_SET_AUTO_BYTES)));
    }
    /* a pattern never runs less than one work-group: say when that is more */
    double used = 0;
    for (size_t i = 0; i < r->n; i++) {
        double fp = (double)rd_int(r->items[i], RF_KEY(RF_WORKING_SET_BYTES));
        used = fp > used ? fp : used;
    }
    if (used > target) {
        bw_buf_puts(out, ", up to ");
        report_bytes(out, used);
        bw_buf_puts(out, " used (modeled load footprint: at least one work-group per pattern)");
    }
    const json_t *b = json_object_get(run, RUN_KEY(RUNF_BUFFERS));
    bw_buf_puts(out, "; buffers: src ");
    report_bytes(out, (double)rd_int(b, RUN_KEY(RUNB_SRC_BYTES)));
    bw_buf_puts(out, ", dst ");
    report_bytes(out, (double)rd_int(b, RUN_KEY(RUNB_DST_BYTES)));
    bw_buf_printf(out, "; %lld work-items per group\n", rd_int(run, RUN_KEY(RUNF_LOCAL_SIZE)));
    /* a twin sized for a cache no one reported says so: its bound rests on it */
    const char *twin_source = rd_str(run, RUN_KEY(RUNF_TWIN_CACHE_SOURCE));
    if (twin_source && !strncmp(twin_source, "assumed", 7)) {
        bw_buf_printf(out, "%stwins: slices sized for an assumed ", lead);
        report_bytes(out, (double)rd_int(run, RUN_KEY(RUNF_TWIN_CACHE_BYTES)));
        bw_buf_puts(out, " last-level cache (neither the device nor the host reports one; at most a quarter of it "
                         "per slice)\n");
    }
}

static void timing_line(const report_doc_run *r, bw_buf *out, const char *lead)
{
    const json_t *t = json_object_get(r->run, RUN_KEY(RUNF_TIMING));
    const json_t *st = json_object_get(r->doc, RUN_KEY(RUND_SETTINGS));
    char timer[256] = "event profiling";
    const char *tk = rd_str(t, RUN_KEY(RUNI_TIMER));
    if (tk && !strcmp(tk, "wall"))
        snprintf(timer, sizeof timer,
                 "host clock around clFinish: the driver refused a profiling queue; clock resolution %.0f ns, "
                 "launch overhead %.1f µs (measured, included in every launch)",
                 rd_num(t, RUN_KEY(RUNI_TIMER_RESOLUTION_NS)), rd_num(t, RUN_KEY(RUNI_LAUNCH_OVERHEAD_NS)) / 1e3);
    bw_buf_printf(out, "%stiming: %.1f s of rounds in a %g s run budget, %lld rounds; per pattern the median of its launches "
                       "(%s), stopped at %.1f%% relative standard error and %.2f s of launches%s%s\n",
                  lead, rd_num(t, RUN_KEY(RUNI_TIMING_S)), rd_num(st, RUN_KEY(RUND_BUDGET_S)),
                  rd_int(t, RUN_KEY(RUNI_ROUNDS)), timer,
                  rd_num(st, RUN_KEY(RUND_RSE_TARGET)) * 100.0, rd_num(st, RUN_KEY(RUND_MIN_TOTAL_S)),
                  rd_true(t, RUN_KEY(RUNI_BUDGET_ENDED)) ? " or when the budget ended" : "",
                  rd_true(t, RUN_KEY(RUND_INTERRUPTED)) ? "; INTERRUPTED: partial results" : "");
}

static void header_lines(const report_doc_run *r, bw_buf *out, const char *lead)
{
    const json_t *run = r->run, *dev = json_object_get(run, RUN_KEY(RUNF_DEVICE));
    const json_t *prof = json_object_get(run, RUN_KEY(RUNF_PROFILE));
    report_device_line_json(out, lead, dev);
    const char *failure = rd_str(run, RUN_KEY(RUNF_FAILURE));
    if (failure) {
        bw_buf_printf(out, "%sFAILED on this device: ", lead);
        first_line(out, failure);
        bw_buf_putc(out, '\n');
        if (!planned(run))
            return;
    }
    if (!planned(run))
        return;
    bw_buf_printf(out, "%sprofile %s: W = %lld lanes, sector %lld B, line %lld B; %s\n", lead,
                  rd_str(prof, RUN_KEY(RUND_NAME)), rd_int(prof, RUN_KEY(RUNP_LANES)),
                  rd_int(prof, RUN_KEY(RUNP_SECTOR_BYTES)), rd_int(prof, RUN_KEY(RUNP_LINE_BYTES)),
                  rd_str(prof, RUN_KEY(RUNP_WHY)));
    working_set_line(r, out, lead);
    index_line(r, out, lead);
    unroll_line(r, out, lead);
    form_line(r, out, lead);
    access_line(r, out, lead);
    timing_line(r, out, lead);
    if (rd_true(dev, "host_unified_memory"))
        bw_buf_printf(out, "%smemory: unified with the host's (CL_DEVICE_HOST_UNIFIED_MEMORY)\n", lead);
    if (rd_has(run, RUN_KEY(RUNF_RETRY)))
        bw_buf_printf(out, "%sretried: buffers: %s\n", lead, rd_str(run, RUN_KEY(RUNF_RETRY)));
    for (size_t i = 0; i < r->n; i++)
        if (rd_has(r->items[i], RF_KEY(RF_RETRY)))
            bw_buf_printf(out, "%sretried: %s: %s\n", lead, rd_spec(r->items[i]),
                          rd_str(r->items[i], RF_KEY(RF_RETRY)));
    const json_t *tune = json_object_get(run, RUN_KEY(RUNF_TUNE));
    if (json_is_object(tune))
        tune_peak_line(out, lead, tune);
    const json_t *t = json_object_get(run, RUN_KEY(RUNF_TIMING));
    if (rd_has(t, RUN_KEY(RUNF_PLAN_NOTE)))
        bw_buf_printf(out, "%sbudget: %s\n", lead, rd_str(t, RUN_KEY(RUNF_PLAN_NOTE)));
    if (rd_has(t, RUN_KEY(RUNI_REPLAN_NOTE)))
        bw_buf_printf(out, "%sbudget: %s\n", lead, rd_str(t, RUN_KEY(RUNI_REPLAN_NOTE)));
    unstable_line(r, out, lead);
    noise_line(run, out, lead);
    reference_check_lines(r, out, lead);
    plausibility_line(r, out, lead);
    compression_line(run, out, lead);
}

/* ---- the global and the side-by-side table: one row model, printed
 * through a grid as text (fixed columns) or as Markdown ---- */

static void twin_legend(bw_buf *out)
{
    bw_buf_printf(out, "best: measured, GB/s of the fastest launch (GB/s is the median's; with the modes side by "
                       "side, of the verdict's mode).\n"
                       "twin x: measured, the pattern's own kernel over a slice that stays in\n"
                       "the cache (its twin), over its own fastest launch; bound: kernel when twin x "
                       ">= %.2f (memory out of the way buys less than\n"
                       "%.0f%%), else memory; '-': no twin figure (the JSON says why).\n",
                  RESULTS_TWIN_KERNEL_BOUND, (1.0 / RESULTS_TWIN_KERNEL_BOUND - 1.0) * 100.0);
}

/* A failed, unmeasurable or interrupted mode of a side-by-side row, on a line of its own. */
static void pair_failure(bw_buf *out, const json_t *o)
{
    if (!o || rd_ok(o))
        return;
    bw_buf_printf(out, "    %s: ", mode_name[rd_access(o)]);
    report_run_failure(out, o, 0);
    bw_buf_putc(out, '\n');
}

/* "%.2f", or "-" where v is not valid or not finite (report_cell_ratio) */
static void ratio_cell(report_grid *g, double v, int valid)
{
    bw_buf b = BW_BUF_INIT;
    report_cell_ratio(&b, v, valid, 0);
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* the pattern's spec; in Markdown as code */
static void spec_cell(report_grid *g, const char *spec, int md)
{
    if (!md) {
        report_grid_put(g, spec);
        return;
    }
    bw_buf b = BW_BUF_INIT;
    bw_buf_putc(&b, '`');
    report_md_escape(&b, spec);
    bw_buf_putc(&b, '`');
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* why a mode has no bandwidth: the lead and the failure's first line */
static void failure_cell(report_grid *g, const json_t *o, int md)
{
    bw_buf b = BW_BUF_INIT;
    report_run_failure(&b, o, md);
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* the modeled cells: sector efficiency of warp 0, and the launch's
 * instruction-model and footprint bytes per requested byte */
static void model_cells(report_grid *g, const json_t *o)
{
    bw_buf b = BW_BUF_INIT;
    const json_t *w0 = json_object_get(json_object_get(o, RUN_KEY(RUNR_MODEL)), RUN_KEY(RUNM_WARP0));
    double eff = rd_num(w0, RUN_KEY(RUNM_SECTOR_EFFICIENCY));
    report_percent(&b, eff, !isnan(eff));
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
    double req = rd_requested(o);
    ratio_cell(g, rd_upper(o) / req, req > 0);
    ratio_cell(g, rd_lower(o) / req, req > 0);
}

/* the GB/s and vs seq cells of one mode in a side-by-side row: "-" where the
 * mode is not measured or has no bandwidth; in Markdown a mode without a
 * bandwidth says why in its GB/s cell (text: pair_failure) */
static void pair_cells(report_grid *g, const json_t *o, int md)
{
    int ok = o && rd_ok(o);
    if (md && o && !ok) {
        failure_cell(g, o, 1);
        report_grid_put(g, "-");
        return;
    }
    ratio_cell(g, ok ? rd_num(o, RF_KEY(RF_EFFECTIVE_GBS)) : 0, ok);
    ratio_cell(g, ok ? rd_num(o, RF_KEY(RF_RELATIVE_TO_SEQ)) : 0, ok);
}

/* the verdict; text marks an added reference (its explanation goes on a
 * line of its own, text_lines), Markdown adds the explanation */
static void verdict_cell(report_grid *g, const report_doc_run *r, const json_t *o, int md)
{
    bw_buf b = BW_BUF_INIT;
    const char *text = rd_str(json_object_get(o, RUN_KEY(RUNR_VERDICT)), RUN_KEY(RUNV_TEXT));
    bw_buf_puts(&b, rd_ok(o) && text ? text : "-");
    if (!md && rd_true(o, RF_KEY(RF_ADDED_AS_REFERENCE)))
        bw_buf_puts(&b, " [added as reference]");
    if (md && r->explain) {
        bw_buf_puts(&b, ": ");
        bw_buf_puts(&b, rd_str(o, RUN_KEY(RUNR_EXPLAIN)) ? rd_str(o, RUN_KEY(RUNR_EXPLAIN)) : "");
    }
    report_grid_put(g, bw_buf_str(&b));
    bw_buf_free(&b);
}

/* the lines under a text row: the explanation (--explain; both: the
 * pattern is measured in read and copy mode), the launch model's bounds
 * and the size note */
static void text_lines(const report_doc_run *r, const json_t *o, int both, bw_buf *out)
{
    if (r->explain) {
        bw_buf_puts(out, "    ");
        bw_buf_puts(out, rd_str(o, RUN_KEY(RUNR_EXPLAIN)) ? rd_str(o, RUN_KEY(RUNR_EXPLAIN)) : "");
        if (both)
            bw_buf_puts(out, " The read columns time the same loads without the store.");
        bw_buf_putc(out, '\n');
    }
    launch_line(o, r->run, out);
    if (rd_has(o, RF_KEY(RF_SIZE_NOTE)))
        bw_buf_printf(out, "    note: %s\n", rd_str(o, RF_KEY(RF_SIZE_NOTE)));
}

/* a Markdown table's header row and alignment rule */
static void md_head(const char *const *head, const report_grid_col *cols, size_t ncol, bw_buf *out)
{
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t c = 0; c < ncol; c++)
        report_grid_put(&g, head[c]);
    bw_buf_putc(out, '\n');
    report_grid_emit_fixed(&g, cols, 1, 1, out);
    report_grid_free(&g);
}

#define T(w) { w, 0, NULL }     /* a right-aligned text column w wide, its gap included */
#define MD_R { 0, 0, NULL }     /* a right-aligned Markdown column */
#define MD_L { 0, 1, NULL }     /* a left-aligned one */
#define VERDICT { 0, 1, "   " } /* the verdict: last, as long as it is */

/* the global table's columns: pattern, GB/s, vs seq, [of peak,] best,
 * twin x, bound, sector eff., instr. x, footprint x, verdict */
static const report_grid_col global_text[] = { { 24, 1, NULL }, T(7), T(9), T(9), T(8), T(8), T(8), T(13), T(10),
                                               T(12), VERDICT };
static const report_grid_col global_md[] = { MD_L, MD_R, MD_R, MD_R, MD_R, MD_L, MD_R, MD_R, MD_R, MD_L };
static const char *const global_md_head[] = { "pattern", "GB/s (measured)", "vs seq (measured)",
                                              "best GB/s (measured)", "twin x (measured)", "bound (measured)",
                                              "sector eff. (modeled)", "instr. bytes / requested (modeled)",
                                              "footprint / requested (modeled)", "verdict" };

/* the side-by-side table's: pattern, then GB/s and vs seq of each mode
 * (side_cols), then best (text only), twin x, bound, sector eff., instr.
 * x, footprint x, verdict */
static const report_grid_col side_pattern = { 24, 1, NULL };
static const report_grid_col side_mode_text[] = { T(7), T(9) };
static const report_grid_col side_mode_md[] = { MD_R, MD_R };
static const report_grid_col side_tail_text[] = { T(8), T(8), T(8), T(13), T(10), T(12), VERDICT };
static const report_grid_col side_tail_md[] = { MD_R, MD_L, MD_R, MD_R, MD_R, MD_L };
static const char *const side_tail_md_head[] = { "twin x (measured)", "bound (measured)", "sector eff. (modeled)",
                                                 "instr. bytes / requested (modeled, copy's where measured)",
                                                 "footprint / requested (modeled, copy's where measured)",
                                                 "verdict" };
#define SIDE_COLS_MAX (1 + 2 * RD_MODES + 7)

#undef T
#undef MD_R
#undef MD_L
#undef VERDICT

/* the bound cell: "kernel" or "memory", or "-" where there is none */
static const char *bound_of(const json_t *o)
{
    const char *b = rd_ok(o) ? rd_str(o, RF_KEY(RF_BOUND)) : NULL;
    return b ? b : "-";
}

/* The patterns of the global table, a row each (the sections' patterns
 * have their own); text: with an "of peak" column when the device has a
 * tuned peak. */
static void global_table(const report_doc_run *r, int md, bw_buf *out)
{
    const int peak = !md && json_is_object(json_object_get(r->run, RUN_KEY(RUNF_TUNE)));
    report_grid_col text[sizeof global_text / sizeof *global_text];
    size_t ncol = 0;
    for (size_t c = 0; c < sizeof global_text / sizeof *global_text; c++)
        if (c != 3 || peak)
            text[ncol++] = global_text[c];
    if (md) {
        ncol = sizeof global_md / sizeof *global_md;
        md_head(global_md_head, global_md, ncol, out);
    } else {
        bw_buf_printf(out, "\n                          measured                                 %smodeled"
                           "                            measured vs modeled\n",
                      peak ? "         " : "");
        bw_buf_puts(out, peak ? "pattern                   GB/s    vs seq  of peak" : "pattern                   GB/s    vs seq");
        bw_buf_puts(out, "    best  twin x   bound");
        bw_buf_puts(out, "   sector eff.  instr. x  footprint x  verdict\n");
    }
    const report_grid_col *cols = md ? global_md : text;
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->items[i];
        if (r->sec[i]->apart)
            continue; /* its family's section */
        report_grid_clear(&g);
        spec_cell(&g, rd_spec(o), md);
        if (!rd_ok(o)) {
            failure_cell(&g, o, md);
            report_grid_end_row(&g);
            report_grid_emit_fixed(&g, cols, md, 0, out);
            continue;
        }
        ratio_cell(&g, rd_num(o, RF_KEY(RF_EFFECTIVE_GBS)), 1);
        ratio_cell(&g, rd_num(o, RF_KEY(RF_RELATIVE_TO_SEQ)), 1);
        if (peak)
            ratio_cell(&g, rd_num(o, RF_KEY(RF_FRACTION_OF_PEAK)), 1);
        double best = rd_num(o, RF_KEY(RF_BEST_GBS));
        ratio_cell(&g, best, best > 0);
        ratio_cell(&g, rd_num(o, RF_KEY(RF_TWIN_RATIO)), 1);
        report_grid_put(&g, bound_of(o));
        model_cells(&g, o);
        verdict_cell(&g, r, o, md);
        report_grid_emit_fixed(&g, cols, md, 0, out);
        if (!md)
            text_lines(r, o, 0, out);
    }
    report_grid_free(&g);
}

/* Rows of a table with several modes: the k-th result of a spec in one
 * mode and the k-th of that spec in each other mode share a row. The
 * result of mode a in result i's row (i itself in its own mode), or -1. */
static long mode_partner(const report_doc_run *r, size_t i, int a)
{
    const json_t *it = r->items[i];
    const char *spec = rd_spec(it);
    int acc = rd_access(it);
    if (acc == a)
        return (long)i;
    size_t occ = 0;
    for (size_t j = 0; j < i; j++)
        occ += rd_access(r->items[j]) == acc && !strcmp(rd_spec(r->items[j]), spec);
    for (size_t j = 0, k = 0; j < r->n; j++) {
        if (rd_access(r->items[j]) != a || strcmp(rd_spec(r->items[j]), spec))
            continue;
        if (k++ == occ)
            return (long)j;
    }
    return -1;
}

/* The columns of the side-by-side table of the modes in mo, and its
 * Markdown head (head: names of names'); the column count. */
static size_t side_cols(unsigned mo, int md, report_grid_col *cols, const char **head, char (*names)[48])
{
    size_t n = 0;
    cols[n] = md ? (report_grid_col){ 0, 1, NULL } : side_pattern;
    head[n++] = "pattern";
    for (int k = 0; k < RD_MODES; k++) {
        if (!(mo & RD_BIT(side_order[k])))
            continue;
        const char *name = mode_name[side_order[k]];
        for (int c = 0; c < 2; c++) {
            cols[n] = md ? side_mode_md[c] : side_mode_text[c];
            snprintf(names[n], sizeof names[n], c ? "%s vs seq (measured)" : "%s GB/s (measured)", name);
            head[n] = names[n];
            n++;
        }
    }
    size_t tail = md ? sizeof side_tail_md / sizeof *side_tail_md : sizeof side_tail_text / sizeof *side_tail_text;
    for (size_t c = 0; c < tail; c++) {
        cols[n] = md ? side_tail_md[c] : side_tail_text[c];
        head[n++] = md ? side_tail_md_head[c] : "";
    }
    return n;
}

/* the text table's two head lines: "measured: MODE" over each mode's
 * columns (the last one's spans best, twin x and bound), then the names */
static void side_text_head(unsigned mo, bw_buf *out)
{
    int last = -1;
    for (int k = 0; k < RD_MODES; k++)
        if (mo & RD_BIT(side_order[k]))
            last = k;
    bw_buf_printf(out, "\n%-26s", "");
    for (int k = 0; k < RD_MODES; k++) {
        if (!(mo & RD_BIT(side_order[k])))
            continue;
        char lead[32];
        snprintf(lead, sizeof lead, "measured: %s", mode_name[side_order[k]]);
        bw_buf_printf(out, k == last ? "%-41s" : "%-16s", lead);
    }
    bw_buf_printf(out, "%-36s%s\n", "modeled", "measured vs modeled");
    bw_buf_puts(out, "pattern                   GB/s    vs seq");
    for (int k = 0, first = 1; k < RD_MODES; k++)
        if (mo & RD_BIT(side_order[k])) {
            if (!first)
                bw_buf_puts(out, "   GB/s    vs seq");
            first = 0;
        }
    bw_buf_puts(out, "    best  twin x   bound   sector eff.  instr. x  footprint x  verdict\n");
}

/* The table of a run with several modes: a row per pattern, each mode's
 * bandwidths side by side (read, copy, write; "-" where the pattern was
 * not measured in a mode); the modeled columns and the verdict are
 * copy's where the pattern is measured in copy mode, else read's, else
 * write's. */
static void side_table(const report_doc_run *r, int md, bw_buf *out)
{
    unsigned mo = modes_of(r);
    report_grid_col cols[SIDE_COLS_MAX];
    const char *head[SIDE_COLS_MAX];
    char names[SIDE_COLS_MAX][48];
    size_t ncol = side_cols(mo, md, cols, head, names);
    if (md)
        md_head(head, cols, ncol, out);
    else
        side_text_head(mo, out);
    report_grid g = { ncol, 0, 0, NULL };
    for (size_t i = 0; i < r->n; i++) {
        long at[RD_MODES];
        int first = 1;
        for (int a = 0; a < RD_MODES; a++) {
            at[a] = mode_partner(r, i, a);
            first &= at[a] < 0 || (size_t)at[a] >= i;
        }
        if (r->sec[i]->apart || !first)
            continue; /* shown in an earlier partner's row, or in its family's section */
        long c = at[RD_COPY], rd = at[RD_READ], wr = at[RD_WRITE];
        const json_t *o = r->items[c >= 0 ? c : rd >= 0 ? rd : wr];
        int ok = rd_ok(o);
        report_grid_clear(&g);
        spec_cell(&g, rd_spec(o), md);
        for (int k = 0; k < RD_MODES; k++)
            if (mo & RD_BIT(side_order[k]))
                pair_cells(&g, at[side_order[k]] >= 0 ? r->items[at[side_order[k]]] : NULL, md);
        /* best launch and twin of the row's verdict: copy's, else read's, else write's */
        double best = rd_num(o, RF_KEY(RF_BEST_GBS));
        if (!md)
            ratio_cell(&g, best, ok && best > 0);
        ratio_cell(&g, rd_num(o, RF_KEY(RF_TWIN_RATIO)), ok);
        report_grid_put(&g, bound_of(o));
        model_cells(&g, o);
        verdict_cell(&g, r, o, md);
        report_grid_emit_fixed(&g, cols, md, 0, out);
        if (md)
            continue;
        for (int k = 0; k < RD_MODES; k++)
            pair_failure(out, at[side_order[k]] >= 0 ? r->items[at[side_order[k]]] : NULL);
        text_lines(r, o, c >= 0 && rd >= 0, out);
    }
    report_grid_free(&g);
}

/* A planned run's patterns: the global table (or the side-by-side one, with
 * several modes), the families' sections, and the short roofline. */
static void run_tables(const report_doc_run *r, int md, bw_buf *out)
{
    if (several_modes(r))
        side_table(r, md, out);
    else if (has_global(r))
        global_table(r, md, out);
    for (size_t f = 0; f < REPORT_SECTIONS; f++) {
        const report_section *s = report_section_table[f];
        int has = 0;
        for (size_t i = 0; i < r->n && !has; i++)
            has = r->sec[i] == s;
        if (s->rows && has)
            s->rows(r, md, out);
    }
    const json_t *roof = json_object_get(r->run, RUN_KEY(RUNF_ROOFLINE));
    if (json_is_object(roof)) {
        bw_buf_putc(out, '\n');
        report_roofline_brief(roof, md ? "- " : "", md, out);
    }
}

void report_run_table(const json_t *doc, int explain, bw_buf *out)
{
    unsigned paired = 0; /* the modes of the runs with several side by side */
    int tuned = 0;
    size_t nrun = json_array_size(json_object_get(doc, RUN_KEY(RUND_RUNS)));
    for (size_t k = 0; k < nrun; k++) {
        report_doc_run r;
        if (run_at(doc, k, explain, &r))
            return;
        if (k)
            bw_buf_putc(out, '\n');
        header_lines(&r, out, "");
        if (json_object_get(r.run, RP_KEY(RP_TRANSFERS))) /* --transfers: bwlab probe's keys */
            report_probe_transfers_table(r.run, out);
        else if (rd_has(r.run, RUN_KEY(RUNF_TRANSFERS_FAILURE)))
            bw_buf_printf(out, "transfers: not measured: %s\n", rd_str(r.run, RUN_KEY(RUNF_TRANSFERS_FAILURE)));
        tuned |= json_is_object(json_object_get(r.run, RUN_KEY(RUNF_TUNE)));
        if (planned(r.run)) {
            if (several_modes(&r))
                paired |= modes_of(&r);
            run_tables(&r, 0, out);
        }
        run_free(&r);
    }
    bw_buf_puts(out, "\nGB/s: measured, requested bytes (read: loads; copy and write: loads + stores) / median kernel "
                     "time. vs seq: measured, relative to seq of the same element size and access mode in this run.\n");
    if (paired == (RD_BIT(RD_READ) | RD_BIT(RD_COPY)))
        bw_buf_puts(out, "With read and copy side by side, the modeled columns and the verdict are copy's "
                         "(read's where only read was measured).\n");
    else if (paired)
        bw_buf_puts(out, "With the modes side by side, the modeled columns and the verdict are copy's where the "
                         "pattern was measured in copy mode, else read's, else write's.\n");
    bw_buf_puts(out,
                     "sector eff.: modeled, distinct bytes / sector bytes of one warp's load. instr. x, "
                     "footprint x: modeled bytes of the launch (upper and lower bound)\n"
                     "per requested byte. verdict: the measured time at the fastest seq-family rate of its "
                     "mode, placed between those modeled bounds. Modeled counts are not measured traffic.\n");
    twin_legend(out);
    if (tuned)
        bw_buf_puts(out, "of peak: measured, GB/s / the device's peak bandwidth in the pattern's access mode "
                         "(read or copy; write against copy's), measured by bwlab tune (cached).\n");
}

void report_run_markdown(const json_t *doc, int explain, bw_buf *out)
{
    const json_t *host = json_object_get(doc, RUN_KEY(RUND_HOST));
    bw_buf_puts(out, "# bwlab results\n\n");
    bw_buf_printf(out, "bwlab %s, %s, host %s (%s)\n", rd_str(json_object_get(doc, "tool"), "version"),
                  rd_str(doc, "date"), rd_str(host, RUN_KEY(RUND_NAME)), rd_str(host, RUN_KEY(RUND_HOST_OS)));
    size_t nrun = json_array_size(json_object_get(doc, RUN_KEY(RUND_RUNS)));
    for (size_t k = 0; k < nrun; k++) {
        report_doc_run r;
        if (run_at(doc, k, explain, &r))
            return;
        bw_buf_putc(out, '\n');
        header_lines(&r, out, "- ");
        if (planned(r.run))
            run_tables(&r, 1, out);
        run_free(&r);
    }
}

/* ---- CSV ---- */

/* ",N", or "," alone where the document holds none */
static void csv_whole(bw_buf *out, const json_t *o, const char *key)
{
    bw_buf_putc(out, ',');
    if (json_is_integer(json_object_get(o, key)))
        bw_buf_printf(out, "%lld", rd_int(o, key));
}

/* ",TEXT" as a CSV field, or "," alone where the document holds none */
static void csv_text(bw_buf *out, const char *s)
{
    bw_buf_putc(out, ',');
    if (s)
        report_csv_field(out, s);
}

/* Column c of result o of run, after its comma (none before the first):
 * the columns are results_csv.h's, in its order. */
static void csv_cell(bw_buf *out, results_csv_column_id c, const json_t *run, const json_t *o)
{
    const json_t *t = json_object_get(o, RUN_KEY(RUNR_TIME_NS)), *mo = json_object_get(o, RUN_KEY(RUNR_MODEL));
    const json_t *w0 = json_object_get(mo, RUN_KEY(RUNM_WARP0)), *ld = json_object_get(mo, RUN_KEY(RUNM_LOADS));
    const json_t *stv = json_object_get(mo, RUN_KEY(RUNM_STORES)), *v = json_object_get(o, RUN_KEY(RUNR_VERDICT));
    switch (c) {
    case RC_DEVICE_INDEX: bw_buf_printf(out, "%lld", rd_int(o, RF_KEY(RF_DEVICE))); break;
    case RC_DEVICE: csv_text(out, rd_str(json_object_get(run, RUN_KEY(RUNF_DEVICE)), "name")); break;
    case RC_PROFILE: csv_text(out, rd_str(json_object_get(run, RUN_KEY(RUNF_PROFILE)), RUN_KEY(RUND_NAME))); break;
    case RC_PATTERN: csv_text(out, rd_spec(o)); break;
    case RC_FAMILY: csv_text(out, rd_str(o, RF_KEY(RF_FAMILY))); break;
    case RC_EXPRESSION: csv_text(out, rd_str(o, RF_KEY(RF_EXPRESSION))); break;
    case RC_ELEM_BYTES: csv_whole(out, o, "elem_bytes"); break;
    case RC_ITEMS: csv_whole(out, o, "items"); break;
    case RC_STATUS: bw_buf_printf(out, ",%s", rd_str(o, RF_KEY(RF_STATUS))); break;
    case RC_VALIDATION: csv_text(out, rd_str(o, RF_KEY(RF_VALIDATION))); break;
    case RC_EFFECTIVE_GBS: report_csv_num(out, rd_num(o, RF_KEY(RF_EFFECTIVE_GBS)), 1); break;
    case RC_RELATIVE_TO_SEQ: report_csv_num(out, rd_num(o, RF_KEY(RF_RELATIVE_TO_SEQ)), 1); break;
    case RC_TIME_MIN_NS: report_csv_num(out, rd_num(t, RTIME_KEY(RTIME_MIN)), 1); break;
    case RC_TIME_MEDIAN_NS: report_csv_num(out, rd_num(t, RTIME_KEY(RTIME_MEDIAN)), 1); break;
    case RC_TIME_MEAN_NS: report_csv_num(out, rd_num(t, RTIME_KEY(RTIME_MEAN)), 1); break;
    case RC_TIME_STDDEV_NS: report_csv_num(out, rd_num(t, RTIME_KEY(RTIME_STDDEV)), 1); break;
    case RC_TIME_COUNT: report_csv_num(out, (double)rd_int(t, RTIME_KEY(RTIME_COUNT)), 1); break;
    case RC_TIME_RSE: report_csv_num(out, rd_num(t, RTIME_KEY(RTIME_RSE)), 1); break;
    case RC_WALL_MEDIAN_NS:
        report_csv_num(out, rd_num(json_object_get(o, RUN_KEY(RUNR_WALL_NS)), RTIME_KEY(RTIME_MEDIAN)), 1);
        break;
    case RC_SECTOR_EFFICIENCY: report_csv_num(out, rd_num(w0, RUN_KEY(RUNM_SECTOR_EFFICIENCY)), 1); break;
    case RC_LINE_EFFICIENCY: report_csv_num(out, rd_num(w0, RUN_KEY(RUNW_LINE_EFFICIENCY)), 1); break;
    case RC_REQUESTED_LOAD_BYTES: csv_whole(out, ld, "requested_bytes"); break;
    case RC_REQUESTED_STORE_BYTES: csv_whole(out, stv, "requested_bytes"); break;
    case RC_INSTRUCTION_MODEL_LOAD_BYTES: csv_whole(out, ld, "instruction_model_bytes"); break;
    case RC_FOOTPRINT_LOAD_BYTES: csv_whole(out, ld, "footprint_bytes"); break;
    case RC_INSTRUCTION_MODEL_STORE_BYTES: csv_whole(out, stv, "instruction_model_bytes"); break;
    case RC_FOOTPRINT_STORE_BYTES: csv_whole(out, stv, "footprint_bytes"); break;
    case RC_PREDICTED_EFFICIENCY: report_csv_num(out, rd_num(mo, RUN_KEY(RUNM_PREDICTED_EFFICIENCY)), 1); break;
    case RC_IMPLIED_TRAFFIC_BYTES: report_csv_num(out, rd_num(v, RUN_KEY(RUNV_IMPLIED_TRAFFIC_BYTES)), 1); break;
    case RC_VERDICT: bw_buf_printf(out, ",%s", rd_str(v, RUN_KEY(RUNV_CODE))); break;
    case RC_VERDICT_POSITION: report_csv_num(out, rd_num(v, RUN_KEY(RUNV_POSITION)), 1); break;
    case RC_SIZE_NOTE: csv_text(out, rd_str(o, RF_KEY(RF_SIZE_NOTE))); break;
    case RC_INDEX_BITS: csv_whole(out, o, "index_bits"); break;
    case RC_PLAUSIBILITY: csv_text(out, rd_str(o, RF_KEY(RF_PLAUSIBILITY))); break;
    case RC_UNROLL: csv_whole(out, o, "unroll"); break;
    case RC_SUB_GROUP_SIZE: csv_whole(out, o, "sub_group_size"); break;
    case RC_ACCESS: bw_buf_printf(out, ",%s", rd_str(o, RF_KEY(RF_ACCESS))); break;
    case RC_FRACTION_OF_PEAK: report_csv_num(out, rd_num(o, RF_KEY(RF_FRACTION_OF_PEAK)), 1); break;
    case RC_BEST_GBS: report_csv_num(out, rd_num(o, RF_KEY(RF_BEST_GBS)), 1); break;
    case RC_TWIN_TIME_NS: report_csv_num(out, rd_num(o, RF_KEY(RF_TWIN_TIME_NS)), 1); break;
    case RC_TWIN_ITEMS: csv_whole(out, o, "twin_items"); break;
    case RC_TWIN_RATIO: report_csv_num(out, rd_num(o, RF_KEY(RF_TWIN_RATIO)), 1); break;
    case RC_BOUND: bw_buf_printf(out, ",%s", rd_str(o, RF_KEY(RF_BOUND)) ? rd_str(o, RF_KEY(RF_BOUND)) : ""); break;
    case RC_STABLE:
        bw_buf_printf(out, ",%s",
                      json_is_boolean(json_object_get(o, RF_KEY(RF_STABLE))) ? (rd_true(o, RF_KEY(RF_STABLE)) ? "yes" : "no")
                                                                             : "");
        break;
    case RC_SPREAD: report_csv_num(out, rd_num(o, RF_KEY(RF_SPREAD)), 1); break;
    case RC_RELATIVE_SPREAD: report_csv_num(out, rd_num(o, RF_KEY(RF_RELATIVE_SPREAD)), 1); break;
    case RC_KERNEL_FORM: bw_buf_printf(out, ",%s", rd_str(o, RF_KEY(RF_KERNEL_FORM))); break;
    case RC_COUNT: break;
    }
}

void report_run_csv(const json_t *doc, bw_buf *out)
{
    results_csv_header(out);
    size_t nrun = json_array_size(json_object_get(doc, RUN_KEY(RUND_RUNS)));
    for (size_t k = 0; k < nrun; k++) {
        report_doc_run r;
        if (run_at(doc, k, 0, &r))
            return;
        for (size_t i = 0; i < r.n; i++) {
            for (size_t c = 0; c < RC_COUNT; c++)
                csv_cell(out, (results_csv_column_id)c, r.run, r.items[i]);
            bw_buf_putc(out, '\n');
        }
        run_free(&r);
    }
}
