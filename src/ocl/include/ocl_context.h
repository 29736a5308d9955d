/* ocl_context: a context and an in-order command queue on one device,
 * profiling-enabled where the driver allows it. */
#ifndef OCL_CONTEXT_H
#define OCL_CONTEXT_H

#include <stddef.h>

#include "bw_error.h"
#include "ocl_device.h"

typedef struct ocl_context ocl_context;

/* The context keeps a pointer to p's device info: p must outlive it. A
 * driver that refuses CL_QUEUE_PROFILING_ENABLE (CL_INVALID_QUEUE_PROPERTIES,
 * -35: rusticl on small boards) gets a queue without it, and the context
 * measures the host clock's resolution and the launch overhead of an
 * empty kernel (ocl_context_timer); launches are then timed by the host
 * clock around clFinish. */
bw_code ocl_context_create(const ocl_platforms *p, size_t device_index, ocl_context **out,
                           bw_error *err);
void ocl_context_free(ocl_context *c); /* accepts NULL; finishes the queue first */
const ocl_device_info *ocl_context_device(const ocl_context *c);
/* How launches are timed: 1 by event profiling (*resolution_ns: the
 * device's CL_DEVICE_PROFILING_TIMER_RESOLUTION, *overhead_ns 0), 0 by
 * the host's monotonic clock around clFinish (*resolution_ns: its
 * measured tick; *overhead_ns: the median wall time of an empty
 * one-work-item launch, which every wall-timed launch includes). Either
 * pointer may be NULL. Cannot fail. */
int ocl_context_timer(const ocl_context *c, double *resolution_ns, double *overhead_ns);
/* CL_DEVICE_ENDIAN_LITTLE of the context's device: 1 little-endian, 0
 * big-endian, -1 when the driver does not answer. Cannot fail. */
int ocl_context_little_endian(const ocl_context *c);

#endif
