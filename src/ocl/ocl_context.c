/* ocl_context: a context and in-order queue on one device, with event
 * profiling where the driver allows it, else the host clock's resolution
 * and launch overhead measured for wall-clock timing (ocl_context.h). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "ocl_context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ocl_error.h"
#include "ocl_internal.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define OVERHEAD_LAUNCHES 31

/* A queue without profiling: the host clock's resolution (the smallest
 * step it shows, measured, no better than clock_getres) and the launch
 * overhead floor: the median wall time of enqueueing an empty kernel of
 * one work-item and clFinish, after three warm-up launches. */
static bw_code wall_timer(ocl_context *c, bw_error *err)
{
    struct timespec res;
    double tick = clock_getres(CLOCK_MONOTONIC, &res) == 0 ? (double)res.tv_sec * 1e9 + (double)res.tv_nsec : 1;
    double step = INFINITY; /* the smallest of 200 steps between distinct readings */
    for (int i = 0; i < 200; i++) {
        double a = now_ns(), b;
        while ((b = now_ns()) == a)
            ;
        step = b - a < step ? b - a : step;
    }
    c->wall_resolution_ns = step > tick ? step : tick;
    static const char *src = "__kernel void bwlab_empty(void) {}";
    cl_int st = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(c->ctx, 1, &src, NULL, &st);
    cl_kernel k = NULL;
    bw_code rc = BW_OK;
    if (st == CL_SUCCESS)
        st = clBuildProgram(prog, 1, &c->dev, NULL, NULL, NULL);
    if (st == CL_SUCCESS)
        k = clCreateKernel(prog, "bwlab_empty", &st);
    double t[OVERHEAD_LAUNCHES];
    size_t one = 1;
    for (int i = 0; i < OVERHEAD_LAUNCHES + 3 && st == CL_SUCCESS; i++) {
        double t0 = now_ns();
        st = clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
        if (st == CL_SUCCESS)
            st = clFinish(c->queue);
        if (i >= 3)
            t[i - 3] = now_ns() - t0;
    }
    if (st != CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "an empty kernel", st,
                           "device %zu '%s' (measuring the launch overhead of a queue without profiling)",
                           c->info->index, c->info->name);
    } else {
        qsort(t, OVERHEAD_LAUNCHES, sizeof t[0], cmp_double);
        c->launch_overhead_ns = t[OVERHEAD_LAUNCHES / 2];
    }
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    return rc;
}

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
    c->profiling = 1;
    if (st == CL_INVALID_QUEUE_PROPERTIES) {
        /* rusticl on small boards: no profiling queue; the host clock
         * around clFinish times launches instead (ocl_context_timer) */
        c->profiling = 0;
        c->queue = clCreateCommandQueue(c->ctx, c->dev, 0, &st);
        if (st == CL_SUCCESS && c->queue && (rc = wall_timer(c, err)) != BW_OK)
            goto fail;
    }
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

int ocl_context_timer(const ocl_context *c, double *resolution_ns, double *overhead_ns)
{
    if (resolution_ns)
        *resolution_ns = c->profiling ? (double)c->info->timer_resolution_ns : c->wall_resolution_ns;
    if (overhead_ns)
        *overhead_ns = c->profiling ? 0 : c->launch_overhead_ns;
    return c->profiling;
}

bw_code ocl_context_finish(ocl_context *c, bw_error *err)
{
    cl_int st = clFinish(c->queue);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clFinish", st, "the queue of device %zu '%s'",
                             c->info->index, c->info->name);
    return BW_OK;
}

int ocl_context_little_endian(const ocl_context *c)
{
    cl_bool little = CL_FALSE;
    if (clGetDeviceInfo(c->dev, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL) != CL_SUCCESS)
        return -1;
    return little ? 1 : 0;
}
