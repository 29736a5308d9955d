/* ocl_program: building a program with its build log, kernels and their
 * arguments, work-group and sub-group queries, and launches timed by
 * events or the host clock (ocl_program.h). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "ocl_program.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ocl_error.h"
#include "ocl_internal.h"

struct ocl_program {
    cl_program prog;
    ocl_context *c;
    char *name;
    unsigned refs; /* the caller's reference plus one per kernel */
};

/* arguments whose buffers a kernel remembers (ocl_kernel_arg_buffer) */
#define KERNEL_BUFS 16

struct ocl_kernel {
    cl_kernel k;
    ocl_program *p;
    char *name;
    int size_status; /* ocl_kernel_size_status */
    /* the buffer of each argument, where it is one: a launch is their first
     * use when nothing has written them yet (ocl_buffer_use_error) */
    ocl_buffer *bufs[KERNEL_BUFS];
};

static bw_code nomem(bw_error *err, const char *what)
{
    return bw_error_set(err, BW_E_NOMEM, "out of memory %s", what);
}

/* The device's build log, trailing blank lines removed; NULL when it
 * cannot be had (the caller says so instead). */
static char *build_log(cl_program prog, cl_device_id dev)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        return NULL;
    char *log = calloc(size + 1, 1);
    if (!log)
        return NULL;
    if (size && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) !=
                    CL_SUCCESS) {
        free(log);
        return NULL;
    }
    size_t len = strlen(log);
    while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == '\r' || log[len - 1] == ' '))
        log[--len] = '\0';
    return log;
}

static void program_release(ocl_program *p)
{
    if (!p || --p->refs > 0)
        return;
    if (p->prog)
        clReleaseProgram(p->prog);
    free(p->name);
    free(p);
}

bw_code ocl_program_build(ocl_context *c, const char *source, const char *name,
                          const char *options, ocl_program **out, bw_error *err)
{
    *out = NULL;
    if (!name)
        name = "(source)";
    bw_code rc = BW_OK;
    cl_int st = CL_SUCCESS;
    char *log = NULL;
    ocl_program *p = calloc(1, sizeof *p);
    if (!p || !(p->name = strdup(name))) {
        free(p);
        return nomem(err, "building a program");
    }
    p->refs = 1;
    p->c = c;
    p->prog = clCreateProgramWithSource(c->ctx, 1, &source, NULL, &st);
    if (st != CL_SUCCESS || !p->prog) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clCreateProgramWithSource", st,
                           "kernel source '%s'", name);
        goto fail;
    }
    st = clBuildProgram(p->prog, 1, &c->dev, options, NULL, NULL);
    if (st != CL_SUCCESS) {
        log = build_log(p->prog, c->dev);
        rc = bw_error_set(err, BW_E_BUILD, "kernel source '%s' failed to build on '%s' (%s):\n%s",
                          name, c->info->name, ocl_error_name(st),
                          log && *log ? log : "(the device gave no build log)");
        goto fail;
    }
    *out = p;
    return BW_OK;
fail:
    free(log);
    program_release(p);
    return rc;
}

void ocl_program_free(ocl_program *p)
{
    program_release(p);
}

bw_code ocl_kernel_create(ocl_program *p, const char *kernel_name, ocl_kernel **out, bw_error *err)
{
    *out = NULL;
    cl_int st = CL_SUCCESS;
    ocl_kernel *k = calloc(1, sizeof *k);
    if (!k || !(k->name = strdup(kernel_name))) {
        free(k);
        return nomem(err, "creating a kernel");
    }
    k->k = clCreateKernel(p->prog, kernel_name, &st);
    if (st != CL_SUCCESS || !k->k) {
        bw_code rc = ocl_error_set(err, BW_E_OPENCL, "clCreateKernel", st,
                                   "kernel '%s' of '%s'", kernel_name, p->name);
        free(k->name);
        free(k);
        return rc;
    }
    k->p = p;
    p->refs++;
    *out = k;
    return BW_OK;
}

void ocl_kernel_free(ocl_kernel *k)
{
    if (!k)
        return;
    if (k->k)
        clReleaseKernel(k->k);
    program_release(k->p);
    free(k->name);
    free(k);
}

