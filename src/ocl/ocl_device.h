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
 * ocl_platforms object and live as long as it. Sizes are bytes. */
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
    const char *extensions;
    /* the profile bwlab picked and why */
    const char *profile_name;
    const char *profile_why; /* e.g. "device type is cpu; lanes 8 from CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sector and line 64 B from CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE" */
    model_geometry geo;      /* the profile's values with the device's own queries applied */
} ocl_device_info;

typedef struct ocl_platforms ocl_platforms; /* opaque: all platforms and devices */

/* Enumerates every platform and device and picks each device's profile
 * from `profiles` (model_profiles_match, then the profile's *_from queries).
 * Fails with BW_E_NOPLATFORM when no platform or no device is found; the
 * message names the driver packages to install (pocl-opencl-icd for CPUs,
 * the GPU vendor's ICD) and says OCL_ICD_VENDORS may point elsewhere. */
bw_code ocl_discover(const model_profiles *profiles, ocl_platforms **out, bw_error *err);
void ocl_platforms_free(ocl_platforms *p); /* accepts NULL */

size_t ocl_device_count(const ocl_platforms *p);
const ocl_device_info *ocl_device_at(const ocl_platforms *p, size_t i);

/* Index of the default device: the first GPU, else the first device. */
size_t ocl_default_device(const ocl_platforms *p);

/* Resolves a --device SPEC: NULL (the default device), an index from
 * `bwlab devices`, "all", "cpu", "gpu", or a case-insensitive substring of
 * the device name. *idx (caller frees) receives the matching indices in
 * order. BW_E_NODEVICE when nothing matches; the message quotes SPEC and
 * lists the devices. */
bw_code ocl_select(const ocl_platforms *p, const char *spec, size_t **idx, size_t *n,
                   bw_error *err);

#endif
