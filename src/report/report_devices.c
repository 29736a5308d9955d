/* report_devices: `bwlab devices` as a table or JSON, the JSON object of
 * one device that results files embed, and the line that heads a device's
 * section in every table (report_devices.h). */
#include "report_devices.h"

#include <stdlib.h>
#include <string.h>

#include "bwlab_config.h"
#include "report_format.h"
#include "report_device_head_priv.h"
#include "report_devices_priv.h"

void report_device_line(bw_buf *out, const char *lead, const bench_device *d, int is_default)
{
    report_device_line_of(out, lead, (unsigned long long)d->index, is_default, d->name, d->platform_name,
                          d->driver_version);
}

static json_t *platform_errors_json(const bench_device_list *l)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < l->n_problems; i++) {
        const bench_platform_problem *pp = &l->problems[i];
        json_t *o = json_object();
        if (!o || json_array_append_new(a, o) != 0) {
            json_decref(a);
            return NULL;
        }
        json_object_set_new(o, "platform_index", json_integer((json_int_t)pp->platform_index));
        json_object_set_new(o, "platform", results_json_text(pp->platform_name));
        json_object_set_new(o, "reason", results_json_text(pp->reason));
    }
    return a;
}

bw_code report_devices_json(const bench_device_list *l, bw_buf *out, bw_error *err)
{
    size_t def = l->default_index;
    json_t *root = json_object();
    json_t *devs = json_array();
    if (!root || !devs) {
        json_decref(root);
        json_decref(devs);
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    }
    json_object_set_new(root, "tool", json_string("bwlab"));
    json_object_set_new(root, "version", json_string(BWLAB_VERSION));
    json_object_set_new(root, "default_device", json_integer((json_int_t)def));
    for (size_t i = 0; i < l->n; i++) {
        json_t *d = bench_device_json(&l->devices[i], l->devices[i].is_default);
        if (!d || json_array_append_new(devs, d) != 0) {
            json_decref(root);
            json_decref(devs);
            return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
        }
    }
    json_object_set_new(root, "devices", devs);
    json_t *perr = platform_errors_json(l);
    if (!perr) {
        json_decref(root);
        return bw_error_set(err, BW_E_NOMEM, "out of memory building JSON");
    }
    json_object_set_new(root, "platform_errors", perr);
    return results_json_dump(root, out, err);
}

static void bytes_exact(bw_buf *out, uint64_t v)
{
    report_bytes(out, (double)v);
    if (v >= 1024)
        bw_buf_printf(out, " (%llu B)", (unsigned long long)v);
}

static void field(bw_buf *out, const char *label)
{
    bw_buf_printf(out, "  %-18s", label);
}

