/* bench_fill: filling a run's device buffers before anything is timed. The
 * source gets the pseudo-random stream of bench_fill_random_at, generated
 * on the device by cl/fill.cl where the device can (no PCIe transfer, no
 * host time: seconds on a large working set) and spot-checked against the
 * host's generator, which stays the reference: validation regenerates the
 * stream on the host. Other buffers get a fixed pattern from the driver.
 * Writing every byte also makes lazily allocating drivers commit the
 * memory now: an allocation failure is BW_E_TOOBIG (ocl_buffer_write). */
#ifndef BENCH_FILL_H
#define BENCH_FILL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "ocl_buffer.h"
#include "ocl_context.h"

#define BENCH_FILL_KERNEL_FILE "fill.cl"
/* words of the stream per launch of the fill kernel: a signal is seen
 * between launches, and no launch is huge */
#define BENCH_FILL_LAUNCH_WORDS ((uint64_t)4 << 20)

/* What a fill uses of its caller's. */
typedef struct bench_fill_io {
    ocl_context *ctx;
    const char *kernel_dir;      /* --kernels, or NULL: fill.cl found as bench_kernel_source_load finds it */
    uint8_t *stage;              /* host memory for a fill from the host */
    uint64_t stage_bytes;        /* > 0 */
    volatile sig_atomic_t *stop; /* non-zero: BW_E_INTERRUPTED before the next chunk; may be NULL */
} bench_fill_io;

/* Bytes [0, bytes) of b: the stream bench_fill_random_at(seed) from byte
 * 0. fill.cl is built once and launched over words of at most
 * BENCH_FILL_LAUNCH_WORDS, the bytes past the last whole word come from
 * the host, then pieces of b (the first and last 64 KiB, four 4 KiB ones
 * in between) are read back and compared with the host's generator. Where
 * the device cannot (fill.cl missing or not building, e.g. no 64-bit
 * integers; a byte order other than the host's; a launch failing other
 * than for allocation; a piece that differs), the host writes the stream
 * (bench_fill_src_host) and note (note_size bytes) says why, "src filled
 * from the host: REASON" with b's name; else note is "". Errors:
 * BW_E_TOOBIG (allocation), BW_E_INTERRUPTED, BW_E_OPENCL and BW_E_NOMEM
 * as the host fill has them. */
bw_code bench_fill_src_device(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, uint64_t seed, char *note,
                              size_t note_size, bw_error *err);

/* The same stream written from the host, io->stage at a time. */
bw_code bench_fill_src_host(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, uint64_t seed, bw_error *err);

/* Bytes [0, bytes) of b: pattern (pattern_size bytes, as ocl_buffer_fill
 * takes) repeated, by the driver, 256 MiB per call (io->stop read before
 * each). */
bw_code bench_fill_pattern(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, const void *pattern,
                           size_t pattern_size, bw_error *err);

#endif
