/* results_peer: reading clpeak (XML, JSON, CSV) and BabelStream (CSV)
 * result files, recognised by their content, into one data model of
 * devices and figures (results_peer.h). */
#include "results_peer.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "bw_alloc.h"
#include "results_merge_range.h"
#include "results_merge_range_priv.h"
#include "results_peer_priv.h"

/* Unit conversions (from the writers' own arithmetic):
 * - clpeak "gbps" is bytes / time_us / 1e3, i.e. 10^9 B/s: kept as is;
 *   "gflops" and "gops" are operations / time_us / 1e3, 10^9 per second;
 *   "tflops" and "tops" (2.x tensor tests) are 10^12 per second: x 1000;
 *   "us" is microseconds. clpeak 1.x labels its integer tests "gflops":
 *   they count integer operations, so they read as GOP/s.
 * - BabelStream's column is named after its unit: mbytes / MB 10^6 B/s,
 *   mibytes / MiB 2^20, gbytes / GB 10^9, gibytes / GiB 2^30, TB 10^12,
 *   TiB 2^40 bytes per second; converted to 10^9 B/s. */

#define PEER_MAX_FIELDS 32
/* no real figure comes near: a bandwidth of 10^12 GB/s, a latency of 10^12 µs */
#define PEER_MAX_VALUE 1e12

typedef struct peer_ctx {
    results_peer_file *f;
    bw_error *err;
    bw_code rc;
} peer_ctx;

static bw_code fail(peer_ctx *c, size_t line, const char *fmt, ...) BW_PRINTF(3, 4);

static bw_code fail(peer_ctx *c, size_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        c->rc = bw_error_set(c->err, BW_E_FORMAT, "%s: line %zu: %s", c->f->name, line, msg);
    else
        c->rc = bw_error_set(c->err, BW_E_FORMAT, "%s: %s", c->f->name, msg);
    return c->rc;
}

static bw_code nomem(peer_ctx *c)
{
    c->rc = bw_error_set(c->err, BW_E_NOMEM, "out of memory reading %s", c->f->name);
    return c->rc;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static char *dup_or_null(const char *s)
{
    return s ? dupn(s, strlen(s)) : NULL;
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The index of the device (backend, platform, device, driver), added when
 * new; RESULTS_PEER_NO_DEVICE after running out of memory (c->rc set). */
static size_t add_device(peer_ctx *c, const char *backend, const char *platform, const char *device,
                         const char *driver)
{
    results_peer_file *f = c->f;
    for (size_t i = 0; i < f->n_devices; i++) {
        const results_peer_device *d = &f->devices[i];
        if (same(d->backend, backend) && same(d->platform, platform) && same(d->device, device) &&
            same(d->driver, driver))
            return i;
    }
    results_peer_device *nd = realloc(f->devices, (f->n_devices + 1) * sizeof *nd);
    if (!nd) {
        nomem(c);
        return RESULTS_PEER_NO_DEVICE;
    }
    f->devices = nd;
    results_peer_device *d = &nd[f->n_devices];
    d->backend = dup_or_null(backend);
    d->platform = dup_or_null(platform);
    d->device = dup_or_null(device);
    d->driver = dup_or_null(driver);
    f->n_devices++;
    if ((backend && !d->backend) || (platform && !d->platform) || (device && !d->device) || (driver && !d->driver)) {
        nomem(c);
        return RESULTS_PEER_NO_DEVICE;
    }
    return f->n_devices - 1;
}

static bw_code add_figure(peer_ctx *c, size_t device, results_peer_role role, const char *test, const char *metric,
                          double value, results_peer_unit unit, uint64_t buffer_bytes)
{
    results_peer_file *f = c->f;
    results_peer_figure *nf = realloc(f->figures, (f->n_figures + 1) * sizeof *nf);
    if (!nf)
        return nomem(c);
    f->figures = nf;
    results_peer_figure *g = &nf[f->n_figures++];
    memset(g, 0, sizeof *g);
    g->device = device;
    g->role = role;
    g->test = dup_or_null(test);
    g->metric = dup_or_null(metric);
    g->value = value;
    g->unit = unit;
    g->buffer_bytes = buffer_bytes;
    if (!g->test || !g->metric)
        return nomem(c);
    return BW_OK;
}

/* A figure's value: the whole text one finite number, >= 0 and at most
 * PEER_MAX_VALUE ("nan", "inf", "1e400" and "12 GB" are refused). */
static int parse_value(const char *s, double *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return 0;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end || errno == ERANGE || !isfinite(v) || v < 0 || v > PEER_MAX_VALUE)
        return 0;
    *out = v;
    return 1;
}

/* A positive decimal integer of at most 2^53 (exact in a double). */
static int parse_count(const char *s, uint64_t *out)
{
    if (!*s || *s < '0' || *s > '9')
        return 0;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > (1ull << 53))
            return 0;
    }
    if (*s || v == 0)
        return 0;
    *out = v;
    return 1;
}

