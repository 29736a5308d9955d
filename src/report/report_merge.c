#include "report_merge.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bw_file.h"
#include "bw_stats.h"
#include "report_format.h"
#include "report_merge_probe.h"
#include "report_merge_range.h"
#include "report_probe.h"
#include "report_results.h"

/* ---- small helpers ---- */

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* Makes room for one more element of size sz in *arr (count n, capacity
 * *cap); 0 when out of memory. */
static int grow(void **arr, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap)
        return 1;
    size_t nc = *cap ? *cap * 2 : 8;
    void *p = realloc(*arr, nc * sz);
    if (!p)
        return 0;
    *arr = p;
    *cap = nc;
    return 1;
}
#define GROW(arr, n, cap) grow((void **)&(arr), (n), &(cap), sizeof *(arr))

/* The checker: the first problem found in one file, as "WHERE: WHAT". */
typedef struct chk {
    char msg[512];
    int bad;
} chk;

static void chk_fail(chk *c, const char *fmt, ...) BW_PRINTF(2, 3);
static void chk_fail(chk *c, const char *fmt, ...)
{
    if (c->bad)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    c->bad = 1;
}

/* An optional number: absent or null is NAN; another type is an error. */
static double opt_num(chk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NAN;
    if (!json_is_number(v)) {
        chk_fail(c, "%s.%s is %s, expected a number or null", where, key, report_json_kind(v));
        return NAN;
    }
    return json_number_value(v);
}

/* An optional integer: -1 when absent or null. */
static long long opt_int(chk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return -1;
    if (!json_is_integer(v)) {
        chk_fail(c, "%s.%s is %s, expected an integer or null", where, key, report_json_kind(v));
        return -1;
    }
    return (long long)json_integer_value(v);
}

/* An optional string: NULL when absent or null. */
static const char *opt_str(chk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        chk_fail(c, "%s.%s is %s, expected a string or null", where, key, report_json_kind(v));
        return NULL;
    }
    return json_string_value(v);
}

static const char *req_str(chk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v) {
        chk_fail(c, "%s.%s is missing", where, key);
        return NULL;
    }
    if (!json_is_string(v)) {
        chk_fail(c, "%s.%s is %s, expected a string", where, key, report_json_kind(v));
        return NULL;
    }
    return json_string_value(v);
}

static int opt_bool(chk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v)) {
        chk_fail(c, "%s.%s is %s, expected true or false", where, key, report_json_kind(v));
        return 0;
    }
    return json_is_true(v);
}

/* An optional object: NULL when absent or null. */
static const json_t *opt_obj(chk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_object(v)) {
        chk_fail(c, "%s.%s is %s, expected an object or null", where, key, report_json_kind(v));
        return NULL;
    }
    return v;
}

/* ---- the merge under construction ---- */

/* Open-addressing index from a key's hash to an array position, so that
 * finding a row or an entry stays O(1) with 100 000 results in a file.
 * slot[i] holds position + 1 (0: empty); the arrays themselves hold the
 * keys, so a probe compares there. */
typedef struct idx_map {
    size_t *slot;
    size_t cap; /* a power of two, or 0 */
    size_t n;
} idx_map;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct loader {
    report_merged *m;
    size_t cap_files, cap_devices, cap_runs, cap_rows, cap_entries, cap_diags, cap_probes;
    size_t *cap_samples;       /* per entry */
    uint64_t *hash;            /* per file: FNV-1a of its bytes */
    size_t *len;               /* per file: its size */
    idx_map rows_by_key;       /* (pattern, access) -> row */
    idx_map entries_by_key;    /* (row, device) -> entry */
    size_t out_of_range;       /* figures and rows of the current file left out */
    size_t where_index;        /* runs[] or devices[] index of the object being merged, for messages */
    int nomem;
} loader;

static void diag(loader *L, const char *file, int is_error, const char *fmt, ...) BW_PRINTF(4, 5);
static void diag(loader *L, const char *file, int is_error, const char *fmt, ...)
{
    report_merged *m = L->m;
    if (!GROW(m->diags, m->n_diags, L->cap_diags)) {
        L->nomem = 1;
        return;
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    report_merge_diag *d = &m->diags[m->n_diags];
    d->file = strdup(file);
    d->message = strdup(buf);
    d->is_error = is_error;
    if (!d->file || !d->message) {
        free(d->file);
        free(d->message);
        L->nomem = 1;
        return;
    }
    m->n_diags++;
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t row_hash(const char *pattern, const char *access)
{
    return mix64(fnv1a(pattern, strlen(pattern)) ^ (fnv1a(access, strlen(access)) * 31));
}

static uint64_t entry_hash(size_t row, size_t device)
{
    return mix64(((uint64_t)row << 20) ^ (uint64_t)device);
}

/* Finds pos by hash h: eq(ctx, pos) tells whether array position pos
 * holds the key. Returns the position, or (size_t)-1. */
static size_t idx_find(const idx_map *x, uint64_t h, int (*eq)(const void *, size_t), const void *ctx)
{
    if (!x->cap)
        return (size_t)-1;
    for (size_t i = (size_t)h & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
        if (!x->slot[i])
            return (size_t)-1;
        if (eq(ctx, x->slot[i] - 1))
            return x->slot[i] - 1;
    }
}

static void idx_put_slot(size_t *slot, size_t cap, uint64_t h, size_t pos)
{
    size_t i = (size_t)h & (cap - 1);
    while (slot[i])
        i = (i + 1) & (cap - 1);
    slot[i] = pos + 1;
}

/* Adds pos (hash h); hash_of(ctx, k) rehashes position k when the table
 * grows. 0 when out of memory. */
static int idx_add(idx_map *x, uint64_t h, size_t pos, uint64_t (*hash_of)(const void *, size_t), const void *ctx)
{
    if (2 * (x->n + 1) > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        size_t *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return 0;
        for (size_t i = 0; i < x->cap; i++)
            if (x->slot[i])
                idx_put_slot(slot, cap, hash_of(ctx, x->slot[i] - 1), x->slot[i] - 1);
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
    }
    idx_put_slot(x->slot, x->cap, h, pos);
    x->n++;
    return 1;
}

/* The vendor as people say it: "NVIDIA Corporation" -> "NVIDIA". */
static const char *short_vendor(const char *v, char *buf, size_t n)
{
    static const struct { const char *has, *is; } known[] = {
        { "nvidia", "NVIDIA" }, { "advanced micro devices", "AMD" }, { "authenticamd", "AMD" },
        { "amd", "AMD" }, { "intel", "Intel" }, { "genuineintel", "Intel" }, { "apple", "Apple" },
        { "arm", "Arm" }, { "qualcomm", "Qualcomm" },
    };
    char low[128];
    size_t i = 0;
    for (; v[i] && i + 1 < sizeof low; i++)
        low[i] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 : v[i]);
    low[i] = 0;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strstr(low, known[k].has))
            return known[k].is;
    /* else the first word */
    size_t w = strcspn(v, " ,");
    if (w >= n)
        w = n - 1;
    memcpy(buf, v, w);
    buf[w] = 0;
    return buf;
}

/* s cut to at most max characters (max < 32), ".." marking a cut */
static void cut(char *out, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) {
        memcpy(out, s, n + 1);
        return;
    }
    memcpy(out, s, max - 2);
    memcpy(out + max - 2, "..", 3);
}

/* "NVIDIA Corporation" + "NVIDIA H100 80GB HBM3" + "550.54.15" ->
 * "NVIDIA H100 80GB HBM3 [550.54.15]": the vendor as people say it; the
 * board name where the device has one (AMD: "AMD Instinct MI300X" for
 * "gfx942"), without the vendor's own prefix and "(R)"/"(TM)", cut at 28
 * characters; the driver to its first space, cut at 16. */
