/* model_profile: device profiles read from data/profiles.json, checked
 * field by field, found by name, and matched to a device from the facts
 * the OpenCL layer queried (model_profile.h). */
#include "model_profile.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_alloc.h"
#include "bw_buf.h"
#include "bw_file.h"
#include "model_profile_priv.h"

struct model_profiles {
    model_profile *items;
    size_t count;
};

static void free_strv(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void profile_clear(model_profile *p)
{
    free(p->name);
    free(p->title);
    free(p->lanes_from);
    free(p->sector_from);
    free(p->line_from);
    free(p->match_type);
    free_strv(p->match_vendor, p->n_match_vendor);
    free_strv(p->match_name, p->n_match_name);
    free_strv(p->sources, p->n_sources);
}

void model_profiles_free(model_profiles *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->count; i++)
        profile_clear(&p->items[i]);
    free(p->items);
    free(p);
}

typedef struct reader {
    const char *origin;
    const char *profile;
    bw_error *err;
} reader;

static bw_code bad(reader *r, const char *field, const char *why)
{
    return bw_error_set(r->err, BW_E_FORMAT, "%s: profile '%s': field '%s' %s", r->origin,
                        r->profile ? r->profile : "?", field, why);
}

static bw_code get_int(reader *r, json_t *obj, const char *key, int required, int64_t min,
                       int64_t max, int64_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return bad(r, key, "is missing");
        return BW_OK;
    }
    if (!json_is_integer(v))
        return bad(r, key, "is not an integer");
    json_int_t x = json_integer_value(v);
    if (x < min || x > max)
        return bad(r, key, "is out of range");
    *out = (int64_t)x;
    return BW_OK;
}

static bw_code get_str(reader *r, json_t *obj, const char *key, int required, char **out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return bad(r, key, "is missing");
        return BW_OK;
    }
    if (!json_is_string(v))
        return bad(r, key, "is not a string");
    *out = strdup(json_string_value(v));
    return *out ? BW_OK : bw_error_set(r->err, BW_E_NOMEM, "out of memory");
}

static bw_code get_strv(reader *r, json_t *obj, const char *key, char ***out, size_t *n)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return BW_OK;
    if (!json_is_array(v))
        return bad(r, key, "is not an array of strings");
    size_t len = json_array_size(v);
    if (len == 0)
        return BW_OK;
    char **s = calloc(len, sizeof *s);
    if (!s)
        return bw_error_set(r->err, BW_E_NOMEM, "out of memory");
    *out = s;
    for (size_t i = 0; i < len; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_string(e))
            return bad(r, key, "is not an array of strings");
        if (!(s[i] = strdup(json_string_value(e))))
            return bw_error_set(r->err, BW_E_NOMEM, "out of memory");
        *n = i + 1;
    }
    return BW_OK;
}

static const char *const queries[] = { "warp_size_nv", "wavefront_width_amd",
                                       "preferred_vector_width_float",
                                       "preferred_work_group_size_multiple",
                                       "global_mem_cacheline_size", "sub_group_sizes_intel" };

static bw_code check_query(reader *r, const char *field, const char *q)
{
    if (!q)
        return BW_OK;
    /* a list of SIMD widths says nothing about bytes */
    if (!strcmp(q, "sub_group_sizes_intel") && strcmp(field, "lanes_from") != 0)
        return bad(r, field, "names a lanes-only device query");
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++)
        if (!strcmp(q, queries[i]))
            return BW_OK;
    return bad(r, field, "names an unknown device query");
}

