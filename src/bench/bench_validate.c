/* bench_validate: the pseudo-random source stream and the sentinel, and
 * the host's checks of what a kernel did: copied values whole, chunked or
 * sampled, read-mode keys, traced addresses and stores (bench_validate.h). */
#include "bench_validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_result.h"
#include "bw_format.h"

#define CHUNK ((int64_t)1 << 20)

/* word k of the stream: splitmix64 after k+1 steps from the seed */
static uint64_t random_word(uint64_t seed, uint64_t k)
{
    if (seed == BENCH_FILL_ZERO_SEED)
        return 0; /* a zero-filled source (bench_settings.fill_zeros) */
    uint64_t z = seed + (k + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    /* no 4-byte word of the stream is the write sentinel, so a written word
     * always differs from the fill (write-mode validation counts them) */
    if ((uint32_t)z == BENCH_WRITE_SENTINEL)
        z ^= 1u;
    if ((uint32_t)(z >> 32) == BENCH_WRITE_SENTINEL)
        z ^= UINT64_C(1) << 32;
    return z;
}

void bench_fill_random_at(uint8_t *buf, uint64_t offset, uint64_t n, uint64_t seed)
{
    uint64_t done = 0;
    while (done < n) {
        uint64_t pos = offset + done, skip = pos % 8;
        uint64_t z = random_word(seed, pos / 8);
        uint8_t w[8];
        memcpy(w, &z, 8); /* host byte order, as the device reads what the host wrote */
        uint64_t k = 8 - skip < n - done ? 8 - skip : n - done;
        memcpy(buf + done, w + skip, k);
        done += k;
    }
}

void bench_fill_random(uint8_t *buf, uint64_t n, uint64_t seed)
{
    bench_fill_random_at(buf, 0, n, seed);
}

static uint8_t sentinel_byte(uint64_t i)
{
    return (uint8_t)(0xA5u ^ (uint8_t)(i * 37u));
}

void bench_fill_sentinel_at(uint8_t *buf, uint64_t offset, uint64_t n)
{
    /* the sentinel repeats every 256 bytes: compute one period, copy the rest
     * (it is rewritten before every validating launch) */
    uint64_t k = n < 256 ? n : 256;
    for (uint64_t i = 0; i < k; i++)
        buf[i] = sentinel_byte(offset + i);
    while (k < n) {
        uint64_t m = n - k < k ? n - k : k;
        memcpy(buf + k, buf, (size_t)m);
        k += m;
    }
}

void bench_fill_sentinel(uint8_t *buf, uint64_t n)
{
    bench_fill_sentinel_at(buf, 0, n);
}

/* memcmp with a constant size per case, so it compiles to plain loads: it
 * runs once per work-item */
static inline int same(const uint8_t *a, const uint8_t *b, int64_t n)
{
    uint64_t x[2], y[2];
    switch (n) {
    case 4: {
        uint32_t u, v;
        memcpy(&u, a, 4);
        memcpy(&v, b, 4);
        return u == v;
    }
    case 8:
        memcpy(x, a, 8);
        memcpy(y, b, 8);
        return x[0] == y[0];
    case 16:
        memcpy(x, a, 16);
        memcpy(y, b, 16);
        return x[0] == y[0] && x[1] == y[1];
    default:
        return !memcmp(a, b, (size_t)n);
    }
}

static void hex(char *out, size_t n, const uint8_t *p, int64_t len)
{
    size_t k = 0;
    for (int64_t i = 0; i < len && k + 3 < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%02x", p[i]);
}

/* One copy check, fed dst in consecutive ranges of items; the first wrong
 * item's bytes are kept, since its range is gone by the end. */
typedef struct checker {
    const model_geometry *geo;
    const bench_item *it;
    const uint8_t *src; /* NULL: regenerate from seed */
    uint64_t seed, src_bytes;
    model_access acc;
    int64_t *addr;      /* CHUNK addresses */
    const uint8_t *keys; /* read mode: the launches' keys, nkeys elements; NULL: copy */
    int nkeys;
    int64_t bad, first, first_addr;
    int64_t checked;    /* work-items checked so far */
    int sampled;        /* only a sample of the launch is checked */
    int first_due;      /* read mode: the first wrong item was due to store */
    uint8_t first_got[16];
    /* read mode with K items per work-item (bench_item.unroll): work-item
     * p stores the XOR of its K elements (items p + j*S) at dst[p]; K = 1:
     * each item its own element */
    int64_t K, S;
    uint8_t first_fold[16];
} checker;

static bw_code checker_init(checker *c, const model_geometry *geo, const bench_item *it, const uint8_t *src,
                            uint64_t seed, uint64_t src_bytes, bw_error *err)
{
    memset(c, 0, sizeof *c);
    c->geo = geo;
    c->it = it;
    c->src = src;
    c->seed = seed;
    c->src_bytes = src_bytes;
    c->first = -1;
    model_access a = { it->expr, it->elem, it->active, it->items, 0, 0 };
    c->acc = a;
    c->addr = malloc((size_t)CHUNK * sizeof *c->addr);
    if (!c->addr)
        return bw_error_set(err, BW_E_NOMEM, "out of memory validating '%s'", it->spec);
    return BW_OK;
}

/* the E source bytes at addr, which lies within src */
static void src_at(const checker *c, int64_t addr, int64_t E, uint8_t *out)
{
    if (c->src)
        memcpy(out, c->src + addr, (size_t)E);
    else
        bench_fill_random_at(out, (uint64_t)addr, (uint64_t)E, c->seed);
}

/* the fold cl/gather.cl makes of the source elements of items p + j*S,
 * j < K, for the m work-items from p0 (fold, m x E bytes): from j = K-1
 * down, each 32-bit component added for an even j and XORed for an odd
 * one; state[i] 1 where the lane is inactive, 2 where an address lies
 * outside the source; c->addr holds the addresses of items p0 .. p0+m-1
 * (j = 0) on return */
static bw_code fold_of(checker *c, int64_t p0, int64_t m, uint8_t *fold, uint8_t *state, bw_error *err)
{
    int64_t E = c->it->elem;
    uint8_t e[16];
    memset(fold, 0, (size_t)(m * E));
    memset(state, 0, (size_t)m);
    for (int64_t j = c->K - 1; j >= 0; j--) {
        bw_code rc = model_access_addresses(c->geo, &c->acc, p0 + j * c->S, m, c->addr, err);
        if (rc != BW_OK)
            return rc;
        for (int64_t i = 0; i < m; i++) {
            int64_t a = c->addr[i];
            if (a == MODEL_ADDR_INACTIVE) {
                state[i] = 1;
            } else if (a < 0 || (uint64_t)(a + E) > c->src_bytes) {
                state[i] = 2;
            } else {
                src_at(c, a, E, e);
                for (int64_t w = 0; w < E; w += 4) { /* little-endian 32-bit components */
                    uint8_t *f = fold + i * E + w;
                    uint32_t x = (uint32_t)f[0] | (uint32_t)f[1] << 8 | (uint32_t)f[2] << 16 | (uint32_t)f[3] << 24;
                    uint32_t y = (uint32_t)e[w] | (uint32_t)e[w + 1] << 8 | (uint32_t)e[w + 2] << 16 |
                                 (uint32_t)e[w + 3] << 24;
                    x = j == c->K - 1 ? y : (j & 1) ? x ^ y : x + y;
                    for (int k = 0; k < 4; k++)
                        f[k] = (uint8_t)(x >> (8 * k));
                }
            }
        }
    }
    return BW_OK;
}

/* read mode with K > 1: work-items [p0, p0+n), whose output starts at dst:
 * the fold where it equals a key, else untouched */
static bw_code check_fold_range(checker *c, int64_t p0, int64_t n, const uint8_t *dst, bw_error *err)
{
    int64_t E = c->it->elem;
    int64_t step = CHUNK / c->geo->lanes * c->geo->lanes;
    int64_t most = n < step ? n : step;
    uint8_t *fold = malloc((size_t)(most * E)), *state = malloc((size_t)most);
    bw_code rc = fold && state ? BW_OK : bw_error_set(err, BW_E_NOMEM, "out of memory validating '%s'", c->it->spec);
    for (int64_t s0 = 0; s0 < n && rc == BW_OK; s0 += step) {
        int64_t m = n - s0 < step ? n - s0 : step;
        if ((rc = fold_of(c, p0 + s0, m, fold, state, err)) != BW_OK)
            break;
        c->checked += m;
        for (int64_t i = 0; i < m; i++) {
            int64_t p = p0 + s0 + i;
            const uint8_t *got = dst + (s0 + i) * E, *want = fold + i * E;
            int ok = state[i] != 2, due = 0;
            for (int k = 0; ok && state[i] == 0 && k < c->nkeys && !due; k++)
                due = same(want, c->keys + k * E, E);
            if (ok && due)
                ok = same(got, want, E);
            for (int64_t b = 0; ok && !due && b < E; b++)
                ok = got[b] == sentinel_byte((uint64_t)(p * E + b));
            if (!ok && c->bad++ == 0) {
                c->first = p;
                c->first_addr = c->addr[i];
                c->first_due = due;
                memcpy(c->first_got, got, (size_t)E);
                memcpy(c->first_fold, want, (size_t)E);
            }
        }
    }
    free(fold);
    free(state);
    return rc;
}

/* items [g0, g0+n), whose output starts at dst */
static bw_code check_range(checker *c, int64_t g0, int64_t n, const uint8_t *dst, bw_error *err)
{
    if (c->keys && c->K > 1)
        return check_fold_range(c, g0, n, dst, err);
    int64_t E = c->it->elem;
    uint8_t want[16];
    /* whole warps per step: model_access_addresses wants warp-aligned
     * windows, and W need not be a power of two (lanes: 1000) */
    int64_t step = CHUNK / c->geo->lanes * c->geo->lanes;
    for (int64_t s0 = 0; s0 < n; s0 += step) {
        int64_t m = n - s0 < step ? n - s0 : step;
        bw_code rc = model_access_addresses(c->geo, &c->acc, g0 + s0, m, c->addr, err);
        if (rc != BW_OK)
            return rc;
        c->checked += m;
        for (int64_t i = 0; i < m; i++) {
            int64_t g = g0 + s0 + i, a = c->addr[i];
            const uint8_t *got = dst + (s0 + i) * E;
            int ok, due = 1;
            if (a == MODEL_ADDR_INACTIVE) {
                ok = 1;
                for (int64_t b = 0; b < E && ok; b++)
                    ok = got[b] == sentinel_byte((uint64_t)(g * E + b));
            } else if (a < 0 || (uint64_t)(a + E) > c->src_bytes) {
                ok = 0;
            } else if (c->keys) {
                /* read mode: the element where it equals a key, else untouched */
                src_at(c, a, E, want);
                due = 0;
                for (int k = 0; k < c->nkeys && !due; k++)
                    due = same(want, c->keys + k * E, E);
                if (due) {
                    ok = same(got, want, E);
                } else {
                    ok = 1;
                    for (int64_t b = 0; b < E && ok; b++)
                        ok = got[b] == sentinel_byte((uint64_t)(g * E + b));
                }
            } else if (c->src) {
                ok = same(got, c->src + a, E);
            } else {
                src_at(c, a, E, want);
                ok = same(got, want, E);
            }
            if (!ok && c->bad++ == 0) {
                c->first = g;
                c->first_addr = a;
                c->first_due = due;
                memcpy(c->first_got, got, (size_t)E);
            }
        }
    }
    return BW_OK;
}

/* the message for the first wrong item, if any */
static bw_code checker_finish(checker *c, bw_error *err)
{
    free(c->addr);
    c->addr = NULL;
    if (c->bad == 0)
        return BW_OK;
    const model_geometry *geo = c->geo;
    int64_t E = c->it->elem, first = c->first;
    char g[80] = "", w[80] = "", of[96];
    /* "of 1024 work-items", or of those a sampled check looked at */
    int64_t launched = c->K > 1 ? c->S : c->it->items;
    if (c->sampled)
        snprintf(of, sizeof of, "%lld work-items checked (a sample of the launch's %lld)", (long long)c->checked,
                 (long long)launched);
    else
        snprintf(of, sizeof of, "%lld work-items", (long long)launched);
    hex(g, sizeof g, c->first_got, E);
    if (c->first_addr == MODEL_ADDR_INACTIVE) {
        uint8_t s[16];
        bench_fill_sentinel_at(s, (uint64_t)(first * E), (uint64_t)E);
        hex(w, sizeof w, s, E);
        return bw_error_set(err, BW_E_VALIDATION,
                            "wrong result: %lld of %s differ from the host reference; first: "
                            "work-item %lld (lane %lld of warp %lld) is inactive but its output changed "
                            "to %s (was %s)",
                            (long long)c->bad, of, (long long)first,
                            (long long)(first % geo->lanes), (long long)(first / geo->lanes), g, w);
    }
    if (c->keys && c->K > 1 && c->first_addr != MODEL_ADDR_INACTIVE) {
        char f[80] = "";
        hex(f, sizeof f, c->first_fold, E);
        return bw_error_set(err, BW_E_VALIDATION,
                            "wrong result (read mode, %lld items per work-item): %lld of %s differ from the host's "
                            "prediction; first: work-item %lld (lane %lld of warp %lld) loads items %lld + j*%lld, "
                            "whose elements fold (XOR) to %s, %s, but its output is %s",
                            (long long)c->K, (long long)c->bad, of, (long long)first,
                            (long long)(first % geo->lanes), (long long)(first / geo->lanes), (long long)first,
                            (long long)c->S, f,
                            c->first_due ? "a validating launch's key: it should store it"
                                         : "no validating launch's key: it should store nothing",
                            g);
    }
    if (c->keys && c->first_addr >= 0 && (uint64_t)(c->first_addr + E) <= c->src_bytes) {
        uint8_t s[16];
        src_at(c, c->first_addr, E, s);
        hex(w, sizeof w, s, E);
        if (c->first_due)
            return bw_error_set(err, BW_E_VALIDATION,
                                "wrong result (read mode): %lld of %s differ from the host's "
                                "prediction; first: work-item %lld (lane %lld of warp %lld) should load %s, a "
                                "validating launch's key, from byte %lld and store it, but its output is %s",
                                (long long)c->bad, of, (long long)first,
                                (long long)(first % geo->lanes), (long long)(first / geo->lanes), w,
                                (long long)c->first_addr, g);
        return bw_error_set(err, BW_E_VALIDATION,
                            "wrong result (read mode): %lld of %s differ from the host's prediction; "
                            "first: work-item %lld (lane %lld of warp %lld) should load %s from byte %lld, no "
                            "validating launch's key, and store nothing, but its output changed to %s",
                            (long long)c->bad, of, (long long)first,
                            (long long)(first % geo->lanes), (long long)(first / geo->lanes), w,
                            (long long)c->first_addr, g);
    }
    if (c->first_addr >= 0 && (uint64_t)(c->first_addr + E) <= c->src_bytes) {
        uint8_t s[16];
        src_at(c, c->first_addr, E, s);
        hex(w, sizeof w, s, E);
    } else {
        snprintf(w, sizeof w, "an address within the %llu-byte source", (unsigned long long)c->src_bytes);
    }
    return bw_error_set(err, BW_E_VALIDATION,
                        "wrong result: %lld of %s differ from the host reference; first: "
                        "work-item %lld (lane %lld of warp %lld) loaded %s from byte %lld, expected %s",
                        (long long)c->bad, of, (long long)first,
                        (long long)(first % geo->lanes), (long long)(first / geo->lanes), g,
                        (long long)c->first_addr, w);
}

bw_code bench_validate_copy(const model_geometry *geo, const bench_item *it, const uint8_t *src,
                            uint64_t src_bytes, const uint8_t *dst, bw_error *err)
{
    checker c;
    bw_code rc = checker_init(&c, geo, it, src, 0, src_bytes, err);
    if (rc == BW_OK)
        rc = check_range(&c, 0, it->items, dst, err);
    if (rc != BW_OK) {
        free(c.addr);
        return rc;
    }
    return checker_finish(&c, err);
}

/* the ranges [starts[k], starts[k] + group_items) of dst (keys: read mode), a
 * chunk of whole warps at a time: the model computes addresses warp by warp */
static bw_code check_sampled(const model_geometry *geo, const bench_item *it, uint64_t seed, uint64_t src_bytes,
                             const uint8_t *keys, int nkeys, const int64_t *starts, size_t nstarts,
                             int64_t group_items, bench_read_fn read_dst, void *ctx, uint8_t *buf,
                             uint64_t buf_bytes, bw_error *err)
{
    int64_t E = it->elem;
    int64_t per = (int64_t)(buf_bytes / (uint64_t)E) / geo->lanes * geo->lanes;
    if (per < 1)
        return bw_error_set(err, BW_E_USAGE, "validating '%s': a %llu-byte chunk holds no whole warp", it->spec,
                            (unsigned long long)buf_bytes);
    checker c;
    bw_code rc = checker_init(&c, geo, it, NULL, seed, src_bytes, err);
    c.keys = keys;
    c.nkeys = nkeys;
    /* read mode at K > 1: the ranges are of work-items, S of them */
    c.K = keys ? bench_item_unroll(it) : 1;
    c.S = it->items / c.K;
    int64_t limit = c.K > 1 ? c.S : it->items;
    /* one range over every item is the whole launch, no sample */
    c.sampled = !(nstarts == 1 && starts[0] == 0 && group_items >= limit);
    for (size_t k = 0; k < nstarts && rc == BW_OK; k++) {
        int64_t end = starts[k] + group_items < limit ? starts[k] + group_items : limit;
        for (int64_t g0 = starts[k]; g0 < end && rc == BW_OK; g0 += per) {
            int64_t n = end - g0 < per ? end - g0 : per;
            rc = read_dst(ctx, (uint64_t)(g0 * E), buf, (uint64_t)(n * E), err);
            if (rc == BW_OK)
                rc = check_range(&c, g0, n, buf, err);
        }
    }
    if (rc != BW_OK) {
        free(c.addr);
        return rc;
    }
    return checker_finish(&c, err);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the item validation key k stands for (bench_read_keys): the first, the
 * last, then pseudo-random ones; with K items per work-item
 * (bench_item.unroll) those in the second item's block and the middle
 * one's, so that keys reach items 0, 1, K/2 and K-1 of a work-item */
static int64_t key_item(const bench_item *it, uint64_t seed, int k)
{
    if (k == 0)
        return 0;
    if (k == 1)
        return it->items - 1;
    uint64_t r = random_word(seed ^ 0x6b657973, (uint64_t)k);
    int64_t K = bench_item_unroll(it), S = it->items / K;
    if (K > 1 && k <= 3)
        return (k == 2 ? 1 : K / 2) * S + (int64_t)(r % (uint64_t)S);
    return (int64_t)(r % (uint64_t)it->items);
}

size_t bench_validate_sample(const model_geometry *geo, const bench_item *it, uint64_t seed, int read_mode,
                             int64_t *starts, int64_t *group_items)
{
    int64_t W = geo->lanes, ls = it->local_size > 0 ? it->local_size : W;
    int64_t gi = (ls + W - 1) / W * W;
    /* the warp form's groups may hold more items (bench_item_warp_group):
     * sampled in whole groups of both forms */
    int64_t wg = it->scalar_form && it->alt_form == BENCH_FORM_WARP ? bench_item_warp_group(it, W) * W : 0;
    if (wg > gi && wg % gi == 0)
        gi = wg;
    int64_t groups = (it->items + gi - 1) / gi;
    int64_t pick[BENCH_SAMPLE_GROUPS + BENCH_READ_KEYS];
    size_t n = 0;
    *group_items = gi;
    if (groups <= BENCH_SAMPLE_GROUPS) {
        for (int64_t g = 0; g < groups; g++)
            starts[n++] = g * gi;
        return n;
    }
    /* 2 + 2 + 8 fixed, 26 evenly spaced, the rest pseudo-random */
    pick[n++] = 0;
    pick[n++] = 1;
    pick[n++] = groups - 2;
    pick[n++] = groups - 1;
    for (int64_t g = 2; g < 10; g++)
        pick[n++] = g;
    for (int64_t k = 1; k <= 26; k++)
        pick[n++] = k * groups / 27;
    for (uint64_t k = 0; n < BENCH_SAMPLE_GROUPS; k++)
        pick[n++] = (int64_t)(random_word(seed ^ 0x73616d70, k) % (uint64_t)groups);
    for (int k = 0; read_mode && k < BENCH_READ_KEYS; k++)
        pick[n++] = key_item(it, seed, k) / gi;
    qsort(pick, n, sizeof *pick, cmp_i64);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (m == 0 || pick[k] != pick[m - 1])
            pick[m++] = pick[k];
    for (size_t k = 0; k < m; k++)
        starts[k] = pick[k] * gi;
    return m;
}

bw_code bench_validate_copy_sampled(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, const int64_t *starts, size_t nstarts,
                                    int64_t group_items, bench_read_fn read_dst, void *ctx, uint8_t *buf,
                                    uint64_t buf_bytes, bw_error *err)
{
    return check_sampled(geo, it, seed, src_bytes, NULL, 0, starts, nstarts, group_items, read_dst, ctx, buf,
                         buf_bytes, err);
}

bw_code bench_validate_read_sampled(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, const uint8_t *keys, int nkeys, const int64_t *starts,
                                    size_t nstarts, int64_t group_items, bench_read_fn read_dst, void *ctx,
                                    uint8_t *buf, uint64_t buf_bytes, bw_error *err)
{
    return check_sampled(geo, it, seed, src_bytes, keys, nkeys, starts, nstarts, group_items, read_dst, ctx, buf,
                         buf_bytes, err);
}

bw_code bench_validate_copy_chunked(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, bench_read_fn read_dst, void *ctx, uint8_t *buf,
                                    uint64_t buf_bytes, bw_error *err)
{
    const int64_t whole = 0;
    return check_sampled(geo, it, seed, src_bytes, NULL, 0, &whole, 1, it->items, read_dst, ctx, buf, buf_bytes,
                         err);
}

bw_code bench_validate_read_chunked(const model_geometry *geo, const bench_item *it, uint64_t seed,
                                    uint64_t src_bytes, const uint8_t *keys, int nkeys, bench_read_fn read_dst,
                                    void *ctx, uint8_t *buf, uint64_t buf_bytes, bw_error *err)
{
    const int64_t whole = 0;
    return check_sampled(geo, it, seed, src_bytes, keys, nkeys, &whole, 1, it->items, read_dst, ctx, buf, buf_bytes,
                         err);
}

/* The active work-item nearest to g in its warp, searching up from g's
 * lane (down with down != 0), wrapping round; its address into *addr, or
 * -1 when the warp has none. */
static int64_t active_near(const model_geometry *geo, const model_access *a, int64_t g, int down, int64_t *addr,
                           bw_error *err, bw_code *rc)
{
    int64_t lanes[MODEL_MAX_LANES];
    int64_t W = geo->lanes, g0 = g / W * W;
    *rc = model_access_addresses(geo, a, g0, W, lanes, err);
    if (*rc != BW_OK)
        return -1;
    for (int64_t k = 0; k < W; k++) {
        int64_t t = ((g - g0) + (down ? W - k : k)) % W;
        if (lanes[t] != MODEL_ADDR_INACTIVE) {
            *addr = lanes[t];
            return g0 + t;
        }
    }
    return -1;
}

bw_code bench_read_keys(const model_geometry *geo, const bench_item *it, uint64_t seed, uint8_t *keys, int nkeys,
                        bw_error *err)
{
    model_access a = { it->expr, it->elem, it->active, it->items, 0, 0 };
    int64_t K = bench_item_unroll(it), S = it->items / K;
    for (int k = 0; k < nkeys; k++) {
        /* the first and the last work-item, then pseudo-random ones */
        int64_t g = key_item(it, seed, k);
        int64_t addr = 0;
        bw_code rc = BW_OK;
        int64_t found = active_near(geo, &a, K > 1 ? g % S : g, k == 1, &addr, err, &rc);
        if (found < 0)
            return rc != BW_OK ? rc : bw_error_set(err, BW_E_USAGE, "validating '%s': no active work-item", it->spec);
        if (K == 1) {
            bench_fill_random_at(keys + k * it->elem, (uint64_t)addr, (uint64_t)it->elem, seed);
            continue;
        }
        /* K items per work-item: the key is work-item found's fold */
        checker c;
        if ((rc = checker_init(&c, geo, it, NULL, seed, (uint64_t)INT64_MAX, err)) != BW_OK)
            return rc;
        c.K = K;
        c.S = S;
        /* a whole warp's folds: the model computes addresses warp by warp */
        int64_t W = geo->lanes, w0 = found / W * W;
        uint8_t fold[MODEL_MAX_LANES * 16], state[MODEL_MAX_LANES];
        rc = fold_of(&c, w0, W, fold, state, err);
        free(c.addr);
        if (rc != BW_OK)
            return rc;
        memcpy(keys + k * it->elem, fold + (found - w0) * it->elem, (size_t)it->elem);
    }
    return BW_OK;
}

bw_code bench_validate_trace(const model_geometry *geo, const bench_item *it, const int64_t *trace,
                             bw_error *err)
{
    int64_t *addr = malloc((size_t)CHUNK * sizeof *addr);
    if (!addr)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    model_access a = { it->expr, it->elem, it->active, it->items, 0, 0 };
    bw_code rc = BW_OK;
    int64_t bad = 0, first = -1, want = 0;
    for (int64_t g0 = 0; g0 < it->items && rc == BW_OK; g0 += CHUNK) {
        int64_t n = it->items - g0 < CHUNK ? it->items - g0 : CHUNK;
        if ((rc = model_access_addresses(geo, &a, g0, n, addr, err)) != BW_OK)
            break;
        for (int64_t i = 0; i < n; i++) {
            int64_t m = addr[i] == MODEL_ADDR_INACTIVE ? -1 : addr[i];
            if (trace[g0 + i] != m && bad++ == 0) {
                first = g0 + i;
                want = m;
            }
        }
    }
    free(addr);
    if (rc != BW_OK || bad == 0)
        return rc;
    return bw_error_set(err, BW_E_VALIDATION,
                        "pattern '%s': kernel and model disagree on %lld of %lld addresses; first: "
                        "work-item %lld used byte %lld, the model says %lld",
                        it->spec, (long long)bad, (long long)it->items, (long long)first,
                        (long long)trace[first], (long long)want);
}

static int cmp_store(const void *x, const void *y)
{
    const bench_write_store *a = x, *b = y;
    return (a->addr > b->addr) - (a->addr < b->addr);
}

/* the sampled work-items' store addresses, sorted, into c */
static bw_code sampled_stores(const model_geometry *geo, const bench_item *it, const int64_t *starts,
                              size_t nstarts, int64_t group_items, bench_write_check *c, bw_error *err)
{
    model_access a = { it->expr, it->elem, it->active, it->items, 0, 1 };
    size_t most = nstarts * (size_t)group_items;
    bench_write_store *e = malloc((most ? most : 1) * sizeof *e);
    int64_t *addr = malloc((size_t)group_items * sizeof *addr);
    bw_code rc = e && addr ? BW_OK : bw_error_set(err, BW_E_NOMEM, "out of memory validating stores");
    size_t k = 0;
    for (size_t s = 0; s < nstarts && rc == BW_OK; s++) {
        int64_t g0 = starts[s], m = g0 + group_items < it->items ? group_items : it->items - g0;
        if (m <= 0)
            continue;
        /* model_access_addresses wants whole warps from a warp's start */
        int64_t w0 = g0 / geo->lanes * geo->lanes;
        if (w0 != g0)
            continue;
        rc = model_access_addresses(geo, &a, g0, m, addr, err);
        for (int64_t j = 0; j < m && rc == BW_OK; j++)
            if (addr[j] != MODEL_ADDR_INACTIVE)
                e[k++] = (bench_write_store){ addr[j], g0 + j };
    }
    free(addr);
    if (rc != BW_OK) {
        free(e);
        return rc;
    }
    qsort(e, k, sizeof *e, cmp_store);
    c->stores = e;
    c->nstores = k;
    return BW_OK;
}

/* The windows (each store +- BENCH_WRITE_MARGIN, 4-byte aligned, within
 * dst, merged) and the distinct words the stores write, from the sorted
 * stores. */
static bw_code store_windows(bench_write_check *c, int64_t E, uint64_t dst_bytes, bw_error *err)
{
    c->windows = malloc((c->nstores ? c->nstores : 1) * sizeof *c->windows);
    if (!c->windows)
        return bw_error_set(err, BW_E_NOMEM, "out of memory validating stores");
    uint64_t top = dst_bytes / 4 * 4, word_end = 0;
    for (size_t k = 0; k < c->nstores; k++) {
        uint64_t a = (uint64_t)c->stores[k].addr, end = a + (uint64_t)E;
        uint64_t lo = a > BENCH_WRITE_MARGIN ? (a - BENCH_WRITE_MARGIN) / 4 * 4 : 0;
        uint64_t hi = end + BENCH_WRITE_MARGIN < top ? (end + BENCH_WRITE_MARGIN + 3) / 4 * 4 : top;
        if (c->nwindows && lo <= c->windows[c->nwindows - 1].hi) {
            if (hi > c->windows[c->nwindows - 1].hi)
                c->windows[c->nwindows - 1].hi = hi;
        } else {
            c->windows[c->nwindows++] = (bench_write_window){ lo, hi };
        }
        /* words [a/4, ceil(end/4)), those already counted left out */
        uint64_t w0 = a / 4 > word_end ? a / 4 : word_end, w1 = (end + 3) / 4;
        if (w1 > w0) {
            c->words += w1 - w0;
            word_end = w1;
        }
    }
    for (size_t k = 0; k < c->nwindows; k++)
        c->window_bytes += c->windows[k].hi - c->windows[k].lo;
    return BW_OK;
}

bw_code bench_write_check_plan(const model_geometry *geo, const bench_item *it, const int64_t *starts,
                               size_t nstarts, int64_t group_items, uint64_t dst_bytes, bench_write_check *out,
                               bw_error *err)
{
    memset(out, 0, sizeof *out);
    bw_code rc = sampled_stores(geo, it, starts, nstarts, group_items, out, err);
    if (rc == BW_OK)
        rc = store_windows(out, it->elem, dst_bytes, err);
    if (rc != BW_OK)
        bench_write_check_free(out);
    return rc;
}

void bench_write_check_free(bench_write_check *c)
{
    free(c->stores);
    free(c->windows);
    memset(c, 0, sizeof *c);
}

/* store x's element in dst, at chunk (bytes [off, off+len) of dst) or,
 * straddling its end, read on its own */
static bw_code check_entry(const bench_item *it, uint64_t seed, const bench_write_store *x, const uint8_t *chunk,
                           uint64_t off, uint64_t len, bench_read_fn read_dst, void *ctx, bw_error *err)
{
    uint8_t want[16], got[16];
    const uint8_t *have = chunk + (x->addr - (int64_t)off);
    if ((uint64_t)x->addr + (uint64_t)it->elem > off + len) {
        bw_code rc = read_dst(ctx, (uint64_t)x->addr, got, (uint64_t)it->elem, err);
        if (rc != BW_OK)
            return rc;
        have = got;
    }
    bench_fill_random_at(want, (uint64_t)(x->g * it->elem), (uint64_t)it->elem, seed);
    if (memcmp(have, want, (size_t)it->elem) == 0)
        return BW_OK;
    uint32_t h, w;
    memcpy(&h, have, 4);
    memcpy(&w, want, 4);
    return bw_error_set(err, BW_E_VALIDATION,
                        "pattern '%s' (write): work-item %lld stores at byte %lld, which holds 0x%08x..., not "
                        "its element 0x%08x... (src[%lld]): a store was skipped, or another landed there",
                        it->spec, (long long)x->g, (long long)x->addr, (unsigned)h, (unsigned)w, (long long)x->g);
}

/* 4-byte words of buf[0, len) that differ from the sentinel */
static uint64_t changed_words(const uint8_t *buf, uint64_t len)
{
    uint64_t changed = 0;
    for (uint64_t b = 0; b + 4 <= len; b += 4) {
        uint32_t v;
        memcpy(&v, buf + b, 4);
        changed += v != BENCH_WRITE_SENTINEL;
    }
    return changed;
}

bw_code bench_validate_write(const bench_write_check *c, const bench_item *it, uint64_t seed, bench_read_fn read_dst,
                             void *ctx, uint8_t *buf, uint64_t buf_bytes, volatile sig_atomic_t *stop, bw_error *err)
{
    size_t next = 0;
    uint64_t chunk = buf_bytes / 4 * 4, changed = 0;
    bw_code rc = BW_OK;
    for (size_t w = 0; w < c->nwindows && rc == BW_OK; w++) {
        uint64_t lo = c->windows[w].lo, hi = c->windows[w].hi;
        for (uint64_t off = lo; rc == BW_OK && off < hi; off += chunk) {
            if (stop && *stop) {
                rc = bw_error_set(err, BW_E_INTERRUPTED, "interrupted while validating '%s'", it->spec);
                break;
            }
            uint64_t len = hi - off < chunk ? hi - off : chunk;
            if ((rc = read_dst(ctx, off, buf, len, err)) != BW_OK)
                break;
            changed += changed_words(buf, len);
            while (rc == BW_OK && next < c->nstores && (uint64_t)c->stores[next].addr < off + len) {
                if ((uint64_t)c->stores[next].addr >= off)
                    rc = check_entry(it, seed, &c->stores[next], buf, off, len, read_dst, ctx, err);
                next++;
            }
        }
    }
    if (rc != BW_OK || changed == c->words)
        return rc;
    char span[32];
    bw_format_bytes(span, sizeof span, (double)c->window_bytes);
    return bw_error_set(err, BW_E_VALIDATION,
                        "pattern '%s' (write): %llu bytes of dst changed in the %zu window%s (%s) around the "
                        "stores of the %zu sampled work-items, but they write %llu (modeled): %s",
                        it->spec, (unsigned long long)changed * 4, c->nwindows, c->nwindows == 1 ? "" : "s", span,
                        c->nstores, (unsigned long long)c->words * 4,
                        changed > c->words ? "a store landed outside the pattern's addresses"
                                           : "some stores were skipped");
}