static char *make_label(const report_merge_device *d)
{
    char vb[64];
    const char *sv = short_vendor(report_or_empty(d->vendor), vb, sizeof vb);
    const char *name = report_or_empty(d->board_name && *d->board_name ? d->board_name : d->name);
    char nm[256];
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < sizeof nm; i++) {
        if (!strncmp(name + i, "(R)", 3) || !strncmp(name + i, "(TM)", 4)) {
            i += name[i + 1] == 'R' ? 2 : 3;
            continue;
        }
        nm[j++] = name[i];
    }
    nm[j] = 0;
    const char *n0 = nm;
    size_t lv = strlen(sv);
    if (!strncasecmp(n0, sv, lv) && (n0[lv] == ' ' || n0[lv] == '-'))
        n0 += lv + 1;
    char nb[40], db[24], dv[24];
    cut(nb, n0, 28);
    /* the driver to its first space: "3625.0 (HSA1.1,LC)" -> "3625.0" */
    size_t dl = strcspn(report_or_empty(d->driver_version), " ");
    snprintf(dv, sizeof dv, "%.*s", (int)(dl < 23 ? dl : 23), report_or_empty(d->driver_version));
    cut(db, dv, 16);
    char out[160];
    if (*db)
        snprintf(out, sizeof out, "%s %s [%s]", sv, nb, db);
    else
        snprintf(out, sizeof out, "%s %s", sv, nb);
    return strdup(out);
}

static size_t find_or_add_device(loader *L, const json_t *dev, const json_t *prof, int *ok)
{
    report_merged *m = L->m;
    const char *vendor = report_or_empty(json_string_value(json_object_get(dev, "vendor")));
    const char *name = report_or_empty(json_string_value(json_object_get(dev, "name")));
    const char *driver = report_or_empty(json_string_value(json_object_get(dev, "driver_version")));
    for (size_t i = 0; i < m->n_devices; i++) {
        report_merge_device *d = &m->devices[i];
        if (!strcmp(d->vendor, vendor) && !strcmp(d->name, name) && !strcmp(d->driver_version, driver))
            return i;
    }
    if (!GROW(m->devices, m->n_devices, L->cap_devices)) {
        *ok = 0;
        return 0;
    }
    report_merge_device *d = &m->devices[m->n_devices];
    memset(d, 0, sizeof *d);
    d->vendor = strdup(vendor);
    d->name = strdup(name);
    d->driver_version = strdup(driver);
    d->platform = dup_or_null(json_string_value(json_object_get(dev, "platform")));
    d->platform_version = dup_or_null(json_string_value(json_object_get(dev, "platform_version")));
    d->device_version = dup_or_null(json_string_value(json_object_get(dev, "device_version")));
    d->type = dup_or_null(json_string_value(json_object_get(dev, "type")));
    d->board_name = dup_or_null(json_string_value(json_object_get(dev, "board_name")));
    const json_t *v;
    d->compute_units = json_is_integer(v = json_object_get(dev, "compute_units")) ? json_integer_value(v) : -1;
    d->clock_mhz = json_is_integer(v = json_object_get(dev, "clock_mhz")) ? json_integer_value(v) : -1;
    d->global_mem_bytes = json_is_integer(v = json_object_get(dev, "global_mem_bytes")) ? json_integer_value(v) : -1;
    d->profile = prof ? dup_or_null(json_string_value(json_object_get(prof, "name"))) : NULL;
#define PINT(f) d->f = prof && json_is_integer(v = json_object_get(prof, #f)) ? json_integer_value(v) : -1
    PINT(lanes);
    PINT(sector_bytes);
    PINT(line_bytes);
    PINT(banks);
    PINT(bank_width);
#undef PINT
    d->nominal_dram_gbs = d->nominal_fp32_gflops = NAN;
    d->seq_gbs = d->peak_read_gbs = d->peak_copy_gbs = NAN;
    d->label = make_label(d);
    if (!d->vendor || !d->name || !d->driver_version || !d->label) {
        *ok = 0;
        return 0;
    }
    /* labels stay unique: a second device with the same label gets "#2" */
    for (size_t i = 0, k = 2; i < m->n_devices; i++) {
        if (strcmp(m->devices[i].label, d->label) != 0)
            continue;
        char buf[200];
        snprintf(buf, sizeof buf, "%s #%zu", d->label, k++);
        free(d->label);
        if (!(d->label = strdup(buf))) {
            *ok = 0;
            return 0;
        }
        i = (size_t)-1; /* check the new label again */
    }
    return m->n_devices++;
}

typedef struct row_key {
    const report_merged *m;
    const char *pattern, *access;
} row_key;

static int row_eq(const void *ctx, size_t i)
{
    const row_key *k = ctx;
    return !strcmp(k->m->rows[i].pattern, k->pattern) && !strcmp(k->m->rows[i].access, k->access);
}

static uint64_t row_rehash(const void *ctx, size_t i)
{
    const report_merged *m = ((const row_key *)ctx)->m;
    return row_hash(m->rows[i].pattern, m->rows[i].access);
}

static size_t find_or_add_row(loader *L, const char *pattern, const char *family, const char *access,
                              const char *space, int *ok)
{
    report_merged *m = L->m;
    row_key key = { m, pattern, access };
    uint64_t h = row_hash(pattern, access);
    size_t found = idx_find(&L->rows_by_key, h, row_eq, &key);
    if (found != (size_t)-1)
        return found;
    if (!GROW(m->rows, m->n_rows, L->cap_rows)) {
        *ok = 0;
        return 0;
    }
    report_merge_row *r = &m->rows[m->n_rows];
    r->pattern = strdup(pattern);
    r->family = dup_or_null(family);
    r->access = strdup(access);
    r->space = strdup(space);
    if (!r->pattern || !r->access || !r->space || !idx_add(&L->rows_by_key, h, m->n_rows, row_rehash, &key)) {
        *ok = 0;
        return 0;
    }
    return m->n_rows++;
}

typedef struct entry_key {
    const report_merged *m;
    size_t row, device;
} entry_key;

static int entry_eq(const void *ctx, size_t i)
{
    const entry_key *k = ctx;
    return k->m->entries[i].row == k->row && k->m->entries[i].device == k->device;
}

static uint64_t entry_rehash(const void *ctx, size_t i)
{
    const report_merged *m = ((const entry_key *)ctx)->m;
    return entry_hash(m->entries[i].row, m->entries[i].device);
}

static report_merge_entry *find_or_add_entry(loader *L, size_t row, size_t device, int *ok)
{
    report_merged *m = L->m;
    entry_key key = { m, row, device };
    uint64_t h = entry_hash(row, device);
    size_t found = idx_find(&L->entries_by_key, h, entry_eq, &key);
    if (found != (size_t)-1)
        return &m->entries[found];
    size_t old = L->cap_entries;
    if (!GROW(m->entries, m->n_entries, L->cap_entries)) {
        *ok = 0;
        return NULL;
    }
    if (L->cap_entries != old) {
        size_t *p = realloc(L->cap_samples, L->cap_entries * sizeof *p);
        if (!p) {
            *ok = 0;
            return NULL;
        }
        L->cap_samples = p;
    }
    report_merge_entry *e = &m->entries[m->n_entries];
    memset(e, 0, sizeof *e);
    e->row = row;
    e->device = device;
    e->sector_efficiency = e->predicted_efficiency = NAN;
    e->conflict_ways = -1;
    e->elem_bytes = -1;
    e->local_gbs = e->relative_to_reference = NAN;
    L->cap_samples[m->n_entries] = 0;
    if (!idx_add(&L->entries_by_key, h, m->n_entries, entry_rehash, &key)) {
        *ok = 0;
        return NULL;
    }
    m->n_entries++;
    return e;
}

/* ---- one document ---- */

/* Checks a results document (or a journal assembled into one) completely
 * before anything is merged, so a bad file adds nothing. */