/* a row left out (no error): counted, and what it was noted once */
static void left_out(peer_ctx *c, const char *what)
{
    results_peer_file *f = c->f;
    f->n_left_out++;
    size_t n = strlen(f->left_out_what), k = strlen(what);
    for (const char *p = f->left_out_what; (p = strstr(p, what)) != NULL; p += k)
        if ((p == f->left_out_what || p[-1] == ' ') && (p[k] == ',' || p[k] == '\0'))
            return;
    if (n + k + 2 < sizeof f->left_out_what)
        snprintf(f->left_out_what + n, sizeof f->left_out_what - n, "%s%s", n ? ", " : "", what);
}

/* ---- clpeak: the rows of every format ---- */

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

/* The role of a clpeak test, 0 when it maps to none (local memory, image
 * bandwidth, the CPU backend's cache, crypto and string tests). */
static int clpeak_role(const char *test, const char *category, results_peer_role *role)
{
    if (!strcmp(test, "global_memory_bandwidth"))
        *role = RESULTS_PEER_READ;
    else if (!strcmp(test, "transfer_bandwidth"))
        *role = RESULTS_PEER_TRANSFER;
    else if (!strcmp(test, "kernel_launch_latency"))
        *role = RESULTS_PEER_LAUNCH;
    else if (ends_with(test, "_compute") || strstr(test, "_compute_") ||
             (category && (!strcmp(category, "fp_compute") || !strcmp(category, "int_compute"))))
        *role = RESULTS_PEER_COMPUTE;
    else
        return 0;
    return 1;
}

static int clpeak_unit(const char *test, const char *unit, results_peer_unit *u, double *scale)
{
    *scale = 1;
    int integer = !strncmp(test, "integer_", 8);
    if (!strcmp(unit, "gbps"))
        *u = RESULTS_PEER_GBS;
    else if (!strcmp(unit, "gflops") || !strcmp(unit, "gops"))
        *u = integer || !strcmp(unit, "gops") ? RESULTS_PEER_GOPS : RESULTS_PEER_GFLOPS;
    else if (!strcmp(unit, "tflops") || !strcmp(unit, "tops")) {
        *u = integer || !strcmp(unit, "tops") ? RESULTS_PEER_GOPS : RESULTS_PEER_GFLOPS;
        *scale = 1000;
    } else if (!strcmp(unit, "us"))
        *u = RESULTS_PEER_US;
    else
        return 0;
    return 1;
}

/* The unit a figure of role must have: u itself where it fits, else a
 * unit that does (so a mismatch shows as inequality). */
static results_peer_unit unit_of_role(results_peer_role role, results_peer_unit u)
{
    switch (role) {
    case RESULTS_PEER_COMPUTE: return u == RESULTS_PEER_GFLOPS || u == RESULTS_PEER_GOPS ? u : RESULTS_PEER_GFLOPS;
    case RESULTS_PEER_LAUNCH: return RESULTS_PEER_US;
    default: return RESULTS_PEER_GBS;
    }
}

static results_range range_of(results_peer_unit u)
{
    return u == RESULTS_PEER_GBS ? RESULTS_RANGE_GBS : u == RESULTS_PEER_US ? RESULTS_RANGE_TIME_US : RESULTS_RANGE_GFLOPS;
}

/* a converted figure within the range bwlab's own figures of its kind keep */
static int in_range(results_peer_unit u, double v)
{
    return results_range_ok(range_of(u), v);
}

/* "1e-06 to 1e+06 GB/s": a peer's figure is never null */
static const char *range_text(results_peer_unit u)
{
    const char *t = results_range_text(range_of(u));
    return !strncmp(t, "null, or ", 9) ? t + 9 : t;
}

/* One clpeak measurement, as every format holds it. status NULL or "ok":
 * value_text must be a number; otherwise the row is left out. where names
 * the row in messages ("entries[3]", "metric 'float4'"). */
typedef struct clpeak_row {
    const char *backend, *platform, *device, *driver;
    const char *category, *test, *metric, *unit, *status, *value;
} clpeak_row;

static bw_code clpeak_add(peer_ctx *c, const clpeak_row *r, size_t line, const char *where)
{
    results_peer_role role;
    if (!clpeak_role(r->test, r->category, &role) || (r->status && strcmp(r->status, "ok"))) {
        char what[128];
        if (r->status && strcmp(r->status, "ok"))
            snprintf(what, sizeof what, "%s (%s)", r->test ? r->test : "?", r->status);
        else
            snprintf(what, sizeof what, "%s", r->test ? r->test : "?");
        left_out(c, what);
        return BW_OK;
    }
    results_peer_unit unit;
    double scale, v;
    if (!r->unit || !clpeak_unit(r->test, r->unit, &unit, &scale))
        return fail(c, line,
                    "%s: unit '%s' of test '%s' is not one clpeak writes (gbps, gflops, gops, tflops, tops, us)", where,
                    r->unit ? r->unit : "", r->test);
    if (unit != unit_of_role(role, unit))
        return fail(c, line, "%s: unit '%s' of test '%s' is no %s unit (%s)", where, r->unit, r->test,
                    role == RESULTS_PEER_COMPUTE ? "compute" : role == RESULTS_PEER_LAUNCH ? "latency" : "bandwidth",
                    role == RESULTS_PEER_COMPUTE ? "gflops, gops, tflops or tops"
                    : role == RESULTS_PEER_LAUNCH ? "us"
                                                 : "gbps");
    if (!r->value || !parse_value(r->value, &v))
        return fail(c, line, "%s: value '%s' is not a number from 0 to 1e12", where, r->value ? r->value : "");
    if (v == 0) {
        char what[128];
        snprintf(what, sizeof what, "%s (0)", r->test);
        left_out(c, what);
        return BW_OK;
    }
    /* the range is the figure's, in bwlab's unit: checked after the conversion */
    if (!in_range(unit, v * scale))
        return fail(c, line, "%s: value '%s' %s of test '%s' is %.6g %s, outside %s", where, r->value, r->unit,
                    r->test, v * scale, results_peer_unit_name(unit), range_text(unit));
    size_t dev = add_device(c, r->backend, r->platform, r->device, r->driver);
    if (dev == RESULTS_PEER_NO_DEVICE)
        return c->rc;
    return add_figure(c, dev, role, r->test, r->metric, v * scale, unit, 0);
}

