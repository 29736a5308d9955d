/* bench_record: the record family's kernel program, host fold and
 * checks, and the record entry of the family table, bench_family_record
 * (bench_record.h, bench_family.h). */
#include "bench_record.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench_family.h"
#include "bench_run_row.h"
#include "results_json.h"
#include "bench_kernel.h"
#include "bench_validate.h"
#include "bw_buf.h"
#include "bw_format.h"
#include "model_access.h"
#include "model_launch.h"
#include "results_fields.h"
#include "results_run_fields.h"

bench_record_shape bench_record_shape_of(const model_pattern *p)
{
    bench_record_shape s;
    s.fields = (int)model_pattern_param_value(p, "fields");
    s.type = (model_record_type)model_pattern_param_value(p, "type");
    s.layout = (model_record_layout)model_pattern_param_value(p, "layout");
    s.n = model_pattern_param_value(p, "n");
    return s;
}

int64_t bench_record_field_bytes(const bench_record_shape *s)
{
    return s->type == MODEL_RECORD_UCHAR ? 1 : 4;
}

const char *bench_record_type_name(model_record_type t)
{
    return t == MODEL_RECORD_UCHAR ? "uchar" : "float";
}

const char *bench_record_layout_name(model_record_layout l)
{
    return l == MODEL_RECORD_SOA ? "soa" : "aos";
}

bw_code bench_record_program(const char *dir, const bench_record_shape *s, int unroll, int trace, char **source,
                             bw_error *err)
{
    *source = NULL;
    char *text = NULL;
    bw_buf b = BW_BUF_INIT;
    bw_code rc = bench_kernel_source_load(dir, "record.cl", &text, NULL, err);
    if (rc != BW_OK)
        goto fail;
    bw_buf_printf(&b, "/* bwlab: the record kernel, %lld records of %d %s fields, %s */\n", (long long)s->n, s->fields,
                  bench_record_type_name(s->type), bench_record_layout_name(s->layout));
    if (trace)
        bw_buf_puts(&b, "#define BWLAB_TRACE 1\n");
    bw_buf_printf(&b, "#define BW_KERNEL_RECORD %s\n#define BW_FIELDS %d\n#define BW_N %lldL\n#define BW_UCHAR %d\n"
                      "#define BW_AOS %d\n#define BW_UNROLL %d\n",
                  BENCH_RECORD_KERNEL, s->fields, (long long)s->n, s->type == MODEL_RECORD_UCHAR,
                  s->layout == MODEL_RECORD_AOS, unroll > 1 ? unroll : 1);
    bw_buf_puts(&b, text);
    *source = bw_buf_steal(&b);
    if (!*source)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
fail:
    bw_buf_free(&b);
    free(text);
    return rc;
}

