/* bench_fill: filling a run's buffers before timing: the source's
 * pseudo-random stream on the device (fill.cl), spot-checked against the
 * host's generator, or from the host where the device cannot; other
 * buffers with a fixed pattern by the driver (bench_fill.h). */
#include "bench_fill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_kernel.h"
#include "bench_validate.h"
#include "ocl_program.h"

/* bytes per ocl_buffer_fill call of bench_fill_pattern */
#define PATTERN_CHUNK ((uint64_t)256 << 20)
/* the spot check: both ends, and pieces between */
#define SPOT_END ((uint64_t)64 << 10)
#define SPOT_PIECE ((uint64_t)4 << 10)
#define SPOT_PIECES 4
/* a launch of whole groups of this many work-items (those past the count write nothing) */
#define LAUNCH_ROUND 64

static int stopped(const bench_fill_io *io)
{
    return io->stop && *io->stop;
}

static int host_little_endian(void)
{
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
}

bw_code bench_fill_src_host(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, uint64_t seed, bw_error *err)
{
    bw_code rc = BW_OK;
    for (uint64_t off = 0; off < bytes && rc == BW_OK; off += io->stage_bytes) {
        uint64_t n = bytes - off < io->stage_bytes ? bytes - off : io->stage_bytes;
        if (stopped(io))
            return bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
        bench_fill_random_at(io->stage, off, n, seed);
        rc = ocl_buffer_write(io->ctx, b, off, io->stage, n, err);
    }
    return rc;
}

bw_code bench_fill_pattern(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, const void *pattern,
                           size_t pattern_size, bw_error *err)
{
    bw_code rc = BW_OK;
    for (uint64_t off = 0; off < bytes && rc == BW_OK; off += PATTERN_CHUNK) {
        uint64_t n = bytes - off < PATTERN_CHUNK ? bytes - off : PATTERN_CHUNK;
        if (stopped(io))
            return bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
        rc = ocl_buffer_fill(io->ctx, b, off, n, pattern, pattern_size, err);
    }
    return rc;
}

/* the first line of an error, as a short reason (a build error's log left out) */
static void reason_of(const bw_error *e, char *why, size_t n)
{
    const char *text = bw_error_text(e);
    size_t len = strcspn(text, "\n");
    if (len > 0 && text[len - 1] == ':')
        len--;
    snprintf(why, n, "%.*s", (int)len, text);
}

/* fill.cl built and its kernel made, b as its destination; BW_E_BUILD,
 * BW_E_IO and the like are the caller's reason to fill from the host */
