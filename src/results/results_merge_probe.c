/* results_merge_probe: probe figures read from JSON (results_merge_probe.h). */
#include "results_merge_probe.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_json.h"
#include "results_probe_fields.h"
#include "results_schema.h"
#include "results_json_priv.h"

/* the first problem, kept */
typedef struct pchk {
    char *msg;
    size_t n;
    int bad;
} pchk;

static void fail(pchk *c, const char *fmt, ...) BW_PRINTF(2, 3);
static void fail(pchk *c, const char *fmt, ...)
{
    if (c->bad)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->n, fmt, ap);
    va_end(ap);
    c->bad = 1;
}

/* absent or null is fine; another type than `want` is named */
static void want_num(pchk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (v && !json_is_null(v) && !json_is_number(v))
        fail(c, "%s.%s is %s, expected a number or null", where, key, results_json_kind(v));
}

static void want_int(pchk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (v && !json_is_null(v) && !json_is_integer(v))
        fail(c, "%s.%s is %s, expected an integer or null", where, key, results_json_kind(v));
}

static void want_str(pchk *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (v && !json_is_null(v) && !json_is_string(v))
        fail(c, "%s.%s is %s, expected a string or null", where, key, results_json_kind(v));
}

/* absent or null is fine; another type than the table's is named */
static void want(pchk *c, const json_t *o, const char *where, results_probe_field_id id)
{
    const char *key = RP_KEY(id);
    const json_t *v = json_object_get(o, key);
    switch (RESULTS_PROBE_FIELDS[id].type) {
    case RK_STRING: want_str(c, o, where, key); break;
    case RK_INTEGER: want_int(c, o, where, key); break;
    case RK_NUMBER: want_num(c, o, where, key); break;
    case RK_BOOL:
        if (v && !json_is_null(v) && !json_is_boolean(v))
            fail(c, "%s.%s is %s, expected true or false", where, key, results_json_kind(v));
        break;
    case RK_OBJECT:
        if (v && !json_is_null(v) && !json_is_object(v))
            fail(c, "%s.%s is %s, expected an object or null", where, key, results_json_kind(v));
        break;
    case RK_ARRAY: break; /* want_objects */
    }
}

/* an optional array of objects, each checked for the keys */
static void want_objects(pchk *c, const json_t *o, const char *where, const char *key,
                         const results_probe_field_id *nums)
{
    const json_t *a = json_object_get(o, key);
    if (!a || json_is_null(a))
        return;
    if (!json_is_array(a)) {
        fail(c, "%s.%s is %s, expected an array", where, key, results_json_kind(a));
        return;
    }
    size_t i;
    const json_t *e;
    char w[128];
    json_array_foreach(a, i, e) {
        snprintf(w, sizeof w, "%s.%s[%zu]", where, key, i);
        if (!json_is_object(e)) {
            fail(c, "%s is %s, expected an object", w, results_json_kind(e));
            return;
        }
        for (size_t k = 0; nums[k] != RP_COUNT; k++)
            want(c, e, w, nums[k]);
    }
}

static const results_probe_field_id LEVEL_KEYS[] = { RP_SIZE_BYTES, RP_READ_GBS, RP_LATENCY_NS, RP_LATENCY_PER_CU_NS, RP_COUNT };
static const results_probe_field_id LADDER_KEYS[] = { RP_BYTES, RP_READ_GBS, RP_LATENCY_NS, RP_LATENCY_PER_CU_NS, RP_COUNT };
static const results_probe_field_id TRANSFER_KEYS[] = { RP_TRANSFER_BYTES, RP_GBS, RP_US, RP_COUNT };

static void check_transfers(pchk *c, const json_t *o, const char *where)
{
    want_objects(c, o, where, RP_KEY(RP_TRANSFERS), TRANSFER_KEYS);
    const json_t *a = json_object_get(o, RP_KEY(RP_TRANSFERS));
    size_t i;
    const json_t *e;
    char w[128];
    if (!c->bad && json_is_array(a))
        json_array_foreach(a, i, e) {
            snprintf(w, sizeof w, "%s.%s[%zu]", where, RP_KEY(RP_TRANSFERS), i);
            want(c, e, w, RP_DIRECTION);
            want(c, e, w, RP_TRANSFER_MEMORY);
            want(c, e, w, RP_BLOCKING);
        }
    want(c, o, where, RP_LAUNCH_LATENCY_US);
    want(c, o, where, RP_SMALL_TRANSFER_LATENCY_US);
    want(c, o, where, RP_SMALL_TRANSFER_BYTES);
}