static uint32_t field_at(const bench_record_shape *s, const uint8_t *in, int64_t word)
{
    if (s->type == MODEL_RECORD_UCHAR)
        return in[word];
    const uint8_t *q = in + word * 4; /* little-endian words, as the device reads them */
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

uint32_t bench_record_fold(const bench_record_shape *s, const uint8_t *in, int64_t g)
{
    uint32_t acc = 0;
    for (int f = 0; f < s->fields; f++) {
        int64_t word = s->layout == MODEL_RECORD_AOS ? g * s->fields + f : f * s->n + g;
        acc = (acc << 5 | acc >> 27) ^ field_at(s, in, word);
    }
    return acc;
}

bw_code bench_record_validate(const char *spec, const bench_record_shape *s, const uint8_t *in,
                              const uint32_t *out, int64_t g0, int64_t count, bw_error *err)
{
    for (int64_t i = 0; i < count; i++) {
        uint32_t want = bench_record_fold(s, in, g0 + i);
        if (out[i] != want)
            return bw_error_set(err, BW_E_VALIDATION,
                                "pattern '%s': record %lld's fold of its %d fields is 0x%08x, expected 0x%08x",
                                spec, (long long)(g0 + i), s->fields, (unsigned)out[i], (unsigned)want);
    }
    return BW_OK;
}

bw_code bench_record_validate_trace(const model_geometry *geo, const model_pattern *p, const char *spec,
                                    int64_t items, const int64_t *trace, bw_error *err)
{
    enum { CHUNK = 1 << 16 };
    int64_t *addr = malloc((size_t)CHUNK * sizeof *addr);
    if (!addr)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = BW_OK;
    for (int f = 0; f < p->loads && rc == BW_OK; f++) {
        model_access a = { p->expr, p->elem, p->active, items, p->load_base[f], 0 };
        for (int64_t g0 = 0; g0 < items && rc == BW_OK; g0 += CHUNK) {
            int64_t n = items - g0 < CHUNK ? items - g0 : CHUNK;
            if ((rc = model_access_addresses(geo, &a, g0, n, addr, err)) != BW_OK)
                break;
            for (int64_t i = 0; i < n; i++) {
                int64_t want = addr[i] == MODEL_ADDR_INACTIVE ? -1 : addr[i];
                if (trace[f * items + g0 + i] != want) {
                    rc = bw_error_set(err, BW_E_VALIDATION,
                                      "pattern '%s': kernel and model disagree on field %d's load; first: record "
                                      "%lld used byte %lld, the model says %lld",
                                      spec, f, (long long)(g0 + i), (long long)trace[f * items + g0 + i],
                                      (long long)want);
                    break;
                }
            }
        }
    }
    free(addr);
    return rc;
}

/* ---- the record entry of the family table (bench_family.h) ---- */

/* n from the working set where the spec does not give it (the largest
 * multiple of the work-group whose n*F fields fit the target and the
 * cap), the pattern parsed again at that n; one work-item per record; the
 * model's F loads (expression + load_base[f]) and the store. */
static bw_code size_record(bench_plan *p, bench_item *it, const bench_plan_cap *cap, bw_error *err)
{
    int64_t local = p->local_size;
    bench_record_shape s = bench_record_shape_of(it->pattern);
    int64_t rec = s.fields * bench_record_field_bytes(&s);
    bw_code rc;
    if (it->auto_n) {
        uint64_t most = p->target_bytes < cap->bytes ? p->target_bytes : cap->bytes;
        /* a multiple of K work-groups for any K (bench_plan_fit_unroll)
         * where that drops at most 1/BENCH_UNROLL_ROUNDING of the records */
        int64_t unit = most / (uint64_t)rec >= (uint64_t)(BENCH_UNROLL_ROUNDING * local * BENCH_UNROLL_MAX)
                           ? local * BENCH_UNROLL_MAX
                           : local;
        int64_t n = (int64_t)(most / (uint64_t)rec) / unit * unit;
        if (n > (int64_t)1 << 30)
            n = ((int64_t)1 << 30) / local * local;
        if (n < local)
            n = local;
        char spec[128];
        snprintf(spec, sizeof spec, "record:fields=%d,type=%s,layout=%s,n=%lld", s.fields,
                 bench_record_type_name(s.type), bench_record_layout_name(s.layout), (long long)n);
        if ((rc = bench_plan_reparse(p, it, spec, err)) != BW_OK)
            return rc;
        s = bench_record_shape_of(it->pattern);
    }
    int64_t n = s.n;
    if ((uint64_t)(n * rec) > cap->bytes || (uint64_t)(n * 4) > cap->bytes) {
        char a[32];
        bw_format_bytes(a, sizeof a, (double)(n * rec));
        return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': its %s of records (or its 4-byte results) is larger "
                                              "than %s; give a smaller n",
                            it->spec, a, cap->full);
    }
    if (n % local != 0)
        return bw_error_set(err, BW_E_USAGE, "pattern '%s': work-groups of %lld do not divide its %lld records; "
                                             "use an n that is a multiple of %lld",
                            it->spec, (long long)local, (long long)n, (long long)local);
    const model_pattern *pat = it->pattern;
    model_access acc[MODEL_PATTERN_MAX_LOADS + 1];
    it->span = (model_access_span){ 0, INT64_MAX, 0, (int64_t)1 << 20 };
    for (int f = 0; f < pat->loads; f++) {
        acc[f] = (model_access){ pat->expr, pat->elem, pat->active, n, pat->load_base[f], 0 };
        model_access_span sp;
        if ((rc = model_access_span_of(&p->geo, &acc[f], &sp, err)) != BW_OK)
            return rc;
        it->span.any |= sp.any;
        it->span.min_addr = sp.min_addr < it->span.min_addr ? sp.min_addr : it->span.min_addr;
        it->span.max_end = sp.max_end > it->span.max_end ? sp.max_end : it->span.max_end;
        it->span.align = sp.align < it->span.align ? sp.align : it->span.align;
    }
    acc[pat->loads] = (model_access){ it->store_expr, 4, pat->active, n, 0, 1 };
    if ((rc = model_launch_count(&p->geo, acc, (size_t)pat->loads + 1, &it->model, err)) != BW_OK)
        return rc;
    it->items = n;
    it->elem = pat->elem;
    free(it->size_note);
    it->size_note = it->auto_n ? NULL : bench_plan_note_small(p, "of records", (uint64_t)(n * rec));
    it->local_size = local;
    it->vload = 0;
    bench_plan_fit_unroll(p, it);
    return bench_plan_warp0(p, it, err);
}

