/* bench_validate: host-side checks of what a kernel did, against the model's
 * own addresses: the copied values (every run) and the recorded addresses
 * of a trace build (tests). */
#ifndef BENCH_VALIDATE_H
#define BENCH_VALIDATE_H

#include <signal.h>
#include <stdint.h>

#include "bench_plan_priv.h"
#include "bw_error.h"

/* Deterministic pseudo-random bytes (hardware compression inflates reads of
 * zeros) and the sentinel that marks stores that must not happen. Both are
 * streams that can be entered anywhere: the _at forms write bytes
 * [offset, offset+n) of the stream, the same bytes a whole fill from 0
 * puts there, so a buffer can be filled, and its bytes regenerated for
 * checking, a chunk at a time. */
void bench_fill_random(uint8_t *buf, uint64_t n, uint64_t seed);
void bench_fill_random_at(uint8_t *buf, uint64_t offset, uint64_t n, uint64_t seed);
/* The seed whose stream is all zeros: a source filled with zeros
 * (bench_settings.fill_zeros) is validated as that stream. */
#define BENCH_FILL_ZERO_SEED UINT64_MAX
void bench_fill_sentinel(uint8_t *buf, uint64_t n);
void bench_fill_sentinel_at(uint8_t *buf, uint64_t offset, uint64_t n);

/* Write mode's fill of dst: one 4-byte word that the random stream never
 * holds (bench_fill_random changes any word of it that would be), so a
 * word a store wrote always differs from the fill. */
#define BENCH_WRITE_SENTINEL 0xA5A55A5Au
/* Bytes beyond each end of a write item's stores that its validation
 * fills and checks too: a store that lands just outside them is caught. */
#define BENCH_WRITE_MARGIN ((uint64_t)64 << 10)

/* dst (it->items elements) must hold, for every active item g, the elem
 * bytes of src at A(g), and the sentinel for inactive ones. BW_E_VALIDATION
 * names the first wrong item (lane, warp, address, got, expected) and how
 * many are wrong. */
bw_code bench_validate_copy(const model_geometry *geo, const bench_item *it, const uint8_t *src,
                            uint64_t src_bytes, const uint8_t *dst, bw_error *err);

/* Reads bytes [offset, offset+n) of a device buffer into buf. */
typedef bw_code (*bench_read_fn)(void *ctx, uint64_t offset, void *buf, uint64_t n, bw_error *err);

/* bench_validate_copy without either buffer in host memory: src is the
 * stream bench_fill_random(seed) wrote over src_bytes, regenerated where
 * the model says each item loads; dst is read a chunk at a time through
 * read_dst into buf (buf_bytes: the chunk, whole warps of elements, so at
 * least lanes x elem bytes). Same result and
 * message as bench_validate_copy on the whole buffers; errors of read_dst
 * are returned as they are. Holds no more host memory than buf and the
 * model's address chunk (8 MiB). */
bw_code bench_validate_copy_chunked(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, bench_read_fn read_dst, void *ctx, uint8_t *buf,
                                    uint64_t buf_bytes, bw_error *err);

/* A sample of whole work-groups, for a validation that must cost far less
 * than the launch it checks (docs/design.md §4): the first two, the last
 * two, groups 2..9 (every residue of the group index mod 8, so that
 * patterns whose addresses repeat over a few groups show each of their
 * address classes), evenly spaced ones across the launch, pseudo-random
 * ones from seed, and, in read mode, the groups that hold the validation
 * keys' work-items (bench_read_keys), whose stores are due. Writes the
 * first work-item of each sampled range, ascending and distinct, into
 * starts (at most BENCH_SAMPLE_GROUPS + BENCH_READ_KEYS entries) and
 * returns how many; each range is group_items work-items (the last one
 * may be shorter: clip to it->items). group_items is it->local_size
 * rounded up to whole warps. A launch of at most that many groups is
 * checked whole. */
#define BENCH_SAMPLE_GROUPS 64
size_t bench_validate_sample(const model_geometry *geo, const bench_item *it, uint64_t seed, int read_mode,
                             int64_t *starts, int64_t *group_items);

/* bench_validate_copy_chunked over the sampled ranges only (starts,
 * nstarts, each group_items work-items, from bench_validate_sample): the
 * same checks, and a message that counts the work-items checked. */
bw_code bench_validate_copy_sampled(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, const int64_t *starts, size_t nstarts,
                                    int64_t group_items, bench_read_fn read_dst, void *ctx, uint8_t *buf,
                                    uint64_t buf_bytes, bw_error *err);

