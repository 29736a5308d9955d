/* results_merge_schema: the check of a results document before it is
 * merged (results_merge_schema.h). */
#include "results_merge_schema.h"
#include "results_roofline_keys.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results_fields.h"
#include "results_json.h"
#include "results_merge_probe.h"
#include "results_schema.h"
#include "results_run_fields.h"
#include "results_json_priv.h"

/* the first problem found is the one kept */
void report_check_fail(report_check *c, const char *fmt, ...)
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
static double opt_num(report_check *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NAN;
    if (!json_is_number(v)) {
        report_check_fail(c, "%s.%s is %s, expected a number or null", where, key, results_json_kind(v));
        return NAN;
    }
    return json_number_value(v);
}

/* An optional integer: -1 when absent or null. */
static long long opt_int(report_check *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return -1;
    if (!json_is_integer(v)) {
        report_check_fail(c, "%s.%s is %s, expected an integer or null", where, key, results_json_kind(v));
        return -1;
    }
    return (long long)json_integer_value(v);
}

/* An optional string: NULL when absent or null. */
static const char *opt_str(report_check *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        report_check_fail(c, "%s.%s is %s, expected a string or null", where, key, results_json_kind(v));
        return NULL;
    }
    return json_string_value(v);
}

static const char *req_str(report_check *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v) {
        report_check_fail(c, "%s.%s is missing", where, key);
        return NULL;
    }
    if (!json_is_string(v)) {
        report_check_fail(c, "%s.%s is %s, expected a string", where, key, results_json_kind(v));
        return NULL;
    }
    return json_string_value(v);
}

static int opt_bool(report_check *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v)) {
        report_check_fail(c, "%s.%s is %s, expected true or false", where, key, results_json_kind(v));
        return 0;
    }
    return json_is_true(v);
}

/* An optional object: NULL when absent or null. */
static const json_t *opt_obj(report_check *c, const json_t *o, const char *where, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_object(v)) {
        report_check_fail(c, "%s.%s is %s, expected an object or null", where, key, results_json_kind(v));
        return NULL;
    }
    return v;
}

/* Checks a results document (or a journal assembled into one) completely
 * before anything is merged, so a bad file adds nothing. */
/* The type of every checked field of a result (results_fields), in table
 * order: the first mistyped one, or a required one missing, is named. */
static void check_fields(report_check *c, const json_t *r, const char *where)
{
    for (int id = 0; id < RF_COUNT && !c->bad; id++) {
        const results_field *f = &RESULTS_FIELDS[id];
        if (!f->checked)
            continue;
        switch (f->type) {
        case RESULTS_FIELD_STRING:
            if (f->required)
                req_str(c, r, where, f->key);
            else
                opt_str(c, r, where, f->key);
            break;
        case RESULTS_FIELD_INTEGER: opt_int(c, r, where, f->key); break;
        case RESULTS_FIELD_NUMBER: opt_num(c, r, where, f->key); break;
        case RESULTS_FIELD_BOOL: opt_bool(c, r, where, f->key); break;
        }
    }
}

/* runs[i]: an object with a device (an index and a name), the types of
 * its keys, the probe figures of a --transfers run and the roofline */
static void check_run(report_check *c, const json_t *run, size_t i)
{
    char where[64];
    snprintf(where, sizeof where, "runs[%zu]", i);
    if (!json_is_object(run)) {
        report_check_fail(c, "%s is %s, expected an object", where, results_json_kind(run));
        return;
    }
    const json_t *dev = json_object_get(run, RUN_KEY(RUNF_DEVICE));
    if (!dev || !json_is_object(dev)) {
        report_check_fail(c, dev ? "%s.device is %s, expected an object" : "%s.device is missing%s", where,
                 dev ? results_json_kind(dev) : "");
        return;
    }
    char dw[80];
    snprintf(dw, sizeof dw, "%s.device", where);
    const json_t *idx = json_object_get(dev, "index");
    if (!idx || !json_is_integer(idx)) {
        report_check_fail(c, idx ? "%s.index is %s, expected an integer" : "%s.index is missing%s", dw,
                 idx ? results_json_kind(idx) : "");
        return;
    }
    req_str(c, dev, dw, "name");
    opt_str(c, dev, dw, "vendor");
    opt_str(c, dev, dw, "driver_version");
    opt_str(c, dev, dw, "platform");
    opt_str(c, dev, dw, "board_name");
    opt_int(c, dev, dw, "compute_units");
    opt_str(c, run, where, RUN_KEY(RUNF_STATUS));
    opt_str(c, run, where, RUN_KEY(RUNF_FAILURE));
    opt_num(c, run, where, RUN_KEY(RUNF_PEAK_READ_GBS));
    opt_num(c, run, where, RUN_KEY(RUNF_PEAK_COPY_GBS));
    const json_t *prof = opt_obj(c, run, where, RUN_KEY(RUNF_PROFILE));
    if (prof) {
        char pw[80];
        snprintf(pw, sizeof pw, "%s.profile", where);
        opt_str(c, prof, pw, "name");
        opt_int(c, prof, pw, "lanes");
        opt_int(c, prof, pw, "sector_bytes");
    }
    if (!c->bad && !results_merge_probe_check_run(run, where, c->msg, sizeof c->msg))
        c->bad = 1;
    const json_t *roof = opt_obj(c, run, where, RUN_KEY(RUNF_ROOFLINE));
    if (roof) {
        const json_t *pts = json_object_get(roof, RR_KEY(RR_POINTS));
        if (pts && !json_is_null(pts) && !json_is_array(pts))
            report_check_fail(c, "%s.roofline.points is %s, expected an array", where, results_json_kind(pts));
    }
}

