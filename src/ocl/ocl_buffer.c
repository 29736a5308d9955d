/* ocl_buffer: device buffers: allocation checked against the device's
 * limit, range-checked reads and writes, and pattern fills by the driver
 * where OpenCL 1.2 allows, else from the host (ocl_buffer.h). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "ocl_buffer.h"

#include "bw_format.h"
#include "bw_hook.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_error.h"
#include "ocl_internal.h"

/* Answers that mean "the device cannot hold this much", not a bug. */
static int is_size_failure(cl_int st)
{
    return st == CL_INVALID_BUFFER_SIZE || st == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
           st == CL_OUT_OF_RESOURCES;
}

static bw_code create(ocl_context *c, uint64_t bytes, const char *name, cl_mem_flags flags, ocl_buffer **out,
                      bw_error *err)
{
    *out = NULL;
    if (!name)
        name = "buffer";
    char size[32], limit[32];
    bw_format_bytes(size, sizeof size, (double)bytes);
    if (bytes == 0)
        return bw_error_set(err, BW_E_USAGE, "buffer '%s' of 0 bytes: a buffer needs at least 1",
                            name);
    uint64_t max = c->info->max_alloc_bytes;
    if (bytes > max || bytes > SIZE_MAX) {
        bw_format_bytes(limit, sizeof limit, (double)max);
        return bw_error_set(err, BW_E_TOOBIG,
                            "buffer '%s' of %s (%llu B) is larger than the device's largest "
                            "allocation, %s (CL_DEVICE_MAX_MEM_ALLOC_SIZE); use a smaller --size",
                            name, size, (unsigned long long)bytes, limit);
    }
    bw_code rc = BW_OK;
    cl_int st = CL_SUCCESS;
    ocl_buffer *b = calloc(1, sizeof *b);
    if (!b || !(b->name = strdup(name))) {
        rc = bw_error_set(err, BW_E_NOMEM, "out of memory creating buffer '%s'", name);
        goto fail;
    }
    b->bytes = bytes;
    b->mem = clCreateBuffer(c->ctx, flags, (size_t)bytes, NULL, &st);
    if (bw_hook_fault("alloc", name, NULL)) { /* test builds only: the device refuses */
        if (b->mem)
            clReleaseMemObject(b->mem);
        b->mem = NULL;
        st = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    }
    if (st != CL_SUCCESS || !b->mem) {
        rc = ocl_error_set(err, is_size_failure(st) ? BW_E_TOOBIG : BW_E_OPENCL, "clCreateBuffer",
                           st, "buffer '%s' (%s)%s", name, size,
                           is_size_failure(st) ? "; use a smaller --size" : "");
        goto fail;
    }
    *out = b;
    return BW_OK;
fail:
    ocl_buffer_free(b);
    return rc;
}

bw_code ocl_buffer_create(ocl_context *c, uint64_t bytes, const char *name, ocl_buffer **out,
                          bw_error *err)
{
    return create(c, bytes, name, CL_MEM_READ_WRITE, out, err);
}

bw_code ocl_buffer_create_host(ocl_context *c, uint64_t bytes, const char *name, ocl_buffer **out,
                               bw_error *err)
{
    return create(c, bytes, name, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, out, err);
}

bw_code ocl_buffer_create_shifted(ocl_context *c, uint64_t bytes, uint64_t shift, const char *name, ocl_buffer **out,
                                  uint64_t *applied, bw_error *err)
{
    *applied = 0;
    cl_uint align_bits = 0;
    uint64_t max = c->info->max_alloc_bytes;
    int takes = shift > 0 && max > shift && bytes <= max - shift &&
                clGetDeviceInfo(c->dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL) ==
                    CL_SUCCESS &&
                align_bits >= 8 && shift % (align_bits / 8) == 0;
    if (!takes)
        return ocl_buffer_create(c, bytes, name, out, err);
    bw_code rc = ocl_buffer_create(c, bytes + shift, name, out, err);
    if (rc != BW_OK)
        return rc;
    ocl_buffer *b = *out;
    cl_buffer_region region = { (size_t)shift, (size_t)bytes };
    cl_int st = CL_SUCCESS;
    cl_mem sub = clCreateSubBuffer(b->mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &st);
    if (st == CL_SUCCESS && sub) {
        b->parent = b->mem;
        b->mem = sub;
        *applied = shift;
    } else if (sub) {
        clReleaseMemObject(sub);
    }
    /* without a sub-buffer, the allocation's first bytes: a plain buffer */
    b->bytes = bytes;
    return BW_OK;
}

