/* results_merge_range: valid ranges of the figures read back
 * (results_merge_range.h; docs/results.md, "Valid ranges"). */
#include "results_merge_range.h"
#include "results_roofline_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_lanes.h"
#include "results_fields.h"
#include "results_json.h"
#include "results_run_fields.h"
#include "results_json_priv.h"
#include "results_merge_range_priv.h"

#define WHOLE_MAX 4611686018427387904.0 /* 2^62 */

typedef struct range_def {
    double lo, hi;
    int whole;         /* a whole number */
    const char *text;  /* the range in words */
} range_def;

static const range_def RANGES[] = {
    [RESULTS_RANGE_GBS] = { 1e-6, 1e6, 0, "null, or 1e-06 to 1e+06 GB/s" },
    [RESULTS_RANGE_GFLOPS] = { 1e-6, 1e9, 0, "null, or 1e-06 to 1e+09 GFLOP/s" },
    [RESULTS_RANGE_RATIO] = { 1e-9, 1e9, 0, "null, or a ratio of 1e-09 to 1e+09" },
    [RESULTS_RANGE_INTENSITY] = { 1e-9, 1e9, 0, "null, or 1e-09 to 1e+09 FLOP/byte" },
    [RESULTS_RANGE_EFFICIENCY] = { 0, 1, 0, "null, or an efficiency of 0 to 1" },
    [RESULTS_RANGE_PREDICTED] = { 0, 4096, 0, "null, or 0 to 4096 (lanes x elem_bytes / sector_bytes at most)" },
    [RESULTS_RANGE_TIME_NS] = { 1e-3, 1e15, 0, "null, or 0.001 to 1e+15 ns" },
    [RESULTS_RANGE_TIME_US] = { 1e-6, 1e12, 0, "null, or 1e-06 to 1e+12 us" },
    [RESULTS_RANGE_SPREAD] = { 0, 1e15, 0, "null, or 0 to 1e+15" },
    [RESULTS_RANGE_BYTES] = { 0, WHOLE_MAX, 1, "null, or a whole number of bytes from 0 to 2^62" },
    [RESULTS_RANGE_COUNT] = { 0, WHOLE_MAX, 1, "null, or a whole number from 0 to 2^62" },
    [RESULTS_RANGE_UNIT] = { 1, WHOLE_MAX, 1, "null, or a whole number from 1 to 2^62" },
    [RESULTS_RANGE_LANES] = { 1, MODEL_MAX_LANES, 1, "null, or a whole number of lanes from 1 to 1024" },
    [RESULTS_RANGE_ELEM] = { 1, 16, 1, "null, or 1, 2, 4, 8 or 16 bytes" },
    [RESULTS_RANGE_NONE] = { -HUGE_VAL, HUGE_VAL, 0, "not checked" },
};

const char *results_range_text(results_range kind)
{
    return RANGES[kind].text;
}

int results_range_ok(results_range kind, double v)
{
    const range_def *d = &RANGES[kind];
    if (!isfinite(v) || v < d->lo || v > d->hi)
        return 0;
    if (d->whole && floor(v) != v)
        return 0;
    if (kind == RESULTS_RANGE_ELEM)
        return v == 1 || v == 2 || v == 4 || v == 8 || v == 16;
    return 1;
}

/* o[path], following dots into nested objects; NULL when absent */
static const json_t *at(const json_t *o, const char *path)
{
    char key[64];
    while (o && json_is_object(o)) {
        const char *dot = strchr(path, '.');
        if (!dot)
            return json_object_get(o, path);
        size_t n = (size_t)(dot - path);
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        o = json_object_get(o, key);
        path = dot + 1;
    }
    return NULL;
}

static int check_value(const json_t *v, const char *key, results_range kind, char *msg, size_t n)
{
    if (!v || json_is_null(v))
        return 1;
    if (!json_is_number(v)) {
        snprintf(msg, n, "%s is %s, expected a number (%s)", key, results_json_kind(v), RANGES[kind].text);
        return 0;
    }
    double x = json_number_value(v);
    if (results_range_ok(kind, x))
        return 1;
    if (json_is_integer(v))
        snprintf(msg, n, "%s is %lld, outside its valid range (%s)", key, (long long)json_integer_value(v),
                 RANGES[kind].text);
    else
        snprintf(msg, n, "%s is %.17g, outside its valid range (%s)", key, x, RANGES[kind].text);
    return 0;
}

