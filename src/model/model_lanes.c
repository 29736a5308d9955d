/* model_lanes: active-lane sets made from a count or all lanes, parsed
 * from and printed as hex masks, counted and listed (model_lanes.h). */
#include "model_lanes.h"
#include "model_lanes_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

model_lanes model_lanes_first(int width, int n)
{
    model_lanes l;
    memset(&l, 0, sizeof l);
    l.width = width;
    if (n > width)
        n = width;
    for (int t = 0; t < n; t++)
        model_lanes_set(&l, t);
    return l;
}

model_lanes model_lanes_all(int width)
{
    return model_lanes_first(width, width);
}

bw_code model_lanes_parse_hex(const char *hex, int width, model_lanes *out, bw_error *err)
{
    model_lanes l;
    memset(&l, 0, sizeof l);
    l.width = width;
    const char *p = hex;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    size_t n = strlen(p);
    if (n == 0)
        return bw_error_set(err, BW_E_USAGE, "--mask: '%s' has no hex digits", hex);
    for (size_t i = 0; i < n; i++) {
        char c = p[n - 1 - i];
        if (!isxdigit((unsigned char)c))
            return bw_error_set(err, BW_E_USAGE, "--mask: '%s' is not a hex number", hex);
        unsigned v = (unsigned)(isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10);
        for (int b = 0; b < 4; b++) {
            if (!((v >> b) & 1u))
                continue;
            size_t t = i * 4 + (size_t)b;
            if (t >= (size_t)width)
                return bw_error_set(err, BW_E_RANGE,
                                    "--mask: '%s' sets lane %zu but the warp has %d lanes (0..%d)",
                                    hex, t, width, width - 1);
            model_lanes_set(&l, (int)t);
        }
    }
    *out = l;
    return BW_OK;
}

void model_lanes_format_hex(const model_lanes *l, char *buf, int size)
{
    int digits = (l->width + 3) / 4;
    int pos = 0;
    if (size < 4) {
        if (size > 0)
            buf[0] = '\0';
        return;
    }
    buf[pos++] = '0';
    buf[pos++] = 'x';
    int started = 0;
    for (int d = digits - 1; d >= 0 && pos < size - 1; d--) {
        unsigned v = 0;
        for (int b = 0; b < 4; b++) {
            int t = d * 4 + b;
            if (t < l->width && model_lanes_has(l, t))
                v |= 1u << b;
        }
        if (!v && !started && d > 0)
            continue;
        started = 1;
        buf[pos++] = "0123456789abcdef"[v];
    }
    buf[pos] = '\0';
}

int model_lanes_count(const model_lanes *l)
{
    int c = 0;
    for (int i = 0; i < MODEL_MAX_LANES / 64; i++)
        c += __builtin_popcountll(l->bits[i]);
    return c;
}

int model_lanes_list(const model_lanes *l, int *out)
{
    int n = 0;
    for (int t = 0; t < l->width; t++)
        if (model_lanes_has(l, t))
            out[n++] = t;
    return n;
}