static bw_code set_arg(ocl_kernel *k, unsigned index, size_t size, const void *value,
                       bw_error *err)
{
    if (index < KERNEL_BUFS)
        k->bufs[index] = NULL;
    cl_int st = clSetKernelArg(k->k, index, size, value);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_OPENCL, "clSetKernelArg", st,
                             "argument %u of kernel '%s' (%zu bytes)", index, k->name, size);
    return BW_OK;
}

bw_code ocl_kernel_arg_buffer(ocl_kernel *k, unsigned index, ocl_buffer *b, bw_error *err)
{
    bw_code rc = set_arg(k, index, sizeof(cl_mem), &b->mem, err);
    if (rc == BW_OK && index < KERNEL_BUFS)
        k->bufs[index] = b;
    return rc;
}

/* A launch of k failed with st: an allocation failure that is the first
 * use of one of its buffers is that buffer's (BW_E_TOOBIG), anything else
 * the launch's. */
static bw_code launch_error(ocl_kernel *k, const char *call, cl_int st, uint64_t global, uint64_t local,
                            bw_error *err)
{
    for (unsigned i = 0; st == CL_MEM_OBJECT_ALLOCATION_FAILURE && i < KERNEL_BUFS; i++)
        if (k->bufs[i] && !k->bufs[i]->written)
            return ocl_buffer_use_error(k->bufs[i], call, st, k->name, err);
    return ocl_error_set(err, BW_E_OPENCL, call, st, "kernel '%s' (%llu work-items, work-group %llu)", k->name,
                         (unsigned long long)global, (unsigned long long)local);
}

/* after a launch that completed: its buffers hold memory the device committed */
static void launched(ocl_kernel *k)
{
    for (unsigned i = 0; i < KERNEL_BUFS; i++)
        if (k->bufs[i])
            k->bufs[i]->written = 1;
}

bw_code ocl_kernel_arg_i64(ocl_kernel *k, unsigned index, int64_t v, bw_error *err)
{
    cl_long x = (cl_long)v;
    return set_arg(k, index, sizeof x, &x, err);
}

bw_code ocl_kernel_arg_u32(ocl_kernel *k, unsigned index, uint32_t v, bw_error *err)
{
    cl_uint x = (cl_uint)v;
    return set_arg(k, index, sizeof x, &x, err);
}

bw_code ocl_kernel_arg_local(ocl_kernel *k, unsigned index, size_t bytes, bw_error *err)
{
    return set_arg(k, index, bytes, NULL, err);
}

bw_code ocl_kernel_arg_bytes(ocl_kernel *k, unsigned index, const void *v, size_t bytes, bw_error *err)
{
    return set_arg(k, index, bytes, v, err);
}

bw_code ocl_kernel_work_group_info(ocl_kernel *k, size_t *max_size, size_t *preferred_multiple,
                                   bw_error *err)
{
    cl_device_id dev = k->p->c->dev;
    size_t v = 0;
    cl_int st;
    if (max_size) {
        st = clGetKernelWorkGroupInfo(k->k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, NULL);
        if (st != CL_SUCCESS)
            return ocl_error_set(err, BW_E_OPENCL, "clGetKernelWorkGroupInfo", st,
                                 "CL_KERNEL_WORK_GROUP_SIZE of kernel '%s'", k->name);
        *max_size = v;
    }
    if (preferred_multiple) {
        st = clGetKernelWorkGroupInfo(k->k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                      sizeof v, &v, NULL);
        if (st != CL_SUCCESS)
            return ocl_error_set(err, BW_E_OPENCL, "clGetKernelWorkGroupInfo", st,
                                 "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of kernel '%s'",
                                 k->name);
        *preferred_multiple = v;
    }
    return BW_OK;
}

/* clGetKernelSubGroupInfo(KHR): OpenCL 2.1 and cl_khr_subgroups, beyond
 * the 1.2 API this file is compiled against */
typedef cl_int (CL_API_CALL *sub_group_info_fn)(cl_kernel, cl_device_id, cl_uint, size_t, const void *, size_t,
                                                void *, size_t *);
