/* bw_hook: see bw_hook.h. Nothing here runs in a build without
 * BWLAB_FAULT_HOOKS. */
#include "bw_hook.h"

#include "bwlab_config.h"

#ifdef BWLAB_FAULT_HOOKS
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int bw_hook_enabled(void)
{
    return 1;
}

int bw_hook_fault(const char *point, const char *subject, int64_t *n)
{
    const char *list = getenv("BWLAB_TEST_FAULTS");
    size_t plen = strlen(point);
    while (list && *list) {
        const char *end = strchr(list, ';');
        size_t len = end ? (size_t)(end - list) : strlen(list);
        if (len >= plen && strncmp(list, point, plen) == 0 &&
            (len == plen || list[plen] == '=' || list[plen] == '@')) {
            /* MATCH runs from after '=' to the last '@' followed by digits */
            const char *m = list + plen, *stop = list + len, *at = NULL;
            for (const char *q = m; q < stop; q++)
                if (*q == '@' && q + 1 < stop && strspn(q + 1, "0123456789") >= (size_t)(stop - q - 1))
                    at = q;
            const char *mend = at ? at : stop;
            int ok;
            if (*m == '=') {
                char match[256];
                size_t ml = (size_t)(mend - m - 1);
                if (ml >= sizeof match)
                    ml = sizeof match - 1;
                memcpy(match, m + 1, ml);
                match[ml] = '\0';
                ok = subject && strstr(subject, match) != NULL;
            } else {
                ok = 1;
            }
            if (ok) {
                if (n)
                    *n = at ? strtoll(at + 1, NULL, 10) : 0;
                return 1;
            }
        }
        list = end ? end + 1 : NULL;
    }
    return 0;
}

void bw_hook_phase(const char *phase)
{
    static char raised[8][16];
    int64_t sig = 0;
    if (!bw_hook_fault("signal", phase, &sig) || sig <= 0)
        return;
    for (int i = 0; i < 8; i++) {
        if (strcmp(raised[i], phase) == 0)
            return;
        if (!raised[i][0]) {
            strncpy(raised[i], phase, sizeof raised[i] - 1);
            break;
        }
    }
    raise((int)sig);
}

#else

int bw_hook_enabled(void)
{
    return 0;
}

int bw_hook_fault(const char *point, const char *subject, int64_t *n)
{
    (void)point;
    (void)subject;
    (void)n;
    return 0;
}

void bw_hook_phase(const char *phase)
{
    (void)phase;
}

#endif