/* the planar form, record:layout=soa */
static int record_is_reference(const bench_item *it)
{
    return bench_family_is(it, MODEL_PATTERN_KERNEL_RECORD) &&
           model_pattern_param_value(it->pattern, "layout") == MODEL_RECORD_SOA;
}

/* whether record item b is the soa counterpart of record item a: the same
 * fields, type and n (both sized from the working set, or the same given n) */
static int record_counterpart(const bench_item *a, const bench_item *b)
{
    return record_is_reference(b) && a->auto_n == b->auto_n &&
           model_pattern_param_value(a->pattern, "fields") == model_pattern_param_value(b->pattern, "fields") &&
           model_pattern_param_value(a->pattern, "type") == model_pattern_param_value(b->pattern, "type") &&
           model_pattern_param_value(a->pattern, "n") == model_pattern_param_value(b->pattern, "n");
}

static long record_reference(const bench_plan *p, size_t i)
{
    for (size_t k = 0; k < p->n; k++)
        if (record_counterpart(&p->items[i], &p->items[k]))
            return (long)k;
    return -1;
}

/* the planar (soa) form: the same fields, type and n, given or sized
 * from the working set */
static int record_reference_spec(const bench_plan *p, size_t i, char *buf, size_t n)
{
    if (record_reference(p, i) >= 0)
        return 0;
    const model_pattern *pat = p->items[i].pattern;
    int len = snprintf(buf, n, "record:fields=%lld,type=%s,layout=soa",
                       (long long)model_pattern_param_value(pat, "fields"),
                       bench_record_type_name((model_record_type)model_pattern_param_value(pat, "type")));
    if (!p->items[i].auto_n && len >= 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ",n=%lld", (long long)model_pattern_param_value(pat, "n"));
    return 1;
}

/* its own program at the item's shape; src is in, dst is out */
static bw_code record_program(const char *dir, const bench_plan *p, const bench_item *it, int trace,
                              bench_family_program *out, bw_error *err)
{
    (void)p;
    bench_record_shape s = bench_record_shape_of(it->pattern);
    out->file = "record.cl";
    out->kernel = BENCH_RECORD_KERNEL;
    return bench_record_program(dir, &s, bench_item_unroll(it), trace, &out->source, err);
}

/* One launch, then every record's fold, a staging buffer of results at a
 * time, against the host's fold (bench_record_validate) of the source
 * bytes, regenerated a band of records at a time (aos: the band's
 * records; soa: the whole planes, held once). */
static bw_code record_validate(const bench_family_io *io, bw_error *err)
{
    const bench_item *it = &io->plan->items[io->index];
    bw_code rc = bench_family_fill_dst(io, (uint64_t)(it->items * it->elem), err);
    if (rc != BW_OK)
        return rc;
    bench_record_shape s = bench_record_shape_of(it->pattern);
    int64_t bytes = s.n * s.fields * bench_record_field_bytes(&s);
    int64_t band = (int64_t)(io->stage_bytes / 4);
    uint8_t *in = malloc((size_t)bytes);
    rc = in ? BW_OK : bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (rc == BW_OK) {
        bench_fill_random_at(in, 0, (uint64_t)bytes, io->seed);
        rc = io->launch(io->ctx, err);
    }
    for (int64_t g = 0; rc == BW_OK && g < s.n; g += band) {
        int64_t count = s.n - g < band ? s.n - g : band;
        if (io->stop && *io->stop) {
            rc = bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
            break;
        }
        rc = io->read_dst(io->ctx, (uint64_t)g * 4, io->stage, (uint64_t)count * 4, err);
        if (rc == BW_OK)
            rc = bench_record_validate(it->spec, &s, in, (const uint32_t *)io->stage, g, count, err);
    }
    free(in);
    return rc;
}