#define MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033 /* CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE(_KHR) */

#define DEVICE_MAX_NUM_SUB_GROUPS 0x105C /* CL_DEVICE_MAX_NUM_SUB_GROUPS, OpenCL 2.1 */

/* The entry point, or NULL: the extension's where the device lists
 * cl_khr_subgroups, else the core one from the ICD loader on a device of
 * version 2.1 or later that reports sub-groups. Asking blindly is unsafe:
 * ocl-icd exports the core entry and jumps through the driver's table,
 * whose slot is NULL in drivers without it (PoCL 3.1: a crash). */
static sub_group_info_fn sub_group_info_entry(const ocl_context *c)
{
    sub_group_info_fn fn = NULL;
    cl_platform_id plat = NULL;
    void *f = NULL;
    const char *ext = c->info->extensions ? c->info->extensions : "";
    if (strstr(ext, "cl_khr_subgroups") &&
        clGetDeviceInfo(c->dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL) == CL_SUCCESS)
        f = clGetExtensionFunctionAddressForPlatform(plat, "clGetKernelSubGroupInfoKHR");
    int major = 0, minor = 0;
    cl_uint groups = 0;
    if (!f && c->info->device_version && sscanf(c->info->device_version, "OpenCL %d.%d", &major, &minor) == 2 &&
        (major > 2 || (major == 2 && minor >= 1)) &&
        clGetDeviceInfo(c->dev, DEVICE_MAX_NUM_SUB_GROUPS, sizeof groups, &groups, NULL) == CL_SUCCESS &&
        groups > 0) {
        void *self = dlopen(NULL, RTLD_LAZY);
        f = self ? dlsym(self, "clGetKernelSubGroupInfo") : NULL;
        if (self)
            dlclose(self); /* the loader stays: the program links it */
    }
    /* ISO C has no cast from object to function pointer: copy the bits */
    if (f)
        memcpy(&fn, &f, sizeof fn);
    return fn;
}

bw_code ocl_kernel_sub_group_size(ocl_kernel *k, size_t local, size_t *out, bw_error *err)
{
    *out = 0;
    ocl_context *c = k->p->c;
    sub_group_info_fn fn = sub_group_info_entry(c);
    if (!fn)
        return bw_error_set(err, BW_E_UNSUPPORTED,
                            "'%s' cannot tell kernels' sub-group sizes (neither cl_khr_subgroups nor OpenCL "
                            "2.1 sub-groups)",
                            c->info->name);
    size_t v = 0;
    cl_int st = fn(k->k, c->dev, MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local, sizeof v, &v, NULL);
    if (st != CL_SUCCESS)
        return ocl_error_set(err, BW_E_UNSUPPORTED, "clGetKernelSubGroupInfo", st,
                             "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE of kernel '%s'", k->name);
    /* 0 is what a device without sub-groups answers (optional since 3.0) */
    if (v == 0)
        return bw_error_set(err, BW_E_UNSUPPORTED, "'%s' reports no sub-groups for kernel '%s'", c->info->name,
                            k->name);
    *out = v;
    return BW_OK;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

bw_code ocl_kernel_run(ocl_context *c, ocl_kernel *k, uint64_t global, uint64_t local,
                       ocl_timing *out, bw_error *err)
{
    return ocl_kernel_run_at(c, k, 0, global, local, out, err);
}

bw_code ocl_kernel_run_at(ocl_context *c, ocl_kernel *k, uint64_t first, uint64_t global, uint64_t local,
                          ocl_timing *out, bw_error *err)
{
    if (global == 0 || global > SIZE_MAX || local > SIZE_MAX || first > SIZE_MAX - global)
        return bw_error_set(err, BW_E_USAGE, "kernel '%s': %llu work-items cannot be launched",
                            k->name, (unsigned long long)global);
    if (local && global % local != 0)
        return bw_error_set(err, BW_E_USAGE,
                            "kernel '%s': %llu work-items are not a multiple of the work-group "
                            "size %llu",
                            k->name, (unsigned long long)global, (unsigned long long)local);
    size_t g = (size_t)global, l = (size_t)local, off = (size_t)first;
    cl_event ev = NULL;
    cl_ulong start = 0, end = 0;
    bw_code rc = BW_OK;
    double t0 = now_ns();
    cl_int st = clEnqueueNDRangeKernel(c->queue, k->k, 1, off ? &off : NULL, &g, l ? &l : NULL, 0, NULL,
                                       c->profiling ? &ev : NULL);
    k->size_status = 0;
    if (st != CL_SUCCESS) {
        if (st == CL_OUT_OF_RESOURCES || st == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
            st == CL_INVALID_WORK_GROUP_SIZE)
            k->size_status = st;
        rc = launch_error(k, "clEnqueueNDRangeKernel", st, global, local, err);
        goto done;
    }
    if (!c->profiling) { /* the host clock around clFinish is the measurement */
        if ((st = clFinish(c->queue)) != CL_SUCCESS) {
            rc = ocl_error_set(err, BW_E_OPENCL, "clFinish", st, "kernel '%s'", k->name);
            goto done;
        }
        out->wall_ns = now_ns() - t0;
        out->event_ns = out->wall_ns;
        launched(k);
        goto done;
    }
    if ((st = clWaitForEvents(1, &ev)) != CL_SUCCESS) {
        cl_int done = 0; /* a driver may report the allocation failure here, as the command's status */
        if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof done, &done, NULL) == CL_SUCCESS &&
            done == CL_MEM_OBJECT_ALLOCATION_FAILURE)
            rc = launch_error(k, "clWaitForEvents", done, global, local, err);
        else
            rc = ocl_error_set(err, BW_E_OPENCL, "clWaitForEvents", st, "kernel '%s'", k->name);
        goto done;
    }
    double t1 = now_ns();
    launched(k);
    if ((st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                      NULL)) != CL_SUCCESS ||
        (st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL)) !=
            CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clGetEventProfilingInfo", st, "kernel '%s'",
                           k->name);
        goto done;
    }
    out->event_ns = end >= start ? (double)(end - start) : 0.0;
    out->wall_ns = t1 - t0;
