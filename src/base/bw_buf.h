/* bw_buf: a growable text buffer used by printers and report writers.
 * An allocation failure is sticky: later appends are ignored and
 * bw_buf_failed() reports it, so writers check once at the end. */
#ifndef BW_BUF_H
#define BW_BUF_H

#include <stddef.h>

#include "bw_error.h"

typedef struct bw_buf {
    char *data; /* NUL-terminated when len > 0 or after any append; owned */
    size_t len;
    size_t cap;
    int failed;
} bw_buf;

#define BW_BUF_INIT { NULL, 0, 0, 0 }

void bw_buf_puts(bw_buf *b, const char *s);
void bw_buf_putn(bw_buf *b, const char *s, size_t n);
void bw_buf_putc(bw_buf *b, char c);
void bw_buf_printf(bw_buf *b, const char *fmt, ...) BW_PRINTF(2, 3);
/* Pads with spaces up to column `col` of the current line (no-op if past). */
void bw_buf_pad_to(bw_buf *b, size_t col);
int bw_buf_failed(const bw_buf *b);
/* Always a valid string ("" when empty); owned by the buffer. */
const char *bw_buf_str(const bw_buf *b);
/* Hands the string to the caller (who frees it) and resets the buffer;
 * NULL after an allocation failure. */
char *bw_buf_steal(bw_buf *b);
void bw_buf_reset(bw_buf *b);
void bw_buf_free(bw_buf *b);

#endif
