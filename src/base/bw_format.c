/* bw_format: byte counts in powers of 1024, and user input quoted for
 * messages and reports: control bytes and bytes that are not UTF-8 escaped,
 * long values cut at a character boundary (bw_format.h). */
#include "bw_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bw_buf.h"

void bw_format_bytes(char *buf, size_t n, double bytes)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double v = bytes;
    int u = 0;
    while (fabs(v) >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", v);
    else
        snprintf(buf, n, "%.2f %s", v, units[u]);
}

/* the length of the UTF-8 sequence at s (at most len bytes), or 0 when
 * it is not one; C1 controls (U+0080..U+009F) count as not one: a
 * terminal may read them as escapes */
static size_t utf8_len(const unsigned char *s, size_t len)
{
    size_t k;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        k = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        k = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        k = 4;
    else
        return 0;
    if (k > len)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (k == 2 && s[0] == 0xc2 && s[1] < 0xa0)
        return 0;
    if (k == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
        return 0; /* overlong or a surrogate */
    if (k == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
        return 0;
    return k;
}

void bw_quote_append(bw_buf *b, const char *s, size_t len, size_t max, int keep_newlines)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t k = utf8_len(u + i, len - i);
        if (max && i + (k ? k : 1) > max)
            break;
        if (k == 1 && (u[i] < 0x20 || u[i] == 0x7f) && !(keep_newlines && (u[i] == '\n' || u[i] == '\t')))
            k = 0;
        if (k == 0) {
            bw_buf_printf(b, "\\x%02x", u[i]);
            i++;
        } else {
            bw_buf_putn(b, s + i, k);
            i += k;
        }
    }
    if (i < len)
        bw_buf_printf(b, "\xe2\x80\xa6 (%zu bytes)", len);
}

const char *bw_quote(char *buf, size_t n, const char *s)
{
    bw_buf b = BW_BUF_INIT;
    if (!s)
        s = "(null)";
    bw_quote_append(&b, s, strlen(s), BW_QUOTE_SHOWN, 0);
    if (n)
        snprintf(buf, n, "%s", bw_buf_failed(&b) ? "(out of memory)" : bw_buf_str(&b));
    bw_buf_free(&b);
    return buf;
}