void ocl_buffer_free(ocl_buffer *b)
{
    if (!b)
        return;
    if (b->mem)
        clReleaseMemObject(b->mem);
    if (b->parent)
        clReleaseMemObject(b->parent);
    free(b->name);
    free(b);
}

uint64_t ocl_buffer_size(const ocl_buffer *b)
{
    return b->bytes;
}

const char *ocl_buffer_name(const ocl_buffer *b)
{
    return b->name;
}

static bw_code check_range(const ocl_buffer *b, uint64_t offset, uint64_t bytes, const char *verb,
                           bw_error *err)
{
    if (offset > b->bytes || bytes > b->bytes - offset)
        return bw_error_set(err, BW_E_RANGE,
                            "cannot %s %llu bytes at offset %llu of buffer '%s': it holds %llu "
                            "bytes",
                            verb, (unsigned long long)bytes, (unsigned long long)offset, b->name,
                            (unsigned long long)b->bytes);
    return BW_OK;
}

bw_code ocl_buffer_use_error(const ocl_buffer *b, const char *call, int st, const char *kernel, bw_error *err)
{
    char size[32];
    bw_format_bytes(size, sizeof size, (double)b->bytes);
    /* lazily allocating drivers report a too-large buffer at its first use */
    int toobig = !b->written && is_size_failure(st);
    return ocl_error_set(err, toobig ? BW_E_TOOBIG : BW_E_OPENCL, call, st, "buffer '%s' (%s)%s%s%s%s", b->name,
                         size, kernel ? " of kernel '" : "", kernel ? kernel : "", kernel ? "'" : "",
                         toobig ? "; the device could not allocate it, use a smaller --size" : "");
}

bw_code ocl_buffer_write(ocl_context *c, ocl_buffer *b, uint64_t offset, const void *src,
                         uint64_t bytes, bw_error *err)
{
    bw_code rc = check_range(b, offset, bytes, "write", err);
    if (rc != BW_OK || bytes == 0)
        return rc;
    cl_int st = clEnqueueWriteBuffer(c->queue, b->mem, CL_TRUE, (size_t)offset, (size_t)bytes,
                                     src, 0, NULL, NULL);
    if (st != CL_SUCCESS)
        return ocl_buffer_use_error(b, "clEnqueueWriteBuffer", st, NULL, err);
    b->written = 1;
    return BW_OK;
}

bw_code ocl_buffer_read(ocl_context *c, ocl_buffer *b, uint64_t offset, void *dst, uint64_t bytes,
                        bw_error *err)
{
    bw_code rc = check_range(b, offset, bytes, "read", err);
    if (rc != BW_OK || bytes == 0)
        return rc;
    cl_int st = clEnqueueReadBuffer(c->queue, b->mem, CL_TRUE, (size_t)offset, (size_t)bytes, dst,
                                    0, NULL, NULL);
    if (st != CL_SUCCESS) {
        char size[32];
        bw_format_bytes(size, sizeof size, (double)b->bytes);
        return ocl_error_set(err, BW_E_OPENCL, "clEnqueueReadBuffer", st, "buffer '%s' (%s)",
                             b->name, size);
    }
    return BW_OK;
}

/* host memory of a fill written from the host */
#define FILL_HOST_CHUNK ((uint64_t)4 << 20)