/* ---- clpeak JSON (2.x) ---- */

static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static bw_code clpeak_json_entry(peer_ctx *c, const json_t *e, size_t i)
{
    static const char *const keys[] = { "backend", "platform", "device", "driver",
                                        "category", "test", "metric", "unit" };
    const char *s[8];
    if (!json_is_object(e))
        return fail(c, 0, "entries[%zu] is %s, expected an object", i, json_kind(e));
    for (size_t k = 0; k < 8; k++) {
        const json_t *v = json_object_get(e, keys[k]);
        if (!json_is_string(v))
            return fail(c, 0, "entries[%zu].%s is %s, expected a string", i, keys[k], v ? json_kind(v) : "missing");
        s[k] = json_string_value(v);
    }
    const json_t *st = json_object_get(e, "status"), *val = json_object_get(e, "value");
    if (st && !json_is_string(st))
        return fail(c, 0, "entries[%zu].status is %s, expected a string", i, json_kind(st));
    const char *status = st ? json_string_value(st) : NULL;
    char num[64];
    const char *value = NULL;
    if (!status || !strcmp(status, "ok")) {
        if (!json_is_number(val))
            return fail(c, 0, "entries[%zu].value is %s, expected a number", i, val ? json_kind(val) : "missing");
        snprintf(num, sizeof num, "%.17g", json_number_value(val));
        value = num;
    }
    clpeak_row r = { s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], status, value };
    char where[48];
    snprintf(where, sizeof where, "entries[%zu]", i);
    return clpeak_add(c, &r, 0, where);
}

static bw_code read_clpeak_json(peer_ctx *c, const char *text, size_t len)
{
    json_error_t je;
    unsigned long failed = bw_alloc_failures();
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root && (bw_alloc_failures() != failed || json_error_code(&je) == json_error_out_of_memory))
        return nomem(c);
    if (!root)
        return fail(c, (size_t)(je.line > 0 ? je.line : 0), "invalid JSON (column %d): %s", je.column, je.text);
    const json_t *fv = json_object_get(root, "format_version"), *ver = json_object_get(root, "clpeak_version");
    const json_t *entries = json_object_get(root, "entries");
    if (!json_is_object(root))
        fail(c, 0, "the document is %s, expected clpeak's object", json_kind(root));
    else if (!json_is_integer(fv))
        fail(c, 0, "format_version is %s, expected the integer 2", fv ? json_kind(fv) : "missing");
    else if (json_integer_value(fv) != 2)
        fail(c, 0, "format_version %lld: this bwlab reads clpeak's format_version 2",
             (long long)json_integer_value(fv));
    else if (ver && !json_is_string(ver))
        fail(c, 0, "clpeak_version is %s, expected a string", json_kind(ver));
    else if (!json_is_array(entries))
        fail(c, 0, "entries is %s, expected an array", entries ? json_kind(entries) : "missing");
    else if (!(c->f->tool_version = dup_or_null(ver ? json_string_value(ver) : "2.x")))
        nomem(c);
    size_t i;
    const json_t *e;
    if (c->rc == BW_OK)
        json_array_foreach(entries, i, e) if (clpeak_json_entry(c, e, i) != BW_OK) break;
    json_decref(root);
    return c->rc;
}

/* ---- CSV (RFC 4180): clpeak 2.x and BabelStream ---- */

typedef struct csv_rd {
    const char *p, *end;
    size_t line;   /* the line the next record starts on, from 1 */
    char *fields[PEER_MAX_FIELDS];
    size_t n;
} csv_rd;

static void csv_clear(csv_rd *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->fields[i]);
    r->n = 0;
}

/* One quoted field from r->p (at its opening quote) into *out. */
static bw_code csv_quoted(peer_ctx *c, csv_rd *r, char **out)
{
    size_t start = r->line;
    const char *p = r->p + 1;
    char *buf = malloc((size_t)(r->end - p) + 1);
    size_t n = 0;
    if (!buf)
        return nomem(c);
    for (;;) {
        if (p == r->end) {
            free(buf);
            return fail(c, start, "a quoted field is not closed (the file is cut short?)");
        }
        if (*p == '"' && p + 1 < r->end && p[1] == '"') {
            buf[n++] = '"';
            p += 2;
        } else if (*p == '"') {
            p++;
            break;
        } else {
            if (*p == '\n')
                r->line++;
            buf[n++] = *p++;
        }
    }
    if (p < r->end && *p != ',' && *p != '\n' && *p != '\r') {
        free(buf);
        return fail(c, r->line, "text after a quoted field's closing quote");
    }
    buf[n] = 0;
    r->p = p;
    *out = buf;
    return BW_OK;
}

