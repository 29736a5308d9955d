/* ocl_internal: what the ocl_*.c files share and nothing above src/ocl may
 * see. It uses OpenCL types but leaves including CL/cl.h to the .c file
 * (after defining CL_TARGET_OPENCL_VERSION 120), so that only the .c
 * files of src/ocl ever include it. */
#ifndef OCL_INTERNAL_H
#define OCL_INTERNAL_H

#ifndef CL_VERSION_1_2
#error "include <CL/cl.h> (with CL_TARGET_OPENCL_VERSION 120) before ocl_internal.h"
#endif

#include <stddef.h>
#include <stdint.h>

#include "ocl_buffer.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "ocl_error.h"

struct ocl_context {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id dev;
    const ocl_device_info *info;
    int profiling;              /* the queue has CL_QUEUE_PROFILING_ENABLE */
    double wall_resolution_ns;  /* no profiling: the host clock's tick */
    double launch_overhead_ns;  /* no profiling: median wall time of an empty launch */
};

struct ocl_buffer {
    cl_mem mem;
    cl_mem parent; /* the allocation mem is a sub-buffer of (ocl_buffer_create_shifted), or NULL */
    uint64_t bytes;
    char *name;
    int written; /* lazily allocating drivers fail on the first write */
};

/* The error of OpenCL call `call` that answered st using b (in kernel
 * `kernel`, or NULL): BW_E_TOOBIG when it is b's first use and st says the
 * device cannot hold it (lazily allocating drivers), else BW_E_OPENCL. */
bw_code ocl_buffer_use_error(const ocl_buffer *b, const char *call, int st, const char *kernel, bw_error *err);

/* The OpenCL handles behind entry i of `bwlab devices`; i must be valid. */
cl_device_id ocl_platforms_cl_device(const ocl_platforms *p, size_t i);
cl_platform_id ocl_platforms_cl_platform(const ocl_platforms *p, size_t i);

/* Sets err to `code` (normally BW_E_OPENCL) with the message
 * "CALL failed: NAME (STATUS) for OBJECT", OBJECT formatted from fmt.
 * Returns code. */
bw_code ocl_error_set(bw_error *err, bw_code code, const char *call, int cl_status,
                      const char *object_fmt, ...) BW_PRINTF(5, 6);

/* b's size in bytes. */
uint64_t ocl_buffer_size(const ocl_buffer *b);

/* clFinish on the queue. */
bw_code ocl_context_finish(ocl_context *c, bw_error *err);

#endif