/* results[i]: an object whose device names one of runs[], the types of
 * its fields (results_fields) and of its model */
static void check_result(report_check *c, const json_t *r, const json_t *runs, size_t i)
{
    char where[64];
    snprintf(where, sizeof where, "results[%zu]", i);
    if (!json_is_object(r)) {
        report_check_fail(c, "%s is %s, expected an object", where, results_json_kind(r));
        return;
    }
    const json_t *d = json_object_get(r, RF_KEY(RF_DEVICE));
    if (!d || !json_is_integer(d)) {
        report_check_fail(c, d ? "%s.device is %s, expected an integer" : "%s.device is missing%s", where,
                 d ? results_json_kind(d) : "");
        return;
    }
    int found = 0;
    size_t k;
    const json_t *run;
    json_array_foreach(runs, k, run) {
        if (json_integer_value(json_object_get(json_object_get(run, RUN_KEY(RUNF_DEVICE)), "index")) ==
            json_integer_value(d))
            found = 1;
    }
    if (!found) {
        report_check_fail(c, "%s.device is %lld, which no runs[].device.index names", where,
                 (long long)json_integer_value(d));
        return;
    }
    check_fields(c, r, where);
    const json_t *mo = opt_obj(c, r, where, "model");
    if (mo) {
        char mw[80];
        snprintf(mw, sizeof mw, "%s.model", where);
        opt_num(c, mo, mw, "sector_efficiency");
        opt_num(c, mo, mw, "predicted_efficiency");
    }
}

void report_check_doc(report_check *c, const json_t *root)
{
    if (!json_is_object(root)) {
        report_check_fail(c, "the top level is %s, expected a bwlab results object", results_json_kind(root));
        return;
    }
    const char *schema = req_str(c, root, "top level", "schema");
    if (c->bad)
        return;
    if (strcmp(schema, RESULTS_RUN_SCHEMA) != 0) {
        report_check_fail(c, "schema is '%s', expected '%s' (a file written by bwlab run --format json) or '" RESULTS_PROBE_SCHEMA "' (bwlab probe --format json)", schema,
                 RESULTS_RUN_SCHEMA);
        return;
    }
    const json_t *ver = json_object_get(root, "schema_version");
    if (!ver) {
        report_check_fail(c, "top level.schema_version is missing");
        return;
    }
    if (!json_is_integer(ver)) {
        report_check_fail(c, "top level.schema_version is %s, expected an integer", results_json_kind(ver));
        return;
    }
    json_int_t v = json_integer_value(ver);
    if (v < 1) {
        report_check_fail(c, "schema_version %lld is not a valid schema version (versions start at 1)", (long long)v);
        return;
    }
    if (v > RESULTS_RUN_SCHEMA_VERSION) {
        report_check_fail(c, "unknown schema_version %lld (this bwlab reads 1 to %d; a newer bwlab wrote it: compare with that version)",
                 (long long)v, RESULTS_RUN_SCHEMA_VERSION);
        return;
    }
    const json_t *runs = json_object_get(root, RUN_KEY(RUND_RUNS));
    if (!runs) {
        report_check_fail(c, "top level.runs is missing");
        return;
    }
    if (!json_is_array(runs)) {
        report_check_fail(c, "top level.runs is %s, expected an array", results_json_kind(runs));
        return;
    }
    const json_t *results = json_object_get(root, RUN_KEY(RUND_RESULTS));
    if (!results) {
        report_check_fail(c, "top level.results is missing");
        return;
    }
    if (!json_is_array(results)) {
        report_check_fail(c, "top level.results is %s, expected an array", results_json_kind(results));
        return;
    }
    opt_str(c, root, "top level", "date");
    opt_bool(c, root, "top level", "interrupted");
    opt_obj(c, root, "top level", "host");
    opt_str(c, root, "top level", "note");
    size_t i;
    const json_t *run;
    json_array_foreach(runs, i, run) {
        check_run(c, run, i);
        if (c->bad)
            return;
    }
    if (json_array_size(results) == 0) {
        report_check_fail(c, "no results (results[] is empty: the run measured nothing)");
        return;
    }
    const json_t *r;
    json_array_foreach(results, i, r) {
        check_result(c, r, runs, i);
        if (c->bad)
            return;
    }
}
