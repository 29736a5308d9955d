/* bw_alloc: malloc and free for a third-party library that reports only
 * "it failed" (jansson's loaders say "invalid JSON at line -1" when memory
 * runs out), counting the allocations that fail, so that the caller can
 * tell the host's fault (out of memory, exit 1) from the input's (bad
 * input, exit 2). main installs them (json_set_alloc_funcs); code that
 * never runs under main simply sees no failure counted. Owns nothing. */
#ifndef BW_ALLOC_H
#define BW_ALLOC_H

#include <stddef.h>

/* malloc, counting a NULL return */
void *bw_alloc_counted_malloc(size_t n);
/* free */
void bw_alloc_counted_free(void *p);
/* the allocations that failed so far in this process */
unsigned long bw_alloc_failures(void);

#endif