/* "OpenCL 1.2 ..." or later */
static int at_least_1_2(const char *version)
{
    int major = 0, minor = 0;
    return version && sscanf(version, "OpenCL %d.%d", &major, &minor) == 2 && (major > 1 || (major == 1 && minor >= 2));
}

/* [offset, offset+bytes) of the fill written from the host, a chunk at a time */
static bw_code fill_from_host(ocl_context *c, ocl_buffer *b, uint64_t offset, uint64_t bytes, const uint8_t *pattern,
                              size_t size, bw_error *err)
{
    /* whole patterns per chunk, so every chunk starts at the same phase */
    uint64_t chunk = bytes < FILL_HOST_CHUNK ? bytes : FILL_HOST_CHUNK / size * size;
    uint8_t *host = malloc((size_t)chunk);
    if (!host)
        return bw_error_set(err, BW_E_NOMEM, "out of host memory filling buffer '%s'", b->name);
    for (uint64_t i = 0; i < chunk; i++)
        host[i] = pattern[(offset + i) % size];
    bw_code rc = BW_OK;
    for (uint64_t done = 0; done < bytes && rc == BW_OK; done += chunk) {
        uint64_t n = bytes - done < chunk ? bytes - done : chunk;
        rc = ocl_buffer_write(c, b, offset + done, host, n, err);
    }
    free(host);
    return rc;
}

/* clEnqueueFillBuffer over [offset, offset+bytes), both multiples of size,
 * waited for: its status, or that of the command */
static cl_int fill_on_device(ocl_context *c, ocl_buffer *b, uint64_t offset, uint64_t bytes, const void *pattern,
                             size_t size)
{
    if (bw_hook_fault("fill", b->name, NULL)) /* test builds only: a driver whose fill fails */
        return CL_INVALID_OPERATION;
    cl_event ev = NULL;
    cl_int st = clEnqueueFillBuffer(c->queue, b->mem, pattern, size, (size_t)offset, (size_t)bytes, 0, NULL, &ev);
    if (st == CL_SUCCESS && (st = clWaitForEvents(1, &ev)) != CL_SUCCESS) {
        cl_int done = 0;
        if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof done, &done, NULL) == CL_SUCCESS && done < 0)
            st = done; /* the command's own error, not "an event failed" */
    }
    if (ev)
        clReleaseEvent(ev);
    return st;
}

bw_code ocl_buffer_fill(ocl_context *c, ocl_buffer *b, uint64_t offset, uint64_t bytes, const void *pattern,
                        size_t pattern_size, bw_error *err)
{
    size_t size = pattern_size;
    if (!pattern || size == 0 || size > 128 || (size & (size - 1)) != 0)
        return bw_error_set(err, BW_E_USAGE,
                            "cannot fill buffer '%s' with a pattern of %zu bytes: it must be 1, 2, 4, 8, 16, 32, "
                            "64 or 128",
                            b->name, size);
    bw_code rc = check_range(b, offset, bytes, "fill", err);
    if (rc != BW_OK || bytes == 0)
        return rc;
    const uint8_t *p = pattern;
    uint64_t head = (size - offset % size) % size;
    head = head < bytes ? head : bytes;
    uint64_t mid = (bytes - head) / size * size, tail = bytes - head - mid;
    if (mid > 0 && at_least_1_2(c->info->device_version) && at_least_1_2(c->info->platform_version)) {
        /* the pattern's phase at offset+head is 0: the driver's pattern as it is */
        cl_int st = fill_on_device(c, b, offset + head, mid, pattern, size);
        if (st == CL_SUCCESS) {
            b->written = 1;
            if (head && (rc = fill_from_host(c, b, offset, head, p, size, err)) != BW_OK)
                return rc;
            return tail ? fill_from_host(c, b, offset + head + mid, tail, p, size, err) : BW_OK;
        }
        if (is_size_failure(st))
            return ocl_buffer_use_error(b, "clEnqueueFillBuffer", st, NULL, err);
        /* any other answer: the host writes the pattern instead */
    }
    return fill_from_host(c, b, offset, bytes, p, size, err);
}
