/* ocl_transfer: host<->device copies and launch latency, as `bwlab probe`
 * and `bwlab run --transfers` measure them (docs/results.md, "bwlab
 * probe"). Host memory is either pageable (malloc) or pinned: a
 * CL_MEM_ALLOC_HOST_PTR buffer kept mapped, whose host pointer is the
 * source or destination of the copies (how clpeak and vendor samples get
 * page-locked memory through OpenCL). */
#ifndef OCL_TRANSFER_H
#define OCL_TRANSFER_H

#include <stdint.h>

#include "bw_error.h"
#include "ocl_buffer.h"
#include "ocl_context.h"
#include "ocl_program.h" /* ocl_timing */

typedef struct ocl_host_mem ocl_host_mem;

/* `bytes` of host memory, pinned (mapped CL_MEM_ALLOC_HOST_PTR) or
 * pageable; zero-filled. BW_E_TOOBIG when the device or host cannot
 * hold it. */
bw_code ocl_host_mem_create(ocl_context *c, uint64_t bytes, int pinned, ocl_host_mem **out, bw_error *err);
void *ocl_host_mem_ptr(ocl_host_mem *m);
void ocl_host_mem_free(ocl_host_mem *m); /* accepts NULL; unmaps first */

/* `count` copies of `bytes` between host memory and the start of b, to
 * the device (to_device 1) or from it. Blocking: each copy is a blocking
 * call. Non-blocking: all are enqueued, then the queue is finished.
 * out: per copy, the mean of the events' durations (event_ns) and the
 * host's wall clock from the first enqueue to the end, over count. */
bw_code ocl_transfer_run(ocl_context *c, ocl_buffer *b, void *host, uint64_t bytes, int to_device, int blocking,
                         unsigned count, ocl_timing *out, bw_error *err);

/* Where a buffer's maps landed: the first mapped host address and whether
 * a later map returned another. Zero-initialise before the first map. */
typedef struct ocl_map_seen {
    uintptr_t first; /* 0: no map yet */
    int moved;       /* a map returned another address than the first */
    unsigned maps;
} ocl_map_seen;

/* `count` maps of [0, bytes) of b, one after the other, each a blocking
 * clEnqueueMapBuffer (CL_MAP_READ from the device, to_device 0;
 * CL_MAP_WRITE_INVALIDATE_REGION to it, to_device 1) then its
 * clEnqueueUnmapMemObject and clFinish: what making the bytes visible on
 * the other side costs, the host's own reads or writes of the mapped
 * memory left out. A driver that copies does it in the map (from the
 * device) or the unmap (to it); a zero-copy map costs the calls alone.
 * out->wall_ns: the host clock per map and unmap, over count;
 * out->event_ns 0 (not measured). seen: every map's address is recorded.
 * BW_E_OPENCL when a call fails. */
bw_code ocl_transfer_map(ocl_context *c, ocl_buffer *b, uint64_t bytes, int to_device, unsigned count,
                         ocl_timing *out, ocl_map_seen *seen, bw_error *err);

#endif