int results_range_check(const json_t *o, const char *key, results_range kind, char *msg, size_t n)
{
    return check_value(at(o, key), key, kind, msg, n);
}

const char *results_range_fields(const json_t *o, const results_range_field *f, char *msg, size_t n)
{
    for (; f->key; f++)
        if (!results_range_check(o, f->key, f->kind, msg, n))
            return f->key;
    return NULL;
}

/* ---- the lists ---- */

/* the nested figures of a result (its plain scalar ones: results_fields) */
static const results_range_field RESULT[] = {
    { "time_ns.min", RESULTS_RANGE_TIME_NS },
    { "time_ns.median", RESULTS_RANGE_TIME_NS },
    { "time_ns.mean", RESULTS_RANGE_TIME_NS },
    { "time_ns.stddev", RESULTS_RANGE_SPREAD },
    { "time_ns.count", RESULTS_RANGE_COUNT },
    { "time_ns.rse", RESULTS_RANGE_SPREAD },
    { "wall_ns.min", RESULTS_RANGE_TIME_NS },
    { "wall_ns.median", RESULTS_RANGE_TIME_NS },
    { "wall_ns.mean", RESULTS_RANGE_TIME_NS },
    { "wall_ns.stddev", RESULTS_RANGE_SPREAD },
    { "wall_ns.count", RESULTS_RANGE_COUNT },
    { "wall_ns.rse", RESULTS_RANGE_SPREAD },
    { "model.sector_bytes", RESULTS_RANGE_UNIT },
    { "model.line_bytes", RESULTS_RANGE_UNIT },
    { "model.sector_efficiency", RESULTS_RANGE_EFFICIENCY },
    { "model.predicted_efficiency", RESULTS_RANGE_PREDICTED },
    { "model.requested_bytes", RESULTS_RANGE_BYTES },
    { "model.instruction_model_bytes", RESULTS_RANGE_BYTES },
    { "model.footprint_bytes", RESULTS_RANGE_BYTES },
    { "model.warp0.requested_bytes", RESULTS_RANGE_BYTES },
    { "model.warp0.distinct_bytes", RESULTS_RANGE_BYTES },
    { "model.warp0.sectors", RESULTS_RANGE_COUNT },
    { "model.warp0.lines", RESULTS_RANGE_COUNT },
    { "model.warp0.sector_efficiency", RESULTS_RANGE_EFFICIENCY },
    { "model.warp0.line_efficiency", RESULTS_RANGE_EFFICIENCY },
    { "model.loads.predicted_efficiency", RESULTS_RANGE_PREDICTED },
    { "model.loads.requested_bytes", RESULTS_RANGE_BYTES },
    { "model.loads.instruction_model_bytes", RESULTS_RANGE_BYTES },
    { "model.loads.footprint_bytes", RESULTS_RANGE_BYTES },
    { "model.stores.predicted_efficiency", RESULTS_RANGE_PREDICTED },
    { "model.stores.requested_bytes", RESULTS_RANGE_BYTES },
    { "model.stores.instruction_model_bytes", RESULTS_RANGE_BYTES },
    { "model.stores.footprint_bytes", RESULTS_RANGE_BYTES },
    { NULL, RESULTS_RANGE_GBS },
};

/* ---- one result ---- */

static const char *const STATUSES[] = { "ok", "failed", "not-measurable", "not-run", NULL };

/* the measured figures only a row of status "ok" carries: results_fields' measured ones */
const char *results_range_unmeasured_figure(const json_t *r)
{
    for (int id = 0; id < RF_COUNT; id++)
        if (RESULTS_FIELDS[id].measured && json_is_number(json_object_get(r, RF_KEY(id))))
            return RF_KEY(id);
    return NULL;
}

/* 1 when the row is its own reference: `reference` names its pattern, or
 * (a file without `reference`) it is a seq row */
