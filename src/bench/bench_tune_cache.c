/* bench_tune_cache: tune.json, `bwlab tune`'s winners per device: the
 * key, the path, lookups, and atomic stores that set a malformed file
 * aside rather than replace it (bench_tune.h). */
#include "bench_tune_priv.h"
#include "results_tune_keys.h"

#include "bw_alloc.h"
#include "bw_file.h"
#include "ocl_device.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const key_names[] = { "device", "vendor", "driver_version", "platform_version",
                                         "bwlab_version" };
#define NKEYS (sizeof key_names / sizeof key_names[0])

static void key_fields(const bench_tune_key *k, const char *out[NKEYS])
{
    out[0] = k->device;
    out[1] = k->vendor;
    out[2] = k->driver_version;
    out[3] = k->platform_version;
    out[4] = k->bwlab_version;
}

bench_tune_key bench_tune_key_of(const ocl_device_info *d, const char *bwlab_version)
{
    bench_tune_key k = { d->name, d->vendor, d->driver_version, d->platform_version, bwlab_version };
    return k;
}

/* A key field as the file holds it: jansson takes UTF-8 only, and driver
 * strings are not promised to be UTF-8, so other strings are kept with
 * bytes above 0x7f as '?'. Caller frees; NULL when out of memory. */
static char *stored_form(const char *s)
{
    char *c = strdup(s);
    json_t *j = c ? json_string(c) : NULL;
    if (j) {
        json_decref(j);
        return c;
    }
    for (char *p = c; p && *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    return c;
}

int bench_tune_key_equal(const bench_tune_key *a, const bench_tune_key *b)
{
    const char *x[NKEYS], *y[NKEYS];
    key_fields(a, x);
    key_fields(b, y);
    int same = 1;
    for (size_t i = 0; i < NKEYS && same; i++) {
        char *sx = stored_form(x[i] ? x[i] : ""), *sy = stored_form(y[i] ? y[i] : "");
        same = sx && sy && !strcmp(sx, sy);
        free(sx);
        free(sy);
    }
    return same;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s", a, b);
    return s;
}

bw_code bench_tune_cache_path(char **path, bw_error *err)
{
    const char *dir = getenv("BWLAB_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (dir && *dir)
        *path = join(dir, "/" BENCH_TUNE_CACHE_FILE);
    else if (xdg && *xdg)
        *path = join(xdg, "/bwlab/" BENCH_TUNE_CACHE_FILE);
    else if (home && *home)
        *path = join(home, "/.cache/bwlab/" BENCH_TUNE_CACHE_FILE);
    else
        return bw_error_set(err, BW_E_USAGE, "no place for the tuning cache: none of BWLAB_CACHE_DIR, "
                                             "XDG_CACHE_HOME and HOME is set (set BWLAB_CACHE_DIR to a directory)");
    if (!*path)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    return BW_OK;
}

/* the key of an entry, or -1 when it is not an object of NKEYS strings */
static int entry_key(json_t *entry, bench_tune_key *k)
{
    json_t *ko = json_object_get(entry, "key");
    const char *f[NKEYS];
    for (size_t i = 0; i < NKEYS; i++) {
        f[i] = json_string_value(json_object_get(ko, key_names[i]));
        if (!f[i])
            return -1;
    }
    bench_tune_key key = { f[0], f[1], f[2], f[3], f[4] };
    *k = key;
    return 0;
}

/* the document's entries array, or NULL with err set */
static json_t *entries_of(json_t *doc, const char *path, bw_error *err)
{
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    json_t *ver = json_object_get(doc, "schema_version");
    json_t *entries = json_object_get(doc, "entries");
    if (!schema || strcmp(schema, BENCH_TUNE_CACHE_SCHEMA) != 0 || !json_is_integer(ver) ||
        json_integer_value(ver) != BENCH_TUNE_CACHE_SCHEMA_VERSION || !json_is_array(entries)) {
        bw_error_set(err, BW_E_FORMAT,
                     "tuning cache '%s' is malformed: not a \"%s\" document of schema version %d with an "
                     "\"entries\" array",
                     path, BENCH_TUNE_CACHE_SCHEMA, BENCH_TUNE_CACHE_SCHEMA_VERSION);
        return NULL;
    }
    for (size_t i = 0; i < json_array_size(entries); i++) {
        bench_tune_key k;
        if (entry_key(json_array_get(entries, i), &k) != 0) {
            bw_error_set(err, BW_E_FORMAT,
                         "tuning cache '%s' is malformed: entry %zu has no \"key\" object of the strings device, "
                         "vendor, driver_version, platform_version, bwlab_version",
                         path, i);
            return NULL;
        }
    }
    return entries;
}

/* Reads and parses the file: BW_OK with *doc NULL when there is none. */
bw_code bench_tune_cache_dir_check(const char *path, bw_error *err)
{
    char *dir = strdup(path);
    if (!dir)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = BW_OK;
    /* from the file's own directory up: the first one that exists */
    for (char *slash = strrchr(dir, '/'); slash && slash > dir; slash = strrchr(dir, '/')) {
        *slash = '\0';
        struct stat st;
        if (stat(dir, &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode))
            rc = bw_error_set(err, BW_E_IO,
                              "the cache directory '%s' is not a directory (it is a file): the cache '%s' can be "
                              "neither read nor written; set BWLAB_CACHE_DIR to a directory",
                              dir, path);
        break;
    }
    free(dir);
    return rc;
}

static bw_code load(const char *path, json_t **doc, bw_error *err)
{
    *doc = NULL;
    if (access(path, F_OK) != 0 && errno == ENOTDIR)
        return bench_tune_cache_dir_check(path, err);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return BW_OK;
    char *text = NULL;
    bw_code rc = bw_file_read_regular(path, &text, NULL, err);
    if (rc != BW_OK)
        return rc;
    json_error_t je;
    unsigned long failed = bw_alloc_failures();
    *doc = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    double mb = (double)strlen(text) / 1e6;
    free(text);
    /* never "malformed" for want of memory: a malformed cache is set aside */
    if (!*doc && (bw_alloc_failures() != failed || json_error_code(&je) == json_error_out_of_memory))
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading the tuning cache '%s' (%.1f MB)", path, mb);
    if (!*doc)
        return bw_error_set(err, BW_E_FORMAT, "tuning cache '%s' is malformed: %s (line %d, column %d)", path,
                            je.text, je.line, je.column);
    return BW_OK;
}

static bw_code peak_from(json_t *o, const char *path, const char *mode, bench_tune_peak *p, bw_error *err)
{
    memset(p, 0, sizeof *p);
    if (json_is_null(o))
        return BW_OK;
    json_t *v = json_object_get(o, RT_KEY(RT_VECTOR_WIDTH)), *k = json_object_get(o, RT_KEY(RT_ELEMS_PER_ITEM)),
           *l = json_object_get(o, RT_KEY(RT_LOCAL_SIZE)), *g = json_object_get(o, RT_KEY(RT_GBS));
    int layout = bench_tune_layout_parse(json_string_value(json_object_get(o, RT_KEY(RT_LAYOUT))));
    p->config.vector_width = json_is_integer(v) ? (int)json_integer_value(v) : 0;
    p->config.elems_per_item = json_is_integer(k) ? (int)json_integer_value(k) : 0;
    p->config.local_size = json_is_integer(l) ? (int64_t)json_integer_value(l) : 0;
    p->config.layout = (bench_tune_layout)(layout >= 0 ? layout : 0);
    p->gbs = json_is_number(g) ? json_number_value(g) : 0;
    if (layout < 0 || !bench_tune_config_ok(&p->config))
        return bw_error_set(err, BW_E_FORMAT,
                            "tuning cache '%s' is malformed: the matching entry's \"%s\" is not a configuration "
                            "bwlab tune makes",
                            path, mode);
    /* the range a results file keeps for any GB/s: a peak outside it would
     * make the run's own output one that compare refuses */
    if (!(p->gbs >= BENCH_TUNE_GBS_MIN && p->gbs <= BENCH_TUNE_GBS_MAX))
        return bw_error_set(err, BW_E_FORMAT,
                            "tuning cache '%s' is malformed: the matching entry's \"%s\" gbs %.6g is outside "
                            "%g to %g GB/s",
                            path, mode, p->gbs, BENCH_TUNE_GBS_MIN, BENCH_TUNE_GBS_MAX);
    p->valid = 1;
    return BW_OK;
}

bw_code bench_tune_cache_lookup(const char *path, const bench_tune_key *key, bench_tune_entry *out, int *found,
                                bw_error *err)
{
    *found = 0;
    memset(out, 0, sizeof *out);
    json_t *doc = NULL, *entries;
    bw_code rc = load(path, &doc, err);
    if (rc != BW_OK || !doc)
        return rc;
    if (!(entries = entries_of(doc, path, err))) {
        rc = err ? err->code : BW_E_FORMAT;
        goto done;
    }
    for (size_t i = 0; i < json_array_size(entries); i++) {
        json_t *e = json_array_get(entries, i);
        bench_tune_key k;
        entry_key(e, &k);
        if (!bench_tune_key_equal(&k, key))
            continue;
        json_t *bytes = json_object_get(e, RT_KEY(RT_BUFFER_BYTES));
        const char *date = json_string_value(json_object_get(e, RT_KEY(RT_DATE)));
        if ((rc = peak_from(json_object_get(e, RT_KEY(RT_READ)), path, "read", &out->peak[BENCH_TUNE_READ], err)) != BW_OK ||
            (rc = peak_from(json_object_get(e, RT_KEY(RT_COPY)), path, "copy", &out->peak[BENCH_TUNE_COPY], err)) != BW_OK)
            goto done;
        if (!json_is_integer(bytes) || json_integer_value(bytes) <= 0 || !date ||
            (!out->peak[BENCH_TUNE_READ].valid && !out->peak[BENCH_TUNE_COPY].valid)) {
            rc = bw_error_set(err, BW_E_FORMAT,
                              "tuning cache '%s' is malformed: the matching entry lacks \"buffer_bytes\", "
                              "\"date\" or both of \"read\" and \"copy\"",
                              path);
            goto done;
        }
        out->buffer_bytes = (uint64_t)json_integer_value(bytes);
        snprintf(out->date, sizeof out->date, "%s", date);
        *found = 1;
        break;
    }
done:
    if (rc != BW_OK)
        memset(out, 0, sizeof *out);
    json_decref(doc);
    return rc;
}

json_t *bench_tune_peak_json(const bench_tune_peak *p)
{
    if (!p->valid)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, RT_KEY(RT_VECTOR_WIDTH), json_integer(p->config.vector_width));
    json_object_set_new(o, RT_KEY(RT_ELEMS_PER_ITEM), json_integer(p->config.elems_per_item));
    json_object_set_new(o, RT_KEY(RT_LOCAL_SIZE), json_integer(p->config.local_size));
    json_object_set_new(o, RT_KEY(RT_LAYOUT), json_string(bench_tune_layout_name(p->config.layout)));
    json_object_set_new(o, RT_KEY(RT_GBS), json_real(p->gbs));
    return o;
}

static json_t *entry_json(const bench_tune_key *key, const bench_tune_entry *e)
{
    json_t *o = json_object(), *k = json_object();
    const char *f[NKEYS];
    key_fields(key, f);
    for (size_t i = 0; i < NKEYS; i++) {
        char *v = stored_form(f[i] ? f[i] : "");
        json_object_set_new(k, key_names[i], v ? json_string(v) : NULL);
        free(v);
    }
    json_object_set_new(o, "key", k);
    json_object_set_new(o, RT_KEY(RT_DATE), json_string(e->date));
    json_object_set_new(o, RT_KEY(RT_BUFFER_BYTES), json_integer((json_int_t)e->buffer_bytes));
    json_object_set_new(o, RT_KEY(RT_READ), bench_tune_peak_json(&e->peak[BENCH_TUNE_READ]));
    json_object_set_new(o, RT_KEY(RT_COPY), bench_tune_peak_json(&e->peak[BENCH_TUNE_COPY]));
    return o;
}

/* mkdir -p of the directory part of path */
static bw_code make_parents(const char *path, bw_error *err)
{
    char *d = strdup(path);
    if (!d)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = BW_OK;
    for (char *p = d + 1; *p && rc == BW_OK; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(d, 0755) != 0 && errno != EEXIST)
            rc = bw_error_set(err, BW_E_IO, "cannot create the tuning cache's directory '%s': %s", d, strerror(errno));
        *p = '/';
    }
    free(d);
    return rc;
}

