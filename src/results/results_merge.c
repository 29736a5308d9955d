/* results_merge: the merge of checked documents into one results_merged
 * (results_merge.h): device identity and labels, the row and entry
 * indexes, valid ranges applied on reading, the aggregation of repeats
 * (median, min, max), the baseline. results_merge_load.c reads the files
 * and calls in here; the loader it fills is shared through
 * results_merge_loader.h. */
#include "results_merge.h"
#include "results_roofline_keys.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bw_stats.h"
#include "model_pattern.h"
#include "results_fields.h"
#include "bw_buf.h"
#include "results_json.h"
#include "results_merge_loader.h"
#include "results_merge_probe.h"
#include "results_probe_fields.h"
#include "results_merge_range.h"
#include "results_peer_match.h"
#include "results_run_fields.h"
#include "results_schema.h"
#include "results_doc_keys_priv.h"
#include "results_merge_range_priv.h"
#include "results_peer_match_priv.h"

/* ---- small helpers ---- */

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* Makes room for one more element of size sz in *arr (count n, capacity
 * *cap); 0 when out of memory. */
int results_loader_grow(void **arr, size_t n, size_t *cap, size_t sz)
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

/* ---- the merge under construction ---- */

uint64_t results_loader_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void results_loader_diag(loader *L, const char *file, int is_error, const char *fmt, ...)
{
    results_merged *m = L->m;
    if (!GROW(m->diags, m->n_diags, L->cap_diags)) {
        L->nomem = 1;
        return;
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    results_merge_diag *d = &m->diags[m->n_diags];
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

uint64_t results_loader_fnv1a(const char *s, size_t n)
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
    return results_loader_mix64(results_loader_fnv1a(pattern, strlen(pattern)) ^ (results_loader_fnv1a(access, strlen(access)) * 31));
}

static uint64_t entry_hash(size_t row, size_t device)
{
    return results_loader_mix64(((uint64_t)row << 20) ^ (uint64_t)device);
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

/* vendor + name + driver version -> "VENDOR NAME [DRIVER]": the vendor as
 * people say it ("NVIDIA" for "NVIDIA Corporation"); the
 * board name where the device has one (AMD: "AMD Instinct MI300X" for
 * "gfx942"), without the vendor's own prefix and "(R)"/"(TM)", cut at 28
 * characters; the driver to its first space, cut at 16. */
static char *make_label(const results_merge_device *d)
{
    char vb[64];
    const char *sv = short_vendor(results_or_empty(d->vendor), vb, sizeof vb);
    const char *name = results_or_empty(d->board_name && *d->board_name ? d->board_name : d->name);
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
    size_t dl = strcspn(results_or_empty(d->driver_version), " ");
    snprintf(dv, sizeof dv, "%.*s", (int)(dl < 23 ? dl : 23), results_or_empty(d->driver_version));
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
    results_merged *m = L->m;
    const char *vendor = results_or_empty(json_string_value(json_object_get(dev, "vendor")));
    const char *name = results_or_empty(json_string_value(json_object_get(dev, "name")));
    const char *driver = results_or_empty(json_string_value(json_object_get(dev, "driver_version")));
    for (size_t i = 0; i < m->n_devices; i++) {
        results_merge_device *d = &m->devices[i];
        if (!strcmp(d->vendor, vendor) && !strcmp(d->name, name) && !strcmp(d->driver_version, driver))
            return i;
    }
    if (!GROW(m->devices, m->n_devices, L->cap_devices)) {
        *ok = 0;
        return 0;
    }
    results_merge_device *d = &m->devices[m->n_devices];
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
    d->max_alloc_bytes = json_is_integer(v = json_object_get(dev, "max_alloc_bytes")) ? json_integer_value(v) : -1;
    d->max_work_group_size = json_is_integer(v = json_object_get(dev, "max_work_group_size")) ? json_integer_value(v) : -1;
    d->cache_bytes = json_is_integer(v = json_object_get(dev, "global_cache_bytes")) ? json_integer_value(v) : -1;
    d->profile = prof ? dup_or_null(json_string_value(json_object_get(prof, RUN_KEY(RUND_NAME)))) : NULL;
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
    const results_merged *m;
    const char *pattern, *access;
} row_key;

static int row_eq(const void *ctx, size_t i)
{
    const row_key *k = ctx;
    return !strcmp(k->m->rows[i].pattern, k->pattern) && !strcmp(k->m->rows[i].access, k->access);
}

static uint64_t row_rehash(const void *ctx, size_t i)
{
    const results_merged *m = ((const row_key *)ctx)->m;
    return row_hash(m->rows[i].pattern, m->rows[i].access);
}

static size_t find_or_add_row(loader *L, const char *pattern, const char *family, const char *access,
                              const char *space, int *ok)
{
    results_merged *m = L->m;
    row_key key = { m, pattern, access };
    uint64_t h = row_hash(pattern, access);
    size_t found = idx_find(&L->rows_by_key, h, row_eq, &key);
    if (found != (size_t)-1)
        return found;
    if (!GROW(m->rows, m->n_rows, L->cap_rows)) {
        *ok = 0;
        return 0;
    }
    results_merge_row *r = &m->rows[m->n_rows];
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
    const results_merged *m;
    size_t row, device;
} entry_key;

static int entry_eq(const void *ctx, size_t i)
{
    const entry_key *k = ctx;
    return k->m->entries[i].row == k->row && k->m->entries[i].device == k->device;
}

static uint64_t entry_rehash(const void *ctx, size_t i)
{
    const results_merged *m = ((const entry_key *)ctx)->m;
    return entry_hash(m->entries[i].row, m->entries[i].device);
}

static results_merge_entry *find_or_add_entry(loader *L, size_t row, size_t device, int *ok)
{
    results_merged *m = L->m;
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
    results_merge_entry *e = &m->entries[m->n_entries];
    memset(e, 0, sizeof *e);
    e->row = row;
    e->device = device;
    e->sector_efficiency = e->predicted_efficiency = e->store_efficiency = NAN;
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

static char *join_command_line(const json_t *a)
{
    if (!json_is_array(a))
        return NULL;
    size_t n = 1, i;
    const json_t *v;
    json_array_foreach(a, i, v) n += strlen(results_or_empty(json_string_value(v))) + 1;
    char *s = malloc(n);
    if (!s)
        return NULL;
    s[0] = 0;
    json_array_foreach(a, i, v) {
        if (i)
            strcat(s, " ");
        strcat(s, results_or_empty(json_string_value(v)));
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
    results_loader_diag(L, file, 1, "%s", buf);
}

/* after a file: how many out-of-range figures were not named */
static void range_done(loader *L, const char *file)
{
    if (L->out_of_range > RANGE_NAMED)
        results_loader_diag(L, file, 1, "%zu more figures or rows out of range were left out (the first %d are named above)",
             L->out_of_range - RANGE_NAMED, RANGE_NAMED);
    L->out_of_range = 0;
}

/* Sets every figure of o (a copy the caller owns) that lies outside its
 * range to null, naming each: "WHERE: KEY is ..., outside its valid range
 * (...): left out". */
static void range_clear(loader *L, const char *file, const char *where, json_t *o, const results_range_field *f)
{
    char msg[512];
    for (; json_is_object(o) && f->key; f++) {
        if (results_range_check(o, f->key, f->kind, msg, sizeof msg))
            continue;
        range_diag(L, file, "%s: %s: left out", where, msg);
        json_object_set_new(o, f->key, json_null());
    }
}

/* Removes the elements of o[key] (an array of objects, in the copy the
 * caller owns) that hold a figure out of range, naming each. */
static void range_filter(loader *L, const char *file, const char *where, json_t *o, const char *key,
                         const results_range_field *f)
{
    json_t *a = json_object_get(o, key);
    if (!json_is_array(a))
        return;
    char msg[512];
    for (size_t i = 0, k = 0; i < json_array_size(a); k++) {
        const char *bad = results_range_fields(json_array_get(a, i), f, msg, sizeof msg);
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
    range_diag(L, file, "%s: %s is '%s', expected %s: left out", where, key, results_range_name(s, q), expect);
    json_object_set_new(o, key, json_null());
}

/* The ranges of the probe table's rows ids (ended by RP_COUNT, at most
 * 7) as a range list in out */
static void probe_ranges(const results_probe_field_id *ids, results_range_field *out)
{
    for (; *ids != RP_COUNT; ids++)
        *out++ = (results_range_field){ RP_KEY(*ids), RESULTS_PROBE_FIELDS[*ids].range };
    *out = (results_range_field){ NULL, RESULTS_RANGE_NONE };
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
    /* each object's figures, their ranges from the probe's key table */
    static const results_probe_field_id record[] = { RP_INFERRED_UNIT_BYTES, RP_PROFILE_UNIT_BYTES,
                                                     RP_PROFILE_LINE_BYTES, RP_LAUNCH_LATENCY_US,
                                                     RP_SMALL_TRANSFER_LATENCY_US, RP_SMALL_TRANSFER_BYTES, RP_COUNT },
                                       level[] = { RP_SIZE_BYTES, RP_READ_GBS, RP_LATENCY_NS, RP_LATENCY_PER_CU_NS,
                                                   RP_COUNT },
                                       point[] = { RP_BYTES, RP_READ_GBS, RP_LATENCY_NS, RP_LATENCY_PER_CU_NS, RP_COUNT },
                                       transfer[] = { RP_TRANSFER_BYTES, RP_GBS, RP_US, RP_COUNT };
    results_range_field r_record[8], r_level[8], r_point[8], r_transfer[8];
    probe_ranges(record, r_record);
    probe_ranges(level, r_level);
    probe_ranges(point, r_point);
    probe_ranges(transfer, r_transfer);
    range_clear(L, file, where, o, r_record);
    range_filter(L, file, where, o, RP_KEY(RP_CACHE_LEVELS), r_level);
    range_filter(L, file, where, o, RP_KEY(RP_LADDER), r_point);
    range_filter(L, file, where, o, RP_KEY(RP_TRANSFERS), r_transfer);
    json_t *mem = json_object_get(o, RP_KEY(RP_MEMORY));
    if (json_is_object(mem)) {
        char w[96];
        snprintf(w, sizeof w, "%s.memory", where);
        range_clear(L, file, w, mem, r_level);
    }
    json_t *tr = json_object_get(o, RP_KEY(RP_TRANSFERS));
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
    results_merged *m = L->m;
    if (!GROW(m->probes, m->n_probes, L->cap_probes))
        return 0;
    results_merge_probe *p = &m->probes[m->n_probes++];
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
    int filled = ok && p->file && results_merge_probe_fill(p, ok);
    json_decref(ok);
    return filled;
}

/* The ranged rows of the run table whose object is `object` ("run",
 * "profile"): a range list (results_merge_range.h) into out, which holds
 * RUNF_COUNT + 1 entries. */
static void run_ranges(const char *object, results_range_field *out)
{
    size_t n = strlen(object);
    for (size_t i = 0; i < RUNF_COUNT; i++) {
        const char *w = RESULTS_RUN_FIELDS[i].where;
        if (RESULTS_RUN_FIELDS[i].range != RESULTS_RANGE_NONE && !strncmp(w, object, n) && !isalnum((unsigned char)w[n]))
            *out++ = (results_range_field){ RUN_KEY(i), RESULTS_RUN_FIELDS[i].range };
    }
    *out = (results_range_field){ NULL, RESULTS_RANGE_NONE };
}

/* Merges a checked probe results document. 0 when out of memory. */
int results_merge_probe_doc(loader *L, const json_t *root, const char *file, int file_index)
{
    int ok = 1;
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(root, RP_KEY(RP_DEVICES)), i, d) {
        const json_t *dev = json_object_get(d, RP_KEY(RP_DEVICE));
        json_t *prof = json_deep_copy(json_object_get(dev, "profile"));
        L->where_index = i;
        char w[64];
        snprintf(w, sizeof w, "devices[%zu].device.profile", i);
        results_range_field ranges[RUNF_COUNT + 1];
        run_ranges("profile", ranges);
        range_clear(L, file, w, prof, ranges);
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
    results_merged *m = L->m;
    int ok = 1;
    const json_t *host = json_object_get(root, RUN_KEY(RUND_HOST));
    {
        const json_t *dev = json_object_get(run, RUN_KEY(RUNF_DEVICE));
        size_t di = find_or_add_device(L, dev, json_is_object(prof) ? prof : NULL, &ok);
        if (!ok || !GROW(m->runs, m->n_runs, L->cap_runs))
            return 0;
        results_merge_run *r = &m->runs[m->n_runs++];
        memset(r, 0, sizeof *r);
        r->device = di;
        r->file = strdup(file);
        r->file_index = file_index;
        r->date = dup_or_null(str_of(root, "date"));
        r->host = dup_or_null(str_of(host, RUN_KEY(RUND_NAME)));
        r->os = dup_or_null(str_of(host, RUN_KEY(RUND_HOST_OS)));
        r->tool_version = dup_or_null(str_of(json_object_get(root, "tool"), "version"));
        r->schema_version = json_integer_value(json_object_get(root, "schema_version"));
        r->command_line = join_command_line(json_object_get(root, "command_line"));
        r->note = dup_or_null(str_of(root, "note"));
        r->partial = partial;
        r->interrupted = json_is_true(json_object_get(root, RUN_KEY(RUND_INTERRUPTED)));
        r->noisy = json_is_true(json_object_get(json_object_get(run, RUN_KEY(RUNF_NOISE)), RUN_KEY(RUND_NOISY)));
        r->status = dup_or_null(str_of(run, RUN_KEY(RUNF_STATUS)));
        r->failure = dup_or_null(str_of(run, RUN_KEY(RUNF_FAILURE)));
        r->peak_read_gbs = num_or_nan(run, RUN_KEY(RUNF_PEAK_READ_GBS));
        r->peak_copy_gbs = num_or_nan(run, RUN_KEY(RUNF_PEAK_COPY_GBS));
        const json_t *wc = json_object_get(run, RUN_KEY(RUNF_WORKING_SET_CACHE_BYTES));
        if (json_is_integer(wc) && json_integer_value(wc) > m->devices[di].cache_bytes)
            m->devices[di].cache_bytes = json_integer_value(wc);
        r->roof_peak_gflops = r->roof_peak_gbs = r->roof_ridge_intensity = NAN;
        const json_t *roof = json_object_get(run, RUN_KEY(RUNF_ROOFLINE));
        const char *rs = str_of(roof, RR_KEY(RR_STATUS));
        if (json_is_object(roof) && (!rs || !strcmp(rs, "measured"))) {
            r->has_roofline = 1;
            r->roof_peak_gflops = num_or_nan(roof, RR_KEY(RR_PEAK_GFLOPS));
            r->roof_peak_gbs = num_or_nan(roof, RR_KEY(RR_PEAK_GBS));
            r->roof_ridge_intensity = num_or_nan(roof, RR_KEY(RR_RIDGE_INTENSITY));
            const json_t *pts = json_object_get(roof, RR_KEY(RR_POINTS));
            size_t np = json_array_size(pts);
            if (np) {
                r->roof_points = calloc(np, sizeof *r->roof_points);
                if (!r->roof_points)
                    return 0;
                for (size_t k = 0; k < np; k++) {
                    const json_t *p = json_array_get(pts, k);
                    results_merge_roof_point *q = &r->roof_points[r->n_roof_points++];
                    q->intensity = num_or_nan(p, RR_KEY(RR_INTENSITY));
                    q->gflops = num_or_nan(p, RR_KEY(RR_GFLOPS));
                    q->gbs = num_or_nan(p, RR_KEY(RR_GBS));
                    q->attainable_gflops = num_or_nan(p, RR_KEY(RR_ATTAINABLE_GFLOPS));
                }
            }
        }
        m->devices[di].n_runs++;
        if (!r->file)
            return 0;
        if (results_merge_probe_run_has(run) && !add_probe(L, di, root, run, file, file_index, 1))
            return 0;
    }
    return 1;
}

/* The reference a result is divided by: its `reference`, else (a file
 * without it) the seq of its element size for a global pattern of the
 * gather families; NULL when there is none. buf holds 32 bytes. */
static const char *reference_of(const json_t *res, char *buf)
{
    const char *ref = str_of(res, RF_KEY(RF_REFERENCE));
    if (ref || json_object_get(res, RF_KEY(RF_REFERENCE)))
        return ref;
    const char *space = str_of(res, RF_KEY(RF_SPACE)), *fam = str_of(res, RF_KEY(RF_FAMILY));
    /* a family with a kernel of its own has a reference of its own */
    const model_pattern_family *pf = fam ? model_pattern_family_find(fam) : NULL;
    if ((space && strcmp(space, "global") != 0) || (pf && strcmp(pf->kernel, MODEL_PATTERN_KERNEL_GATHER) != 0))
        return NULL;
    const json_t *eb = json_object_get(res, RF_KEY(RF_ELEM_BYTES));
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
    results_merged *m = L->m;
    size_t i;
    const json_t *res;
    json_array_foreach(results, i, res) {
        if (went[2 * i] == SIZE_MAX)
            continue;
        results_merge_entry *e = &m->entries[went[2 * i]];
        results_merge_sample *s = &e->samples[went[2 * i + 1]];
        if (!results_merge_not_nan(s->effective_gbs) || results_merge_not_nan(s->relative_to_seq))
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
        const results_merge_entry *re = &m->entries[ri];
        for (size_t k = 0; k < re->n_samples; k++) {
            const results_merge_sample *rs = &re->samples[k];
            if (rs->run != s->run || !results_merge_not_nan(rs->effective_gbs))
                continue;
            double rel = s->effective_gbs / rs->effective_gbs;
            if (!results_range_ok(RESULTS_RANGE_RATIO, rel))
                break;
            s->relative_to_seq = rel;
            if (json_is_null(json_object_get(res, RF_KEY(RF_RELATIVE_TO_REFERENCE))) &&
                !results_merge_not_nan(e->relative_to_reference))
                e->relative_to_reference = rel;
            break;
        }
    }
}

/* The fields of a result that have a place in its sample or its entry
 * (results_fields): a sample's figures only from a measured row (NAN
 * otherwise); an entry's the first file's that holds them (the bank
 * figures, measured, only from a measured row). 0 when out of memory. */
static int read_fields(const json_t *res, int measured, results_merge_sample *s, results_merge_entry *e)
{
    for (int id = 0; id < RF_COUNT; id++) {
        const results_field *f = &RESULTS_FIELDS[id];
        if (f->place != RESULTS_FIELD_SAMPLE && f->place != RESULTS_FIELD_ENTRY)
            continue;
        char *at = (f->place == RESULTS_FIELD_SAMPLE ? (char *)s : (char *)e) + f->offset;
        const json_t *v = json_object_get(res, f->key);
        if (f->place == RESULTS_FIELD_SAMPLE) {
            if (f->type == RESULTS_FIELD_STRING)
                *(char **)at = dup_or_null(json_string_value(v));
            else
                *(double *)at = measured ? num_or_nan(res, f->key) : NAN;
            continue;
        }
        if (f->type == RESULTS_FIELD_STRING) {
            if (!*(char **)at && json_is_string(v) && !(*(char **)at = strdup(json_string_value(v))))
                return 0;
        } else if (f->type == RESULTS_FIELD_INTEGER) {
            if (*(long long *)at < 0 && json_is_integer(v))
                *(long long *)at = json_integer_value(v);
        } else if (isnan(*(double *)at) && (measured || !f->measured)) {
            *(double *)at = num_or_nan(res, f->key);
        }
    }
    return 1;
}

/* Merges the results[] of a checked document whose runs are
 * m->runs[first_run...]: a row out of its valid range is named and left
 * out; a row of a status other than "ok" is never compared as measured.
 * In a journal, a relative_to_seq left null is worked out from the
 * journal's own reference rows. 0 when out of memory. */
static int merge_results(loader *L, const json_t *root, const char *file, size_t first_run, int partial)
{
    results_merged *m = L->m;
    int ok = 1;
    const json_t *runs = json_object_get(root, RUN_KEY(RUND_RUNS));
    size_t nr = json_array_size(runs);
    const json_t *results = json_object_get(root, RUN_KEY(RUND_RESULTS));
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
        if (!results_range_result(res, msg, sizeof msg)) {
            range_diag(L, file, "results[%zu] (pattern '%s'): %s: the row is left out", i,
                       results_range_name(str_of(res, RF_KEY(RF_PATTERN)), q), msg);
            continue;
        }
        const char *st = str_of(res, RF_KEY(RF_STATUS));
        int measured = !st || !strcmp(st, "ok");
        const char *fig = measured ? NULL : results_range_unmeasured_figure(res);
        if (fig)
            range_diag(L, file,
                       "results[%zu] (pattern '%s'): status '%s' with %s %.17g: only a row of status \"ok\" has "
                       "measured figures; it is shown as %s and its figures are left out",
                       i, results_range_name(str_of(res, RF_KEY(RF_PATTERN)), q), st, fig,
                       json_number_value(json_object_get(res, fig)), st);
        json_int_t idx = json_integer_value(json_object_get(res, RF_KEY(RF_DEVICE)));
        size_t run = first_run;
        for (size_t k = 0; k < nr; k++)
            if (json_integer_value(
                    json_object_get(json_object_get(json_array_get(runs, k), RUN_KEY(RUNF_DEVICE)), "index")) == idx)
                run = first_run + k;
        const char *acc = str_of(res, RF_KEY(RF_ACCESS));
        /* a fraction of a peak the run does not have contradicts the run */
        const json_t *frac = json_object_get(res, RF_KEY(RF_FRACTION_OF_PEAK));
        double peak = acc && !strcmp(acc, "read") ? m->runs[run].peak_read_gbs : m->runs[run].peak_copy_gbs;
        if (json_is_number(frac) && isnan(peak)) {
            range_diag(L, file,
                       "results[%zu] (pattern '%s'): fraction_of_peak %.17g, but its run has no %s peak "
                       "(peak_%s_gbs null): the row is left out",
                       i, results_range_name(str_of(res, RF_KEY(RF_PATTERN)), q), json_number_value(frac),
                       acc && !strcmp(acc, "read") ? "read" : "copy", acc && !strcmp(acc, "read") ? "read" : "copy");
            continue;
        }
        const char *space = str_of(res, RF_KEY(RF_SPACE));
        size_t row = find_or_add_row(L, str_of(res, RF_KEY(RF_PATTERN)), str_of(res, RF_KEY(RF_FAMILY)),
                                     acc ? acc : "copy", space ? space : "global", &ok);
        if (!ok)
            return 0;
        results_merge_entry *e = find_or_add_entry(L, row, m->runs[run].device, &ok);
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
        results_merge_sample *s = &e->samples[e->n_samples++];
        s->run = run;
        const json_t *mo = json_object_get(res, RUN_KEY(RUNR_MODEL));
        /* modeled figures: the first file's */
        if (isnan(e->sector_efficiency))
            e->sector_efficiency = num_or_nan(mo, RUN_KEY(RUNM_SECTOR_EFFICIENCY));
        if (isnan(e->predicted_efficiency))
            e->predicted_efficiency = num_or_nan(mo, RUN_KEY(RUNM_PREDICTED_EFFICIENCY));
        if (isnan(e->store_efficiency))
            e->store_efficiency =
                num_or_nan(json_object_get(mo, RUN_KEY(RUNM_STORES)), RUN_KEY(RUNM_PREDICTED_EFFICIENCY));
        if (!read_fields(res, measured, s, e)) {
            free(went);
            return 0;
        }
    }
    if (went)
        journal_relatives(L, results, went);
    free(went);
    return ok;
}

/* Merges a checked document. 0 when out of memory. */
int results_merge_doc(loader *L, const json_t *root, const char *file, int file_index, int partial)
{
    const json_t *runs = json_object_get(root, RUN_KEY(RUND_RUNS));
    size_t nr = json_array_size(runs);
    size_t first_run = L->m->n_runs;
    for (size_t i = 0; i < nr; i++) {
        /* a copy whose figures out of range are null, each named */
        json_t *run = json_deep_copy(json_array_get(runs, i));
        if (!run)
            return 0;
        char where[64];
        snprintf(where, sizeof where, "runs[%zu]", i);
        results_range_field ranges[RUNF_COUNT + 1];
        run_ranges("run", ranges);
        range_clear(L, file, where, run, ranges);
        json_t *prof = json_object_get(run, RUN_KEY(RUNF_PROFILE));
        if (!json_is_object(prof))
            prof = json_object_get(json_object_get(run, RUN_KEY(RUNF_DEVICE)), "profile");
        char pw[96];
        snprintf(pw, sizeof pw, "%s.profile", where);
        run_ranges("profile", ranges);
        range_clear(L, file, pw, prof, ranges);
        json_t *rf = json_object_get(run, RUN_KEY(RUNF_ROOFLINE));
        if (json_is_object(rf)) {
            snprintf(pw, sizeof pw, "%s.roofline", where);
            results_range_field roof[RR_COUNT + 1];
            results_doc_key_ranges(RESULTS_ROOFLINE_KEYS, RR_COUNT, roof);
            range_clear(L, file, pw, rf, roof);
            range_filter(L, file, pw, rf, RR_KEY(RR_POINTS), roof);
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
    const results_merge_entry *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->device < y->device ? -1 : x->device > y->device;
}

int results_merge_finish(results_merged *m)
{
    if (m->n_entries)
        qsort(m->entries, m->n_entries, sizeof *m->entries, cmp_entry);
    for (size_t i = 0; i < m->n_entries; i++) {
        results_merge_entry *e = &m->entries[i];
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
        results_merge_device *dv = &m->devices[d];
        /* seq: copy mode (loads + stores, as DRAM streams), else read,
         * else write (loads + stores too, but the stores at the pattern's
         * address: a run of write alone still has a seq) */
        static const char *const seq_modes[] = { "copy", "read", "write" };
        for (int pass = 0; pass < 3 && isnan(dv->seq_gbs); pass++)
            for (size_t r = 0; r < m->n_rows; r++)
                if (!strcmp(m->rows[r].pattern, "seq") && !strcmp(m->rows[r].access, seq_modes[pass])) {
                    const results_merge_entry *e = results_merged_entry(m, r, d);
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

const results_merge_entry *results_merged_entry(const results_merged *m, size_t row, size_t device)
{
    /* entries are sorted by row, then device */
    size_t lo = 0, hi = m->n_entries;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const results_merge_entry *e = &m->entries[mid];
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

bw_code results_merge_set_baseline(results_merged *m, const char *spec, bw_error *err)
{
    int found = -1, count = 0;
    for (size_t d = 0; d < m->n_devices; d++)
        if (!strcmp(m->devices[d].label, spec)) {
            found = (int)d;
            count = 1;
        }
    if (count == 0) {
        for (size_t d = 0; d < m->n_devices; d++) {
            const results_merge_device *dv = &m->devices[d];
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
        results_merge_entry *e = &m->entries[i];
        const results_merge_entry *b = results_merged_entry(m, e->row, (size_t)found);
        double rel = b && b->effective_gbs > 0 && !isnan(e->effective_gbs) ? e->effective_gbs / b->effective_gbs
                                                                             : NAN;
        /* a division that leaves the doubles (an overflow, a zero) is no figure */
        e->relative_to_baseline = isfinite(rel) && rel > 0 ? rel : NAN;
    }
    return BW_OK;
}

void results_merged_free(results_merged *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_files; i++)
        free(m->files[i].path);
    for (size_t i = 0; i < m->n_devices; i++) {
        results_merge_device *d = &m->devices[i];
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
    results_peer_set_free(m->peers);
    for (size_t i = 0; i < m->n_runs; i++) {
        results_merge_run *r = &m->runs[i];
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
        results_merge_probe_clear(&m->probes[i]);
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