static bw_code read_profile(reader *r, json_t *o, model_profile *p)
{
    bw_code rc;
    if (!json_is_object(o))
        return bw_error_set(r->err, BW_E_FORMAT, "%s: a profile is not an object", r->origin);
    json_t *name = json_object_get(o, "name");
    r->profile = json_is_string(name) ? json_string_value(name) : NULL;
    int64_t lanes = 0, banks = 0;
    if ((rc = get_str(r, o, "name", 1, &p->name)) || (rc = get_str(r, o, "title", 0, &p->title)) ||
        (rc = get_int(r, o, "lanes", 1, 1, 1024, &lanes)) ||
        (rc = get_int(r, o, "sector", 1, 1, 1 << 20, &p->geo.sector)) ||
        (rc = get_int(r, o, "line", 1, 1, 1 << 20, &p->geo.line)) ||
        (rc = get_int(r, o, "banks", 1, 0, 1024, &banks)) ||
        (rc = get_int(r, o, "bank_width", 1, 1, 1 << 20, &p->geo.bank_width)) ||
        (rc = get_str(r, o, "lanes_from", 0, &p->lanes_from)) ||
        (rc = get_str(r, o, "sector_from", 0, &p->sector_from)) ||
        (rc = get_str(r, o, "line_from", 0, &p->line_from)) ||
        (rc = check_query(r, "lanes_from", p->lanes_from)) ||
        (rc = check_query(r, "sector_from", p->sector_from)) ||
        (rc = check_query(r, "line_from", p->line_from)) ||
        (rc = get_strv(r, o, "sources", &p->sources, &p->n_sources)))
        return rc;
    /* measured or given, never assumed: null until then */
    json_t *du = json_object_get(o, "dram_unit_bytes");
    if (du && !json_is_null(du) && (rc = get_int(r, o, "dram_unit_bytes", 0, 1, 1 << 20, &p->geo.dram_unit)))
        return rc;
    p->geo.lanes = (int)lanes;
    p->geo.banks = (int)banks;
    bw_error inner = BW_ERROR_INIT;
    if (model_geometry_check(&p->geo, &inner) != BW_OK) {
        rc = bw_error_set(r->err, BW_E_FORMAT, "%s: profile '%s': %s", r->origin, p->name,
                          bw_error_text(&inner));
        bw_error_clear(&inner);
        return rc;
    }
    json_t *m = json_object_get(o, "match");
    if (m && !json_is_object(m))
        return bad(r, "match", "is not an object");
    if (m) {
        if ((rc = get_str(r, m, "type", 0, &p->match_type)) ||
            (rc = get_strv(r, m, "vendor", &p->match_vendor, &p->n_match_vendor)) ||
            (rc = get_strv(r, m, "name", &p->match_name, &p->n_match_name)))
            return rc;
    }
    return BW_OK;
}

bw_code model_profiles_parse(const char *json_text, const char *origin, model_profiles **out,
                             bw_error *err)
{
    *out = NULL;
    json_error_t jerr;
    unsigned long failed = bw_alloc_failures();
    json_t *root = json_loads(json_text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root && (bw_alloc_failures() != failed || json_error_code(&jerr) == json_error_out_of_memory))
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading '%s' (%.1f MB)", origin,
                            (double)strlen(json_text) / 1e6);
    if (!root)
        return bw_error_set(err, BW_E_FORMAT, "%s: line %d, column %d: %s", origin, jerr.line,
                            jerr.column, jerr.text);
    bw_code rc = BW_OK;
    model_profiles *ps = calloc(1, sizeof *ps);
    json_t *arr = json_object_get(root, "profiles");
    reader r = { origin, NULL, err };
    if (!ps) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        goto done;
    }
    if (!json_is_array(arr) || json_array_size(arr) == 0) {
        rc = bw_error_set(err, BW_E_FORMAT, "%s: no 'profiles' array", origin);
        goto done;
    }
    ps->items = calloc(json_array_size(arr), sizeof *ps->items);
    if (!ps->items) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
        goto done;
    }
    /* names seen so far: a hash set (a jansson object), not a quadratic scan */
    json_t *seen = json_object();
    if (!seen)
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    for (size_t i = 0; i < json_array_size(arr) && rc == BW_OK; i++) {
        ps->count = i + 1;
        rc = read_profile(&r, json_array_get(arr, i), &ps->items[i]);
        if (rc == BW_OK && json_object_get(seen, ps->items[i].name))
            rc = bw_error_set(err, BW_E_FORMAT, "%s: profile '%s' is defined twice", origin,
                              ps->items[i].name);
        else if (rc == BW_OK && json_object_set_new(seen, ps->items[i].name, json_true()) != 0)
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    json_decref(seen);
done:
    json_decref(root);
    if (rc != BW_OK) {
        model_profiles_free(ps);
        return rc;
    }
    *out = ps;
    return BW_OK;
}

