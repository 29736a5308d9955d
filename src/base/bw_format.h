/* bw_format: human-readable quantities shared by messages and reports. */
#ifndef BW_FORMAT_H
#define BW_FORMAT_H

#include <stddef.h>

/* "512 B", "4.00 KiB", "1.50 GiB" (powers of 1024) into buf. */
void bw_format_bytes(char *buf, size_t n, double bytes);

/* The longest part of a value bw_quote shows, in bytes of the value. */
#define BW_QUOTE_SHOWN 80
/* A buffer that always holds bw_quote's result: every shown byte escaped
 * (4 characters) and the " ... (N bytes)" tail. */
#define BW_QUOTE_SIZE (BW_QUOTE_SHOWN * 4 + 48)

/* User input as it is echoed into a message or a report cell, written into
 * buf (n bytes, BW_QUOTE_SIZE holds any result) and returned: control bytes
 * (below 0x20, 0x7f, the C1 controls U+0080..U+009F) and bytes that are not
 * UTF-8 as \xHH, and a value longer than BW_QUOTE_SHOWN bytes cut at a
 * character boundary there, followed by "... (N bytes)" (the ellipsis is
 * U+2026). NULL shows as "(null)". Cannot fail; truncates to n. */
const char *bw_quote(char *buf, size_t n, const char *s);
/* The same for s[0..len), appended to b (no length limit when max is 0,
 * else at most max bytes shown); keep_newlines leaves '\n' and '\t' as they
 * are (a multi-line library message). */
struct bw_buf;
void bw_quote_append(struct bw_buf *b, const char *s, size_t len, size_t max, int keep_newlines);

#endif
