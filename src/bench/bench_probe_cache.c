/* bench_probe_cache: probe.json, each device's latest probe findings:
 * its path, lookup, atomic store, and the geometry --profile inferred
 * builds from an entry (bench_probe.h). */
#include "bench_probe_priv.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bench_keyed_cache.h"

static const bench_keyed_cache PROBE_CACHE = { BENCH_PROBE_CACHE_FILE, BENCH_PROBE_CACHE_SCHEMA, "the probe cache",
                                                "run bwlab probe again" };

bw_code bench_probe_cache_path(char **path, bw_error *err)
{
    return bench_keyed_cache_path(&PROBE_CACHE, path, err);
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
    bw_code rc = bench_keyed_cache_load(&PROBE_CACHE, path, &doc, err);
    if (rc != BW_OK || !doc)
        return rc;
    json_t *e = bench_keyed_cache_find(doc, key);
    if (e) {
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
    json_t *o = json_object();
    json_object_set_new(o, "date", json_string(e->date));
    json_object_set_new(o, "quick", json_boolean(e->quick));
    json_object_set_new(o, "inferred_unit_bytes", int_or_null(e->unit));
    json_object_set_new(o, "inferred_lanes", int_or_null(e->lanes));
    json_object_set_new(o, "inferred_banks", int_or_null(e->banks));
    json_object_set_new(o, "memory_read_gbs", e->memory_gbs > 0 ? json_real(e->memory_gbs) : json_null());
    return bench_keyed_cache_store(&PROBE_CACHE, path, key, o, err);
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
