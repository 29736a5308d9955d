/* bw_alloc: counted malloc and free for third-party libraries
 * (bw_alloc.h). */
#include "bw_alloc.h"

#include <stdint.h>
#include <stdlib.h>

#include "bw_hook.h"

static unsigned long failures, calls;

void *bw_alloc_counted_malloc(size_t n)
{
    int64_t after = 0;
    calls++;
    /* test builds only: the library's allocations fail from the Nth on */
    if (bw_hook_fault("lib_alloc", NULL, &after) && calls > (unsigned long)after) {
        failures++;
        return NULL;
    }
    void *p = malloc(n);
    if (!p)
        failures++;
    return p;
}

void bw_alloc_counted_free(void *p)
{
    free(p);
}

unsigned long bw_alloc_failures(void)
{
    return failures;
}