bw_code model_profiles_load_default(model_profiles **out, bw_error *err)
{
    char *path = NULL, *text = NULL;
    *out = NULL;
    bw_code rc = bw_file_find_resource("data", "profiles.json", NULL, NULL, "BWLAB_DATA_DIR", &path, err);
    if (rc == BW_OK)
        rc = bw_file_read_regular(path, &text, NULL, err);
    if (rc == BW_OK)
        rc = model_profiles_parse(text, path, out, err);
    free(text);
    free(path);
    return rc;
}

size_t model_profiles_count(const model_profiles *p)
{
    return p->count;
}

const model_profile *model_profiles_at(const model_profiles *p, size_t i)
{
    return i < p->count ? &p->items[i] : NULL;
}

const model_profile *model_profiles_find(const model_profiles *p, const char *name)
{
    for (size_t i = 0; i < p->count; i++)
        if (!strcmp(p->items[i].name, name))
            return &p->items[i];
    return NULL;
}

bw_code model_profiles_get(const model_profiles *p, const char *name, const model_profile **out,
                           bw_error *err)
{
    *out = model_profiles_find(p, name);
    if (*out)
        return BW_OK;
    bw_buf b = BW_BUF_INIT;
    for (size_t i = 0; i < p->count; i++)
        bw_buf_printf(&b, "%s%s", i ? ", " : "", p->items[i].name);
    bw_code rc = bw_error_set(err, BW_E_USAGE, "unknown profile '%s' (known: %s)", name, bw_buf_str(&b));
    bw_buf_free(&b);
    return rc;
}

static int contains_ci(const char *hay, const char *needle)
{
    if (!hay)
        return 0;
    size_t n = strlen(needle);
    for (const char *h = hay; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static const char *any_in(const char *hay, char **needles, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (contains_ci(hay, needles[i]))
            return needles[i];
    return NULL;
}

const model_profile *model_profiles_match(const model_profiles *p, const model_device_facts *f,
                                          char *why, size_t n)
{
    for (size_t i = 0; i < p->count; i++) {
        const model_profile *pr = &p->items[i];
        if (pr->match_type && (!f->type || strcmp(pr->match_type, f->type) != 0))
            continue;
        const char *v = pr->n_match_vendor ? any_in(f->vendor, pr->match_vendor, pr->n_match_vendor) : "";
        const char *nm = pr->n_match_name ? any_in(f->name, pr->match_name, pr->n_match_name) : "";
        /* ROCm names a device by its gfx target and the card by its board
         * name; either may carry what identifies the architecture */
        const char *board = pr->n_match_name && !nm
                                ? any_in(f->board_name, pr->match_name, pr->n_match_name)
                                : NULL;
        if (!v || (!nm && !board))
            continue;
        if (why && n) {
            bw_buf b = BW_BUF_INIT;
            if (pr->match_type)
                bw_buf_printf(&b, "device type is %s", pr->match_type);
            if (*v)
                bw_buf_printf(&b, "%svendor '%s' contains '%s'", b.len ? ", " : "", f->vendor, v);
            if (nm && *nm)
                bw_buf_printf(&b, "%sname '%s' contains '%s'", b.len ? ", " : "", f->name, nm);
            else if (board)
                bw_buf_printf(&b, "%sboard name '%s' contains '%s'", b.len ? ", " : "",
                              f->board_name, board);
            if (!b.len)
                bw_buf_puts(&b, "no other profile matched");
            snprintf(why, n, "%s", bw_buf_str(&b));
            bw_buf_free(&b);
        }
        return pr;
    }
    if (why && n)
        snprintf(why, n, "no profile matched");
    return NULL;
}
