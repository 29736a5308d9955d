/* results_fields: the table of a result's scalar keys against the JSON
 * writer and the reader. A run of every family is made up (a plan at W = 8
 * and invented figures, no device) and written with bench_run_json;
 * every key of each result must be in the table or be one of the nested
 * or family keys, every head and twin field must be there with its
 * table type, and the document must pass the check and merge. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_run_priv.h"
#include "bench_plan_priv.h"
#include "results_csv.h"
#include "results_fields.h"
#include "results_merge.h"
#include "results_run_fields.h"
#include "results_doc_keys_priv.h"
#include "results_roofline_keys.h"
#include "results_tune_keys.h"
#include "test_keys.h"
#include "bench_run.h"
#include "report_results.h"

static const model_geometry geo8 = { 8, 64, 64, 32, 4, 0 };

/* keys a result has that are not plain scalars of the table: nested
 * objects, the explanation, and the family blocks' own figures */
static const char *const OTHER[] = { "form_time_ns", "launch_bounds", "time_ns", "wall_ns", "model", "verdict",
                                     "explain", "local_reads_per_item", "local_bytes", "tile_bytes", "version", "n",
                                     "n_from", "store_expression", "tile", "launch_items", "tile_pitch", "layout",
                                     "fields", "field_type", "record_bytes", "loads_per_item", "load_bases",
                                     "relative_to_seq_ci", "reference_check", NULL };

static int in_table(const char *key)
{
    for (int id = 0; id < RF_COUNT; id++)
        if (!strcmp(RF_KEY(id), key))
            return 1;
    for (size_t i = 0; OTHER[i]; i++)
        if (!strcmp(OTHER[i], key))
            return 1;
    return 0;
}

static int type_ok(results_field_type t, const json_t *v)
{
    switch (t) {
    case RESULTS_FIELD_STRING: return json_is_string(v);
    case RESULTS_FIELD_INTEGER: return json_is_integer(v);
    case RESULTS_FIELD_NUMBER: return json_is_number(v);
    case RESULTS_FIELD_BOOL: return json_is_boolean(v);
    }
    return 0;
}

/* the document of a made-up run of specs: every third pattern failed */
/* A made-up run of specs written as JSON (csv 0) or CSV (csv 1) into out */
static void made_up_write(const char *const *specs, size_t n, int csv, bw_buf *out)
{
    bench_limits l;
    memset(&l, 0, sizeof l);
    l.max_alloc_bytes = 1ull << 30;
    l.global_mem_bytes = 4ull << 30;
    l.max_work_group = 4096;
    l.address_bits = 64;
    bench_plan_opts o = { .specs = specs, .nspecs = n, .size = 4u << 20 };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    bench_device d;
    memset(&d, 0, sizeof d);
    d.platform_name = d.platform_vendor = d.platform_version = d.name = d.vendor = "x";
    d.driver_version = d.device_version = d.opencl_c_version = d.extensions = "x";
    d.local_mem_type = "local";
    d.type_name = "cpu";
    d.profile_name = "cpu";
    d.profile_why = "test";
    d.geo = p->geo;
    d.host_unified_memory = -1;
    bench_result *res = calloc(p->n, sizeof *res);
    for (size_t i = 0; i < p->n; i++) {
        bench_result *r = &res[i];
        r->reference = -1;
        r->twin_ratio = NAN;
        r->spread = r->relative_spread = NAN;
        if (i % 3 == 2) {
            r->status = BENCH_FAILED;
            r->failure = "validation failed";
            continue;
        }
        r->status = BENCH_OK;
        r->validated = 1;
        r->effective_gbs = 10.0 + (double)i;
        r->relative_to_reference = 1.0;
        r->reference = (long)i; /* its own reference: relative 1 */
        r->best_gbs = 12.0 + (double)i;
        r->twin_ratio = 0.5;
        r->bound = BENCH_BOUND_MEMORY;
        r->event.median = r->event.min = r->event.mean = 1000.0;
        r->event.count = 5;
        r->wall = r->event;
        r->spread = 0.01;
        r->relative_spread = 0.02;
        r->stable = 1;
    }
    bench_run_info info;
    memset(&info, 0, sizeof info);
    info.seq_item = info.relative_item = -1;
    bench_settings s = bench_settings_default();
    bench_run_doc run = { .device = &d, .is_default = 1, .plan = p, .results = res, .info = &info };
    char *argv[] = { "bwlab", NULL };
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 1, argv, &s, NULL, 0 };
    if (csv)
        report_results_csv(&m, &run, 1, out);
    else
        cr_assert_eq(bench_run_json(&m, &run, 1, out, &err), BW_OK, "%s", bw_error_text(&err));
    free(res);
    bench_plan_free(p);
}