/* bw_file_write: a temp file from mkstemp beside the cache (no predictable
 * name a planted link could occupy), its mode kept, renamed over it */
static bw_code write_atomic(const char *path, const char *text, bw_error *err)
{
    bw_code rc = bw_file_write(path, text, strlen(text), err);
    if (rc == BW_E_IO)
        bw_error_prefix(err, "the tuning cache: ");
    return rc;
}

bw_code bench_tune_cache_set_aside(const char *path, char **moved, bw_error *err)
{
    if (!(*moved = join(path, ".malformed")))
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (rename(path, *moved) != 0) {
        bw_code rc = bw_error_set(err, BW_E_IO, "tuning cache '%s' is malformed and cannot be moved to '%s': %s",
                                  path, *moved, strerror(errno));
        free(*moved);
        *moved = NULL;
        return rc;
    }
    return BW_OK;
}

bw_code bench_tune_cache_store(const char *path, const bench_tune_key *key, const bench_tune_entry *e,
                               char **moved_aside, bw_error *err)
{
    *moved_aside = NULL;
    json_t *doc = NULL, *entries = NULL;
    char *text = NULL;
    bw_error bad = BW_ERROR_INIT;
    bw_code rc = load(path, &doc, &bad);
    if (rc == BW_OK && doc && !(entries = entries_of(doc, path, &bad)))
        rc = BW_E_FORMAT;
    if (rc == BW_E_FORMAT) {
        /* kept for the user to inspect, never overwritten unseen */
        json_decref(doc);
        doc = NULL;
        if (!(*moved_aside = join(path, ".malformed"))) {
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
            goto fail;
        }
        if (rename(path, *moved_aside) != 0) {
            rc = bw_error_set(err, BW_E_IO, "tuning cache '%s' is malformed and cannot be moved to '%s': %s", path,
                              *moved_aside, strerror(errno));
            goto fail;
        }
        rc = BW_OK;
    } else if (rc != BW_OK) {
        rc = bw_error_set(err, rc, "%s", bw_error_text(&bad));
        goto fail;
    }
    if (!doc) {
        doc = json_object();
        json_object_set_new(doc, "schema", json_string(BENCH_TUNE_CACHE_SCHEMA));
        json_object_set_new(doc, "schema_version", json_integer(BENCH_TUNE_CACHE_SCHEMA_VERSION));
        json_object_set_new(doc, "entries", json_array());
        entries = json_object_get(doc, "entries");
    }
    size_t i = 0;
    for (; i < json_array_size(entries); i++) {
        bench_tune_key k;
        entry_key(json_array_get(entries, i), &k);
        if (bench_tune_key_equal(&k, key))
            break;
    }
    if (i < json_array_size(entries))
        json_array_set_new(entries, i, entry_json(key, e));
    else
        json_array_append_new(entries, entry_json(key, e));
    text = json_dumps(doc, JSON_INDENT(2));
    if (!text) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        goto fail;
    }
    rc = make_parents(path, err);
    if (rc == BW_OK) {
        size_t n = strlen(text);
        char *withnl = realloc(text, n + 2);
        if (!withnl) {
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
            goto fail;
        }
        text = withnl;
        memcpy(text + n, "\n", 2);
        rc = write_atomic(path, text, err);
    }
fail:
    bw_error_clear(&bad);
    json_decref(doc);
    free(text);
    return rc;
}
