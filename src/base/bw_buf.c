/* bw_buf: the growable text buffer, doubling its capacity from 64 bytes;
 * a failed allocation is sticky and later appends are ignored (bw_buf.h). */
#include "bw_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(bw_buf *b, size_t extra)
{
    if (b->failed)
        return 0;
    if (b->len + extra + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > (size_t)-1 / 2) {
            b->failed = 1;
            return 0;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void bw_buf_putn(bw_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void bw_buf_puts(bw_buf *b, const char *s)
{
    bw_buf_putn(b, s, strlen(s));
}

void bw_buf_putc(bw_buf *b, char c)
{
    bw_buf_putn(b, &c, 1);
}

void bw_buf_printf(bw_buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void bw_buf_pad_to(bw_buf *b, size_t col)
{
    size_t start = b->len;
    while (start > 0 && b->data[start - 1] != '\n')
        start--;
    /* count UTF-8 code points, not bytes, so units like "µ" align */
    size_t width = 0;
    for (size_t i = start; i < b->len; i++)
        if (((unsigned char)b->data[i] & 0xC0) != 0x80)
            width++;
    while (width++ < col)
        bw_buf_putc(b, ' ');
}

int bw_buf_failed(const bw_buf *b)
{
    return b->failed;
}

const char *bw_buf_str(const bw_buf *b)
{
    return b->data && !b->failed ? b->data : "";
}

char *bw_buf_steal(bw_buf *b)
{
    char *s = NULL;
    if (!b->failed) {
        s = b->data ? b->data : calloc(1, 1);
        b->data = NULL;
    }
    bw_buf_free(b);
    return s;
}

void bw_buf_reset(bw_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void bw_buf_free(bw_buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