static bw_code make_fill_kernel(const bench_fill_io *io, ocl_buffer *b, uint64_t seed, ocl_kernel **kern,
                                bw_error *err)
{
    char *source = NULL, options[64];
    ocl_program *prog = NULL;
    /* the one definition of the sentinel is the host's */
    snprintf(options, sizeof options, "-D BW_FILL_SENTINEL=0x%08Xu", (unsigned)BENCH_WRITE_SENTINEL);
    bw_code rc = bench_kernel_source_load(io->kernel_dir, BENCH_FILL_KERNEL_FILE, &source, NULL, err);
    if (rc == BW_OK)
        rc = ocl_program_build(io->ctx, source, BENCH_FILL_KERNEL_FILE, options, &prog, err);
    if (rc == BW_OK)
        rc = ocl_kernel_create(prog, "bw_fill", kern, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(*kern, 0, b, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_i64(*kern, 3, (int64_t)seed, err);
    ocl_program_free(prog); /* the kernel keeps it */
    free(source);
    return rc;
}

/* words [0, words) of b by the fill kernel, BENCH_FILL_LAUNCH_WORDS per launch */
static bw_code launch_fill(const bench_fill_io *io, ocl_kernel *k, uint64_t words, bw_error *err)
{
    bw_code rc = BW_OK;
    for (uint64_t first = 0; first < words && rc == BW_OK; first += BENCH_FILL_LAUNCH_WORDS) {
        uint64_t count = words - first < BENCH_FILL_LAUNCH_WORDS ? words - first : BENCH_FILL_LAUNCH_WORDS;
        if (stopped(io))
            return bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
        ocl_timing t;
        rc = ocl_kernel_arg_i64(k, 1, (int64_t)first, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_i64(k, 2, (int64_t)count, err);
        if (rc == BW_OK)
            rc = ocl_kernel_run(io->ctx, k, (count + LAUNCH_ROUND - 1) / LAUNCH_ROUND * LAUNCH_ROUND, 0, &t, err);
    }
    return rc;
}

/* [off, off+n) of b against the host's stream: *bad the first byte that
 * differs, or UINT64_MAX */
static bw_code check_piece(const bench_fill_io *io, ocl_buffer *b, uint64_t off, uint64_t n, uint64_t seed,
                           uint8_t *got, uint8_t *want, uint64_t *bad, bw_error *err)
{
    bw_code rc = ocl_buffer_read(io->ctx, b, off, got, n, err);
    if (rc != BW_OK)
        return rc;
    bench_fill_random_at(want, off, n, seed);
    for (uint64_t i = 0; i < n && *bad == UINT64_MAX; i++)
        if (got[i] != want[i])
            *bad = off + i;
    return BW_OK;
}

/* The spot check of a device fill of [0, bytes): the first and last
 * SPOT_END bytes and SPOT_PIECES pieces between, at offsets that follow
 * from the seed. *bad as check_piece. */
static bw_code spot_check(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, uint64_t seed, uint64_t *bad,
                          bw_error *err)
{
    *bad = UINT64_MAX;
    uint8_t *got = malloc(2 * SPOT_END);
    if (!got)
        return bw_error_set(err, BW_E_NOMEM, "out of host memory checking the device's fill");
    uint8_t *want = got + SPOT_END;
    uint64_t end = bytes < SPOT_END ? bytes : SPOT_END;
    bw_code rc = check_piece(io, b, 0, end, seed, got, want, bad, err);
    if (rc == BW_OK && *bad == UINT64_MAX)
        rc = check_piece(io, b, bytes - end, end, seed, got, want, bad, err);
    uint64_t x = seed ^ UINT64_C(0x5370c7); /* any fixed walk through the buffer */
    for (int i = 0; i < SPOT_PIECES && bytes > 2 * SPOT_END && rc == BW_OK && *bad == UINT64_MAX; i++) {
        uint8_t word[8];
        bench_fill_random_at(word, 8 * (uint64_t)i, 8, x);
        uint64_t r;
        memcpy(&r, word, 8);
        uint64_t off = r % (bytes - SPOT_PIECE + 1);
        rc = check_piece(io, b, off, SPOT_PIECE, seed, got, want, bad, err);
    }
    free(got);
    return rc;
}

/* The device's fill of [0, bytes): BW_OK with why "" when it is done and
 * checked, BW_OK with why set when the host must fill instead, or an
 * error that no host fill mends (allocation, a signal, no memory). */
static bw_code fill_on_device(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, uint64_t seed, char *why,
                              size_t why_size, bw_error *err)
{
    why[0] = '\0';
    int little = ocl_context_little_endian(io->ctx);
    if (little != host_little_endian()) {
        snprintf(why, why_size, "%s", little < 0 ? "the device does not tell its byte order (CL_DEVICE_ENDIAN_LITTLE)"
                                                 : "the device's byte order (CL_DEVICE_ENDIAN_LITTLE) is not the host's");
        return BW_OK;
    }
    ocl_kernel *k = NULL;
    bw_error e = BW_ERROR_INIT;
    bw_code rc = make_fill_kernel(io, b, seed, &k, &e);
    if (rc == BW_OK)
        rc = launch_fill(io, k, bytes / 8, &e);
    ocl_kernel_free(k);
    if (rc == BW_E_TOOBIG || rc == BW_E_INTERRUPTED || rc == BW_E_NOMEM) {
        if (err) { /* the caller's error */
            bw_error_clear(err);
            *err = e;
        } else {
            bw_error_clear(&e);
        }
        return rc;
    }
    if (rc != BW_OK) {
        reason_of(&e, why, why_size);
        bw_error_clear(&e);
        return BW_OK;
    }
    uint8_t tail[8];
    uint64_t whole = bytes / 8 * 8;
    bench_fill_random_at(tail, whole, bytes - whole, seed);
    uint64_t bad = UINT64_MAX;
    if (bytes > whole && (rc = ocl_buffer_write(io->ctx, b, whole, tail, bytes - whole, err)) != BW_OK)
        return rc;
    if ((rc = spot_check(io, b, bytes, seed, &bad, err)) != BW_OK)
        return rc;
    if (bad != UINT64_MAX)
        snprintf(why, why_size, "the device's fill (%s) differs from the host's stream at byte %llu",
                 BENCH_FILL_KERNEL_FILE, (unsigned long long)bad);
    return BW_OK;
}

bw_code bench_fill_src_device(const bench_fill_io *io, ocl_buffer *b, uint64_t bytes, uint64_t seed, char *note,
                              size_t note_size, bw_error *err)
{
    note[0] = '\0';
    if (bytes < 8) /* no word for the device to write */
        return bench_fill_src_host(io, b, bytes, seed, err);
    char why[320];
    bw_code rc = fill_on_device(io, b, bytes, seed, why, sizeof why, err);
    if (rc != BW_OK || !why[0])
        return rc;
    snprintf(note, note_size, "%s filled from the host: %s", ocl_buffer_name(b), why);
    return bench_fill_src_host(io, b, bytes, seed, err);
}
