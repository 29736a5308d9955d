/* ocl_context: a context and an in-order, profiling-enabled command queue
 * on one device. */
#ifndef OCL_CONTEXT_H
#define OCL_CONTEXT_H

#include <stddef.h>

#include "bw_error.h"
#include "ocl_device.h"

typedef struct ocl_context ocl_context;

/* The context keeps a pointer to p's device info: p must outlive it. */
bw_code ocl_context_create(const ocl_platforms *p, size_t device_index, ocl_context **out,
                           bw_error *err);
void ocl_context_free(ocl_context *c); /* accepts NULL; finishes the queue first */
const ocl_device_info *ocl_context_device(const ocl_context *c);
/* clFinish on the queue. */
bw_code ocl_context_finish(ocl_context *c, bw_error *err);

#endif
