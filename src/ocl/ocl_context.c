#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "ocl_context.h"

#include <stdlib.h>

#include "ocl_error.h"
#include "ocl_internal.h"

bw_code ocl_context_create(const ocl_platforms *p, size_t device_index, ocl_context **out,
                           bw_error *err)
{
    *out = NULL;
    const ocl_device_info *info = ocl_device_at(p, device_index);
    if (!info)
        return bw_error_set(err, BW_E_NODEVICE, "no OpenCL device %zu (there are %zu)",
                            device_index, ocl_device_count(p));
    if (!info->usable)
        return bw_error_set(err, BW_E_NODEVICE, "OpenCL device %zu '%s' is unusable: %s",
                            device_index, info->name, info->broken_reason);
    ocl_context *c = calloc(1, sizeof *c);
    if (!c)
        return bw_error_set(err, BW_E_NOMEM, "out of memory creating a context");
    bw_code rc = BW_OK;
    cl_int st = CL_SUCCESS;
    c->info = info;
    c->dev = ocl_platforms_cl_device(p, device_index);
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)ocl_platforms_cl_platform(p, device_index), 0
    };
    c->ctx = clCreateContext(props, 1, &c->dev, NULL, NULL, &st);
    if (st != CL_SUCCESS || !c->ctx) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clCreateContext", st, "device %zu '%s'",
                           device_index, info->name);
        goto fail;
    }
    /* the OpenCL 1.2 call, so that 1.2-only drivers work too */
    c->queue = clCreateCommandQueue(c->ctx, c->dev, CL_QUEUE_PROFILING_ENABLE, &st);
    if (st != CL_SUCCESS || !c->queue) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clCreateCommandQueue", st,
                           "device %zu '%s' (in-order, profiling enabled)", device_index,
                           info->name);
        goto fail;
    }
    *out = c;
    return BW_OK;
fail:
    ocl_context_free(c);
    return rc;
}

void ocl_context_free(ocl_context *c)
{
    if (!c)
        return;
    if (c->queue) {
        clFinish(c->queue);
        clReleaseCommandQueue(c->queue);
    }
    if (c->ctx)
        clReleaseContext(c->ctx);
    free(c);
}

const ocl_device_info *ocl_context_device(const ocl_context *c)
{
    return c->info;
}

bw_code ocl_context_finish(ocl_context *c, bw_error *err)
{
    cl_int st = clFinish(c->queue);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clFinish", st, "the queue of device %zu '%s'",
                             c->info->index, c->info->name);
    return BW_OK;
}