static void check_doc(chk *c, const json_t *root)
{
    if (!json_is_object(root)) {
        chk_fail(c, "the top level is %s, expected a bwlab results object", report_json_kind(root));
        return;
    }
    const char *schema = req_str(c, root, "top level", "schema");
    if (c->bad)
        return;
    if (strcmp(schema, REPORT_RESULTS_SCHEMA) != 0) {
        chk_fail(c, "schema is '%s', expected '%s' (a file written by bwlab run --format json) or '" REPORT_PROBE_SCHEMA "' (bwlab probe --format json)", schema,
                 REPORT_RESULTS_SCHEMA);
        return;
    }
    const json_t *ver = json_object_get(root, "schema_version");
    if (!ver) {
        chk_fail(c, "top level.schema_version is missing");
        return;
    }
    if (!json_is_integer(ver)) {
        chk_fail(c, "top level.schema_version is %s, expected an integer", report_json_kind(ver));
        return;
    }
    json_int_t v = json_integer_value(ver);
    if (v < 1) {
        chk_fail(c, "schema_version %lld is not a valid schema version (versions start at 1)", (long long)v);
        return;
    }
    if (v > REPORT_RESULTS_SCHEMA_VERSION) {
        chk_fail(c, "unknown schema_version %lld (this bwlab reads 1 to %d; a newer bwlab wrote it: compare with that version)",
                 (long long)v, REPORT_RESULTS_SCHEMA_VERSION);
        return;
    }
    const json_t *runs = json_object_get(root, "runs");
    if (!runs) {
        chk_fail(c, "top level.runs is missing");
        return;
    }
    if (!json_is_array(runs)) {
        chk_fail(c, "top level.runs is %s, expected an array", report_json_kind(runs));
        return;
    }
    const json_t *results = json_object_get(root, "results");
    if (!results) {
        chk_fail(c, "top level.results is missing");
        return;
    }
    if (!json_is_array(results)) {
        chk_fail(c, "top level.results is %s, expected an array", report_json_kind(results));
        return;
    }
    opt_str(c, root, "top level", "date");
    opt_bool(c, root, "top level", "interrupted");
    opt_obj(c, root, "top level", "host");
    opt_str(c, root, "top level", "note");
    char where[64];
    size_t i;
    const json_t *run;
    json_array_foreach(runs, i, run) {
        snprintf(where, sizeof where, "runs[%zu]", i);
        if (!json_is_object(run)) {
            chk_fail(c, "%s is %s, expected an object", where, report_json_kind(run));
            return;
        }
        const json_t *dev = json_object_get(run, "device");
        if (!dev || !json_is_object(dev)) {
            chk_fail(c, dev ? "%s.device is %s, expected an object" : "%s.device is missing%s", where,
                     dev ? report_json_kind(dev) : "");
            return;
        }
        char dw[80];
        snprintf(dw, sizeof dw, "%s.device", where);
        const json_t *idx = json_object_get(dev, "index");
        if (!idx || !json_is_integer(idx)) {
            chk_fail(c, idx ? "%s.index is %s, expected an integer" : "%s.index is missing%s", dw,
                     idx ? report_json_kind(idx) : "");
            return;
        }
        req_str(c, dev, dw, "name");
        opt_str(c, dev, dw, "vendor");
        opt_str(c, dev, dw, "driver_version");
        opt_str(c, dev, dw, "platform");
        opt_str(c, dev, dw, "board_name");
        opt_int(c, dev, dw, "compute_units");
        opt_str(c, run, where, "status");
        opt_str(c, run, where, "failure");
        opt_num(c, run, where, "peak_read_gbs");
        opt_num(c, run, where, "peak_copy_gbs");
        const json_t *prof = opt_obj(c, run, where, "profile");
        if (prof) {
            char pw[80];
            snprintf(pw, sizeof pw, "%s.profile", where);
            opt_str(c, prof, pw, "name");
            opt_int(c, prof, pw, "lanes");
            opt_int(c, prof, pw, "sector_bytes");
        }
        if (!c->bad && !report_merge_probe_check_run(run, where, c->msg, sizeof c->msg))
            c->bad = 1;
        const json_t *roof = opt_obj(c, run, where, "roofline");
        if (roof) {
            const json_t *pts = json_object_get(roof, "points");
            if (pts && !json_is_null(pts) && !json_is_array(pts))
                chk_fail(c, "%s.roofline.points is %s, expected an array", where, report_json_kind(pts));
        }
        if (c->bad)
            return;
    }
    if (json_array_size(results) == 0) {
        chk_fail(c, "no results (results[] is empty: the run measured nothing)");
        return;
    }
    const json_t *r;
    json_array_foreach(results, i, r) {
        snprintf(where, sizeof where, "results[%zu]", i);
        if (!json_is_object(r)) {
            chk_fail(c, "%s is %s, expected an object", where, report_json_kind(r));
            return;
        }
        const json_t *d = json_object_get(r, "device");
        if (!d || !json_is_integer(d)) {
            chk_fail(c, d ? "%s.device is %s, expected an integer" : "%s.device is missing%s", where,
                     d ? report_json_kind(d) : "");
            return;
        }
        int found = 0;
        size_t k;
        json_array_foreach(runs, k, run) {
            if (json_integer_value(json_object_get(json_object_get(run, "device"), "index")) == json_integer_value(d))
                found = 1;
        }
        if (!found) {
            chk_fail(c, "%s.device is %lld, which no runs[].device.index names", where,
                     (long long)json_integer_value(d));
            return;
        }
        req_str(c, r, where, "pattern");
        opt_str(c, r, where, "family");
        opt_str(c, r, where, "expression");
        opt_int(c, r, where, "elem_bytes");
        opt_str(c, r, where, "access"); /* its value: report_range_result, per row */
        opt_str(c, r, where, "space");
        opt_str(c, r, where, "status");
        opt_num(c, r, where, "effective_gbs");
        opt_num(c, r, where, "relative_to_seq");
        opt_num(c, r, where, "best_gbs");
        opt_num(c, r, where, "fraction_of_peak");
        opt_num(c, r, where, "local_gbs");
        opt_num(c, r, where, "relative_to_reference");
        opt_int(c, r, where, "conflict_ways");
        const json_t *mo = opt_obj(c, r, where, "model");
        if (mo) {
            char mw[80];
            snprintf(mw, sizeof mw, "%s.model", where);
            opt_num(c, mo, mw, "sector_efficiency");
            opt_num(c, mo, mw, "predicted_efficiency");
        }
        if (c->bad)
            return;
    }
}

static char *join_command_line(const json_t *a)
{
    if (!json_is_array(a))
        return NULL;
    size_t n = 1, i;
    const json_t *v;
    json_array_foreach(a, i, v) n += strlen(report_or_empty(json_string_value(v))) + 1;
    char *s = malloc(n);
    if (!s)
        return NULL;
    s[0] = 0;
    json_array_foreach(a, i, v) {
        if (i)
            strcat(s, " ");
        strcat(s, report_or_empty(json_string_value(v)));
    }
    return s;
}

static double num_or_nan(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str_of(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* ---- valid ranges (docs/results.md, "Valid ranges") ---- */

/* the first few figures or rows of a file out of range are named, the
 * rest counted (range_done) */
#define RANGE_NAMED 20

static void range_diag(loader *L, const char *file, const char *fmt, ...) BW_PRINTF(3, 4);
static void range_diag(loader *L, const char *file, const char *fmt, ...)
{
    if (L->out_of_range++ >= RANGE_NAMED)
        return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag(L, file, 1, "%s", buf);
}

/* after a file: how many out-of-range figures were not named */
static void range_done(loader *L, const char *file)
{
    if (L->out_of_range > RANGE_NAMED)
        diag(L, file, 1, "%zu more figures or rows out of range were left out (the first %d are named above)",
             L->out_of_range - RANGE_NAMED, RANGE_NAMED);
    L->out_of_range = 0;
}

/* Sets every figure of o (a copy the caller owns) that lies outside its
 * range to null, naming each: "WHERE: KEY is ..., outside its valid range
 * (...): left out". */
static void range_clear(loader *L, const char *file, const char *where, json_t *o, const report_range_field *f)
{
    char msg[512];
    for (; json_is_object(o) && f->key; f++) {
        if (report_range_check(o, f->key, f->kind, msg, sizeof msg))
            continue;
        range_diag(L, file, "%s: %s: left out", where, msg);
        json_object_set_new(o, f->key, json_null());
    }
}

/* Removes the elements of o[key] (an array of objects, in the copy the
 * caller owns) that hold a figure out of range, naming each. */
static void range_filter(loader *L, const char *file, const char *where, json_t *o, const char *key,
                         const report_range_field *f)
{
    json_t *a = json_object_get(o, key);
    if (!json_is_array(a))
        return;
    char msg[512];
    for (size_t i = 0, k = 0; i < json_array_size(a); k++) {
        const char *bad = report_range_fields(json_array_get(a, i), f, msg, sizeof msg);
        if (!bad) {
            i++;
            continue;
        }
        range_diag(L, file, "%s.%s[%zu]: %s: this point is left out", where, key, k, msg);
        json_array_remove(a, i);
    }
}

static int in_set(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (!strcmp(s, *set))
            return 1;
    return 0;
}

/* A string field of o outside its documented set is named and left out. */
static void range_word(loader *L, const char *file, const char *where, json_t *o, const char *key,
                       const char *const *set, const char *expect)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s || in_set(s, set))
        return;
    char q[256];
    range_diag(L, file, "%s: %s is '%s', expected %s: left out", where, key, report_range_name(s, q), expect);
    json_object_set_new(o, key, json_null());
}

