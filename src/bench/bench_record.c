#include "bench_record.h"

#include <stdlib.h>

#include "bench_kernel.h"
#include "bw_buf.h"
#include "model_access.h"

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

bw_code bench_record_program(const char *dir, const bench_record_shape *s, int trace, char **source, bw_error *err)
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
                      "#define BW_AOS %d\n",
                  BENCH_RECORD_KERNEL, s->fields, (long long)s->n, s->type == MODEL_RECORD_UCHAR,
                  s->layout == MODEL_RECORD_AOS);
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
