/* ocl_device: discovery of every OpenCL platform and device, their
 * properties, the device profile bwlab picks for each, and --device
 * selection. Plain data only: no OpenCL type appears in this header. */
#ifndef OCL_DEVICE_H
#define OCL_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "model_geometry.h"
#include "model_profile.h"

typedef enum ocl_device_type {
    OCL_TYPE_GPU,
    OCL_TYPE_CPU,
    OCL_TYPE_ACCELERATOR,
    OCL_TYPE_OTHER,
} ocl_device_type;

/* Everything bwlab reports about a device. Strings are owned by the
 * ocl_platforms object and live as long as it. Sizes are bytes.
 *
 * A device whose required query failed (name, type, global memory size,
 * max allocation, max work-group size) is still listed, with usable 0 and
 * broken_reason; its other fields hold what could be read (0 or "" where
 * nothing), and it has no profile (profile_name and profile_why NULL).
 * An optional query that fails leaves 0 or "" (opencl_c_version: derived
 * from the device version, or "unknown") and is named in query_notes. */
typedef struct ocl_device_info {
    size_t index;          /* position in `bwlab devices`, 0-based */
    size_t platform_index;
    const char *platform_name, *platform_vendor, *platform_version;
    const char *name, *vendor, *driver_version, *device_version, *opencl_c_version;
    const char *board_name;   /* CL_DEVICE_BOARD_NAME_AMD, or NULL */
    uint32_t vendor_id;
    ocl_device_type type;
    const char *type_name;    /* "gpu", "cpu", "accelerator" or "other" */
    uint32_t compute_units;
    uint32_t clock_mhz;
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
    uint64_t global_cache_bytes;
    uint32_t global_cache_line_bytes;
    const char *local_mem_type; /* "local" (dedicated), "global" (emulated) or "none" */
    uint64_t local_mem_bytes;
    size_t max_work_group_size;
    uint32_t preferred_vector_width_float;
    uint32_t warp_size_nv;        /* CL_DEVICE_WARP_SIZE_NV, 0 when unsupported */
    uint32_t wavefront_width_amd; /* CL_DEVICE_WAVEFRONT_WIDTH_AMD, 0 when unsupported */
    const size_t *sub_group_sizes_intel; /* CL_DEVICE_SUB_GROUP_SIZES_INTEL, or NULL */
    size_t n_sub_group_sizes_intel;
    uint32_t address_bits;
    uint64_t timer_resolution_ns;
    int host_unified_memory;   /* CL_DEVICE_HOST_UNIFIED_MEMORY: 1 (integrated GPUs, CPUs), 0, -1 unanswered */
    const char *extensions;
    int usable;                /* 1: every required query answered */
    const char *broken_reason; /* NULL when usable, else e.g. "clGetDeviceInfo(CL_DEVICE_NAME)
                                * failed: CL_OUT_OF_RESOURCES (-5)" */
    const char *query_notes;   /* NULL, or the optional queries that failed or answered
                                * oddly and what stands in for them, "; "-separated */
    /* Sub-group size a kernel can require on this device
     * (__attribute__((intel_reqd_sub_group_size(N)))) so that it runs at the
     * profile's W: nonzero only when the device has
     * cl_intel_required_subgroup_size and lists W among its
     * CL_DEVICE_SUB_GROUP_SIZES_INTEL; 0 elsewhere (the compiler picks). */
    uint32_t reqd_sub_group_size;
    /* the profile bwlab picked and why (NULL on an unusable device) */
    const char *profile_name;
    const char *profile_why; /* e.g. "device type is cpu; lanes 8 from CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sector and line 64 B from CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE" */
    model_geometry geo;      /* the profile's values with the device's own queries applied */
    /* the fields a cached probe replaced ("sector,line") after
     * ocl_device_override_profile, else NULL */
    const char *profile_inferred;
} ocl_device_info;

typedef struct ocl_platforms ocl_platforms; /* opaque: all platforms and devices */

/* A platform that could not be fully described: its device list failed
 * (clGetDeviceIDs; it contributes no device), or one of its name, vendor
 * or version queries failed (the string is then "unknown" and its devices
 * are listed as usual). */
typedef struct ocl_platform_problem {
    size_t platform_index;
    const char *platform_name;
    const char *reason; /* e.g. "clGetDeviceIDs failed: CL_OUT_OF_HOST_MEMORY (-6)" */
} ocl_platform_problem;

/* Enumerates every platform and device and picks each usable device's
 * profile from `profiles` (model_profiles_match, then the profile's *_from
 * queries). A failing platform or device does not hide the others: it is
 * recorded (ocl_platform_problem_at, ocl_device_info.broken_reason).
 * Fails with BW_E_NOPLATFORM only when no usable device remains; the
 * message names the driver packages to install (pocl-opencl-icd for CPUs,
 * the GPU vendor's ICD), the broken devices and platforms and why, and
 * says OCL_ICD_VENDORS may point elsewhere. BW_E_NOMEM when out of memory.
 * On success the caller owns *out (ocl_platforms_free). */
bw_code ocl_discover(const model_profiles *profiles, ocl_platforms **out, bw_error *err);
void ocl_platforms_free(ocl_platforms *p); /* accepts NULL */

/* Every listed device, usable or not. */
size_t ocl_device_count(const ocl_platforms *p);
/* NULL when i is out of range. */
const ocl_device_info *ocl_device_at(const ocl_platforms *p, size_t i);
size_t ocl_platform_problem_count(const ocl_platforms *p);
/* NULL when i is out of range; owned by p. */
const ocl_platform_problem *ocl_platform_problem_at(const ocl_platforms *p, size_t i);

/* Index of the default device: the first usable GPU, else the first
 * usable device. */
size_t ocl_default_device(const ocl_platforms *p);

/* Resolves a --device SPEC: NULL (the default device), an index from
 * `bwlab devices`, "all", "cpu", "gpu", or a case-insensitive substring of
 * the device name. Only usable devices are selected. *idx (caller frees)
 * receives the matching indices in order. BW_E_NODEVICE when nothing
 * matches (the message quotes SPEC and lists the usable devices), or when
 * SPEC is the index of an unusable device (the message gives its reason). */
bw_code ocl_select(const ocl_platforms *p, const char *spec, size_t **idx, size_t *n,
                   bw_error *err);

/* Replaces the profile of usable device i (name, why, geometry), as
 * `bwlab run --profile inferred` does with a cached probe's findings
 * (`inferred`: the fields replaced, profile_inferred); the strings are copied and owned by p. BW_E_USAGE for a device that is not
 * usable, BW_E_NOMEM. */
bw_code ocl_device_override_profile(ocl_platforms *p, size_t i, const char *name, const char *why,
                                    const char *inferred, const model_geometry *geo, bw_error *err);

#endif
