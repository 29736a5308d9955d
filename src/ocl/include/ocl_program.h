/* ocl_program: building OpenCL C source, kernels, their arguments, and
 * timed launches. */
#ifndef OCL_PROGRAM_H
#define OCL_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "ocl_buffer.h"
#include "ocl_context.h"

typedef struct ocl_program ocl_program;
typedef struct ocl_kernel ocl_kernel;

/* Builds `source` (NUL-terminated) with compiler `options` (may be NULL).
 * `name` (e.g. "gather.cl") is used in messages. On a compile error returns
 * BW_E_BUILD with a message that names the file and device and carries the
 * device's full build log:
 *   "kernel source 'gather.cl' failed to build on 'DEVICE' (CL_BUILD_PROGRAM_FAILURE):\nLOG" */
bw_code ocl_program_build(ocl_context *c, const char *source, const char *name,
                          const char *options, ocl_program **out, bw_error *err);
void ocl_program_free(ocl_program *p); /* accepts NULL */

/* The kernel keeps its program alive until ocl_kernel_free. */
bw_code ocl_kernel_create(ocl_program *p, const char *kernel_name, ocl_kernel **out, bw_error *err);
void ocl_kernel_free(ocl_kernel *k); /* accepts NULL */

/* k remembers b (arguments 0..15) until the argument is set again: b must
 * outlive k's launches */
bw_code ocl_kernel_arg_buffer(ocl_kernel *k, unsigned index, ocl_buffer *b, bw_error *err);
bw_code ocl_kernel_arg_i64(ocl_kernel *k, unsigned index, int64_t v, bw_error *err); /* long */
bw_code ocl_kernel_arg_u32(ocl_kernel *k, unsigned index, uint32_t v, bw_error *err); /* uint */
bw_code ocl_kernel_arg_local(ocl_kernel *k, unsigned index, size_t bytes, bw_error *err);
/* A by-value argument of `bytes` bytes copied from `v`, for types the
 * helpers above do not name (uint2, uint4: host byte order, as the device
 * reads host-written buffers). BW_E_OPENCL names the argument. */
bw_code ocl_kernel_arg_bytes(ocl_kernel *k, unsigned index, const void *v, size_t bytes, bw_error *err);

/* CL_KERNEL_WORK_GROUP_SIZE and CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
 * for the context's device. */
bw_code ocl_kernel_work_group_info(ocl_kernel *k, size_t *max_size, size_t *preferred_multiple,
                                   bw_error *err);

/* The sub-group size the kernel runs at in work-groups of `local`
 * work-items (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: Intel's SIMD
 * width, the NVIDIA warp, the AMD wavefront), through cl_khr_subgroups or
 * OpenCL 2.1, looked up at run time. BW_E_UNSUPPORTED (*out 0) when the
 * driver cannot tell. */
bw_code ocl_kernel_sub_group_size(ocl_kernel *k, size_t local, size_t *out, bw_error *err);

typedef struct ocl_timing {
    double event_ns; /* CL_PROFILING_COMMAND_END - CL_PROFILING_COMMAND_START */
    double wall_ns;  /* host monotonic clock around enqueue + wait */
} ocl_timing;

/* Enqueues a 1-D NDRange of `global` work-items in groups of `local`
 * (global must be a multiple of local; local 0 lets the runtime choose),
 * waits for completion and returns both durations. On a queue without
 * profiling (ocl_context_timer 0) both are the host clock around the
 * enqueue and clFinish. CL_MEM_OBJECT_ALLOCATION_FAILURE at the first use
 * of a buffer argument (nothing wrote or launched on it yet: lazily
 * allocating drivers) is BW_E_TOOBIG naming that buffer, as for
 * ocl_buffer_write; a launch that completes is a use of its buffers. */
bw_code ocl_kernel_run(ocl_context *c, ocl_kernel *k, uint64_t global, uint64_t local,
                       ocl_timing *out, bw_error *err);
/* The same over work-items [first, first + count): a global work offset
 * of first (get_global_id counts from it), none when first is 0, so that
 * a runtime that specialises kernels for a zero offset builds no other
 * variant for a launch from 0. count must be a multiple of local. */
bw_code ocl_kernel_run_at(ocl_context *c, ocl_kernel *k, uint64_t first, uint64_t count, uint64_t local,
                          ocl_timing *out, bw_error *err);

/* After k's last ocl_kernel_run: the enqueue's status when it failed with
 * an answer that depends on the launch's size (CL_OUT_OF_RESOURCES -5,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE -4, CL_INVALID_WORK_GROUP_SIZE -54),
 * else 0. Cannot fail. */
int ocl_kernel_size_status(const ocl_kernel *k);

/* One launch of k and its latencies in ns: queued_to_start and
 * queued_to_end from event profiling (CL_PROFILING_COMMAND_QUEUED to START
 * and to END; 0 on a queue without profiling), wall from before the
 * enqueue to the wait's return. */
typedef struct ocl_launch_latency {
    double queued_to_start_ns, queued_to_end_ns, wall_ns;
} ocl_launch_latency;
bw_code ocl_kernel_launch_latency(ocl_context *c, ocl_kernel *k, uint64_t global, uint64_t local,
                                  ocl_launch_latency *out, bw_error *err);

#endif
