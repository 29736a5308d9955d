/* ocl_transfer: pageable or pinned host memory, and timed host<->device
 * copies and map/unmap round trips (ocl_transfer.h). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "ocl_transfer.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bw_format.h"
#include "ocl_error.h"
#include "ocl_internal.h"

struct ocl_host_mem {
    ocl_context *c;
    cl_mem mem; /* pinned: the CL_MEM_ALLOC_HOST_PTR buffer, NULL for pageable */
    void *ptr;
    uint64_t bytes;
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

bw_code ocl_host_mem_create(ocl_context *c, uint64_t bytes, int pinned, ocl_host_mem **out, bw_error *err)
{
    *out = NULL;
    char size[32];
    bw_format_bytes(size, sizeof size, (double)bytes);
    if (bytes == 0 || bytes > SIZE_MAX)
        return bw_error_set(err, BW_E_USAGE, "host memory of %s cannot be allocated", size);
    ocl_host_mem *m = calloc(1, sizeof *m);
    if (!m)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    m->c = c;
    m->bytes = bytes;
    cl_int st = CL_SUCCESS;
    if (!pinned) {
        m->ptr = calloc(1, (size_t)bytes);
        if (!m->ptr) {
            free(m);
            return bw_error_set(err, BW_E_TOOBIG, "%s of pageable host memory could not be allocated", size);
        }
        *out = m;
        return BW_OK;
    }
    if (bytes > c->info->max_alloc_bytes) {
        free(m);
        return bw_error_set(err, BW_E_TOOBIG, "pinned host memory of %s is larger than the device's largest "
                                              "allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)", size);
    }
    m->mem = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, (size_t)bytes, NULL, &st);
    if (st != CL_SUCCESS || !m->mem) {
        free(m);
        return ocl_error_set(err, BW_E_TOOBIG, "clCreateBuffer", st, "pinned host memory (%s, CL_MEM_ALLOC_HOST_PTR)",
                             size);
    }
    m->ptr = clEnqueueMapBuffer(c->queue, m->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, (size_t)bytes, 0, NULL,
                                NULL, &st);
    if (st != CL_SUCCESS || !m->ptr) {
        clReleaseMemObject(m->mem);
        free(m);
        return ocl_error_set(err, BW_E_OPENCL, "clEnqueueMapBuffer", st, "pinned host memory (%s)", size);
    }
    memset(m->ptr, 0, (size_t)bytes);
    *out = m;
    return BW_OK;
}

void *ocl_host_mem_ptr(ocl_host_mem *m)
{
    return m->ptr;
}

void ocl_host_mem_free(ocl_host_mem *m)
{
    if (!m)
        return;
    if (m->mem) {
        if (m->ptr) {
            cl_event ev = NULL;
            if (clEnqueueUnmapMemObject(m->c->queue, m->mem, m->ptr, 0, NULL, &ev) == CL_SUCCESS && ev) {
                clWaitForEvents(1, &ev);
                clReleaseEvent(ev);
            }
        }
        clReleaseMemObject(m->mem);
    } else {
        free(m->ptr);
    }
    free(m);
}

#define MAX_COUNT 64

bw_code ocl_transfer_run(ocl_context *c, ocl_buffer *b, void *host, uint64_t bytes, int to_device, int blocking,
                         unsigned count, ocl_timing *out, bw_error *err)
{
    if (count == 0 || count > MAX_COUNT || bytes == 0 || bytes > b->bytes)
        return bw_error_set(err, BW_E_USAGE, "transfer of %llu B x %u into buffer '%s' of %llu B is out of range",
                            (unsigned long long)bytes, count, b->name, (unsigned long long)b->bytes);
    cl_event ev[MAX_COUNT] = { 0 };
    const char *call = to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
    cl_bool blk = blocking ? CL_TRUE : CL_FALSE;
    bw_code rc = BW_OK;
    unsigned made = 0;
    double t0 = now_ns();
    for (unsigned i = 0; i < count; i++) {
        cl_int st = to_device ? clEnqueueWriteBuffer(c->queue, b->mem, blk, 0, (size_t)bytes, host, 0, NULL, &ev[i])
                              : clEnqueueReadBuffer(c->queue, b->mem, blk, 0, (size_t)bytes, host, 0, NULL, &ev[i]);
        if (st != CL_SUCCESS) {
            rc = ocl_error_set(err, BW_E_OPENCL, call, st, "buffer '%s' (%llu B)", b->name,
                               (unsigned long long)bytes);
            break;
        }
        made++;
    }
    if (rc == BW_OK && !blocking) {
        cl_int st = clFinish(c->queue);
        if (st != CL_SUCCESS)
            rc = ocl_error_set(err, BW_E_OPENCL, "clFinish", st, "after copies of buffer '%s'", b->name);
    }
    double t1 = now_ns();
    double ev_sum = c->profiling ? 0 : (t1 - t0); /* no profiling: the wall clock */
    for (unsigned i = 0; i < made && rc == BW_OK && c->profiling; i++) {
        cl_ulong s = 0, e = 0;
        cl_int st = clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        if (st == CL_SUCCESS)
            st = clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
        if (st != CL_SUCCESS)
            rc = ocl_error_set(err, BW_E_OPENCL, "clGetEventProfilingInfo", st, "a copy of buffer '%s'", b->name);
        else
            ev_sum += e >= s ? (double)(e - s) : 0.0;
    }
    for (unsigned i = 0; i < made; i++)
        clReleaseEvent(ev[i]);
    b->written = 1;
    if (rc == BW_OK) {
        out->event_ns = ev_sum / count;
        out->wall_ns = (t1 - t0) / count;
    }
    return rc;
}

bw_code ocl_transfer_map(ocl_context *c, ocl_buffer *b, uint64_t bytes, int to_device, unsigned count,
                         ocl_timing *out, ocl_map_seen *seen, bw_error *err)
{
    if (count == 0 || count > MAX_COUNT || bytes == 0 || bytes > b->bytes)
        return bw_error_set(err, BW_E_USAGE, "map of %llu B x %u of buffer '%s' of %llu B is out of range",
                            (unsigned long long)bytes, count, b->name, (unsigned long long)b->bytes);
    cl_map_flags flags = to_device ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ;
    double t0 = now_ns();
    for (unsigned i = 0; i < count; i++) {
        cl_int st = CL_SUCCESS;
        void *ptr = clEnqueueMapBuffer(c->queue, b->mem, CL_TRUE, flags, 0, (size_t)bytes, 0, NULL, NULL, &st);
        if (st != CL_SUCCESS || !ptr)
            return ocl_error_set(err, BW_E_OPENCL, "clEnqueueMapBuffer", st, "buffer '%s' (%llu B, %s)", b->name,
                                 (unsigned long long)bytes, to_device ? "CL_MAP_WRITE_INVALIDATE_REGION" : "CL_MAP_READ");
        if (!seen->first)
            seen->first = (uintptr_t)ptr;
        else if (seen->first != (uintptr_t)ptr)
            seen->moved = 1;
        seen->maps++;
        if ((st = clEnqueueUnmapMemObject(c->queue, b->mem, ptr, 0, NULL, NULL)) != CL_SUCCESS)
            return ocl_error_set(err, BW_E_OPENCL, "clEnqueueUnmapMemObject", st, "buffer '%s'", b->name);
        if ((st = clFinish(c->queue)) != CL_SUCCESS)
            return ocl_error_set(err, BW_E_OPENCL, "clFinish", st, "after unmapping buffer '%s'", b->name);
    }
    b->written = 1;
    out->wall_ns = (now_ns() - t0) / count;
    out->event_ns = 0;
    return BW_OK;
}