/* The next record into r->fields (r->n 0 at the end of the text). */
static bw_code csv_next(peer_ctx *c, csv_rd *r)
{
    csv_clear(r);
    if (r->p >= r->end)
        return BW_OK;
    for (;;) {
        char *field = NULL;
        if (r->p < r->end && *r->p == '"') {
            if (csv_quoted(c, r, &field) != BW_OK)
                return c->rc;
        } else {
            const char *s = r->p;
            while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '"')
                r->p++;
            if (r->p < r->end && *r->p == '"')
                return fail(c, r->line, "a quote inside an unquoted field");
            size_t n = (size_t)(r->p - s);
            if (n && s[n - 1] == '\r' && (r->p == r->end || *r->p == '\n'))
                n--;
            if (!(field = dupn(s, n)))
                return nomem(c);
        }
        if (r->n == PEER_MAX_FIELDS) {
            free(field);
            return fail(c, r->line, "more than %d fields", PEER_MAX_FIELDS);
        }
        r->fields[r->n++] = field;
        if (r->p < r->end && *r->p == '\r')
            r->p++;
        if (r->p >= r->end)
            return BW_OK;
        if (*r->p++ == '\n') {
            r->line++;
            return BW_OK;
        }
    }
}

static int csv_blank(const csv_rd *r)
{
    return r->n == 1 && !r->fields[0][0];
}

static int csv_col(const csv_rd *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->fields[i], name))
            return (int)i;
    return -1;
}

/* a column the header names twice, or NULL: which one a row's value
 * comes from would be a guess */
static const char *csv_duplicate(const csv_rd *r)
{
    for (size_t i = 0; i < r->n; i++)
        for (size_t j = i + 1; j < r->n; j++)
            if (!strcmp(r->fields[i], r->fields[j]))
                return r->fields[i];
    return NULL;
}

/* ---- clpeak CSV (2.x) ---- */

static bw_code read_clpeak_csv(peer_ctx *c, csv_rd *r)
{
    static const char *const cols[] = { "format_version", "backend", "platform", "device", "driver", "category",
                                        "test", "metric", "unit", "status", "value" };
    int at[11];
    size_t hline = r->line;
    if (csv_next(c, r) != BW_OK)
        return c->rc;
    const char *twice = csv_duplicate(r);
    if (twice)
        return fail(c, hline, "the header names the column '%s' twice", twice);
    for (size_t k = 0; k < 11; k++)
        if ((at[k] = csv_col(r, cols[k])) < 0)
            return fail(c, hline, "the header lacks the column '%s'", cols[k]);
    size_t width = r->n;
    if (!(c->f->tool_version = dup_or_null("2.x")))
        return nomem(c);
    for (;;) {
        size_t line = r->line;
        if (csv_next(c, r) != BW_OK || r->n == 0)
            return c->rc;
        if (csv_blank(r))
            continue;
        if (r->n != width)
            return fail(c, line, "%zu fields, the header has %zu", r->n, width);
        const char *fv = r->fields[at[0]];
        if (strcmp(fv, "2"))
            return fail(c, line, "format_version '%s': this bwlab reads clpeak's format_version 2", fv);
        const char *status = r->fields[at[9]];
        clpeak_row row = { r->fields[at[1]], r->fields[at[2]], r->fields[at[3]], r->fields[at[4]], r->fields[at[5]],
                           r->fields[at[6]], r->fields[at[7]], r->fields[at[8]], status[0] ? status : NULL,
                           r->fields[at[10]] };
        char where[96];
        snprintf(where, sizeof where, "metric '%.40s'", row.metric);
        if (clpeak_add(c, &row, line, where) != BW_OK)
            return c->rc;
    }
}

/* ---- BabelStream CSV ---- */

typedef struct bs_table {
    int phase;       /* 1: the Init/Read table (v5.0), left out */
    int col_n, col_size, col_bw;
    char bw_col[48]; /* the bandwidth column's name: its unit */
    double scale;    /* bytes per second of one unit of the bandwidth column */
    size_t width;
} bs_table;

static int bs_unit(const char *col, double *scale, int *new_header)
{
    static const struct {
        const char *name;
        double scale;
        int new_header;
    } units[] = {
        { "max_mbytes_per_sec", 1e6, 0 }, { "max_mibytes_per_sec", 1048576.0, 0 },
        { "gbytes_per_sec", 1e9, 0 },     { "gibytes_per_sec", 1073741824.0, 0 },
        { "max_MB_per_sec", 1e6, 1 },     { "max_MiB_per_sec", 1048576.0, 1 },
        { "max_GB_per_sec", 1e9, 1 },     { "max_GiB_per_sec", 1073741824.0, 1 },
        { "max_TB_per_sec", 1e12, 1 },    { "max_TiB_per_sec", 1099511627776.0, 1 },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(col, units[i].name)) {
            *scale = units[i].scale;
            *new_header = units[i].new_header;
            return 1;
        }
    return 0;
}