/* Read mode (cl/gather.cl, BW_READ): a kernel stores its element at
 * dst[g] only where it equals the launch's key. Validation launches the
 * kernel once with each of BENCH_READ_KEYS keys, dst filled with the
 * sentinel once before the first, and then checks dst against the
 * prediction. */
#define BENCH_READ_KEYS 4

/* The keys of a validation: the elements that the source (the stream
 * bench_fill_random(seed) wrote) holds at the model's addresses of chosen
 * active work-items: the first, the last, and pseudo-random ones. keys
 * gets nkeys elements of it->elem bytes, packed. Fails like
 * model_access_addresses, or with BW_E_USAGE when the item has no active
 * work-item. */
bw_code bench_read_keys(const model_geometry *geo, const bench_item *it, uint64_t seed, uint8_t *keys, int nkeys,
                        bw_error *err);

/* dst after launches with each of keys[0 .. nkeys): every active item g
 * whose source element at A(g) equals one of the keys holds that element
 * (it loaded and stored it); every other item holds the sentinel. The
 * prediction is exact, from the regenerated source, so an element that
 * equals a key elsewhere too (a broadcast, a repeated value) is expected
 * there as well. A kernel that skips its loads, or loads the wrong
 * address, leaves the sentinel where a store was due, or stores where
 * none was. Reads dst like bench_validate_copy_chunked; BW_E_VALIDATION
 * names the first wrong item and how many are wrong. */
bw_code bench_validate_read_chunked(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, const uint8_t *keys, int nkeys, bench_read_fn read_dst,
                                    void *ctx, uint8_t *buf, uint64_t buf_bytes, bw_error *err);

/* bench_validate_read_chunked over the sampled ranges only, like
 * bench_validate_copy_sampled. */
bw_code bench_validate_read_sampled(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, const uint8_t *keys, int nkeys, const int64_t *starts,
                                    size_t nstarts, int64_t group_items, bench_read_fn read_dst, void *ctx,
                                    uint8_t *buf, uint64_t buf_bytes, bw_error *err);

/* trace[g] (it->items entries) must be the model's byte address of item g,
 * or -1 for an inactive one. BW_E_VALIDATION names the first difference. */
bw_code bench_validate_trace(const model_geometry *geo, const bench_item *it, const int64_t *trace,
                             bw_error *err);

/* Write mode (dst[A(g)] = src[g]), validated by sample like the other
 * modes: only the sampled work-items (starts, group_items, as
 * bench_validate_copy_sampled) run, so every byte of dst that changes is
 * theirs. The check's plan, made before the launch: their stores, sorted
 * by address, and the windows of dst around them (each store widened by
 * BENCH_WRITE_MARGIN on each side, 4-byte aligned, within dst_bytes,
 * merged), which the caller fills with BENCH_WRITE_SENTINEL before the
 * launch. bench_write_check_free releases what it holds. */
typedef struct bench_write_store {
    int64_t addr, g; /* work-item g stores its element at byte addr */
} bench_write_store;
typedef struct bench_write_window {
    uint64_t lo, hi;
} bench_write_window;
typedef struct bench_write_check {
    bench_write_store *stores;
    size_t nstores;
    bench_write_window *windows;
    size_t nwindows;
    uint64_t window_bytes;
    uint64_t words; /* modeled: the distinct 4-byte words the stores write */
} bench_write_check;
bw_code bench_write_check_plan(const model_geometry *geo, const bench_item *it, const int64_t *starts,
                               size_t nstarts, int64_t group_items, uint64_t dst_bytes, bench_write_check *out,
                               bw_error *err);
void bench_write_check_free(bench_write_check *c); /* accepts a zeroed one */
/* After the launch: the windows are read a chunk at a time (buf,
 * buf_bytes) through read_dst. Every sampled work-item must have stored
 * its element at its address, and the words that changed in the windows
 * must number exactly the stores' words: fewer is a skipped store, more
 * a store outside the pattern. BW_E_VALIDATION names the work-item,
 * address and values, or the counts; BW_E_INTERRUPTED once *stop is
 * set. */
bw_code bench_validate_write(const bench_write_check *c, const bench_item *it, uint64_t seed, bench_read_fn read_dst,
                             void *ctx, uint8_t *buf, uint64_t buf_bytes, volatile sig_atomic_t *stop,
                             bw_error *err);

#endif