static json_t *made_up_run(const char *const *specs, size_t n)
{
    bw_buf b = BW_BUF_INIT;
    made_up_write(specs, n, 0, &b);
    json_error_t je;
    json_t *doc = json_loads(bw_buf_str(&b), 0, &je);
    cr_assert(doc, "%s", je.text);
    bw_buf_free(&b);
    return doc;
}

static const char *const SPECS[] = { "seq", "stride:s=2", "matrix-col:n=512", "bank:pitch=33",
                                     "bank:pitch=32,stride=2", "transpose:version=padded",
                                     "record:layout=aos,fields=3" };

Test(results_fields, every_key_the_writer_emits_is_in_the_table)
{
    json_t *doc = made_up_run(SPECS, sizeof SPECS / sizeof *SPECS);
    json_t *results = json_object_get(doc, "results");
    cr_assert_gt(json_array_size(results), 7, "references are added: more results than specs");
    cr_assert(!in_table("no_such_key"));
    size_t i;
    json_t *r;
    json_array_foreach(results, i, r) {
        const char *key;
        json_t *v;
        json_object_foreach(r, key, v)
            cr_expect(in_table(key), "results[%zu].%s is in no table", i, key);
        for (int id = 0; id < RF_COUNT; id++) {
            const results_field *f = &RESULTS_FIELDS[id];
            v = json_object_get(r, f->key);
            if (f->group != RESULTS_FIELD_FAMILY)
                cr_expect(v != NULL, "results[%zu] lacks %s", i, f->key);
            if (v && !json_is_null(v))
                cr_expect(type_ok(f->type, v), "results[%zu].%s has another type than the table's", i, f->key);
        }
    }
    json_decref(doc);
}

/* runs[]: every key written is the run table's, of the table's type, and
 * every key the table always writes ("run") is there */
Test(results_fields, every_runs_key_the_writer_emits_is_in_the_run_table)
{
    json_t *doc = made_up_run(SPECS, sizeof SPECS / sizeof *SPECS);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    cr_assert(json_is_object(run));
    const char *key;
    json_t *v;
    json_object_foreach(run, key, v) {
        const results_doc_key *f = results_doc_key_find(RESULTS_RUN_FIELDS, RUNF_COUNT, key, v);
        cr_expect(f != NULL, "runs[0].%s is in no row of the run table of its type", key);
        if (f)
            cr_expect(!strncmp(f->where, "run", 3), "runs[0].%s is the table's key of %s", key, f->where);
    }
    for (size_t k = 0; k < RUNF_COUNT; k++)
        if (!strcmp(RESULTS_RUN_FIELDS[k].where, "run"))
            cr_expect(json_object_get(run, RUN_KEY(k)) != NULL, "runs[0] lacks %s", RUN_KEY(k));
    json_decref(doc);
}

/* The whole document, every object walked: each key below the head is a
 * row of the run table, of a result's fields, or (the tune peaks, the
 * short roofline) of its command's table, with that row's type */