static int bs_is_header(const csv_rd *r)
{
    return r->n >= 4 && (!strcmp(r->fields[0], "function") || !strcmp(r->fields[0], "phase"));
}

static bw_code bs_header(peer_ctx *c, const csv_rd *r, size_t line, bs_table *t)
{
    t->phase = !strcmp(r->fields[0], "phase");
    t->width = r->n;
    t->col_n = csv_col(r, "n_elements");
    t->col_size = csv_col(r, "sizeof");
    t->col_bw = -1;
    int new_header = 0;
    const char *twice = csv_duplicate(r);
    if (twice)
        return fail(c, line, "the header names the column '%s' twice", twice);
    for (size_t i = 0; i < r->n; i++) {
        if (!bs_unit(r->fields[i], &t->scale, &new_header))
            continue;
        if (t->col_bw >= 0)
            return fail(c, line, "the header has two bandwidth columns, '%s' and '%s'", r->fields[t->col_bw],
                        r->fields[i]);
        t->col_bw = (int)i;
        snprintf(t->bw_col, sizeof t->bw_col, "%s", r->fields[i]);
    }
    if (t->col_n < 0 || t->col_size < 0)
        return fail(c, line, "the header lacks the column '%s'", t->col_n < 0 ? "n_elements" : "sizeof");
    if (t->col_bw < 0)
        return fail(c, line, "the header has no bandwidth column (max_mbytes_per_sec, max_MB_per_sec, ...)");
    if (!c->f->tool_version && !t->phase &&
        !(c->f->tool_version = dup_or_null(new_header ? "v6.0-rc" : "v3.x-v5.0")))
        return nomem(c);
    return BW_OK;
}

static bw_code bs_row(peer_ctx *c, const csv_rd *r, size_t line, const bs_table *t, size_t dev)
{
    static const struct {
        const char *name;
        unsigned arrays;  /* BabelStream's weight: arrays one iteration moves */
    } kernels[] = { { "Copy", 2 }, { "Mul", 2 }, { "Add", 3 }, { "Triad", 3 }, { "Dot", 2 }, { "Nstream", 4 } };
    if (r->n != t->width)
        return fail(c, line, "%zu fields, the header has %zu", r->n, t->width);
    if (t->phase) {
        char what[128];
        snprintf(what, sizeof what, "the %s phase", r->fields[0]);
        left_out(c, what);
        return BW_OK;
    }
    const char *fn = r->fields[0];
    unsigned arrays = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (!strcmp(fn, kernels[i].name))
            arrays = kernels[i].arrays;
    if (!arrays)
        return fail(c, line, "function '%s' is not a BabelStream kernel (Copy, Mul, Add, Triad, Dot, Nstream)", fn);
    uint64_t n, size;
    double bw;
    if (!parse_count(r->fields[t->col_n], &n))
        return fail(c, line, "n_elements '%s' is not a positive integer", r->fields[t->col_n]);
    if (!parse_count(r->fields[t->col_size], &size) || (size != 4 && size != 8))
        return fail(c, line, "sizeof '%s' is not 4 (float) or 8 (double)", r->fields[t->col_size]);
    if (!parse_value(r->fields[t->col_bw], &bw) || bw == 0)
        return fail(c, line, "bandwidth '%s' is not a positive number up to 1e12", r->fields[t->col_bw]);
    if (n > UINT64_MAX / 32)
        return fail(c, line, "n_elements '%s' is too large", r->fields[t->col_n]);
    double gbs = bw * t->scale / 1e9; /* converted first, then checked */
    if (!in_range(RESULTS_PEER_GBS, gbs))
        return fail(c, line, "bandwidth '%s' (%s) is %.6g GB/s, outside %s", r->fields[t->col_bw],
                    t->bw_col, gbs, range_text(RESULTS_PEER_GBS));
    return add_figure(c, dev, RESULTS_PEER_STREAM, fn, size == 8 ? "double" : "float", gbs, RESULTS_PEER_GBS,
                      arrays * size * n);
}

/* The lines before the first header: a model's device lines, kept, and
 * anything else (build logs, validation messages), skipped. Leaves r at
 * the header. */
static void bs_preamble(csv_rd *r, char **backend, char **device, char **driver)
{
    while (r->p < r->end) {
        const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
        size_t n = nl ? (size_t)(nl - r->p) : (size_t)(r->end - r->p);
        if ((n >= 9 && !strncmp(r->p, "function,", 9)) || (n >= 6 && !strncmp(r->p, "phase,", 6)))
            return;
        size_t k = n && r->p[n - 1] == '\r' ? n - 1 : n;
        const char *dv = NULL;
        for (size_t i = 6; k > 6 && !strncmp(r->p, "Using ", 6) && !dv && i + 8 <= k; i++)
            if (!memcmp(r->p + i, " device ", 8))
                dv = r->p + i;
        if (dv && !*device) {
            *backend = dupn(r->p + 6, (size_t)(dv - r->p - 6));
            *device = dupn(dv + 8, (size_t)(r->p + k - dv - 8));
        } else if (k > 8 && !strncmp(r->p, "Driver: ", 8) && !*driver) {
            *driver = dupn(r->p + 8, k - 8);
        }
        r->p += n + (nl ? 1 : 0);
        r->line++;
    }
}

