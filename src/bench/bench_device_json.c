/* bench_device_json: one device as the JSON object every results
 * document embeds (its "device"), with its profile (bench_device.h). */
#include "bench_device.h"

#include <string.h>

#include "results_json.h"

static json_t *juint(uint64_t v)
{
    return json_integer((json_int_t)v);
}

/* 0 means "the device does not say" for the vendor queries */
static json_t *juint_or_null(uint64_t v)
{
    return v ? juint(v) : json_null();
}

static json_t *extensions_json(const char *list)
{
    json_t *a = json_array();
    if (!a || !list)
        return a;
    const char *s = list;
    while (*s) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        if (n)
            json_array_append_new(a, json_stringn(s, n));
        s += n;
    }
    return a;
}

static json_t *profile_json(const bench_device *d)
{
    if (!d->usable)
        return json_null();
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "name", results_json_text(d->profile_name));
    json_object_set_new(o, "why", results_json_text(d->profile_why));
    json_object_set_new(o, "lanes", json_integer(d->geo.lanes));
    json_object_set_new(o, "sector_bytes", json_integer(d->geo.sector));
    json_object_set_new(o, "line_bytes", json_integer(d->geo.line));
    json_object_set_new(o, "banks", d->geo.banks > 0 ? json_integer(d->geo.banks) : json_null());
    json_object_set_new(o, "bank_width",
                        d->geo.banks > 0 ? json_integer(d->geo.bank_width) : json_null());
    return o;
}

json_t *bench_device_json(const bench_device *d, int is_default)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "index", juint(d->index));
    json_object_set_new(o, "default", json_boolean(is_default));
    json_object_set_new(o, "platform", results_json_text(d->platform_name));
    json_object_set_new(o, "platform_index", juint(d->platform_index));
    json_object_set_new(o, "platform_vendor", results_json_text(d->platform_vendor));
    json_object_set_new(o, "platform_version", results_json_text(d->platform_version));
    json_object_set_new(o, "name", results_json_text(d->name));
    json_object_set_new(o, "board_name", results_json_text(d->board_name));
    json_object_set_new(o, "vendor", results_json_text(d->vendor));
    json_object_set_new(o, "vendor_id", juint(d->vendor_id));
    json_object_set_new(o, "type", results_json_text(d->type_name));
    json_object_set_new(o, "driver_version", results_json_text(d->driver_version));
    json_object_set_new(o, "device_version", results_json_text(d->device_version));
    json_object_set_new(o, "opencl_c_version", results_json_text(d->opencl_c_version));
    json_object_set_new(o, "compute_units", juint(d->compute_units));
    json_object_set_new(o, "clock_mhz", juint(d->clock_mhz));
    json_object_set_new(o, "global_mem_bytes", juint(d->global_mem_bytes));
    json_object_set_new(o, "max_alloc_bytes", juint(d->max_alloc_bytes));
    json_object_set_new(o, "global_cache_bytes", juint(d->global_cache_bytes));
    json_object_set_new(o, "global_cache_line_bytes", juint(d->global_cache_line_bytes));
    json_object_set_new(o, "local_mem_type", results_json_text(d->local_mem_type));
    json_object_set_new(o, "local_mem_bytes", juint(d->local_mem_bytes));
    json_object_set_new(o, "max_work_group_size", juint(d->max_work_group_size));
    json_object_set_new(o, "preferred_vector_width_float", juint(d->preferred_vector_width_float));
    json_object_set_new(o, "address_bits", juint(d->address_bits));
    json_object_set_new(o, "warp_size_nv", juint_or_null(d->warp_size_nv));
    json_object_set_new(o, "wavefront_width_amd", juint_or_null(d->wavefront_width_amd));
    if (d->sub_group_sizes_intel) {
        json_t *a = json_array();
        for (size_t i = 0; a && i < d->n_sub_group_sizes_intel; i++)
            json_array_append_new(a, juint(d->sub_group_sizes_intel[i]));
        json_object_set_new(o, "sub_group_sizes_intel", a);
    } else {
        json_object_set_new(o, "sub_group_sizes_intel", json_null());
    }
    json_object_set_new(o, "timer_resolution_ns", juint(d->timer_resolution_ns));
    json_object_set_new(o, "host_unified_memory",
                        d->host_unified_memory < 0 ? json_null() : json_boolean(d->host_unified_memory));
    json_object_set_new(o, "extensions", extensions_json(d->extensions));
    json_object_set_new(o, "usable", json_boolean(d->usable));
    json_object_set_new(o, "broken_reason", results_json_text(d->broken_reason));
    json_object_set_new(o, "query_notes", results_json_text(d->query_notes));
    json_object_set_new(o, "reqd_sub_group_size", juint_or_null(d->reqd_sub_group_size));
    json_object_set_new(o, "profile", profile_json(d));
    return o;
}
