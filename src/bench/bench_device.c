/* bench_device: a device's provenance record filled from the OpenCL
 * layer's discovery, one device or a list of them (bench_device.h). */
#include "bench_device_priv.h"
#include "bench_device.h"

#include <stdlib.h>
#include <string.h>

#include "ocl_device.h"

void bench_device_of(const ocl_device_info *d, int is_default, bench_device *out)
{
    memset(out, 0, sizeof *out);
    out->index = d->index;
    out->is_default = is_default;
    out->platform_index = d->platform_index;
    out->platform_name = d->platform_name;
    out->platform_vendor = d->platform_vendor;
    out->platform_version = d->platform_version;
    out->name = d->name;
    out->vendor = d->vendor;
    out->driver_version = d->driver_version;
    out->device_version = d->device_version;
    out->opencl_c_version = d->opencl_c_version;
    out->board_name = d->board_name;
    out->vendor_id = d->vendor_id;
    out->type_name = d->type_name;
    out->compute_units = d->compute_units;
    out->clock_mhz = d->clock_mhz;
    out->global_mem_bytes = d->global_mem_bytes;
    out->max_alloc_bytes = d->max_alloc_bytes;
    out->global_cache_bytes = d->global_cache_bytes;
    out->global_cache_line_bytes = d->global_cache_line_bytes;
    out->local_mem_type = d->local_mem_type;
    out->local_mem_bytes = d->local_mem_bytes;
    out->max_work_group_size = d->max_work_group_size;
    out->preferred_vector_width_float = d->preferred_vector_width_float;
    out->warp_size_nv = d->warp_size_nv;
    out->wavefront_width_amd = d->wavefront_width_amd;
    out->sub_group_sizes_intel = d->sub_group_sizes_intel;
    out->n_sub_group_sizes_intel = d->n_sub_group_sizes_intel;
    out->address_bits = d->address_bits;
    out->timer_resolution_ns = d->timer_resolution_ns;
    out->host_unified_memory = d->host_unified_memory;
    out->extensions = d->extensions;
    out->usable = d->usable;
    out->broken_reason = d->broken_reason;
    out->query_notes = d->query_notes;
    out->reqd_sub_group_size = d->reqd_sub_group_size;
    out->profile_name = d->profile_name;
    out->profile_why = d->profile_why;
    out->profile_inferred = d->profile_inferred;
    out->geo = d->geo;
}

bw_code bench_device_list_make(const ocl_platforms *p, const size_t *idx, size_t n,
                               bench_device_list *out, bw_error *err)
{
    memset(out, 0, sizeof *out);
    size_t def = ocl_default_device(p);
    size_t np = ocl_platform_problem_count(p);
    out->devices = calloc(n ? n : 1, sizeof *out->devices);
    out->problems = calloc(np ? np : 1, sizeof *out->problems);
    if (!out->devices || !out->problems) {
        bench_device_list_free(out);
        return bw_error_set(err, BW_E_NOMEM, "out of memory listing devices");
    }
    out->n = n;
    out->default_index = def;
    for (size_t i = 0; i < n; i++)
        bench_device_of(ocl_device_at(p, idx[i]), idx[i] == def, &out->devices[i]);
    out->n_problems = np;
    for (size_t i = 0; i < np; i++) {
        const ocl_platform_problem *pp = ocl_platform_problem_at(p, i);
        out->problems[i].platform_index = pp->platform_index;
        out->problems[i].platform_name = pp->platform_name;
        out->problems[i].reason = pp->reason;
    }
    return BW_OK;
}

void bench_device_list_free(bench_device_list *l)
{
    if (!l)
        return;
    free(l->devices);
    free(l->problems);
    l->devices = NULL;
    l->problems = NULL;
    l->n = l->n_problems = 0;
}
