/* bench_probe_cache: probe.json, each device's latest probe findings:
 * its path, lookup, atomic store, and the geometry --profile inferred
 * builds from an entry (bench_probe_cache.h). */
#include "bench_probe_cache.h"
#include "bw_alloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bw_code bench_probe_cache_path(char **path, bw_error *err)
{
    char *tune = NULL;
    bw_code rc = bench_tune_cache_path(&tune, err);
    if (rc != BW_OK)
        return rc;
    char *slash = strrchr(tune, '/');
    size_t dir = slash ? (size_t)(slash - tune) + 1 : 0;
    size_t n = dir + sizeof BENCH_PROBE_CACHE_FILE;
    *path = malloc(n);
    if (!*path) {
        free(tune);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    snprintf(*path, n, "%.*s%s", (int)dir, tune, BENCH_PROBE_CACHE_FILE);
    free(tune);
    return BW_OK;
}

bench_probe_entry bench_probe_entry_of(const bench_probe_result *r, const char *date)
{
    bench_probe_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.date, sizeof e.date, "%s", date);
    e.quick = r->quick;
    e.unit = r->inferred_unit;
    e.lanes = r->inferred_lanes;
    e.banks = r->inferred_banks;
    e.memory_gbs = r->have_memory ? r->levels[r->n_levels].read_gbs : 0;
    return e;
}

static const char *const key_names[] = { "device", "vendor", "driver_version", "platform_version", "bwlab_version" };

static json_t *key_json(const bench_tune_key *k)
{
    const char *f[] = { k->device, k->vendor, k->driver_version, k->platform_version, k->bwlab_version };
    json_t *o = json_object();
    for (size_t i = 0; i < 5; i++) {
        /* jansson takes UTF-8 only: other bytes as '?', as the tuning cache does */
        char *s = strdup(f[i] ? f[i] : "");
        for (char *p = s; p && *p; p++)
            if ((unsigned char)*p >= 0x80)
                *p = '?';
        json_object_set_new(o, key_names[i], json_string(s ? s : ""));
        free(s);
    }
    return o;
}

static int entry_matches(json_t *entry, const bench_tune_key *key)
{
    json_t *ko = json_object_get(entry, "key");
    const char *f[5];
    for (size_t i = 0; i < 5; i++)
        if (!(f[i] = json_string_value(json_object_get(ko, key_names[i]))))
            return 0;
    bench_tune_key k = { f[0], f[1], f[2], f[3], f[4] };
    return bench_tune_key_equal(&k, key);
}

/* the document, NULL (BW_OK) when there is no file */
static bw_code load(const char *path, json_t **doc, bw_error *err)
{
    *doc = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return BW_OK;
        if (errno == ENOTDIR && bench_tune_cache_dir_check(path, err) != BW_OK)
            return err ? err->code : BW_E_IO;
        return bw_error_set(err, BW_E_IO, "cannot read the probe cache '%s': %s", path, strerror(errno));
    }
    json_error_t je;
    unsigned long failed = bw_alloc_failures();
    json_t *d = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!d && (bw_alloc_failures() != failed || json_error_code(&je) == json_error_out_of_memory))
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading the probe cache '%s'", path);
    if (!d)
        return bw_error_set(err, BW_E_FORMAT, "the probe cache '%s' is malformed (line %d, column %d: %s); remove it "
                                              "and run bwlab probe again",
                            path, je.line, je.column, je.text);
    const char *schema = json_string_value(json_object_get(d, "schema"));
    if (!schema || strcmp(schema, BENCH_PROBE_CACHE_SCHEMA) || !json_is_array(json_object_get(d, "entries"))) {
        json_decref(d);
        return bw_error_set(err, BW_E_FORMAT, "the probe cache '%s' is not a %s file with entries; remove it and run "
                                              "bwlab probe again",
                            path, BENCH_PROBE_CACHE_SCHEMA);
    }
    *doc = d;
    return BW_OK;
}

static int64_t int_or_zero(json_t *o, const char *name)
{
    json_t *v = json_object_get(o, name);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (int64_t)json_integer_value(v) : 0;
}