static unsigned record_trace_arg(const bench_item *it)
{
    (void)it;
    return BENCH_RECORD_ARG_TRACE;
}

/* every field's load address of every work-item against the model's */
static bw_code record_check_trace(const bench_plan *p, const bench_item *it, const int64_t *trace, bw_error *err)
{
    return bench_record_validate_trace(&p->geo, it->pattern, it->spec, it->items, trace, err);
}

/* its keys of its own on a result of the run's document (docs/results.md, results[]) */
static void record_doc_keys(json_t *o, const bench_run_doc *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    /* relative_to_seq and relative_to_reference are against the soa
     * form of the same fields, type and n, never seq */
    bench_record_shape sh = bench_record_shape_of(it->pattern);
    record_ratios q = record_ratios_of(run, i);
    json_t *bases = json_array();
    for (int f = 0; f < it->pattern->loads; f++)
        json_array_append_new(bases, json_integer(it->pattern->load_base[f]));
    json_object_set_new(o, RUN_KEY(RUNY_LAYOUT), results_json_text(bench_record_layout_name(sh.layout)));
    json_object_set_new(o, RUN_KEY(RUNY_FIELDS), json_integer(sh.fields));
    json_object_set_new(o, RUN_KEY(RUNY_FIELD_TYPE), results_json_text(bench_record_type_name(sh.type)));
    json_object_set_new(o, RUN_KEY(RUNY_RECORD_BYTES), json_integer(sh.fields * bench_record_field_bytes(&sh)));
    json_object_set_new(o, RUN_KEY(RUNY_N), json_integer(sh.n));
    json_object_set_new(o, RUN_KEY(RUNY_N_FROM), results_json_text(it->auto_n ? "working set" : "spec"));
    json_object_set_new(o, RUN_KEY(RUNY_LOADS_PER_ITEM), json_integer(it->pattern->loads));
    json_object_set_new(o, RUN_KEY(RUNY_LOAD_BASES), bases);
    json_object_set_new(o, RUN_KEY(RUNY_STORE_EXPRESSION),
                        it->pattern->store_text ? results_json_text(it->pattern->store_text) : json_null());
    json_object_set_new(o, RF_KEY(RF_RELATIVE_TO_REFERENCE), results_json_real(r->relative_to_reference, w.ok));
    json_object_set_new(o, RF_KEY(RF_MEASURED_TIME_RATIO), results_json_real(q.time, w.ok && !isnan(q.time)));
    json_object_set_new(o, RF_KEY(RF_MODELED_INSTRUCTION_RATIO), results_json_real(q.instr, !isnan(q.instr)));
    json_object_set_new(o, RF_KEY(RF_MODELED_FOOTPRINT_RATIO), results_json_real(q.footprint, !isnan(q.footprint)));
}

const bench_family bench_family_record = {
    .kernel = MODEL_PATTERN_KERNEL_RECORD,
    .space = "global",
    .access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY),
    .access_why = "its kernel reads every field and stores their fold",
    .modeled = 1,
    .retry_half = 1,
    .dst_elem = 4,
    .sized_n = 1,
    .unrolls = 1,
    .no_twin = "no twin: a record item is compared with its planar (soa) form",
    .size = size_record,
    .index_form = bench_family_index_long,
    .is_reference = record_is_reference,
    .reference = record_reference,
    .reference_spec = record_reference_spec,
    .program = record_program,
    .validate = record_validate,
    .trace_arg = record_trace_arg,
    .check_trace = record_check_trace,
    .bytes = bench_family_model_bytes,
    .doc_keys = record_doc_keys,
};
