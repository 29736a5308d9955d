/* bench_keyed_cache: the keyed JSON files beside the tuning cache (probe.json,
 * unroll.json): path, checked load, lookup, atomic store
 * (bench_keyed_cache.h). */
#include "bench_keyed_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bw_alloc.h"

bw_code bench_keyed_cache_path(const bench_keyed_cache *c, char **path, bw_error *err)
{
    char *tune = NULL;
    bw_code rc = bench_tune_cache_path(&tune, err);
    if (rc != BW_OK)
        return rc;
    char *slash = strrchr(tune, '/');
    size_t dir = slash ? (size_t)(slash - tune) + 1 : 0;
    size_t n = dir + strlen(c->file) + 1;
    *path = malloc(n);
    if (!*path) {
        free(tune);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    snprintf(*path, n, "%.*s%s", (int)dir, tune, c->file);
    free(tune);
    return BW_OK;
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

bw_code bench_keyed_cache_load(const bench_keyed_cache *c, const char *path, json_t **doc, bw_error *err)
{
    *doc = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return BW_OK;
        if (errno == ENOTDIR && bench_tune_cache_dir_check(path, err) != BW_OK)
            return err ? err->code : BW_E_IO;
        return bw_error_set(err, BW_E_IO, "cannot read %s '%s': %s", c->what, path, strerror(errno));
    }
    json_error_t je;
    unsigned long failed = bw_alloc_failures();
    json_t *d = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!d && (bw_alloc_failures() != failed || json_error_code(&je) == json_error_out_of_memory))
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading %s '%s'", c->what, path);
    if (!d)
        return bw_error_set(err, BW_E_FORMAT, "%s '%s' is malformed (line %d, column %d: %s); remove it and %s", c->what,
                            path, je.line, je.column, je.text, c->remedy);
    const char *schema = json_string_value(json_object_get(d, "schema"));
    if (!schema || strcmp(schema, c->schema) || !json_is_array(json_object_get(d, "entries"))) {
        json_decref(d);
        return bw_error_set(err, BW_E_FORMAT, "%s '%s' is not a %s file with entries; remove it and %s", c->what, path,
                            c->schema, c->remedy);
    }
    *doc = d;
    return BW_OK;
}

json_t *bench_keyed_cache_find(json_t *doc, const bench_tune_key *key)
{
    json_t *entries = json_object_get(doc, "entries");
    for (size_t i = 0; i < json_array_size(entries); i++)
        if (entry_matches(json_array_get(entries, i), key))
            return json_array_get(entries, i);
    return NULL;
}

bw_code bench_keyed_cache_store(const bench_keyed_cache *c, const char *path, const bench_tune_key *key, json_t *entry,
                                bw_error *err)
{
    json_t *doc = NULL;
    bw_code rc = bench_keyed_cache_load(c, path, &doc, err);
    if (rc != BW_OK) {
        json_decref(entry);
        return rc;
    }
    if (!doc) {
        doc = json_object();
        json_object_set_new(doc, "schema", json_string(c->schema));
        json_object_set_new(doc, "schema_version", json_integer(1));
        json_object_set_new(doc, "entries", json_array());
    }
    json_t *entries = json_object_get(doc, "entries");
    json_object_set_new(entry, "key", key_json(key));
    size_t i = 0;
    while (i < json_array_size(entries) && !entry_matches(json_array_get(entries, i), key))
        i++;
    if (i < json_array_size(entries))
        json_array_set_new(entries, i, entry);
    else
        json_array_append_new(entries, entry);
    /* the directory, then a temporary file renamed over the old one */
    char *d = strdup(path);
    for (char *p = d ? d + 1 : NULL; p && *p && rc == BW_OK; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(d, 0755) != 0 && errno != EEXIST)
            rc = bw_error_set(err, BW_E_IO, "cannot create the directory of %s, '%s': %s", c->what, d,
                              strerror(errno));
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
            rc = bw_error_set(err, BW_E_IO, "cannot write %s '%s': %s", c->what, path, strerror(errno));
            remove(tmp);
        }
        free(tmp);
    }
    json_decref(doc);
    return rc;
}