/* A copy of a probe record's object (a probe devices[] entry, or a run
 * with --transfers) with every figure out of range left out, named. NULL
 * when out of memory. */
static json_t *probe_in_range(loader *L, const char *file, const char *where, const json_t *obj, int from_run)
{
    json_t *o = json_deep_copy(obj);
    if (!o)
        return NULL;
    static const char *const statuses[] = { "probed", "failed", NULL };
    static const char *const dirs[] = { "h2d", "d2h", NULL };
    static const char *const mems[] = { "pageable", "pinned", NULL };
    if (!from_run)
        range_word(L, file, where, o, "status", statuses, "\"probed\" or \"failed\"");
    range_clear(L, file, where, o, REPORT_RANGE_PROBE);
    range_filter(L, file, where, o, "cache_levels", REPORT_RANGE_LEVEL);
    range_filter(L, file, where, o, "ladder", REPORT_RANGE_LADDER);
    range_filter(L, file, where, o, "transfers", REPORT_RANGE_TRANSFER);
    json_t *mem = json_object_get(o, "memory");
    if (json_is_object(mem)) {
        char w[96];
        snprintf(w, sizeof w, "%s.memory", where);
        range_clear(L, file, w, mem, REPORT_RANGE_LEVEL);
    }
    json_t *tr = json_object_get(o, "transfers");
    size_t i;
    json_t *t;
    json_array_foreach(tr, i, t) {
        char w[96];
        snprintf(w, sizeof w, "%s.transfers[%zu]", where, i);
        range_word(L, file, w, t, "direction", dirs, "\"h2d\" or \"d2h\"");
        range_word(L, file, w, t, "memory", mems, "\"pageable\" or \"pinned\"");
    }
    return o;
}

/* Adds the probe figures of obj (a probe devices[] entry, or a run with
 * --transfers) for device di. 0 when out of memory. */
static int add_probe(loader *L, size_t di, const json_t *root, const json_t *obj, const char *file,
                     int file_index, int from_run)
{
    report_merged *m = L->m;
    if (!GROW(m->probes, m->n_probes, L->cap_probes))
        return 0;
    report_merge_probe *p = &m->probes[m->n_probes++];
    memset(p, 0, sizeof *p);
    p->device = di;
    p->file_index = file_index;
    p->from_run = from_run;
    p->file = strdup(file);
    p->date = dup_or_null(str_of(root, "date"));
    p->note = dup_or_null(str_of(root, "note"));
    char where[64];
    if (from_run)
        snprintf(where, sizeof where, "runs[%zu]", L->where_index);
    else
        snprintf(where, sizeof where, "devices[%zu]", L->where_index);
    json_t *ok = probe_in_range(L, file, where, obj, from_run);
    int filled = ok && p->file && report_merge_probe_fill(p, ok);
    json_decref(ok);
    return filled;
}

/* Merges a checked probe results document. 0 when out of memory. */
static int merge_probe_doc(loader *L, const json_t *root, const char *file, int file_index)
{
    int ok = 1;
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(root, "devices"), i, d) {
        const json_t *dev = json_object_get(d, "device");
        json_t *prof = json_deep_copy(json_object_get(dev, "profile"));
        L->where_index = i;
        char w[64];
        snprintf(w, sizeof w, "devices[%zu].device.profile", i);
        range_clear(L, file, w, prof, REPORT_RANGE_PROFILE);
        size_t di = find_or_add_device(L, dev, json_is_object(prof) ? prof : NULL, &ok);
        json_decref(prof);
        if (!ok || !add_probe(L, di, root, d, file, file_index, 0))
            return 0;
    }
    range_done(L, file);
    return 1;
}

/* Merges one run (a checked copy, figures in range) of a document. 0 when
 * out of memory. */
static int merge_run(loader *L, const json_t *root, const json_t *run, const json_t *prof, const char *file,
                     int file_index, int partial)
{
    report_merged *m = L->m;
    int ok = 1;
    const json_t *host = json_object_get(root, "host");
    {
        const json_t *dev = json_object_get(run, "device");
        size_t di = find_or_add_device(L, dev, json_is_object(prof) ? prof : NULL, &ok);
        if (!ok || !GROW(m->runs, m->n_runs, L->cap_runs))
            return 0;
        report_merge_run *r = &m->runs[m->n_runs++];
        memset(r, 0, sizeof *r);
        r->device = di;
        r->file = strdup(file);
        r->file_index = file_index;
        r->date = dup_or_null(str_of(root, "date"));
        r->host = dup_or_null(str_of(host, "name"));
        r->os = dup_or_null(str_of(host, "os"));
        r->tool_version = dup_or_null(str_of(json_object_get(root, "tool"), "version"));
        r->schema_version = json_integer_value(json_object_get(root, "schema_version"));
        r->command_line = join_command_line(json_object_get(root, "command_line"));
        r->note = dup_or_null(str_of(root, "note"));
        r->partial = partial;
        r->interrupted = json_is_true(json_object_get(root, "interrupted"));
        r->noisy = json_is_true(json_object_get(json_object_get(run, "noise"), "noisy"));
        r->status = dup_or_null(str_of(run, "status"));
        r->failure = dup_or_null(str_of(run, "failure"));
        r->peak_read_gbs = num_or_nan(run, "peak_read_gbs");
        r->peak_copy_gbs = num_or_nan(run, "peak_copy_gbs");
        r->roof_peak_gflops = r->roof_peak_gbs = r->roof_ridge_intensity = NAN;
        const json_t *roof = json_object_get(run, "roofline");
        const char *rs = str_of(roof, "status");
        if (json_is_object(roof) && (!rs || !strcmp(rs, "measured"))) {
            r->has_roofline = 1;
            r->roof_peak_gflops = num_or_nan(roof, "peak_gflops");
            r->roof_peak_gbs = num_or_nan(roof, "peak_gbs");
            r->roof_ridge_intensity = num_or_nan(roof, "ridge_intensity");
            const json_t *pts = json_object_get(roof, "points");
            size_t np = json_array_size(pts);
            if (np) {
                r->roof_points = calloc(np, sizeof *r->roof_points);
                if (!r->roof_points)
                    return 0;
                for (size_t k = 0; k < np; k++) {
                    const json_t *p = json_array_get(pts, k);
                    report_merge_roof_point *q = &r->roof_points[r->n_roof_points++];
                    q->intensity = num_or_nan(p, "intensity");
                    q->gflops = num_or_nan(p, "gflops");
                    q->gbs = num_or_nan(p, "gbs");
                    q->attainable_gflops = num_or_nan(p, "attainable_gflops");
                }
            }
        }
        m->devices[di].n_runs++;
        if (!r->file)
            return 0;
        if (report_merge_probe_run_has(run) && !add_probe(L, di, root, run, file, file_index, 1))
            return 0;
    }
    return 1;
}

/* The reference a result is divided by: its `reference`, else (a file
 * without it) the seq of its element size for a global pattern of the
 * gather families; NULL when there is none. buf holds 32 bytes. */
static const char *reference_of(const json_t *res, char *buf)
{
    const char *ref = str_of(res, "reference");
    if (ref || json_object_get(res, "reference"))
        return ref;
    const char *space = str_of(res, "space"), *fam = str_of(res, "family");
    if ((space && strcmp(space, "global") != 0) ||
        (fam && (!strcmp(fam, "bank") || !strcmp(fam, "transpose") || !strcmp(fam, "record"))))
        return NULL;
    const json_t *eb = json_object_get(res, "elem_bytes");
    if (!json_is_integer(eb) || json_integer_value(eb) == 4)
        return "seq";
    snprintf(buf, 32, "seq:elem=%lld", (long long)json_integer_value(eb));
    return buf;
}

