/* cli_run_options: the values of `bwlab run`'s plan and timing options
 * (--elem, --rse, --local, --index, --access), each checked and stored
 * (cli_run_options.h). */
#include "cli_run_options.h"

#include <stdlib.h>
#include <string.h>

#include "bench_plan.h"
#include "bw_parse.h"
#include "cli.h"

/* a number option's value through parse (bw_parse_u64, bw_parse_double),
 * its refusal said with bw_parse's message */
static int parse_u64_arg(const cli_command *self, const char *flag, const char *arg, uint64_t *u)
{
    bw_error err = BW_ERROR_INIT;
    int st = bw_parse_u64(arg, flag, u, &err) != BW_OK ? cli_usage_error(self, "%s", bw_error_text(&err)) : 0;
    bw_error_clear(&err);
    return st;
}

int cli_run_elem(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    uint64_t u = 0;
    int st = parse_u64_arg(self, "--elem", arg, &u);
    if (!st && u != 4 && u != 8 && u != 16)
        st = cli_usage_error(self, "--elem: '%s': measured kernels load 4, 8 or 16 bytes per lane", arg);
    *(int64_t *)field = (int64_t)u;
    return st;
}

int cli_run_rse(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    bw_error err = BW_ERROR_INIT;
    double pct = 0;
    int st = 0;
    if (bw_parse_double(arg, "--rse", &pct, &err) != BW_OK)
        st = cli_usage_error(self, "%s", bw_error_text(&err));
    else if (pct < 0 || pct > 100)
        st = cli_usage_error(self, "--rse: '%s' percent is out of range (0..100)", arg);
    bw_error_clear(&err);
    *(double *)field = pct / 100.0;
    return st;
}

int cli_run_local(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    bw_error err = BW_ERROR_INIT;
    uint64_t u = 0;
    int st = 0;
    if (bw_parse_u64(arg, "--local", &u, &err) != BW_OK || u == 0 || u > 65536)
        st = cli_usage_error(self, "--local: '%s' is not a work-group size (1..65536)", arg);
    bw_error_clear(&err);
    *(int64_t *)field = (int64_t)u;
    return st;
}

int cli_run_index(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    int *bits = field;
    if (!strcmp(arg, "auto"))
        *bits = 0;
    else if (!strcmp(arg, "32") || !strcmp(arg, "64"))
        *bits = atoi(arg);
    else
        return cli_usage_error(self, "--index: '%s' is not 32, 64 or auto", arg);
    return 0;
}

int cli_run_access(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    unsigned *access = field;
    if (!strcmp(arg, "read"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    else if (!strcmp(arg, "copy"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    else if (!strcmp(arg, "write"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    else if (!strcmp(arg, "both"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    else if (!strcmp(arg, "all"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) |
                  BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    else
        return cli_usage_error(self, "--access: '%s' is not read, copy, write, both or all", arg);
    return 0;
}