done:
    if (ev)
        clReleaseEvent(ev);
    return rc;
}

int ocl_kernel_size_status(const ocl_kernel *k)
{
    return k->size_status;
}

bw_code ocl_kernel_launch_latency(ocl_context *c, ocl_kernel *k, uint64_t global, uint64_t local,
                                  ocl_launch_latency *out, bw_error *err)
{
    size_t g = (size_t)global, l = (size_t)local;
    cl_event ev = NULL;
    cl_ulong q = 0, start = 0, end = 0;
    bw_code rc = BW_OK;
    double t0 = now_ns();
    cl_int st = clEnqueueNDRangeKernel(c->queue, k->k, 1, NULL, &g, l ? &l : NULL, 0, NULL, &ev);
    if (st != CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clEnqueueNDRangeKernel", st, "kernel '%s'", k->name);
        goto done;
    }
    if (!c->profiling) { /* no profiling: the wall clock alone */
        if ((st = clWaitForEvents(1, &ev)) != CL_SUCCESS) {
            rc = ocl_error_set(err, BW_E_OPENCL, "clWaitForEvents", st, "kernel '%s'", k->name);
            goto done;
        }
        out->wall_ns = now_ns() - t0;
        out->queued_to_start_ns = out->queued_to_end_ns = 0;
        goto done;
    }
    if ((st = clWaitForEvents(1, &ev)) != CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clWaitForEvents", st, "kernel '%s'", k->name);
        goto done;
    }
    double t1 = now_ns();
    if ((st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof q, &q, NULL)) != CL_SUCCESS ||
        (st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL)) != CL_SUCCESS ||
        (st = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL)) != CL_SUCCESS) {
        rc = ocl_error_set(err, BW_E_OPENCL, "clGetEventProfilingInfo", st, "kernel '%s'", k->name);
        goto done;
    }
    out->queued_to_start_ns = start >= q ? (double)(start - q) : 0.0;
    out->queued_to_end_ns = end >= q ? (double)(end - q) : 0.0;
    out->wall_ns = t1 - t0;
done:
    if (ev)
        clReleaseEvent(ev);
    return rc;
}