/* A journal's result lines may leave relative_to_seq (and
 * relative_to_reference) null: the final document fills them once every
 * reference is measured. Each is worked out here from the journal's own
 * reference row of the same run, device and access mode, when that row
 * was measured: effective_gbs / the reference's (measured). went[2i],
 * went[2i+1]: the entry and sample of results[i], or SIZE_MAX. */
static void journal_relatives(loader *L, const json_t *results, const size_t *went)
{
    report_merged *m = L->m;
    size_t i;
    const json_t *res;
    json_array_foreach(results, i, res) {
        if (went[2 * i] == SIZE_MAX)
            continue;
        report_merge_entry *e = &m->entries[went[2 * i]];
        report_merge_sample *s = &e->samples[went[2 * i + 1]];
        if (!report_merge_not_nan(s->effective_gbs) || report_merge_not_nan(s->relative_to_seq))
            continue;
        char buf[32];
        const char *ref = reference_of(res, buf);
        if (!ref)
            continue;
        row_key key = { m, ref, m->rows[e->row].access };
        size_t row = idx_find(&L->rows_by_key, row_hash(ref, key.access), row_eq, &key);
        if (row == (size_t)-1)
            continue;
        entry_key ek = { m, row, e->device };
        size_t ri = idx_find(&L->entries_by_key, entry_hash(row, e->device), entry_eq, &ek);
        if (ri == (size_t)-1)
            continue;
        const report_merge_entry *re = &m->entries[ri];
        for (size_t k = 0; k < re->n_samples; k++) {
            const report_merge_sample *rs = &re->samples[k];
            if (rs->run != s->run || !report_merge_not_nan(rs->effective_gbs))
                continue;
            double rel = s->effective_gbs / rs->effective_gbs;
            if (!report_range_ok(REPORT_RANGE_RATIO, rel))
                break;
            s->relative_to_seq = rel;
            if (json_is_null(json_object_get(res, "relative_to_reference")) && !report_merge_not_nan(e->relative_to_reference))
                e->relative_to_reference = rel;
            break;
        }
    }
}

/* Merges the results[] of a checked document whose runs are
 * m->runs[first_run...]: a row out of its valid range is named and left
 * out; a row of a status other than "ok" is never compared as measured.
 * In a journal, a relative_to_seq left null is worked out from the
 * journal's own reference rows. 0 when out of memory. */
static int merge_results(loader *L, const json_t *root, const char *file, size_t first_run, int partial)
{
    report_merged *m = L->m;
    int ok = 1;
    const json_t *runs = json_object_get(root, "runs");
    size_t nr = json_array_size(runs);
    const json_t *results = json_object_get(root, "results");
    size_t nres = json_array_size(results);
    /* where each result went: entry and sample index, or SIZE_MAX */
    size_t *went = partial ? malloc((nres ? nres : 1) * 2 * sizeof *went) : NULL;
    if (partial && !went)
        return 0;
    size_t i;
    const json_t *res;
    json_array_foreach(results, i, res) {
        if (went)
            went[2 * i] = SIZE_MAX;
        char msg[512], q[256];
        if (!report_range_result(res, msg, sizeof msg)) {
            range_diag(L, file, "results[%zu] (pattern '%s'): %s: the row is left out", i,
                       report_range_name(str_of(res, "pattern"), q), msg);
            continue;
        }
        const char *st = str_of(res, "status");
        int measured = !st || !strcmp(st, "ok");
        const char *fig = measured ? NULL : report_range_unmeasured_figure(res);
        if (fig)
            range_diag(L, file,
                       "results[%zu] (pattern '%s'): status '%s' with %s %.17g: only a row of status \"ok\" has "
                       "measured figures; it is shown as %s and its figures are left out",
                       i, report_range_name(str_of(res, "pattern"), q), st, fig,
                       json_number_value(json_object_get(res, fig)), st);
        json_int_t idx = json_integer_value(json_object_get(res, "device"));
        size_t run = first_run;
        for (size_t k = 0; k < nr; k++)
            if (json_integer_value(json_object_get(json_object_get(json_array_get(runs, k), "device"), "index")) == idx)
                run = first_run + k;
        const char *acc = str_of(res, "access");
        const char *space = str_of(res, "space");
        size_t row = find_or_add_row(L, str_of(res, "pattern"), str_of(res, "family"), acc ? acc : "copy",
                                     space ? space : "global", &ok);
        if (!ok)
            return 0;
        report_merge_entry *e = find_or_add_entry(L, row, m->runs[run].device, &ok);
        if (!ok) {
            free(went);
            return 0;
        }
        size_t ei = (size_t)(e - m->entries);
        if (!GROW(e->samples, e->n_samples, L->cap_samples[ei])) {
            free(went);
            return 0;
        }
        if (went) {
            went[2 * i] = ei;
            went[2 * i + 1] = e->n_samples;
        }
        report_merge_sample *s = &e->samples[e->n_samples++];
        s->run = run;
        s->status = dup_or_null(str_of(res, "status"));
        s->effective_gbs = measured ? num_or_nan(res, "effective_gbs") : NAN;
        s->relative_to_seq = measured ? num_or_nan(res, "relative_to_seq") : NAN;
        s->best_gbs = measured ? num_or_nan(res, "best_gbs") : NAN;
        s->fraction_of_peak = measured ? num_or_nan(res, "fraction_of_peak") : NAN;
        const json_t *mo = json_object_get(res, "model");
        /* modeled figures and the bank figures: the first file's */
        if (isnan(e->sector_efficiency))
            e->sector_efficiency = num_or_nan(mo, "sector_efficiency");
        if (isnan(e->predicted_efficiency))
            e->predicted_efficiency = num_or_nan(mo, "predicted_efficiency");
        if (!e->expression && str_of(res, "expression") && !(e->expression = strdup(str_of(res, "expression")))) {
            free(went);
            return 0;
        }
        const json_t *eb = json_object_get(res, "elem_bytes");
        if (e->elem_bytes < 0 && json_is_integer(eb))
            e->elem_bytes = json_integer_value(eb);
        const json_t *cw = json_object_get(res, "conflict_ways");
        if (e->conflict_ways < 0 && json_is_integer(cw))
            e->conflict_ways = json_integer_value(cw);
        if (isnan(e->local_gbs) && measured)
            e->local_gbs = num_or_nan(res, "local_gbs");
        if (isnan(e->relative_to_reference) && measured)
            e->relative_to_reference = num_or_nan(res, "relative_to_reference");
    }
    if (went)
        journal_relatives(L, results, went);
    free(went);
    return ok;
}

/* Merges a checked document. 0 when out of memory. */
static int merge_doc(loader *L, const json_t *root, const char *file, int file_index, int partial)
{
    const json_t *runs = json_object_get(root, "runs");
    size_t nr = json_array_size(runs);
    size_t first_run = L->m->n_runs;
    for (size_t i = 0; i < nr; i++) {
        /* a copy whose figures out of range are null, each named */
        json_t *run = json_deep_copy(json_array_get(runs, i));
        if (!run)
            return 0;
        char where[64];
        snprintf(where, sizeof where, "runs[%zu]", i);
        range_clear(L, file, where, run, REPORT_RANGE_RUN);
        json_t *prof = json_object_get(run, "profile");
        if (!json_is_object(prof))
            prof = json_object_get(json_object_get(run, "device"), "profile");
        char pw[96];
        snprintf(pw, sizeof pw, "%s.profile", where);
        range_clear(L, file, pw, prof, REPORT_RANGE_PROFILE);
        json_t *rf = json_object_get(run, "roofline");
        if (json_is_object(rf)) {
            snprintf(pw, sizeof pw, "%s.roofline", where);
            range_clear(L, file, pw, rf, REPORT_RANGE_ROOFLINE);
            range_filter(L, file, pw, rf, "points", REPORT_RANGE_ROOF_POINT);
        }
        L->where_index = i;
        int merged = merge_run(L, root, run, prof, file, file_index, partial);
        json_decref(run);
        if (!merged)
            return 0;
    }
    int merged = merge_results(L, root, file, first_run, partial);
    range_done(L, file);
    return merged;
}

