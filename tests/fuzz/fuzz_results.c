/* libFuzzer target: the results-file reader of bwlab compare and bwlab
 * report (src/results/results_merge.c; tests/fuzz/README.md). The input is
 * one file:
 * a results document (docs/results.md) or, when it begins with '#', the
 * rest as an OUT.partial journal (JSON lines). It is written to a private
 * temporary directory and loaded with results_load_paths, then every
 * compare format is produced and a baseline set. Checks (abort() on a
 * violation): a failure has a message; the loader returns its object
 * whatever the input; every entry's row and device are in range; the JSON
 * output parses; every figure the loader accepted lies in its valid range
 * (docs/results.md, "Valid ranges"), and a row whose status is not "ok"
 * has no measured figure; the table, Markdown, CSV, JSON and (one input in
 * eight) HTML outputs print no "nan" or "inf" and no number of more than
 * 20 digits, unless the input's own text holds such a word or number.
 *
 * Besides libFuzzer's byte mutations, a custom mutator (half the time)
 * parses the input (one line of a journal), replaces one to three field
 * values with hostile ones (negative, 0, subnormal, huge, out-of-set
 * integers; NaN-like strings; unknown statuses, control bytes, a long
 * string; null) and writes it back, so that whole documents with bad
 * values reach the range checks. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "report_compare.h"
#include "report_html.h"
#include "results_merge.h"
#include "results_merge_range.h"
#include "results_merge_priv.h"
#include "results_merge_range_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed);

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_results: " __VA_ARGS__);                                             \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

static char dir[64];

static void cleanup(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/in.json", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/OUT.partial", dir);
    unlink(p);
    rmdir(dir);
}

/* ---- the value mutator ---- */

