/* cli_failures: the full messages of the patterns a run could not measure,
 * on standard error after its measurements (cli_failures.h). */
#include "cli_failures.h"

#include <string.h>

/* full messages of failed patterns on stderr; a message repeated (the same
 * build log for every pattern) is printed once */
void cli_print_failures(const cli_command *self, const bench_pipeline *pipe)
{
    const char *printed[64];
    size_t np = 0;
    for (size_t k = 0; k < pipe->nrun; k++) {
        const bench_pipeline_device *d = &pipe->devs[k];
        if (d->failure)
            continue; /* reported when the device failed */
        for (size_t i = 0; i < d->plan->n; i++) {
            const bench_result *r = &d->results[i];
            if (r->status == BENCH_NOT_MEASURABLE && r->failure) {
                cli_error_block(self, "pattern '%s' %s", d->plan->items[i].spec, r->failure);
                continue;
            }
            if (r->status != BENCH_FAILED || !r->failure)
                continue;
            const char *body = strchr(r->failure, '\n');
            int seen = 0;
            for (size_t j = 0; body && j < np; j++)
                seen |= !strcmp(printed[j], body);
            if (seen) {
                cli_error_line(self, "pattern '%s' failed the same way", d->plan->items[i].spec);
                continue;
            }
            cli_error_block(self, "pattern '%s' failed: %s", d->plan->items[i].spec, r->failure);
            if (body && np < 64)
                printed[np++] = body;
        }
    }
}
