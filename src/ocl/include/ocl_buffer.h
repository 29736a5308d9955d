/* ocl_buffer: device buffers (read-write global memory). */
#ifndef OCL_BUFFER_H
#define OCL_BUFFER_H

#include <stdint.h>

#include "bw_error.h"
#include "ocl_context.h"

typedef struct ocl_buffer ocl_buffer;

/* Allocates `bytes` (> 0). Fails with BW_E_TOOBIG, before calling OpenCL,
 * when bytes exceeds the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (the message
 * names the buffer, the size asked and the limit), and also when OpenCL
 * answers CL_INVALID_BUFFER_SIZE or CL_MEM_OBJECT_ALLOCATION_FAILURE.
 * `name` ("src", "dst") is used in messages. Drivers allocate lazily, so
 * callers write the buffer before timing anything. */
bw_code ocl_buffer_create(ocl_context *c, uint64_t bytes, const char *name, ocl_buffer **out,
                          bw_error *err);
/* The same with CL_MEM_ALLOC_HOST_PTR: memory the driver allocates where
 * the host can reach it, which drivers map without a copy where they can
 * (pinned host memory on a discrete GPU; the buffer itself on a device
 * whose memory is the host's). Left unmapped: ocl_transfer_map maps it. */
bw_code ocl_buffer_create_host(ocl_context *c, uint64_t bytes, const char *name, ocl_buffer **out,
                               bw_error *err);
/* As ocl_buffer_create, with the buffer's first byte `shift` bytes into
 * an allocation of bytes + shift (a sub-buffer of it). Two page-aligned
 * buffers share their low address bits element for element, and a CPU's
 * store queue and L1 take a load from one for a dependence on a store to
 * the other; a shift of part of a page keeps them apart (STREAM's OFFSET).
 * Applied only where the device takes it (shift a multiple of
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN, bytes + shift within its largest
 * allocation) and the driver makes the sub-buffer: *applied is the shift
 * the buffer has, 0 for a plain one. Owns both; ocl_buffer_free frees both. */
bw_code ocl_buffer_create_shifted(ocl_context *c, uint64_t bytes, uint64_t shift, const char *name, ocl_buffer **out,
                                  uint64_t *applied, bw_error *err);
void ocl_buffer_free(ocl_buffer *b); /* accepts NULL */
const char *ocl_buffer_name(const ocl_buffer *b); /* as given to create */
/* Blocking copies between host memory and [offset, offset+bytes). */
bw_code ocl_buffer_write(ocl_context *c, ocl_buffer *b, uint64_t offset, const void *src,
                         uint64_t bytes, bw_error *err);
bw_code ocl_buffer_read(ocl_context *c, ocl_buffer *b, uint64_t offset, void *dst, uint64_t bytes,
                        bw_error *err);
/* Fills [offset, offset+bytes) with `pattern` (pattern_size bytes: 1, 2,
 * 4, ..., 128) repeated from the buffer's start: byte i of the buffer gets
 * pattern[i % pattern_size] whatever offset is, so a range filled in
 * pieces holds what one fill puts there. Blocking. The aligned middle by
 * clEnqueueFillBuffer (OpenCL 1.2), the bytes around it from the host; on
 * an OpenCL 1.1 device or platform, or when the driver's fill fails with
 * anything but an allocation failure, the whole range is written from a
 * host buffer in chunks (at most 4 MiB of host memory). An allocation
 * failure at the buffer's first use is BW_E_TOOBIG, as for
 * ocl_buffer_write; BW_E_USAGE for another pattern size. */
bw_code ocl_buffer_fill(ocl_context *c, ocl_buffer *b, uint64_t offset, uint64_t bytes, const void *pattern,
                        size_t pattern_size, bw_error *err);

#endif