static uint64_t next(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* every value of v that is a number, a string or null, with the object
 * (key) or array (index) that holds it */
typedef struct leaf {
    json_t *parent;
    const char *key;
    size_t index;
} leaf;

static void leaves(json_t *v, leaf *out, size_t *n, size_t cap, int depth)
{
    if (depth > 12)
        return;
    if (json_is_object(v)) {
        const char *k;
        json_t *c;
        json_object_foreach(v, k, c) {
            if (json_is_object(c) || json_is_array(c))
                leaves(c, out, n, cap, depth + 1);
            else if (*n < cap)
                out[(*n)++] = (leaf){ v, k, 0 };
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *c;
        json_array_foreach(v, i, c) {
            if (json_is_object(c) || json_is_array(c))
                leaves(c, out, n, cap, depth + 1);
            else if (*n < cap)
                out[(*n)++] = (leaf){ v, NULL, i };
        }
    }
}

static json_t *hostile(uint64_t *st)
{
    static const double reals[] = { -1.0, 0.0, -0.0, 5e-324, 1e-300, 2.2250738585072014e-308, 1e-7, 1e300,
                                    1.7976931348623157e308, 123.0, 1e6 + 1, 0.5, 1.0000001, 4.5, 2.0, 1e15 };
    static const long long ints[] = { -1, 0, 1, 3, 16, 17, 1025, 4611686018427387905LL, -9223372036854775807LL - 1,
                                      9223372036854775807LL, 2, 64 };
    static const char *const strs[] = { "failed", "bogus", "not-run", "not-measurable", "ok", "", "\x01\x1b[2J\x7f",
                                        "copy", "read", "write", "probed", "h2d", "pinned", "seq", "seq:elem=16",
                                        "bank:pitch=33,stride=1", "NaN", "Infinity", "-inf", "1e999", "0x10",
                                        "measured", "local", "global", "OK" };
    uint64_t r = next(st);
    switch (r % 5) {
    case 0:
    case 1: return json_real(reals[(r >> 8) % (sizeof reals / sizeof reals[0])]);
    case 2: return json_integer((json_int_t)ints[(r >> 8) % (sizeof ints / sizeof ints[0])]);
    case 3:
        if ((r >> 8) % 16 == 0) { /* a long string of harmless bytes */
            char buf[3001];
            memset(buf, 'a' + (int)((r >> 16) % 20), sizeof buf - 1);
            buf[sizeof buf - 1] = 0;
            return json_string(buf);
        }
        return json_string(strs[(r >> 8) % (sizeof strs / sizeof strs[0])]);
    default: return json_null();
    }
}

/* Replaces 1..3 leaves of v; 1 when something changed. */
static int mutate_json(json_t *v, uint64_t *st)
{
    static leaf all[4096];
    size_t n = 0;
    leaves(v, all, &n, sizeof all / sizeof all[0], 0);
    if (!n)
        return 0;
    int k = 1 + (int)(next(st) % 3);
    for (int i = 0; i < k; i++) {
        leaf *l = &all[next(st) % n];
        json_t *h = hostile(st);
        if (l->key)
            json_object_set_new(l->parent, l->key, h);
        else
            json_array_set_new(l->parent, l->index, h);
    }
    return 1;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
    uint64_t st = seed;
    if (next(&st) % 2 == 0 || size == 0)
        return LLVMFuzzerMutate(data, size, max);
    int journal = data[0] == '#';
    const char *text = (const char *)data + journal;
    size_t len = size - (size_t)journal;
    /* a document: the whole; a journal: one of its lines */
    size_t from = 0, to = len;
    if (journal) {
        size_t lines = 1;
        for (size_t i = 0; i < len; i++)
            lines += text[i] == '\n';
        size_t pick = next(&st) % lines, line = 0;
        for (size_t i = 0; i < len && line < pick; i++)
            if (text[i] == '\n') {
                line++;
                from = i + 1;
            }
        to = from;
        while (to < len && text[to] != '\n')
            to++;
    }
    json_error_t je;
    json_t *v = json_loadb(text + from, to - from, 0, &je);
    if (!v || !mutate_json(v, &st)) {
        json_decref(v);
        return LLVMFuzzerMutate(data, size, max);
    }
    char *out = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    size_t ol = out ? strlen(out) : 0;
    size_t total = (size_t)journal + from + ol + (len - to);
    if (!out || total > max) {
        free(out);
        return LLVMFuzzerMutate(data, size, max);
    }
    /* splice: [#] head, the new value, the tail */
    memmove(data + journal + from + ol, data + journal + to, len - to);
    memcpy(data + journal + from, out, ol);
    free(out);
    return total;
}

/* ---- the figures' checks ---- */

static void in_range(results_range kind, double v, const char *what)
{
    if (!isnan(v) && !results_range_ok(kind, v))
        FAIL("%s %.17g accepted outside its range (%s)", what, v, results_range_text(kind));
}

static void check_figures(const results_merged *m)
{
    for (size_t i = 0; i < m->n_entries; i++) {
        const results_merge_entry *e = &m->entries[i];
        in_range(RESULTS_RANGE_GBS, e->effective_gbs, "effective_gbs");
        in_range(RESULTS_RANGE_GBS, e->effective_min, "effective_min");
        in_range(RESULTS_RANGE_GBS, e->effective_max, "effective_max");
        in_range(RESULTS_RANGE_RATIO, e->relative_to_seq, "relative_to_seq");
        in_range(RESULTS_RANGE_RATIO, e->relative_min, "relative_min");
        in_range(RESULTS_RANGE_RATIO, e->relative_max, "relative_max");
        in_range(RESULTS_RANGE_EFFICIENCY, e->sector_efficiency, "sector_efficiency");
        in_range(RESULTS_RANGE_PREDICTED, e->predicted_efficiency, "predicted_efficiency");
        in_range(RESULTS_RANGE_GBS, e->local_gbs, "local_gbs");
        in_range(RESULTS_RANGE_RATIO, e->relative_to_reference, "relative_to_reference");
        if (e->elem_bytes != -1)
            in_range(RESULTS_RANGE_ELEM, (double)e->elem_bytes, "elem_bytes");
        if (e->conflict_ways != -1)
            in_range(RESULTS_RANGE_COUNT, (double)e->conflict_ways, "conflict_ways");
        if (!isnan(e->relative_to_baseline) && !(isfinite(e->relative_to_baseline) && e->relative_to_baseline > 0))
            FAIL("relative_to_baseline %.17g", e->relative_to_baseline);
        for (size_t k = 0; k < e->n_samples; k++) {
            const results_merge_sample *s = &e->samples[k];
            in_range(RESULTS_RANGE_GBS, s->effective_gbs, "sample effective_gbs");
            in_range(RESULTS_RANGE_RATIO, s->relative_to_seq, "sample relative_to_seq");
            in_range(RESULTS_RANGE_GBS, s->best_gbs, "sample best_gbs");
            in_range(RESULTS_RANGE_RATIO, s->fraction_of_peak, "sample fraction_of_peak");
            if (s->status && strcmp(s->status, "ok") != 0 &&
                (!isnan(s->effective_gbs) || !isnan(s->relative_to_seq) || !isnan(s->best_gbs)))
                FAIL("a sample of status '%s' carries a measured figure", s->status);
        }
    }
    for (size_t d = 0; d < m->n_devices; d++) {
        const results_merge_device *v = &m->devices[d];
        in_range(RESULTS_RANGE_GBS, v->seq_gbs, "seq_gbs");
        in_range(RESULTS_RANGE_GBS, v->peak_read_gbs, "peak_read_gbs");
        in_range(RESULTS_RANGE_GBS, v->peak_copy_gbs, "peak_copy_gbs");
        if (v->lanes != -1)
            in_range(RESULTS_RANGE_LANES, (double)v->lanes, "lanes");
        if (v->sector_bytes != -1)
            in_range(RESULTS_RANGE_UNIT, (double)v->sector_bytes, "sector_bytes");
        if (v->line_bytes != -1)
            in_range(RESULTS_RANGE_UNIT, (double)v->line_bytes, "line_bytes");
    }
    for (size_t r = 0; r < m->n_runs; r++) {
        const results_merge_run *u = &m->runs[r];
        in_range(RESULTS_RANGE_GBS, u->peak_read_gbs, "run peak_read_gbs");
        in_range(RESULTS_RANGE_GBS, u->peak_copy_gbs, "run peak_copy_gbs");
        in_range(RESULTS_RANGE_GFLOPS, u->roof_peak_gflops, "roofline peak_gflops");
        in_range(RESULTS_RANGE_GBS, u->roof_peak_gbs, "roofline peak_gbs");
        in_range(RESULTS_RANGE_INTENSITY, u->roof_ridge_intensity, "roofline ridge_intensity");
        for (size_t k = 0; k < u->n_roof_points; k++) {
            in_range(RESULTS_RANGE_INTENSITY, u->roof_points[k].intensity, "roofline point intensity");
            in_range(RESULTS_RANGE_GFLOPS, u->roof_points[k].gflops, "roofline point gflops");
            in_range(RESULTS_RANGE_GBS, u->roof_points[k].gbs, "roofline point gbs");
            in_range(RESULTS_RANGE_GFLOPS, u->roof_points[k].attainable_gflops, "roofline point attainable");
        }
    }
    for (size_t k = 0; k < m->n_probes; k++) {
        const results_merge_probe *p = &m->probes[k];
        in_range(RESULTS_RANGE_TIME_US, p->launch_latency_us, "launch_latency_us");
        in_range(RESULTS_RANGE_TIME_US, p->small_transfer_latency_us, "small_transfer_latency_us");
        for (size_t l = 0; l <= p->n_levels; l++) {
            const results_merge_level *v = l < p->n_levels ? &p->levels[l] : &p->memory;
            in_range(RESULTS_RANGE_BYTES, v->size_bytes, "level size_bytes");
            in_range(RESULTS_RANGE_GBS, v->read_gbs, "level read_gbs");
            in_range(RESULTS_RANGE_TIME_NS, v->latency_ns, "level latency_ns");
            in_range(RESULTS_RANGE_TIME_NS, v->latency_per_cu_ns, "level latency_per_cu_ns");
        }
        for (size_t l = 0; l < p->n_ladder; l++) {
            in_range(RESULTS_RANGE_BYTES, p->ladder[l].bytes, "ladder bytes");
            in_range(RESULTS_RANGE_GBS, p->ladder[l].read_gbs, "ladder read_gbs");
            in_range(RESULTS_RANGE_TIME_NS, p->ladder[l].latency_ns, "ladder latency_ns");
            in_range(RESULTS_RANGE_TIME_NS, p->ladder[l].latency_per_cu_ns, "ladder latency_per_cu_ns");
        }
        for (size_t l = 0; l < p->n_transfers; l++) {
            in_range(RESULTS_RANGE_UNIT, p->transfers[l].bytes, "transfer bytes");
            in_range(RESULTS_RANGE_GBS, p->transfers[l].gbs, "transfer gbs");
            in_range(RESULTS_RANGE_TIME_US, p->transfers[l].us, "transfer us");
        }
    }
}

static int letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* "nan" or "inf" as a printed number shows it (not inside a word; "infx"
 * counts), or a run of more than 20 digits: where, or NULL */
static const char *bad_number(const char *s, size_t n)
{
    size_t digits = 0;
    for (size_t i = 0; i < n; i++) {
        digits = s[i] >= '0' && s[i] <= '9' ? digits + 1 : 0;
        if (digits > 20)
            return s + i - 20;
        if (i + 3 <= n && (i == 0 || !letter(s[i - 1])) &&
            (!strncasecmp(s + i, "nan", 3) || !strncasecmp(s + i, "inf", 3))) {
            char after = i + 3 < n ? s[i + 3] : 0;
            if (!letter(after) || after == 'x')
                return s + i;
        }
    }
    return NULL;
}

static void check_text(const char *what, const bw_buf *b, int input_suspect)
{
    const char *s = bw_buf_str(b);
    const char *bad = input_suspect ? NULL : bad_number(s, strlen(s));
    if (bad)
        FAIL("%s output prints a number unbounded or not finite: '%.40s'", what, bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", "/tmp/bwlab-fuzz-results-XXXXXX");
        if (!mkdtemp(dir))
            FAIL("mkdtemp failed");
        atexit(cleanup);
    }
    int journal = size > 0 && data[0] == '#';
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, journal ? "OUT.partial" : "in.json");
    FILE *f = fopen(path, "wb");
    if (!f)
        FAIL("cannot write %s", path);
    if (size > (size_t)journal)
        fwrite(data + journal, 1, size - (size_t)journal, f);
    fclose(f);

    const char *paths[] = { path };
    results_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = results_load_paths(paths, 1, &m, &err);
    if (rc != BW_OK && rc != BW_E_FORMAT && rc != BW_E_IO)
        FAIL("unexpected code %d: %s", (int)rc, bw_error_text(&err));
    if (rc != BW_OK && bw_error_text(&err)[0] == '\0')
        FAIL("failure (code %d) without a message", (int)rc);
    bw_error_clear(&err);
    if (m) {
        for (size_t i = 0; i < m->n_diags; i++)
            if (!m->diags[i].message || !m->diags[i].message[0])
                FAIL("a diagnostic without a message");
        for (size_t r = 0; r < m->n_rows; r++)
            for (size_t d = 0; d < m->n_devices; d++)
                (void)results_merged_entry(m, r, d);
        if (rc == BW_OK) {
            check_figures(m);
            /* the input's own text may carry such words and numbers (a
             * pattern name, a path): then the outputs may echo them */
            int suspect = bad_number((const char *)data, size) != NULL;
            char *argv[] = { "bwlab", "compare", path, NULL };
            report_compare_opts o = { NULL, 3, argv, "2026-01-01T00:00:00Z" };
            bw_buf out = BW_BUF_INIT;
            report_compare_table(m, &o, &out);
            check_text("table", &out, suspect);
            bw_buf_free(&out);
            report_compare_markdown(m, &o, &out);
            check_text("markdown", &out, suspect);
            bw_buf_free(&out);
            report_compare_csv(m, &o, &out);
            check_text("csv", &out, suspect);
            bw_buf_free(&out);
            if (report_compare_json(m, &o, &out, &err) == BW_OK) {
                json_error_t je;
                json_t *j = json_loads(bw_buf_str(&out), 0, &je);
                if (!j)
                    FAIL("compare JSON does not parse: %s", je.text);
                json_decref(j);
                check_text("json", &out, suspect);
            }
            bw_error_clear(&err);
            bw_buf_free(&out);
            /* a device's label: the first device (the baseline divides) */
            if (m->n_devices > 0 && results_merge_set_baseline(m, m->devices[0].label, &err) != BW_OK)
                bw_error_clear(&err);
            check_figures(m);
            o.mode = "read";
            report_compare_table(m, &o, &out);
            check_text("table with a baseline", &out, suspect);
            bw_buf_free(&out);
            /* the HTML page and its charts (cairo) on one input in eight */
            uint64_t h = 1469598103934665603ULL;
            for (size_t i = 0; i < size; i++)
                h = (h ^ data[i]) * 1099511628211ULL;
            if (h % 8 == 0) {
                report_html_options ho = { NULL, "2026-01-01T00:00:00Z", 3, argv };
                if (report_html_render(m, &ho, &out, &err) == BW_OK)
                    check_text("html", &out, suspect);
                bw_error_clear(&err);
                bw_buf_free(&out);
            }
        }
        results_merged_free(m);
    }
    return 0;
}