bw_code bench_probe_cache_lookup(const char *path, const bench_tune_key *key, bench_probe_entry *out, int *found,
                                 bw_error *err)
{
    *found = 0;
    json_t *doc = NULL;
    bw_code rc = load(path, &doc, err);
    if (rc != BW_OK || !doc)
        return rc;
    json_t *entries = json_object_get(doc, "entries");
    for (size_t i = 0; i < json_array_size(entries); i++) {
        json_t *e = json_array_get(entries, i);
        if (!entry_matches(e, key))
            continue;
        memset(out, 0, sizeof *out);
        const char *date = json_string_value(json_object_get(e, "date"));
        snprintf(out->date, sizeof out->date, "%s", date ? date : "unknown");
        out->quick = json_is_true(json_object_get(e, "quick"));
        out->unit = int_or_zero(e, "inferred_unit_bytes");
        out->lanes = int_or_zero(e, "inferred_lanes");
        out->banks = (int)int_or_zero(e, "inferred_banks");
        json_t *mem = json_object_get(e, "memory_read_gbs");
        out->memory_gbs = json_is_number(mem) ? json_number_value(mem) : 0;
        int mem_bad = mem && !json_is_null(mem) && !(out->memory_gbs >= BENCH_PROBE_CACHE_MIN_GBS &&
                                                      out->memory_gbs <= BENCH_PROBE_CACHE_MAX_GBS);
        if (out->unit > MODEL_MAX_UNIT || out->lanes > 1024 || out->banks > MODEL_MAX_BANKS || mem_bad) {
            json_decref(doc);
            return bw_error_set(err, BW_E_FORMAT, "the probe cache '%s' holds figures out of range for '%s'; remove it "
                                                  "and run bwlab probe again",
                                path, key->device);
        }
        *found = 1;
        break;
    }
    json_decref(doc);
    return BW_OK;
}

static json_t *int_or_null(int64_t v)
{
    return v > 0 ? json_integer((json_int_t)v) : json_null();
}

bw_code bench_probe_cache_store(const char *path, const bench_tune_key *key, const bench_probe_entry *e,
                                bw_error *err)
{
    json_t *doc = NULL;
    bw_code rc = load(path, &doc, err);
    if (rc != BW_OK)
        return rc;
    if (!doc) {
        doc = json_object();
        json_object_set_new(doc, "schema", json_string(BENCH_PROBE_CACHE_SCHEMA));
        json_object_set_new(doc, "schema_version", json_integer(1));
        json_object_set_new(doc, "entries", json_array());
    }
    json_t *entries = json_object_get(doc, "entries");
    json_t *o = json_object();
    json_object_set_new(o, "key", key_json(key));
    json_object_set_new(o, "date", json_string(e->date));
    json_object_set_new(o, "quick", json_boolean(e->quick));
    json_object_set_new(o, "inferred_unit_bytes", int_or_null(e->unit));
    json_object_set_new(o, "inferred_lanes", int_or_null(e->lanes));
    json_object_set_new(o, "inferred_banks", int_or_null(e->banks));
    json_object_set_new(o, "memory_read_gbs", e->memory_gbs > 0 ? json_real(e->memory_gbs) : json_null());
    size_t i = 0;
    while (i < json_array_size(entries) && !entry_matches(json_array_get(entries, i), key))
        i++;
    if (i < json_array_size(entries))
        json_array_set_new(entries, i, o);
    else
        json_array_append_new(entries, o);
    /* the directory, then a temporary file renamed over the old one */
    char *d = strdup(path);
    for (char *p = d ? d + 1 : NULL; p && *p && rc == BW_OK; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(d, 0755) != 0 && errno != EEXIST)
            rc = bw_error_set(err, BW_E_IO, "cannot create the probe cache's directory '%s': %s", d, strerror(errno));
        *p = '/';
    }
    free(d);
    if (rc == BW_OK) {
        size_t tl = strlen(path) + 32;
        char *tmp = malloc(tl);
        if (!tmp) {
            json_decref(doc);
            return bw_error_set(err, BW_E_NOMEM, "out of memory");
        }
        snprintf(tmp, tl, "%s.tmp.%ld", path, (long)getpid());
        if (json_dump_file(doc, tmp, JSON_INDENT(2)) != 0 || rename(tmp, path) != 0) {
            rc = bw_error_set(err, BW_E_IO, "cannot write the probe cache '%s': %s", path, strerror(errno));
            remove(tmp);
        }
        free(tmp);
    }
    json_decref(doc);
    return rc;
}

model_geometry bench_probe_inferred_geometry(const model_geometry *base, const bench_probe_entry *e, char *fields,
                                             size_t n)
{
    model_geometry g = *base;
    char buf[64] = "";
    /* the sweeps' unit is where the memory's cost grows: the DRAM unit,
     * beside the profile's sectors and lines (docs/model.md, "The DRAM unit") */
    if (e->unit > 0) {
        g.dram_unit = e->unit;
        strcat(buf, "dram_unit");
    }
    if (e->lanes > 0) {
        g.lanes = (int)e->lanes;
        strcat(buf, buf[0] ? ",lanes" : "lanes");
    }
    if (e->banks > 0) {
        g.banks = e->banks;
        g.bank_width = 4;
        strcat(buf, buf[0] ? ",banks" : "banks");
    }
    if (fields && n)
        snprintf(fields, n, "%s", buf);
    return g;
}
