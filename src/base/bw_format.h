/* bw_format: human-readable quantities shared by messages and reports. */
#ifndef BW_FORMAT_H
#define BW_FORMAT_H

#include <stddef.h>

/* "512 B", "4.00 KiB", "1.50 GiB" (powers of 1024) into buf. */
void bw_format_bytes(char *buf, size_t n, double bytes);

#endif