static void details(const bench_device *d, int is_default, bw_buf *out)
{
    if (!d->usable) {
        bw_buf_printf(out, "device %zu: unusable: %s\n", d->index, d->broken_reason);
        field(out, "name");
        bw_buf_printf(out, "%s\n", d->name);
        field(out, "platform");
        bw_buf_printf(out, "%zu: %s (%s; %s)\n", d->platform_index, d->platform_name,
                      d->platform_vendor, d->platform_version);
        if (d->query_notes) {
            field(out, "query notes");
            bw_buf_printf(out, "%s\n", d->query_notes);
        }
        return;
    }
    bw_buf_printf(out, "device %zu%s: %s\n", d->index, is_default ? " (default)" : "", d->name);
    if (d->board_name) {
        field(out, "board");
        bw_buf_printf(out, "%s\n", d->board_name);
    }
    field(out, "platform");
    bw_buf_printf(out, "%zu: %s (%s; %s)\n", d->platform_index, d->platform_name,
                  d->platform_vendor, d->platform_version);
    field(out, "vendor");
    bw_buf_printf(out, "%s (vendor id 0x%04x)\n", d->vendor, (unsigned)d->vendor_id);
    field(out, "type");
    bw_buf_printf(out, "%s\n", d->type_name);
    field(out, "driver");
    bw_buf_printf(out, "%s\n", d->driver_version);
    field(out, "OpenCL");
    bw_buf_printf(out, "%s; %s\n", d->device_version, d->opencl_c_version);
    field(out, "compute units");
    bw_buf_printf(out, "%u at %u MHz\n", (unsigned)d->compute_units, (unsigned)d->clock_mhz);
    field(out, "global memory");
    bytes_exact(out, d->global_mem_bytes);
    bw_buf_puts(out, "\n");
    field(out, "max allocation");
    bytes_exact(out, d->max_alloc_bytes);
    bw_buf_puts(out, "\n");
    field(out, "global cache");
    report_bytes(out, (double)d->global_cache_bytes);
    bw_buf_printf(out, ", %u B lines\n", (unsigned)d->global_cache_line_bytes);
    field(out, "local memory");
    report_bytes(out, (double)d->local_mem_bytes);
    bw_buf_printf(out, ", %s\n",
                  !strcmp(d->local_mem_type, "local")    ? "dedicated (local)"
                  : !strcmp(d->local_mem_type, "global") ? "in global memory (global)"
                                                         : "none");
    field(out, "work-groups");
    bw_buf_printf(out, "up to %zu work-items; preferred float vector width %u\n",
                  d->max_work_group_size, (unsigned)d->preferred_vector_width_float);
    if (d->warp_size_nv || d->wavefront_width_amd || d->sub_group_sizes_intel) {
        field(out, "SIMD width");
        const char *sep = "";
        if (d->warp_size_nv) {
            bw_buf_printf(out, "warp %u (CL_DEVICE_WARP_SIZE_NV)", (unsigned)d->warp_size_nv);
            sep = "; ";
        }
        if (d->wavefront_width_amd) {
            bw_buf_printf(out, "%swavefront %u (CL_DEVICE_WAVEFRONT_WIDTH_AMD)", sep,
                          (unsigned)d->wavefront_width_amd);
            sep = "; ";
        }
        if (d->sub_group_sizes_intel) {
            bw_buf_printf(out, "%ssub-groups", sep);
            for (size_t i = 0; i < d->n_sub_group_sizes_intel; i++)
                bw_buf_printf(out, "%s%zu", i ? ", " : " ", d->sub_group_sizes_intel[i]);
            bw_buf_puts(out, " (CL_DEVICE_SUB_GROUP_SIZES_INTEL)");
        }
        bw_buf_puts(out, "\n");
    }
    if (d->reqd_sub_group_size) {
        field(out, "sub-group size");
        bw_buf_printf(out, "%u can be required (cl_intel_required_subgroup_size)\n",
                      (unsigned)d->reqd_sub_group_size);
    }
    field(out, "timer resolution");
    bw_buf_printf(out, "%llu ns\n", (unsigned long long)d->timer_resolution_ns);
    if (d->host_unified_memory >= 0) {
        field(out, "memory");
        bw_buf_puts(out, d->host_unified_memory
                             ? "unified with the host's (CL_DEVICE_HOST_UNIFIED_MEMORY): a mapped buffer may be "
                               "the host's own memory, with nothing copied\n"
                             : "the device's own (CL_DEVICE_HOST_UNIFIED_MEMORY false): transfers copy\n");
    }
    if (d->query_notes) {
        field(out, "query notes");
        bw_buf_printf(out, "%s\n", d->query_notes);
    }
    field(out, "profile");
    bw_buf_printf(out, "%s: W = %d lanes, sector %lld B, line %lld B, ", d->profile_name,
                  d->geo.lanes, (long long)d->geo.sector, (long long)d->geo.line);
    if (d->geo.banks > 0)
        bw_buf_printf(out, "%d banks x %lld B\n", d->geo.banks, (long long)d->geo.bank_width);
    else
        bw_buf_puts(out, "no banked local memory\n");
    field(out, "why");
    bw_buf_printf(out, "%s\n", d->profile_why);
}

void report_devices_table(const bench_device_list *l, bw_buf *out)
{
    size_t wname = strlen("DEVICE"), wplat = strlen("PLATFORM");
    for (size_t i = 0; i < l->n; i++) {
        const bench_device *d = &l->devices[i];
        size_t a = strlen(d->name), b = strlen(d->platform_name);
        wname = a > wname ? a : wname;
        wplat = b > wplat ? b : wplat;
    }
    bw_buf_printf(out, "    %-3s %-11s %-*s  %-*s  %s\n", "#", "TYPE", (int)wname, "DEVICE",
                  (int)wplat, "PLATFORM", "PROFILE");
    for (size_t i = 0; i < l->n; i++) {
        const bench_device *d = &l->devices[i];
        bw_buf_printf(out, "  %c %-3zu %-11s %-*s  %-*s  %s\n", d->is_default ? '*' : ' ',
                      d->index, d->type_name, (int)wname, d->name, (int)wplat, d->platform_name,
                      d->usable ? d->profile_name : "(unusable)");
    }
    bw_buf_puts(out, "  (* default device: used when --device is not given)\n");
    for (size_t i = 0; i < l->n_problems; i++) {
        const bench_platform_problem *pp = &l->problems[i];
        bw_buf_printf(out, "  platform %zu '%s': %s\n", pp->platform_index, pp->platform_name,
                      pp->reason);
    }
    for (size_t i = 0; i < l->n; i++) {
        bw_buf_puts(out, "\n");
        details(&l->devices[i], l->devices[i].is_default, out);
    }
}