static int own_reference(const json_t *r)
{
    const char *pat = json_string_value(json_object_get(r, RF_KEY(RF_PATTERN)));
    const json_t *ref = json_object_get(r, RF_KEY(RF_REFERENCE));
    if (!pat)
        return 0;
    if (json_is_string(ref))
        return !strcmp(json_string_value(ref), pat);
    if (ref && !json_is_null(ref))
        return 0;
    return !strcmp(pat, "seq") || !strncmp(pat, "seq:", 4);
}

static double whole_or(const json_t *o, const char *path, double def)
{
    const json_t *v = at(o, path);
    return json_is_number(v) ? json_number_value(v) : def;
}

/* a number's value, NAN when v is no number */
static double num_or_nan(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* v for a message: "%.17g", or "absent" for a figure the file leaves out
 * (a message never says nan); buf holds 32 bytes */
static const char *figure(char *buf, double v)
{
    if (isnan(v))
        snprintf(buf, 32, "absent");
    else
        snprintf(buf, 32, "%.17g", v);
    return buf;
}

/* The row's figures against each other, each in range already: a best
 * time's rate at least the median's, min <= median <= max, a known space,
 * a verdict that is an object with a known code, and "stable" only where
 * something was timed. 0 with msg set at the first contradiction. */
static int figures_agree(const json_t *r, char *msg, size_t n)
{
    double best = num_or_nan(json_object_get(r, RF_KEY(RF_BEST_GBS))),
           eff = num_or_nan(json_object_get(r, RF_KEY(RF_EFFECTIVE_GBS)));
    if (best < eff * (1 - 1e-9)) {
        snprintf(msg, n, "best_gbs %.17g is below effective_gbs %.17g (the best launch is at least the median)",
                 best, eff);
        return 0;
    }
    const json_t *t = json_object_get(r, RUN_KEY(RUNR_TIME_NS));
    double lo = num_or_nan(json_object_get(t, RTIME_KEY(RTIME_MIN)));
    double med = num_or_nan(json_object_get(t, RTIME_KEY(RTIME_MEDIAN)));
    double hi = num_or_nan(json_object_get(t, "max")); /* not written by bwlab: a hand-made file's */
    if (lo > med * (1 + 1e-9) || med > hi * (1 + 1e-9) || lo > hi * (1 + 1e-9)) {
        char a[32], b[32], c[32];
        snprintf(msg, n, "time_ns has min %s, median %s, max %s: not min <= median <= max", figure(a, lo),
                 figure(b, med), figure(c, hi));
        return 0;
    }
    const json_t *sp = json_object_get(r, RF_KEY(RF_SPACE));
    if (sp && !json_is_null(sp) &&
        !(json_is_string(sp) && (!strcmp(json_string_value(sp), "global") || !strcmp(json_string_value(sp), "local")))) {
        char q[256];
        snprintf(msg, n, "space is %s, expected \"global\" or \"local\"",
                 json_is_string(sp) ? results_range_name(json_string_value(sp), q) : "not a string");
        return 0;
    }
    const json_t *v = json_object_get(r, RUN_KEY(RUNR_VERDICT));
    if (v && !json_is_null(v)) {
        static const char *const codes[] = { "below-lower-bound", "at-lower-bound", "between-bounds", "at-upper-bound",
                                             "above-upper-bound", "at-model", "kernel-bound", "no-reference" };
        const char *code = json_string_value(json_object_get(v, RUN_KEY(RUNV_CODE)));
        int known = 0;
        for (size_t i = 0; code && i < sizeof codes / sizeof codes[0]; i++)
            known |= !strcmp(code, codes[i]);
        if (!json_is_object(v) || !known) {
            char q[256];
            snprintf(msg, n, "verdict is %s, expected an object whose code is one bwlab writes (at-model, ...)",
                     !json_is_object(v) ? "not an object" : code ? results_range_name(code, q) : "an object without a code");
            return 0;
        }
    }
    double count = num_or_nan(json_object_get(t, RTIME_KEY(RTIME_COUNT)));
    if (json_is_true(json_object_get(r, RF_KEY(RF_STABLE))) && !(count >= 1)) {
        snprintf(msg, n, "stable is true with time_ns.count %s: nothing timed cannot be stable",
                 json_is_number(json_object_get(t, RTIME_KEY(RTIME_COUNT))) ? "0" : "missing");
        return 0;
    }
    return 1;
}

int results_range_result(const json_t *r, char *msg, size_t n)
{
    const json_t *st = json_object_get(r, RF_KEY(RF_STATUS));
    if (json_is_string(st)) {
        const char *s = json_string_value(st);
        size_t i = 0;
        while (STATUSES[i] && strcmp(STATUSES[i], s) != 0)
            i++;
        if (!STATUSES[i]) {
            char q[256];
            snprintf(msg, n, "status is '%s', expected \"ok\", \"failed\", \"not-measurable\" or \"not-run\"",
                     results_range_name(s, q));
            return 0;
        }
    }
    const json_t *acc = json_object_get(r, RF_KEY(RF_ACCESS));
    if (acc && json_is_null(acc)) {
        snprintf(msg, n,
                 "access is null, expected \"copy\", \"read\" or \"write\" (only a file without the key is copy mode)");
        return 0;
    }
    if (json_is_string(acc) && strcmp(json_string_value(acc), "copy") != 0 &&
        strcmp(json_string_value(acc), "read") != 0 && strcmp(json_string_value(acc), "write") != 0) {
        char q[256];
        snprintf(msg, n, "access is '%s', expected \"copy\", \"read\" or \"write\"",
                 results_range_name(json_string_value(acc), q));
        return 0;
    }
    for (int id = 0; id < RF_COUNT; id++)
        if (RESULTS_FIELDS[id].ranged && !results_range_check(r, RF_KEY(id), RESULTS_FIELDS[id].range, msg, n))
            return 0;
    if (results_range_fields(r, RESULT, msg, n))
        return 0;
    /* the loads' predicted efficiency's own bound: one sector serving the
     * whole warp (the stores may be of another size: a record's fold is a
     * float whatever its fields' type) */
    double lanes = whole_or(r, RF_KEY(RF_LANES), NAN), elem = whole_or(r, RF_KEY(RF_ELEM_BYTES), NAN),
           sector = whole_or(r, "model.sector_bytes", NAN);
    if (lanes > 0 && elem > 0 && sector > 0) {
        double bound = lanes * elem / sector;
        static const char *const pred[] = { "model.predicted_efficiency", "model.loads.predicted_efficiency" };
        for (size_t i = 0; i < 2; i++) {
            const json_t *v = at(r, pred[i]);
            if (json_is_number(v) && json_number_value(v) > bound * (1 + 1e-9)) {
                snprintf(msg, n,
                         "%s is %.17g, outside its valid range (0 to lanes x elem_bytes / model.sector_bytes = "
                         "%.17g: one sector serving the whole warp)",
                         pred[i], json_number_value(v), bound);
                return 0;
            }
        }
    }
    const json_t *al = json_object_get(r, RF_KEY(RF_ACTIVE_LANES));
    if (lanes > 0 && json_is_number(al) && json_number_value(al) > lanes) {
        snprintf(msg, n, "active_lanes is %.17g, outside its valid range (0 to lanes = %.17g)", json_number_value(al),
                 lanes);
        return 0;
    }
    if (!figures_agree(r, msg, n))
        return 0;
    if (own_reference(r)) {
        const char *const rel[] = { RF_KEY(RF_RELATIVE_TO_SEQ), RF_KEY(RF_RELATIVE_TO_REFERENCE) };
        for (size_t i = 0; i < 2; i++) {
            const json_t *v = json_object_get(r, rel[i]);
            if (json_is_number(v) && fabs(json_number_value(v) - 1) > 1e-6) {
                snprintf(msg, n,
                         "%s is %.17g on the reference row itself, expected 1 (a row divided by itself; 1e-06 "
                         "of rounding allowed)",
                         rel[i], json_number_value(v));
                return 0;
            }
        }
    }
    return 1;
}

const char *results_range_name(const char *s, char out[256])
{
    size_t j = 0, i = 0;
    for (; s[i] && j < 60 && j + 5 < 256; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            j += (size_t)snprintf(out + j, 256 - j, "\\x%02x", c);
        else
            out[j++] = (char)c;
    }
    /* never half a UTF-8 character */
    while (s[i] && ((unsigned char)s[i] & 0xC0) == 0x80 && j > 0 && ((unsigned char)out[j - 1] & 0x80)) {
        j--;
        i--;
    }
    if (s[i] && j + 3 < 256) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = 0;
    return out;
}
