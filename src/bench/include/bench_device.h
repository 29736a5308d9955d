/* bench_device: a device's provenance as a plain data record, the one the
 * report layer reads (`bwlab devices`, the device objects in results
 * files, the tables' device headers). The bench layer fills it from the
 * OpenCL layer's discovery (bench_device_list_make); the
 * report layer never sees src/ocl, so reports can also be written from
 * data read back from files, on a machine without OpenCL. Also the host's
 * caches beside a CPU device's, and the buffers a device allows. */
#ifndef BENCH_DEVICE_H
#define BENCH_DEVICE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "model_geometry.h"

/* src/ocl's records, named only by pointer here */
struct ocl_device_info;
struct ocl_platforms;

/* Everything bwlab reports about a device, as ocl_device_info describes
 * it (src/ocl/include/ocl_device.h gives each field's meaning). Strings are
 * borrowed from the discovery (the ocl_platforms object) and live as long
 * as it; sizes are bytes; 0 or "" where a query answered nothing. */
typedef struct bench_device {
    size_t index;          /* position in `bwlab devices`, 0-based */
    int is_default;        /* the default device (used without --device) */
    size_t platform_index;
    const char *platform_name, *platform_vendor, *platform_version;
    const char *name, *vendor, *driver_version, *device_version, *opencl_c_version;
    const char *board_name;   /* or NULL */
    uint32_t vendor_id;
    const char *type_name;    /* "gpu", "cpu", "accelerator" or "other" */
    uint32_t compute_units;
    uint32_t clock_mhz;
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
    uint64_t global_cache_bytes;
    uint32_t global_cache_line_bytes;
    const char *local_mem_type;
    uint64_t local_mem_bytes;
    size_t max_work_group_size;
    uint32_t preferred_vector_width_float;
    uint32_t warp_size_nv;
    uint32_t wavefront_width_amd;
    const size_t *sub_group_sizes_intel; /* or NULL */
    size_t n_sub_group_sizes_intel;
    uint32_t address_bits;
    uint64_t timer_resolution_ns;
    int host_unified_memory; /* 1 shares the host's memory, 0 its own, -1 unknown */
    const char *extensions;
    int usable;
    const char *broken_reason; /* NULL when usable */
    const char *query_notes;   /* or NULL */
    uint32_t reqd_sub_group_size;
    const char *profile_name;  /* NULL on an unusable device */
    const char *profile_why;
    const char *profile_inferred; /* --profile inferred: the fields a cached probe gave, or NULL */
    model_geometry geo;
} bench_device;

/* A platform that could not be fully described (ocl_platform_problem). */
typedef struct bench_platform_problem {
    size_t platform_index;
    const char *platform_name;
    const char *reason;
} bench_platform_problem;

/* The devices a command lists, the default device's index and the
 * platforms' problems: what `bwlab devices` prints. */
typedef struct bench_device_list {
    bench_device *devices;      /* n entries, in the order asked for */
    size_t n;
    size_t default_index;       /* `index` of the default device */
    bench_platform_problem *problems;
    size_t n_problems;
} bench_device_list;


/* The devices idx[0..n-1] of p, with the default marked, and every
 * platform problem. BW_E_NOMEM; on success the caller frees with
 * bench_device_list_free (the strings stay p's). */
bw_code bench_device_list_make(const struct ocl_platforms *p, const size_t *idx, size_t n,
                               bench_device_list *out, bw_error *err);
void bench_device_list_free(bench_device_list *l); /* accepts NULL */

/* One device as the JSON object a results document embeds (a new
 * reference the caller owns), with its profile; "default" is is_default.
 * NULL when out of memory. */
json_t *bench_device_json(const bench_device *d, int is_default);

/* One data or unified cache of the host's CPU 0, as sysfs lists it
 * (bench_host_caches): a CPU device's caches, which `bwlab probe` sets
 * what it measured beside. */
typedef struct bench_host_cache {
    int level;
    uint64_t size_bytes, line_bytes;
} bench_host_cache;

/* Buffers for a device sized as `bwlab run` sizes its working set: *target
 * is the plan's working set for `seq` (its auto target, or `size` when not
 * 0), *most what one buffer may take when `nbuffers` of them share the
 * plan's memory budget (3/4 of global memory), rounded down to whole MiB;
 * *most is *target when the budget is unlimited. Fails as bench_plan_make
 * does (BW_E_TOOBIG for a --size above the largest allocation). */
bw_code bench_buffer_plan(const struct ocl_device_info *d, uint64_t size, int nbuffers, uint64_t *target,
                          uint64_t *most, bw_error *err);

#endif
