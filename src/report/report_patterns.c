/* report_patterns: the pattern catalogue as a table or JSON: each
 * family's parameters with their defaults and what it shows
 * (report_patterns.h). */
#include "report_patterns.h"

#include <jansson.h>
#include <string.h>

#include "model_pattern.h"
#include "report_format.h"

static void params_text(const model_pattern_family *f, bw_buf *b)
{
    for (int i = 0; i < f->nparams; i++) {
        const model_pattern_param *q = &f->params[i];
        if (q->names) {
            /* the default first, then the other names */
            bw_buf_printf(b, "%s=%s", q->key, q->names[q->def]);
            for (int64_t v = q->min; q->names[v]; v++)
                if (v != q->def)
                    bw_buf_printf(b, "|%s", q->names[v]);
            bw_buf_putc(b, ',');
        } else {
            bw_buf_printf(b, "%s=%lld,", q->key, (long long)q->def);
        }
    }
    if (f->elem_fixed > 0)
        bw_buf_printf(b, "elem=%d", f->elem_fixed);
    else if (f->elem_fixed < 0 && b->len)
        b->data[--b->len] = '\0'; /* the parameters set the element size */
    else
        bw_buf_puts(b, "elem=4|8|16");
}

bw_code report_patterns_table(int W, bw_buf *out, bw_error *err)
{
    size_t n;
    const model_pattern_family *fs = model_pattern_families(&n);
    bw_buf_printf(out, "%-12s %-30s %s\n", "PATTERN", "PARAMETERS (defaults)", "SHOWS");
    for (size_t i = 0; i < n; i++) {
        bw_buf p = BW_BUF_INIT;
        params_text(&fs[i], &p);
        bw_buf_printf(out, "%-12s %-30s %s\n", fs[i].name, bw_buf_str(&p), fs[i].shows);
        bw_buf_free(&p);
    }
    bw_buf_printf(out, "\nSpecs: NAME[:key=value,...], e.g. stride:s=4, aos:struct=12,field=4, seq:elem=16.\n"
                       "Addresses for any pattern: bwlab model --pattern SPEC (profile nvidia, W = %d).\n", W);
    (void)err;
    return BW_OK;
}

bw_code report_patterns_json(int W, bw_buf *out, bw_error *err)
{
    size_t n;
    const model_pattern_family *fs = model_pattern_families(&n);
    json_t *arr = json_array();
    bw_code rc = BW_OK;
    for (size_t i = 0; i < n && rc == BW_OK; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(fs[i].name));
        json_object_set_new(o, "shows", json_string(fs[i].shows));
        json_object_set_new(o, "space", json_string(fs[i].space == MODEL_PATTERN_SPACE_LOCAL ? "local" : "global"));
        json_object_set_new(o, "kernel", json_string(fs[i].kernel));
        json_t *ps = json_array();
        for (int k = 0; k < fs[i].nparams; k++) {
            json_t *p = json_object();
            const model_pattern_param *q = &fs[i].params[k];
            json_object_set_new(p, "name", json_string(q->key));
            if (q->names) {
                /* named values: the default's name and every allowed name */
                json_t *vs = json_array();
                for (int64_t v = q->min; q->names[v]; v++)
                    json_array_append_new(vs, json_string(q->names[v]));
                json_object_set_new(p, "default", json_string(q->names[q->def]));
                json_object_set_new(p, "allowed", vs);
            } else {
                json_object_set_new(p, "default", json_integer(q->def));
                json_object_set_new(p, "min", json_integer(q->min));
                json_object_set_new(p, "max", json_integer(q->max));
            }
            json_object_set_new(p, "meaning", json_string(fs[i].params[k].meaning));
            json_array_append_new(ps, p);
        }
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string("elem"));
        json_object_set_new(e, "default", json_integer(MODEL_PATTERN_DEFAULT_ELEM));
        json_object_set_new(e, "allowed", fs[i].elem_fixed > 0 ? json_pack("[i]", fs[i].elem_fixed)
                                          : fs[i].elem_fixed < 0 ? json_array()
                                                                 : json_pack("[iii]", 4, 8, 16));
        json_object_set_new(e, "meaning", json_string(fs[i].elem_fixed < 0 ? "bytes per lane, set by the other "
                                                                              "parameters (not given)"
                                                                            : "bytes per lane"));
        json_array_append_new(ps, e);
        json_object_set_new(o, "params", ps);
        model_pattern *pat = NULL;
        if ((rc = model_pattern_parse(fs[i].name, W, 0, &pat, err)) == BW_OK) {
            json_object_set_new(o, "spec", json_string(pat->spec));
            json_object_set_new(o, "example_expression", json_string(pat->expr_text));
            json_object_set_new(o, "example_lanes", json_integer(W));
        }
        model_pattern_free(pat);
        json_array_append_new(arr, o);
    }
    if (rc != BW_OK) {
        json_decref(arr);
        return rc;
    }
    return results_json_dump(arr, out, err);
}