static bw_code read_babelstream(peer_ctx *c, csv_rd *r)
{
    char *backend = NULL, *device = NULL, *driver = NULL;
    bs_preamble(r, &backend, &device, &driver);
    size_t dev = RESULTS_PEER_NO_DEVICE;
    if (device || driver)
        dev = add_device(c, backend, NULL, device, driver);
    free(backend);
    free(device);
    free(driver);
    bs_table t = { 0 };
    int have_table = 0;
    while (c->rc == BW_OK) {
        size_t line = r->line;
        if (csv_next(c, r) != BW_OK || r->n == 0)
            break;
        if (csv_blank(r))
            continue;
        if (bs_is_header(r)) {
            if (bs_header(c, r, line, &t) != BW_OK)
                break;
            have_table = 1;
        } else if (have_table) {
            bs_row(c, r, line, &t, dev);
        }
    }
    if (c->rc == BW_OK && c->f->n_figures == 0)
        fail(c, 0, "no kernel rows (Copy, Mul, Add, Triad, Dot, Nstream) under a 'function' header");
    return c->rc;
}

/* ---- clpeak XML (1.x and 2.x) ---- */

static int named(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* An attribute's value, malloc'd (free with xmlFree), or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
    return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static int has_elements(const xmlNode *n)
{
    for (const xmlNode *k = n->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            return 1;
    return 0;
}

/* One <metric> (2.x) or metric element (1.x: its tag is the metric; a test
 * with no children, 1.x's kernel_launch_latency, is its own value). */
static bw_code xml_metric(peer_ctx *c, clpeak_row *row, const xmlNode *m, const char *metric)
{
    char *status = attr(m, "status");
    char *text = (char *)xmlNodeGetContent(m);
    row->metric = metric;
    row->status = status;
    row->value = text ? text : "";
    char where[96];
    snprintf(where, sizeof where, "<%.20s> '%.40s'", (const char *)m->name, metric);
    clpeak_add(c, row, (size_t)xmlGetLineNo(m), where);
    xmlFree(status);
    xmlFree(text);
    return c->rc;
}

/* A test element's metrics: 1.x <global_memory_bandwidth unit=...>, 2.x
 * <test name=... unit=...>. */
static bw_code xml_test(peer_ctx *c, clpeak_row *row, const xmlNode *t, int v2)
{
    char *name = v2 ? attr(t, "name") : NULL, *unit = attr(t, "unit");
    row->test = v2 ? name : (const char *)t->name;
    row->unit = unit;
    if (!row->test)
        fail(c, (size_t)xmlGetLineNo(t), "<test> without a name");
    else if (!has_elements(t) && !v2)
        xml_metric(c, row, t, "latency");
    for (const xmlNode *m = t->children; m && c->rc == BW_OK; m = m->next) {
        if (m->type != XML_ELEMENT_NODE)
            continue;
        char *mname = v2 ? attr(m, "name") : NULL;
        if (v2 && !named(m, "metric"))
            left_out(c, (const char *)m->name);
        else if (v2 && !mname)
            fail(c, (size_t)xmlGetLineNo(m), "<metric> without a name");
        else
            xml_metric(c, row, m, v2 ? mname : (const char *)m->name);
        xmlFree(mname);
    }
    xmlFree(name);
    xmlFree(unit);
    return c->rc;
}

/* 1.x: <clpeak os> <platform name> <device name driver_version> <TEST unit> */
static bw_code xml_v1(peer_ctx *c, const xmlNode *root)
{
    for (const xmlNode *p = root->children; p && c->rc == BW_OK; p = p->next) {
        if (!named(p, "platform"))
            continue;
        char *pname = attr(p, "name");
        for (const xmlNode *d = p->children; d && c->rc == BW_OK; d = d->next) {
            if (!named(d, "device"))
                continue;
            char *dname = attr(d, "name"), *drv = attr(d, "driver_version");
            clpeak_row row = { "OpenCL", pname, dname, drv, NULL, NULL, NULL, NULL, NULL, NULL };
            for (const xmlNode *t = d->children; t && c->rc == BW_OK; t = t->next)
                if (t->type == XML_ELEMENT_NODE)
                    xml_test(c, &row, t, 0);
            xmlFree(dname);
            xmlFree(drv);
        }
        xmlFree(pname);
    }
    return c->rc;
}

/* 2.x: <clpeak format_version clpeak_version os> <run backend platform
 * device driver> <category name> <test name unit> <metric name status> */
static bw_code xml_v2(peer_ctx *c, const xmlNode *root)
{
    for (const xmlNode *run = root->children; run && c->rc == BW_OK; run = run->next) {
        if (!named(run, "run"))
            continue;
        char *b = attr(run, "backend"), *p = attr(run, "platform"), *d = attr(run, "device"), *v = attr(run, "driver");
        clpeak_row row = { b, p, d, v, NULL, NULL, NULL, NULL, NULL, NULL };
        for (const xmlNode *cat = run->children; cat && c->rc == BW_OK; cat = cat->next) {
            if (!named(cat, "category"))
                continue;
            char *cname = attr(cat, "name");
            row.category = cname;
            for (const xmlNode *t = cat->children; t && c->rc == BW_OK; t = t->next)
                if (named(t, "test"))
                    xml_test(c, &row, t, 1);
            xmlFree(cname);
        }
        xmlFree(b);
        xmlFree(p);
        xmlFree(d);
        xmlFree(v);
    }
    return c->rc;
}

static bw_code read_clpeak_xml(peer_ctx *c, const char *text, size_t len)
{
    if (len > INT_MAX)
        return fail(c, 0, "too large for an XML file (%zu bytes)", len);
    xmlParserCtxtPtr px = xmlNewParserCtxt();
    if (!px)
        return nomem(c);
    xmlDocPtr doc = xmlCtxtReadMemory(px, text, (int)len, NULL, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!doc) {
        const xmlError *e = xmlCtxtGetLastError(px);
        char msg[256];
        snprintf(msg, sizeof msg, "%s", e && e->message ? e->message : "unreadable");
        msg[strcspn(msg, "\n")] = 0;
        fail(c, e && e->line > 0 ? (size_t)e->line : 0, "invalid XML: %s", msg);
    } else if (doc->intSubset || doc->extSubset) {
        /* clpeak writes none; a DTD's entities could expand without bound */
        fail(c, 0, "has a DTD (<!DOCTYPE ...>): clpeak's XML has none");
    } else if (!root || !named(root, "clpeak")) {
        fail(c, 0, "the root element is not <clpeak>");
    } else {
        char *fv = attr(root, "format_version"), *ver = attr(root, "clpeak_version");
        if (fv && strcmp(fv, "2"))
            fail(c, (size_t)xmlGetLineNo(root), "format_version '%s': this bwlab reads clpeak's format_version 2", fv);
        else if (!(c->f->tool_version = dup_or_null(fv ? (ver ? ver : "2.x") : "1.x")))
            nomem(c);
        else if (fv)
            xml_v2(c, root);
        else
            xml_v1(c, root);
        xmlFree(fv);
        xmlFree(ver);
    }
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(px);
    return c->rc;
}

/* ---- recognition ---- */

static const char *skip_space(const char *p, const char *end)
{
    if (end - p >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    return p;
}

static int contains(const char *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(p + i, needle, k))
            return 1;
    return 0;
}

/* A line of the head starting with prefix. */
static int head_line(const char *p, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    for (size_t i = 0; i + k <= n; i++)
        if ((i == 0 || p[i - 1] == '\n') && !memcmp(p + i, prefix, k))
            return 1;
    return 0;
}

results_peer_format results_peer_sniff(const char *text, size_t len)
{
    if (!text)
        return RESULTS_PEER_NONE;
    const char *end = text + len, *p = skip_space(text, end);
    size_t head = (size_t)(end - p) < 65536 ? (size_t)(end - p) : 65536;
    if (p < end && *p == '<')
        return contains(p, head < 4096 ? head : 4096, "<clpeak") ? RESULTS_PEER_CLPEAK_XML : RESULTS_PEER_NONE;
    if (p < end && *p == '{') {
        size_t h = head < 4096 ? head : 4096;
        /* bwlab's own documents name their schema ("bwlab.results", ...) */
        int keys = contains(p, h, "\"clpeak_version\"") ||
                   (contains(p, h, "\"format_version\"") && contains(p, h, "\"entries\""));
        int clpeak = keys && !contains(p, h, "\"bwlab.");
        return clpeak ? RESULTS_PEER_CLPEAK_JSON : RESULTS_PEER_NONE;
    }
    if (head_line(p, head < 256 ? head : 256, "format_version,backend,platform,"))
        return RESULTS_PEER_CLPEAK_CSV;
    if (head_line(p, head, "function,num_times,n_elements,sizeof,") || head_line(p, head, "phase,n_elements,sizeof,"))
        return RESULTS_PEER_BABELSTREAM_CSV;
    return RESULTS_PEER_NONE;
}

bw_code results_peer_read(const char *text, size_t len, const char *name, results_peer_file **out, bw_error *err)
{
    *out = NULL;
    results_peer_format fmt = results_peer_sniff(text, len);
    if (fmt == RESULTS_PEER_NONE)
        return BW_OK;
    results_peer_file *f = calloc(1, sizeof *f);
    if (!f || !(f->name = dup_or_null(name ? name : "(input)"))) {
        free(f);
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading %s", name ? name : "(input)");
    }
    f->format = fmt;
    f->tool = fmt == RESULTS_PEER_BABELSTREAM_CSV ? "babelstream" : "clpeak";
    peer_ctx c = { f, err, BW_OK };
    const char *end = text + len, *p = skip_space(text, end);
    csv_rd r = { p, end, 1, { 0 }, 0 };
    for (const char *q = text; q < p; q++)
        r.line += *q == '\n';
    if (memchr(text, 0, len))
        fail(&c, 0, "holds a NUL byte: not a text file");
    else if (fmt == RESULTS_PEER_CLPEAK_XML)
        read_clpeak_xml(&c, text, len);
    else if (fmt == RESULTS_PEER_CLPEAK_JSON && len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        read_clpeak_json(&c, text + 3, len - 3); /* jansson takes no byte-order mark */
    else if (fmt == RESULTS_PEER_CLPEAK_JSON)
        read_clpeak_json(&c, text, len);
    else if (fmt == RESULTS_PEER_CLPEAK_CSV)
        read_clpeak_csv(&c, &r);
    else
        read_babelstream(&c, &r);
    csv_clear(&r);
    if (c.rc == BW_OK && f->n_figures == 0 && f->n_left_out == 0)
        fail(&c, 0, "holds no measurement");
    if (c.rc != BW_OK) {
        results_peer_file_free(f);
        return c.rc;
    }
    *out = f;
    return BW_OK;
}

void results_peer_file_free(results_peer_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_devices; i++) {
        free(f->devices[i].backend);
        free(f->devices[i].platform);
        free(f->devices[i].device);
        free(f->devices[i].driver);
    }
    for (size_t i = 0; i < f->n_figures; i++) {
        free(f->figures[i].test);
        free(f->figures[i].metric);
        free(f->figures[i].note);
    }
    free(f->devices);
    free(f->figures);
    free(f->tool_version);
    free(f->name);
    free(f);
}

/* ---- buffer sizes ---- */

/* clpeak's global bandwidth test (1.1.2 and 2.1.2 alike): numItems =
 * min(max_alloc / 4 / 2, cap) rounded down to a multiple of wg x 16 x 16
 * (wg = min(CL_DEVICE_MAX_WORK_ITEM_SIZES[0], 256), and 128 on Qualcomm
 * devices in 1.x: the caller passes 128 there; 16 fetches per
 * work-item, 16 lanes of float16), and the input buffer is numItems floats.
 * The cap is 2^27 (CPU) or 2^29 (GPU): a count of floats before 2.0.7, and
 * of bytes from 2.0.7 on (the fix that divides it by sizeof(float)). */
uint64_t results_peer_clpeak_buffer_bytes(const char *tool_version, uint64_t max_alloc_bytes,
                                         uint64_t max_work_item_size0, int cpu_device)
{
    unsigned major = 0, minor = 0, patch = 0;
    if (!tool_version || !max_alloc_bytes || !max_work_item_size0)
        return 0;
    if (!strcmp(tool_version, "1.x"))
        major = 1;
    else if (!strcmp(tool_version, "2.x"))
        major = 2, patch = 7;
    else if (sscanf(tool_version, "%u.%u.%u", &major, &minor, &patch) < 2 || major < 1)
        return 0;
    int items_cap = major < 2 || (major == 2 && minor == 0 && patch < 7);
    uint64_t cap = cpu_device ? 1ull << 27 : 1ull << 29;
    if (!items_cap)
        cap /= 4;
    uint64_t wg = max_work_item_size0 < 256 ? max_work_item_size0 : 256;
    uint64_t items = max_alloc_bytes / 4 / 2;
    if (items > cap)
        items = cap;
    items = items / (wg * 16 * 16) * (wg * 16 * 16);
    return items * 4;
}

bw_code results_peer_note_cache(results_peer_figure *fig, uint64_t cache_bytes)
{
    if (!fig->buffer_bytes || !cache_bytes || cache_bytes > UINT64_MAX / 4 || fig->buffer_bytes >= 4 * cache_bytes)
        return BW_OK;
    char msg[256];
    snprintf(msg, sizeof msg,
             "buffer %llu B is smaller than 4x the device's reported cache (%llu B): it may not be a DRAM figure",
             (unsigned long long)fig->buffer_bytes, (unsigned long long)cache_bytes);
    char *note = dup_or_null(msg);
    if (!note)
        return BW_E_NOMEM;
    free(fig->note);
    fig->note = note;
    return BW_OK;
}

const char *results_peer_format_name(results_peer_format f)
{
    switch (f) {
    case RESULTS_PEER_CLPEAK_XML: return "clpeak-xml";
    case RESULTS_PEER_CLPEAK_JSON: return "clpeak-json";
    case RESULTS_PEER_CLPEAK_CSV: return "clpeak-csv";
    case RESULTS_PEER_BABELSTREAM_CSV: return "babelstream-csv";
    default: return "none";
    }
}

const char *results_peer_role_name(results_peer_role r)
{
    switch (r) {
    case RESULTS_PEER_READ: return "read";
    case RESULTS_PEER_STREAM: return "stream";
    case RESULTS_PEER_COMPUTE: return "compute";
    case RESULTS_PEER_TRANSFER: return "transfer";
    default: return "launch";
    }
}

const char *results_peer_unit_name(results_peer_unit u)
{
    switch (u) {
    case RESULTS_PEER_GBS: return "GB/s";
    case RESULTS_PEER_GFLOPS: return "GFLOP/s";
    case RESULTS_PEER_GOPS: return "GOP/s";
    default: return "us";
    }
}