Test(results_fields, every_key_of_the_run_document_is_in_a_table)
{
    json_t *doc = made_up_run(SPECS, sizeof SPECS / sizeof *SPECS);
    static results_doc_key fields[RF_COUNT];
    static const results_key_type types[] = { [RESULTS_FIELD_STRING] = RK_STRING, [RESULTS_FIELD_INTEGER] = RK_INTEGER,
                                              [RESULTS_FIELD_NUMBER] = RK_NUMBER, [RESULTS_FIELD_BOOL] = RK_BOOL };
    for (int id = 0; id < RF_COUNT; id++)
        fields[id] = (results_doc_key){ RF_KEY(id), types[RESULTS_FIELDS[id].type], NULL, RESULTS_FIELDS[id].unit,
                                        RESULTS_FIELDS[id].range, "result" };
    const tu_key_table tables[] = { { RESULTS_RUN_FIELDS, RUNF_COUNT }, { fields, RF_COUNT },
                                    { RESULTS_TUNE_KEYS, RT_COUNT }, { RESULTS_ROOFLINE_KEYS, RR_COUNT } };
    size_t n = tu_expect_doc_keys(doc, tables, sizeof tables / sizeof tables[0]);
    cr_expect_gt(n, 150, "only %zu distinct keys met", n);
    json_decref(doc);
}

Test(results_fields, the_check_and_the_merge_accept_what_the_writer_wrote)
{
    json_t *doc = made_up_run(SPECS, sizeof SPECS / sizeof *SPECS);
    results_merged *m = NULL;
    cr_assert_eq(results_load_doc(doc, "made up", &m, NULL), BW_OK);
    for (size_t k = 0; k < m->n_diags; k++)
        cr_expect(!m->diags[k].is_error, "%s", m->diags[k].message);
    cr_expect_eq(m->n_diags, 0, "every figure is in range");
    size_t n = json_array_size(json_object_get(doc, "results"));
    cr_expect_eq(m->n_entries, n, "one entry per result: one run, every pattern distinct");
    /* the reader's places: a sample's figures from a measured row only */
    size_t failed = 0;
    for (size_t k = 0; k < m->n_entries; k++) {
        const results_merge_entry *e = &m->entries[k];
        cr_assert_eq(e->n_samples, 1);
        const results_merge_sample *s = &e->samples[0];
        if (!strcmp(s->status, "ok")) {
            cr_expect(s->effective_gbs >= 10.0 && s->best_gbs == s->effective_gbs + 2.0);
            cr_expect_float_eq(s->relative_to_seq, 1.0, 1e-12);
        } else {
            cr_expect_str_eq(s->status, "failed");
            failed++;
            cr_expect(isnan(s->effective_gbs) && isnan(s->best_gbs));
        }
        cr_expect(e->elem_bytes > 0);
        cr_expect(e->expression != NULL || !strcmp(m->rows[e->row].space, "local"));
    }
    cr_expect_gt(failed, 0);
    results_merged_free(m);
    json_decref(doc);
}

/* the number of fields of one CSV line (RFC 4180: commas inside quotes do not count) */
static size_t csv_fields(const char *line, size_t len)
{
    size_t n = 1;
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted)
            n++;
    }
    return n;
}

/* The CSV writer's header is the column table's, and every row has one
 * field per column, the figures in their columns */
Test(results_fields, the_csv_writer_follows_the_column_table)
{
    bw_buf b = BW_BUF_INIT, h = BW_BUF_INIT;
    made_up_write(SPECS, sizeof SPECS / sizeof SPECS[0], 1, &b);
    results_csv_header(&h);
    const char *text = bw_buf_str(&b);
    cr_assert(!strncmp(text, bw_buf_str(&h), strlen(bw_buf_str(&h))), "%s", text);
    size_t rows = 0;
    for (const char *line = strchr(text, '\n') + 1; *line; rows++) {
        const char *end = strchr(line, '\n');
        cr_assert(end);
        cr_expect_eq(csv_fields(line, (size_t)(end - line)), (size_t)RC_COUNT, "%.*s", (int)(end - line), line);
        if (rows == 0) {
            /* seq, the made-up run's first row: 10 GB/s, 5 launches, copy */
            cr_expect(strstr(line, ",ok,ok,10,1,1000,1000,1000,0,5,"), "%.*s", (int)(end - line), line);
        }
        line = end + 1;
    }
    cr_expect(rows >= sizeof SPECS / sizeof SPECS[0]);
    bw_buf_free(&b);
    bw_buf_free(&h);
}

