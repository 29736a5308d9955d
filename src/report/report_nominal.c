/* report_nominal: data/nominal.json loaded and checked, the rule that
 * matches a device to an entry, and the nominal peaks set on merged
 * results (report_nominal.h). */
#include "report_nominal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_alloc.h"
#include "bw_file.h"
#include "results_merge.h"
#include "report_nominal_priv.h"

#define NOMINAL_SCHEMA "bwlab.nominal"

bw_code report_nominal_check(const json_t *table, bw_error *err)
{
    const json_t *devs = json_object_get(table, "devices");
    const char *schema = json_string_value(json_object_get(table, "schema"));
    if (!json_is_object(table) || !schema || strcmp(schema, NOMINAL_SCHEMA) != 0)
        return bw_error_set(err, BW_E_FORMAT, "not a nominal table (schema is not '%s')", NOMINAL_SCHEMA);
    if (!json_is_array(devs))
        return bw_error_set(err, BW_E_FORMAT, "devices is missing or not an array");
    size_t i;
    const json_t *e;
    json_array_foreach(devs, i, e) {
        static const char *const strs[] = { "name", "dram_source", "fp32_source" };
        static const char *const lists[] = { "vendor", "name_all", "name_none" };
        static const char *const nums[] = { "dram_gbs", "fp32_gflops" };
        for (size_t k = 0; k < 3; k++)
            if (!json_is_string(json_object_get(e, strs[k])))
                return bw_error_set(err, BW_E_FORMAT, "devices[%zu].%s is missing or not a string", i, strs[k]);
        for (size_t k = 0; k < 3; k++) {
            const json_t *a = json_object_get(e, lists[k]);
            size_t j;
            const json_t *s;
            if (!json_is_array(a))
                return bw_error_set(err, BW_E_FORMAT, "devices[%zu].%s is missing or not an array", i, lists[k]);
            json_array_foreach(a, j, s) if (!json_is_string(s)) return bw_error_set(
                err, BW_E_FORMAT, "devices[%zu].%s[%zu] is not a string", i, lists[k], j);
        }
        for (size_t k = 0; k < 2; k++) {
            const json_t *v = json_object_get(e, nums[k]);
            if (!json_is_number(v) || json_number_value(v) <= 0)
                return bw_error_set(err, BW_E_FORMAT, "devices[%zu].%s is missing or not a positive number", i,
                                    nums[k]);
        }
    }
    return BW_OK;
}

/* lower case, without spaces, '-' and '_' */
static void fold(const char *s, char *out, size_t n)
{
    size_t j = 0;
    for (; s && *s && j + 1 < n; s++)
        if (*s != ' ' && *s != '-' && *s != '_')
            out[j++] = (char)tolower((unsigned char)*s);
    out[j] = 0;
}

static int has(const char *folded, const char *needle)
{
    char f[256];
    fold(needle, f, sizeof f);
    return strstr(folded, f) != NULL;
}

int report_nominal_find(const json_t *table, const char *vendor, const char *name, const char *board,
                        long long global_mem_bytes)
{
    char fv[256], fn[512], both[512];
    fold(vendor, fv, sizeof fv);
    snprintf(both, sizeof both, "%s %s", name ? name : "", board ? board : "");
    fold(both, fn, sizeof fn);
    size_t i, j;
    const json_t *e, *s;
    json_array_foreach(json_object_get(table, "devices"), i, e) {
        int ok = 0;
        json_array_foreach(json_object_get(e, "vendor"), j, s) ok |= has(fv, json_string_value(s));
        json_array_foreach(json_object_get(e, "name_all"), j, s) ok &= has(fn, json_string_value(s));
        json_array_foreach(json_object_get(e, "name_none"), j, s) ok &= !has(fn, json_string_value(s));
        const json_t *lo = json_object_get(e, "mem_min_gib"), *hi = json_object_get(e, "mem_max_gib");
        double gib = global_mem_bytes >= 0 ? (double)global_mem_bytes / (1024.0 * 1024 * 1024) : -1;
        if (ok && (json_is_number(lo) || json_is_number(hi)) && gib < 0)
            ok = 0; /* a bound the device cannot be checked against */
        if (ok && json_is_number(lo) && gib < json_number_value(lo))
            ok = 0;
        if (ok && json_is_number(hi) && gib >= json_number_value(hi))
            ok = 0;
        if (ok)
            return (int)i;
    }
    return -1;
}

double report_nominal_dram(const json_t *table, const char *vendor, const char *name, const char *board,
                           long long global_mem_bytes, const char **entry_name)
{
    *entry_name = NULL;
    int k = table ? report_nominal_find(table, vendor, name, board, global_mem_bytes) : -1;
    if (k < 0)
        return 0;
    const json_t *e = json_array_get(json_object_get(table, "devices"), (size_t)k);
    *entry_name = json_string_value(json_object_get(e, "name"));
    return json_number_value(json_object_get(e, "dram_gbs"));
}

bw_code report_nominal_load(json_t **table, bw_error *err)
{
    char *path = NULL, *text = NULL;
    *table = NULL;
    bw_code rc = bw_file_find_resource("data", "nominal.json", NULL, NULL, "BWLAB_DATA_DIR", &path, err);
    if (rc == BW_OK)
        rc = bw_file_read_regular(path, &text, NULL, err);
    if (rc != BW_OK) {
        free(path);
        return rc;
    }
    json_error_t je;
    unsigned long failed = bw_alloc_failures();
    json_t *t = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    double mb = (double)strlen(text) / 1e6;
    free(text);
    if (!t && (bw_alloc_failures() != failed || json_error_code(&je) == json_error_out_of_memory))
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory reading '%s' (%.1f MB)", path, mb);
    else if (!t)
        rc = bw_error_set(err, BW_E_FORMAT, "%s: invalid JSON at line %d: %s", path, je.line, je.text);
    else if ((rc = report_nominal_check(t, err)) != BW_OK)
        bw_error_prefix(err, "%s: ", path);
    free(path);
    if (rc == BW_OK)
        *table = t;
    else
        json_decref(t);
    return rc;
}

bw_code results_merge_apply_nominal(results_merged *m, bw_error *err)
{
    json_t *t;
    bw_code rc = report_nominal_load(&t, err);
    for (size_t d = 0; rc == BW_OK && d < m->n_devices; d++) {
        results_merge_device *dv = &m->devices[d];
        int k = report_nominal_find(t, dv->vendor, dv->name, dv->board_name, dv->global_mem_bytes);
        if (k < 0)
            continue;
        const json_t *e = json_array_get(json_object_get(t, "devices"), (size_t)k);
        free(dv->nominal_name);
        free(dv->nominal_dram_source);
        free(dv->nominal_fp32_source);
        dv->nominal_name = strdup(json_string_value(json_object_get(e, "name")));
        dv->nominal_dram_source = strdup(json_string_value(json_object_get(e, "dram_source")));
        dv->nominal_fp32_source = strdup(json_string_value(json_object_get(e, "fp32_source")));
        dv->nominal_dram_gbs = json_number_value(json_object_get(e, "dram_gbs"));
        dv->nominal_fp32_gflops = json_number_value(json_object_get(e, "fp32_gflops"));
        if (!dv->nominal_name || !dv->nominal_dram_source || !dv->nominal_fp32_source)
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    json_decref(t);
    return rc;
}