int results_merge_probe_check_run(const json_t *run, const char *where, char *msg, size_t n)
{
    pchk c = { msg, n, 0 };
    check_transfers(&c, run, where);
    return !c.bad;
}

int results_merge_probe_run_has(const json_t *run)
{
    const json_t *t = json_object_get(run, RP_KEY(RP_TRANSFERS));
    return (json_is_array(t) && json_array_size(t) > 0) ||
           json_is_number(json_object_get(run, RP_KEY(RP_LAUNCH_LATENCY_US)));
}

int results_merge_probe_check_doc(const json_t *root, char *msg, size_t n)
{
    pchk c = { msg, n, 0 };
    if (!json_is_object(root)) {
        fail(&c, "the top level is %s, expected a bwlab probe results object", results_json_kind(root));
        return 0;
    }
    const json_t *ver = json_object_get(root, "schema_version");
    if (!ver) {
        fail(&c, "top level.schema_version is missing");
        return 0;
    }
    if (!json_is_integer(ver)) {
        fail(&c, "top level.schema_version is %s, expected an integer", results_json_kind(ver));
        return 0;
    }
    json_int_t v = json_integer_value(ver);
    if (v < 1) {
        fail(&c, "probe schema_version %lld is not a valid schema version (versions start at 1)", (long long)v);
        return 0;
    }
    if (v > RESULTS_PROBE_SCHEMA_VERSION) {
        fail(&c, "unknown probe schema_version %lld (this bwlab reads 1 to %d; a newer bwlab wrote it: compare "
                 "with that version)",
             (long long)v, RESULTS_PROBE_SCHEMA_VERSION);
        return 0;
    }
    want_str(&c, root, "top level", "date");
    want_str(&c, root, "top level", "note");
    const json_t *devs = json_object_get(root, RP_KEY(RP_DEVICES));
    if (!devs) {
        fail(&c, "top level.devices is missing");
        return 0;
    }
    if (!json_is_array(devs)) {
        fail(&c, "top level.devices is %s, expected an array", results_json_kind(devs));
        return 0;
    }
    if (json_array_size(devs) == 0) {
        fail(&c, "no results (devices[] is empty: the probe measured nothing)");
        return 0;
    }
    size_t i;
    const json_t *d;
    char w[64], dw[80];
    json_array_foreach(devs, i, d) {
        snprintf(w, sizeof w, "devices[%zu]", i);
        if (!json_is_object(d)) {
            fail(&c, "%s is %s, expected an object", w, results_json_kind(d));
            return 0;
        }
        const json_t *dev = json_object_get(d, RP_KEY(RP_DEVICE));
        if (!json_is_object(dev)) {
            fail(&c, dev ? "%s.device is %s, expected an object" : "%s.device is missing%s", w,
                 dev ? results_json_kind(dev) : "");
            return 0;
        }
        snprintf(dw, sizeof dw, "%s.device", w);
        const json_t *name = json_object_get(dev, "name");
        if (!json_is_string(name)) {
            fail(&c, name ? "%s.name is %s, expected a string" : "%s.name is missing%s", dw,
                 name ? results_json_kind(name) : "");
            return 0;
        }
        want_str(&c, dev, dw, "vendor");
        want_str(&c, dev, dw, "driver_version");
        want(&c, d, w, RP_STATUS);
        want(&c, d, w, RP_UNIT_AGREEMENT);
        want(&c, d, w, RP_INFERRED_UNIT_BYTES);
        want(&c, d, w, RP_PROFILE_UNIT_BYTES);
        want(&c, d, w, RP_PROFILE_LINE_BYTES);
        want_objects(&c, d, w, RP_KEY(RP_CACHE_LEVELS), LEVEL_KEYS);
        want_objects(&c, d, w, RP_KEY(RP_LADDER), LADDER_KEYS);
        const json_t *mem = json_object_get(d, RP_KEY(RP_MEMORY));
        if (mem && !json_is_null(mem) && !json_is_object(mem))
            fail(&c, "%s.memory is %s, expected an object or null", w, results_json_kind(mem));
        check_transfers(&c, d, w);
        if (c.bad)
            return 0;
    }
    return 1;
}

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long integer(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static void copy_str(char *dst, size_t n, const char *s)
{
    snprintf(dst, n, "%s", s ? s : "");
}

int results_merge_probe_fill(results_merge_probe *p, const json_t *o)
{
    const char *ua = json_string_value(json_object_get(o, RP_KEY(RP_UNIT_AGREEMENT)));
    const char *st = json_string_value(json_object_get(o, RP_KEY(RP_STATUS)));
    if ((ua && !(p->unit_agreement = strdup(ua))) || (st && !(p->status = strdup(st))))
        return 0;
    p->inferred_unit_bytes = integer(o, RP_KEY(RP_INFERRED_UNIT_BYTES));
    p->profile_unit_bytes = integer(o, RP_KEY(RP_PROFILE_UNIT_BYTES));
    p->profile_line_bytes = integer(o, RP_KEY(RP_PROFILE_LINE_BYTES));
    p->launch_latency_us = num(o, RP_KEY(RP_LAUNCH_LATENCY_US));
    p->small_transfer_latency_us = num(o, RP_KEY(RP_SMALL_TRANSFER_LATENCY_US));
    p->small_transfer_bytes = integer(o, RP_KEY(RP_SMALL_TRANSFER_BYTES));
    const json_t *mem = json_object_get(o, RP_KEY(RP_MEMORY));
    p->memory = (results_merge_level){ NAN, num(mem, RP_KEY(RP_READ_GBS)), num(mem, RP_KEY(RP_LATENCY_NS)),
                                      num(mem, RP_KEY(RP_LATENCY_PER_CU_NS)) };
    const json_t *a = json_object_get(o, RP_KEY(RP_CACHE_LEVELS));
    size_t n = json_array_size(a);
    if (n) {
        if (!(p->levels = calloc(n, sizeof *p->levels)))
            return 0;
        for (size_t i = 0; i < n; i++) {
            const json_t *e = json_array_get(a, i);
            p->levels[p->n_levels++] = (results_merge_level){ num(e, RP_KEY(RP_SIZE_BYTES)), num(e, RP_KEY(RP_READ_GBS)),
                                                             num(e, RP_KEY(RP_LATENCY_NS)), num(e, RP_KEY(RP_LATENCY_PER_CU_NS)) };
        }
    }
    a = json_object_get(o, RP_KEY(RP_LADDER));
    n = json_array_size(a);
    if (n) {
        if (!(p->ladder = calloc(n, sizeof *p->ladder)))
            return 0;
        for (size_t i = 0; i < n; i++) {
            const json_t *e = json_array_get(a, i);
            p->ladder[p->n_ladder++] = (results_merge_ladder_point){ num(e, RP_KEY(RP_BYTES)), num(e, RP_KEY(RP_READ_GBS)),
                                                                    num(e, RP_KEY(RP_LATENCY_NS)),
                                                                    num(e, RP_KEY(RP_LATENCY_PER_CU_NS)) };
        }
    }
    a = json_object_get(o, RP_KEY(RP_TRANSFERS));
    n = json_array_size(a);
    if (n) {
        if (!(p->transfers = calloc(n, sizeof *p->transfers)))
            return 0;
        for (size_t i = 0; i < n; i++) {
            const json_t *e = json_array_get(a, i);
            results_merge_transfer *t = &p->transfers[p->n_transfers++];
            copy_str(t->direction, sizeof t->direction, json_string_value(json_object_get(e, RP_KEY(RP_DIRECTION))));
            copy_str(t->memory, sizeof t->memory, json_string_value(json_object_get(e, RP_KEY(RP_TRANSFER_MEMORY))));
            t->blocking = json_is_true(json_object_get(e, RP_KEY(RP_BLOCKING)));
            t->bytes = num(e, RP_KEY(RP_TRANSFER_BYTES));
            t->gbs = num(e, RP_KEY(RP_GBS));
            t->us = num(e, RP_KEY(RP_US));
        }
    }
    return 1;
}

void results_merge_probe_clear(results_merge_probe *p)
{
    free(p->file);
    free(p->date);
    free(p->status);
    free(p->note);
    free(p->unit_agreement);
    free(p->levels);
    free(p->ladder);
    free(p->transfers);
    memset(p, 0, sizeof *p);
}