/* ---- reading files ---- */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* OUT.partial, or OUT.partial.N: a journal an earlier run kept aside
 * (bwlab run moves a stale journal to a new name rather than delete it) */
static int journal_name(const char *s)
{
    if (ends_with(s, ".partial"))
        return 1;
    const char *dot = strrchr(s, '.');
    if (!dot || !dot[1] || dot - s < 8 || strncmp(dot - 8, ".partial", 8))
        return 0;
    for (const char *q = dot + 1; *q; q++)
        if (*q < '0' || *q > '9')
            return 0;
    return 1;
}

/* A journal (bwlab run's OUT.partial, results.md): the head of the results
 * document on the first line (with `devices`, the planned devices' objects,
 * or `runs`), then one result object per line. Assembled into a results document (*doc). A last line
 * cut short (the run stopped while writing it) is dropped with a note;
 * any other bad line rejects the file. */
static json_t *journal_doc(loader *L, const char *path, const char *text, chk *c)
{
    json_t *doc = NULL, *results = json_array();
    const char *p = text;
    size_t line = 0;
    while (*p && !c->bad) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        int blank = 1;
        for (size_t i = 0; i < n; i++)
            if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                blank = 0;
        if (!blank) {
            json_error_t je;
            json_t *v = json_loadb(p, n, 0, &je);
            if (!v) {
                if (!nl && doc)
                    diag(L, path, 0, "partial journal: line %zu is cut short (the run stopped while writing it), ignored",
                         line);
                else
                    chk_fail(c, "line %zu is not valid JSON: %s (a journal holds one JSON object per line)", line,
                             je.text);
            } else if (!doc) {
                doc = v;
            } else if (json_array_append_new(results, v) != 0) {
                chk_fail(c, "out of memory");
            }
        }
        p += n + (nl ? 1 : 0);
    }
    if (!doc && !c->bad)
        chk_fail(c, "empty journal (no run header line)");
    if (c->bad) {
        json_decref(doc);
        json_decref(results);
        return NULL;
    }
    if (!json_is_object(doc)) {
        chk_fail(c, "line 1 is %s, expected the run header object", report_json_kind(doc));
        json_decref(doc);
        json_decref(results);
        return NULL;
    }
    /* bwlab run's journal head lists the planned devices ("devices": the
     * runs[].device objects) where a document has runs[] */
    const json_t *devs = json_object_get(doc, "devices");
    if (!json_object_get(doc, "runs") && json_is_array(devs)) {
        json_t *runs = json_array();
        size_t i;
        const json_t *d;
        json_array_foreach(devs, i, d) {
            json_t *run = json_object();
            json_object_set(run, "device", (json_t *)d);
            json_array_append_new(runs, run);
        }
        json_object_set_new(doc, "runs", runs);
    }
    json_object_set_new(doc, "results", results);
    return doc;
}

static void load_root(loader *L, const char *path, json_t *root, chk *c, int partial, uint64_t h, size_t len);

static void read_file(loader *L, const char *path)
{
    report_merged *m = L->m;
    char *text = NULL;
    size_t len = 0;
    bw_error err = BW_ERROR_INIT;
    if (bw_file_read_regular(path, &text, &len, &err) != BW_OK) {
        diag(L, path, 1, "cannot be read: %s", bw_error_text(&err));
        bw_error_clear(&err);
        return;
    }
    size_t blank = 0;
    while (blank < len && (text[blank] == ' ' || text[blank] == '\n' || text[blank] == '\t' || text[blank] == '\r'))
        blank++;
    if (blank == len) {
        diag(L, path, 1, "empty file (no results: was the run stopped before it wrote them?)");
        free(text);
        return;
    }
    uint64_t h = fnv1a(text, len);
    for (size_t i = 0; i < m->n_files; i++) {
        if (L->hash[i] == h && L->len[i] == len) {
            m->files[i].duplicates++;
            diag(L, path, 0, "identical to %s: counted once", m->files[i].path);
            free(text);
            return;
        }
    }
    int partial = journal_name(path);
    chk c = { { 0 }, 0 };
    json_t *root = NULL;
    if (partial) {
        root = journal_doc(L, path, text, &c);
    } else {
        json_error_t je;
        root = json_loadb(text, len, 0, &je);
        if (!root)
            chk_fail(&c, "invalid JSON at line %d, column %d: %s", je.line, je.column, je.text);
    }
    free(text);
    load_root(L, path, root, &c, partial, h, len);
}

/* A parsed document (root, consumed; c holds why it did not parse)
 * checked and merged as the file `path`; h and len identify its bytes
 * for the duplicate test. */
