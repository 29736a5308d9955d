#include "bench_validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK ((int64_t)1 << 20)

void bench_fill_random(uint8_t *buf, uint64_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (uint64_t i = 0; i < n; i += 8) {
        uint64_t z = (s += UINT64_C(0x9E3779B97F4A7C15));
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        z ^= z >> 31;
        uint64_t k = n - i < 8 ? n - i : 8;
        memcpy(buf + i, &z, k);
    }
}

static uint8_t sentinel_byte(uint64_t i)
{
    return (uint8_t)(0xA5u ^ (uint8_t)(i * 37u));
}

void bench_fill_sentinel(uint8_t *buf, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        buf[i] = sentinel_byte(i);
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

bw_code bench_validate_copy(const model_geometry *geo, const bench_item *it, const uint8_t *src,
                            uint64_t src_bytes, const uint8_t *dst, bw_error *err)
{
    int64_t E = it->elem, bad = 0, first = -1, first_addr = 0;
    int64_t *addr = malloc((size_t)CHUNK * sizeof *addr);
    if (!addr)
        return bw_error_set(err, BW_E_NOMEM, "out of memory validating '%s'", it->spec);
    model_access a = { it->expr, E, it->active, it->items, 0, 0 };
    bw_code rc = BW_OK;
    for (int64_t g0 = 0; g0 < it->items && rc == BW_OK; g0 += CHUNK) {
        int64_t n = it->items - g0 < CHUNK ? it->items - g0 : CHUNK;
        if ((rc = model_access_addresses(geo, &a, g0, n, addr, err)) != BW_OK)
            break;
        for (int64_t i = 0; i < n; i++) {
            const uint8_t *got = dst + (g0 + i) * E;
            int ok;
            if (addr[i] == MODEL_ADDR_INACTIVE) {
                ok = 1;
                for (int64_t b = 0; b < E && ok; b++)
                    ok = got[b] == sentinel_byte((uint64_t)((g0 + i) * E + b));
            } else {
                ok = addr[i] >= 0 && (uint64_t)(addr[i] + E) <= src_bytes && same(got, src + addr[i], E);
            }
            if (!ok && bad++ == 0) {
                first = g0 + i;
                first_addr = addr[i];
            }
        }
    }
    free(addr);
    if (rc != BW_OK || bad == 0)
        return rc;
    const uint8_t *got = dst + first * E;
    char g[80] = "", w[80] = "";
    hex(g, sizeof g, got, E);
    if (first_addr == MODEL_ADDR_INACTIVE) {
        uint8_t s[64];
        for (int64_t b = 0; b < E && b < 64; b++)
            s[b] = sentinel_byte((uint64_t)(first * E + b));
        hex(w, sizeof w, s, E);
        return bw_error_set(err, BW_E_VALIDATION,
                            "wrong result: %lld of %lld work-items differ from the host reference; first: "
                            "work-item %lld (lane %lld of warp %lld) is inactive but its output changed "
                            "to %s (was %s)",
                            (long long)bad, (long long)it->items, (long long)first,
                            (long long)(first % geo->lanes), (long long)(first / geo->lanes), g, w);
    }
    hex(w, sizeof w, src + first_addr, E);
    return bw_error_set(err, BW_E_VALIDATION,
                        "wrong result: %lld of %lld work-items differ from the host reference; first: "
                        "work-item %lld (lane %lld of warp %lld) loaded %s from byte %lld, expected %s",
                        (long long)bad, (long long)it->items, (long long)first,
                        (long long)(first % geo->lanes), (long long)(first / geo->lanes), g,
                        (long long)first_addr, w);
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