static void load_root(loader *L, const char *path, json_t *root, chk *c, int partial, uint64_t h, size_t len)
{
    report_merged *m = L->m;
    /* a bwlab probe results file, beside run results */
    int probe = !c->bad && !partial && json_is_object(root) &&
                json_is_string(json_object_get(root, "schema")) &&
                !strcmp(json_string_value(json_object_get(root, "schema")), REPORT_PROBE_SCHEMA);
    if (probe) {
        if (!report_merge_probe_check_doc(root, c->msg, sizeof c->msg))
            c->bad = 1;
    } else if (!c->bad) {
        check_doc(c, root);
    }
    if (c->bad) {
        diag(L, path, 1, "%s%s", partial ? "partial journal: " : "", c->msg);
        json_decref(root);
        return;
    }
    /* a document assembled from a journal says so itself */
    if (json_is_true(json_object_get(root, "partial")))
        partial = 1;
    size_t cap = L->cap_files;
    if (!GROW(m->files, m->n_files, L->cap_files)) {
        L->nomem = 1;
        json_decref(root);
        return;
    }
    if (cap != L->cap_files) {
        uint64_t *nh = realloc(L->hash, L->cap_files * sizeof *nh);
        if (nh)
            L->hash = nh;
        size_t *nl = realloc(L->len, L->cap_files * sizeof *nl);
        if (nl)
            L->len = nl;
        if (!nh || !nl) {
            L->nomem = 1;
            json_decref(root);
            return;
        }
    }
    size_t fi = m->n_files;
    m->files[fi].path = strdup(path);
    m->files[fi].partial = partial;
    m->files[fi].duplicates = 0;
    L->hash[fi] = h;
    L->len[fi] = len;
    m->n_files++;
    if (!m->files[fi].path ||
        !(probe ? merge_probe_doc(L, root, path, (int)fi) : merge_doc(L, root, path, (int)fi, partial)))
        L->nomem = 1;
    if (partial)
        diag(L, path, 0, "partial: %zu results of a run that did not finish", json_array_size(json_object_get(root, "results")));
    json_decref(root);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the directory scan ---- */

/* A set of files by device and inode: a directory reached again (a link
 * back: `a -> .`) is not read again, and a file reached by a second name
 * (a link, a hard link, a path given twice) is read once. Open
 * addressing; pos is the first path's index + 1 (0: empty). */
typedef struct inode_ent {
    dev_t dev;
    ino_t ino;
    size_t pos;
} inode_ent;

typedef struct inode_set {
    inode_ent *e;
    size_t cap, n; /* cap: a power of two, or 0 */
} inode_set;

static size_t inode_slot(const inode_set *s, dev_t dev, ino_t ino)
{
    size_t i = (size_t)mix64((uint64_t)dev * 0x9E3779B97F4A7C15ULL ^ (uint64_t)ino) & (s->cap - 1);
    while (s->e[i].pos && !(s->e[i].dev == dev && s->e[i].ino == ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* the position + 1 of the first path with this file, else 0 after
 * adding it at pos (or -1: out of memory) */
static long long inode_add(inode_set *s, dev_t dev, ino_t ino, size_t pos)
{
    if (s->cap) {
        size_t i = inode_slot(s, dev, ino);
        if (s->e[i].pos)
            return (long long)s->e[i].pos;
    }
    if ((s->n + 1) * 2 > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        inode_ent *ne = calloc(nc, sizeof *ne);
        if (!ne)
            return -1;
        inode_set t = { ne, nc, 0 };
        for (size_t k = 0; k < s->cap; k++)
            if (s->e[k].pos)
                ne[inode_slot(&t, s->e[k].dev, s->e[k].ino)] = s->e[k];
        free(s->e);
        s->e = ne;
        s->cap = nc;
    }
    size_t i = inode_slot(s, dev, ino);
    s->e[i].dev = dev;
    s->e[i].ino = ino;
    s->e[i].pos = pos + 1;
    s->n++;
    return 0;
}

/* the entries a directory scan names on stderr before it sums up the rest */
#define SCAN_NAMED_SKIPS 5

/* One file to read, found before any is read (so that an output that is
 * one of them is refused first). */
typedef struct scan_item {
    char *path;
    dev_t dev;
    ino_t ino;
} scan_item;

typedef struct scan {
    loader *L;
    scan_item *items;
    size_t n, cap;
    inode_set files, dirs;
    size_t named, more; /* skipped entries named, and past those */
} scan;

static void skip_note(scan *S, const char *path, const char *fmt, ...) BW_PRINTF(3, 4);
static void skip_note(scan *S, const char *path, const char *fmt, ...)
{
    if (S->named >= SCAN_NAMED_SKIPS) {
        S->more++;
        return;
    }
    S->named++;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag(S->L, path, 0, "%s", buf);
}

/* adds a regular file to read, or notes that it is one already listed */
static void scan_add(scan *S, const char *path, const struct stat *st)
{
    long long first = inode_add(&S->files, st->st_dev, st->st_ino, S->n);
    if (first < 0) {
        S->L->nomem = 1;
        return;
    }
    if (first > 0) {
        skip_note(S, path, "the same file as %s (a link or a second name): read once",
                  S->items[first - 1].path);
        return;
    }
    if (!GROW(S->items, S->n, S->cap) || !(S->items[S->n].path = strdup(path))) {
        S->L->nomem = 1;
        return;
    }
    S->items[S->n].dev = st->st_dev;
    S->items[S->n].ino = st->st_ino;
    S->n++;
}

/* Every *.json, *.partial and *.partial.N under dir (whose stat is st), in
 * name order, depth first; the number of result files found. Links are
 * followed, but a directory already scanned (by device and inode) is not
 * entered again, so `a -> .` ends; only regular files are listed: FIFOs,
 * sockets, devices and dangling links are named and skipped, never
 * opened. */
static size_t scan_dir(scan *S, const char *dir, const struct stat *dst, int depth)
{
    loader *L = S->L;
    long long seen = inode_add(&S->dirs, dst->st_dev, dst->st_ino, 0);
    if (seen < 0) {
        L->nomem = 1;
        return 0;
    }
    if (seen > 0) {
        skip_note(S, dir, "skipped: a link to a directory already read (a loop or a second name)");
        return 0;
    }
    if (depth >= 32) {
        skip_note(S, dir, "skipped: more than 32 directories deep");
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        diag(L, dir, 1, "cannot be read: %s", strerror(errno));
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0, found = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (!GROW(names, n, cap) || !(names[n] = strdup(de->d_name))) {
            L->nomem = 1;
            break;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && !L->nomem; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(pl);
        if (!p) {
            L->nomem = 1;
            break;
        }
        snprintf(p, pl, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names[i]);
        struct stat st, lst;
        int result_name = ends_with(p, ".json") || journal_name(p);
        if (lstat(p, &lst) != 0) {
            skip_note(S, p, "skipped: cannot be examined: %s", strerror(errno));
        } else if (S_ISLNK(lst.st_mode) && stat(p, &st) != 0) {
            skip_note(S, p, "skipped: a dangling link (%s)", strerror(errno));
        } else {
            if (!S_ISLNK(lst.st_mode))
                st = lst;
            if (S_ISDIR(st.st_mode)) {
                found += scan_dir(S, p, &st, depth + 1);
            } else if (!S_ISREG(st.st_mode)) {
                skip_note(S, p, "skipped: %s, not a regular file (only regular files are read)",
                          bw_file_kind(st.st_mode));
            } else if (result_name) {
                scan_add(S, p, &st);
                found++;
            }
        }
        free(p);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return found;
}

/* the index of the item that is `output`'s file, or -1 */
static long long output_input(const scan *S, const char *output)
{
    struct stat st;
    if (!output || !*output || !strcmp(output, "-") || stat(output, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    for (size_t i = 0; i < S->n; i++)
        if (S->items[i].dev == st.st_dev && S->items[i].ino == st.st_ino)
            return (long long)i;
    return -1;
}

/* ---- the figures ---- */

/* median, min and max of the values that are not NAN */
static void stats(const double *v, size_t n, double *med, double *lo, double *hi, size_t *count)
{
    double buf[64], *s = n <= 64 ? buf : malloc(n * sizeof *s);
    size_t k = 0;
    for (size_t i = 0; s && i < n; i++)
        if (!isnan(v[i]))
            s[k++] = v[i];
    *med = *lo = *hi = NAN;
    if (count)
        *count = k;
    if (k) {
        *med = bw_median(s, k); /* sorts s */
        *lo = s[0];
        *hi = s[k - 1];
    }
    if (s != buf)
        free(s);
}

static int cmp_entry(const void *a, const void *b)
{
    const report_merge_entry *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->device < y->device ? -1 : x->device > y->device;
}

static int finish(report_merged *m)
{
    if (m->n_entries)
        qsort(m->entries, m->n_entries, sizeof *m->entries, cmp_entry);
    for (size_t i = 0; i < m->n_entries; i++) {
        report_merge_entry *e = &m->entries[i];
        double *a = malloc((e->n_samples + 1) * 2 * sizeof *a);
        if (!a)
            return 0;
        for (size_t k = 0; k < e->n_samples; k++) {
            a[k] = e->samples[k].effective_gbs;
            a[e->n_samples + k] = e->samples[k].relative_to_seq;
        }
        stats(a, e->n_samples, &e->effective_gbs, &e->effective_min, &e->effective_max, &e->n_measured);
        stats(a + e->n_samples, e->n_samples, &e->relative_to_seq, &e->relative_min, &e->relative_max, NULL);
        free(a);
        e->relative_to_baseline = NAN;
    }
    for (size_t d = 0; d < m->n_devices; d++) {
        report_merge_device *dv = &m->devices[d];
        /* seq: copy mode (loads + stores, as DRAM streams), else read */
        for (int pass = 0; pass < 2 && isnan(dv->seq_gbs); pass++)
            for (size_t r = 0; r < m->n_rows; r++)
                if (!strcmp(m->rows[r].pattern, "seq") && !strcmp(m->rows[r].access, pass ? "read" : "copy")) {
                    const report_merge_entry *e = report_merged_entry(m, r, d);
                    if (e)
                        dv->seq_gbs = e->effective_gbs;
                }
        for (size_t r = 0; r < m->n_runs; r++) {
            if (m->runs[r].device != d)
                continue;
            double pr = m->runs[r].peak_read_gbs, pc = m->runs[r].peak_copy_gbs;
            if (!isnan(pr) && (isnan(dv->peak_read_gbs) || pr > dv->peak_read_gbs))
                dv->peak_read_gbs = pr;
            if (!isnan(pc) && (isnan(dv->peak_copy_gbs) || pc > dv->peak_copy_gbs))
                dv->peak_copy_gbs = pc;
        }
    }
    return 1;
}

/* Frees the loader's indexes and finishes the merge of n inputs: *out,
 * or the first failure (rc, then out of memory, then no results). */
static bw_code loader_end(loader *L, bw_code rc, size_t n, report_merged **out, bw_error *err)
{
    free(L->hash);
    free(L->len);
    free(L->cap_samples);
    free(L->rows_by_key.slot);
    free(L->entries_by_key.slot);
    if (rc != BW_OK) {
        report_merged_free(L->m);
        return rc;
    }
    if (L->nomem || !finish(L->m)) {
        report_merged_free(L->m);
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading result files");
    }
    *out = L->m;
    if (L->m->n_entries == 0 && L->m->n_probes == 0)
        return bw_error_set(err, BW_E_FORMAT, "no results to compare: none of the %zu input%s could be read", n,
                            n == 1 ? "" : "s");
    return BW_OK;
}

bw_code report_load_paths(const char *const *paths, size_t n, report_merged **out, bw_error *err)
{
    return report_load_paths_opts(paths, n, NULL, out, err);
}

bw_code report_load_paths_opts(const char *const *paths, size_t n, const report_load_opts *opts,
                               report_merged **out, bw_error *err)
{
    *out = NULL;
    loader L;
    memset(&L, 0, sizeof L);
    L.m = calloc(1, sizeof *L.m);
    /* per path: its first item, and (directories) how many were found */
    size_t *first = calloc(n + 1, sizeof *first), *found = calloc(n + 1, sizeof *found);
    int *is_dir = calloc(n + 1, sizeof *is_dir);
    scan S;
    memset(&S, 0, sizeof S);
    S.L = &L;
    bw_code rc = BW_OK;
    if (!L.m || !first || !found || !is_dir) {
        L.nomem = 1;
        goto done;
    }
    L.m->baseline = -1;
    /* 1: list every file to read; nothing is read yet */
    for (size_t i = 0; i < n && !L.nomem; i++) {
        first[i] = S.n;
        S.named = S.more = 0;
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            diag(&L, paths[i], 1, "cannot be read: %s", strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            is_dir[i] = 1;
            found[i] = scan_dir(&S, paths[i], &st, 0);
        } else if (S_ISREG(st.st_mode)) {
            scan_add(&S, paths[i], &st);
        } else {
            /* named on the command line: an error, never opened (a FIFO would block) */
            diag(&L, paths[i], 1, "%s, not a result file (name a regular file or a directory of them)",
                 bw_file_kind(st.st_mode));
        }
        if (S.more)
            diag(&L, paths[i], 0, "%zu more entr%s skipped (not regular files, dangling links, links to a "
                                  "directory already read, or files already read): only the first %d are named",
                 S.more, S.more == 1 ? "y" : "ies", SCAN_NAMED_SKIPS);
    }
    first[n] = S.n;
    /* 2: an output that is one of the inputs would replace what is read */
    for (size_t o = 0; opts && o < opts->n_outputs && !L.nomem; o++) {
        long long k = output_input(&S, opts->outputs[o]);
        if (k >= 0) {
            const char *flag = opts->output_flags && opts->output_flags[o] ? opts->output_flags[o] : "--output";
            if (!strcmp(S.items[k].path, opts->outputs[o]))
                rc = bw_error_set(err, BW_E_USAGE, "%s: '%s' is also an input: writing it would replace the "
                                                   "results it holds (choose another output file)",
                                  flag, opts->outputs[o]);
            else
                rc = bw_error_set(err, BW_E_USAGE, "%s: '%s' is the input '%s' (the same file): writing it "
                                                   "would replace the results it holds (choose another output file)",
                                  flag, opts->outputs[o], S.items[k].path);
            goto done;
        }
    }
    /* 3: read them, in order */
    for (size_t i = 0; i < n && !L.nomem; i++) {
        size_t before = L.m->n_files;
        for (size_t k = first[i]; k < first[i + 1] && !L.nomem; k++)
            read_file(&L, S.items[k].path);
        if (!is_dir[i])
            continue;
        if (found[i] == 0)
            diag(&L, paths[i], 1, "directory without results (no *.json or *.partial file in it or below it)");
        else if (L.m->n_files == before)
            /* each of its files is named already */
            diag(&L, paths[i], 0, "no file in this directory could be compared");
    }
done:
    for (size_t i = 0; i < S.n; i++)
        free(S.items[i].path);
    free(S.items);
    free(S.files.e);
    free(S.dirs.e);
    free(first);
    free(found);
    free(is_dir);
    return loader_end(&L, rc, n, out, err);
}

bw_code report_load_doc(const json_t *doc, const char *name, report_merged **out, bw_error *err)
{
    *out = NULL;
    loader L;
    memset(&L, 0, sizeof L);
    L.m = calloc(1, sizeof *L.m);
    if (!L.m) {
        L.nomem = 1;
        return loader_end(&L, BW_OK, 1, out, err);
    }
    L.m->baseline = -1;
    /* the merge clears out-of-range figures in place: the caller's
     * document stays as it was */
    json_t *root = json_deep_copy(doc);
    chk c = { { 0 }, 0 };
    if (!root)
        L.nomem = 1;
    else
        load_root(&L, name, root, &c, 0, 0, 0);
    return loader_end(&L, BW_OK, 1, out, err);
}

const report_merge_entry *report_merged_entry(const report_merged *m, size_t row, size_t device)
{
    /* entries are sorted by row, then device */
    size_t lo = 0, hi = m->n_entries;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const report_merge_entry *e = &m->entries[mid];
        if (e->row < row || (e->row == row && e->device < device))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->n_entries && m->entries[lo].row == row && m->entries[lo].device == device)
        return &m->entries[lo];
    return NULL;
}

static int icontains(const char *hay, const char *needle)
{
    if (!hay)
        return 0;
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return 0;
}

bw_code report_merge_set_baseline(report_merged *m, const char *spec, bw_error *err)
{
    int found = -1, count = 0;
    for (size_t d = 0; d < m->n_devices; d++)
        if (!strcmp(m->devices[d].label, spec)) {
            found = (int)d;
            count = 1;
        }
    if (count == 0) {
        for (size_t d = 0; d < m->n_devices; d++) {
            const report_merge_device *dv = &m->devices[d];
            if (icontains(dv->label, spec) || icontains(dv->name, spec) || icontains(dv->vendor, spec) ||
                icontains(dv->board_name, spec)) {
                found = (int)d;
                count++;
            }
        }
    }
    if (count != 1) {
        bw_buf b = BW_BUF_INIT;
        for (size_t d = 0; d < m->n_devices; d++)
            bw_buf_printf(&b, "%s'%s'", d ? ", " : "", m->devices[d].label);
        bw_code rc = bw_error_set(err, BW_E_USAGE, "--baseline '%s' %s (the devices: %s; give a longer part of one's name)",
                                  spec, count ? "matches more than one device" : "matches no device",
                                  bw_buf_str(&b));
        bw_buf_free(&b);
        return rc;
    }
    m->baseline = found;
    for (size_t i = 0; i < m->n_entries; i++) {
        report_merge_entry *e = &m->entries[i];
        const report_merge_entry *b = report_merged_entry(m, e->row, (size_t)found);
        double rel = b && b->effective_gbs > 0 && !isnan(e->effective_gbs) ? e->effective_gbs / b->effective_gbs
                                                                             : NAN;
        /* a division that leaves the doubles (an overflow, a zero) is no figure */
        e->relative_to_baseline = isfinite(rel) && rel > 0 ? rel : NAN;
    }
    return BW_OK;
}

void report_merged_free(report_merged *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_files; i++)
        free(m->files[i].path);
    for (size_t i = 0; i < m->n_devices; i++) {
        report_merge_device *d = &m->devices[i];
        free(d->vendor);
        free(d->name);
        free(d->driver_version);
        free(d->platform);
        free(d->platform_version);
        free(d->device_version);
        free(d->type);
        free(d->board_name);
        free(d->label);
        free(d->profile);
        free(d->nominal_name);
        free(d->nominal_dram_source);
        free(d->nominal_fp32_source);
    }
    for (size_t i = 0; i < m->n_runs; i++) {
        report_merge_run *r = &m->runs[i];
        free(r->file);
        free(r->date);
        free(r->host);
        free(r->os);
        free(r->tool_version);
        free(r->command_line);
        free(r->note);
        free(r->status);
        free(r->failure);
        free(r->roof_points);
    }
    for (size_t i = 0; i < m->n_rows; i++) {
        free(m->rows[i].pattern);
        free(m->rows[i].family);
        free(m->rows[i].access);
        free(m->rows[i].space);
    }
    for (size_t i = 0; i < m->n_entries; i++) {
        for (size_t k = 0; k < m->entries[i].n_samples; k++)
            free(m->entries[i].samples[k].status);
        free(m->entries[i].samples);
        free(m->entries[i].expression);
    }
    for (size_t i = 0; i < m->n_probes; i++)
        report_merge_probe_clear(&m->probes[i]);
    free(m->probes);
    for (size_t i = 0; i < m->n_diags; i++) {
        free(m->diags[i].file);
        free(m->diags[i].message);
    }
    free(m->files);
    free(m->devices);
    free(m->runs);
    free(m->rows);
    free(m->entries);
    free(m->diags);
    free(m);
}
