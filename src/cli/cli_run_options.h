/* cli_run_options: `bwlab run`'s command line: its option table
 * (cmd_run_options, cli_option.h) and what the options leave, checked. A
 * value outside its set is refused with a usage error that names the
 * option, the value and what it takes. */
#ifndef CLI_RUN_OPTIONS_H
#define CLI_RUN_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "bench_plan.h"
#include "bench_run.h"
#include "cli.h"
#include "cli_format.h"
#include "cli_option.h"

/* The parsed command line; specs and exprs are owned (cli_run_args_free),
 * the strings borrowed from argv. */
typedef struct cli_run_args {
    char **specs; /* --pattern's specs, "all" taken out */
    size_t nspecs;
    const char **exprs; /* --expr's */
    size_t nexprs;
    int want_defaults;      /* "all" was given */
    bench_plan_opts popts;  /* the plan's options, the patterns above included */
    bench_settings settings; /* the budget and the stopping rule */
    const char *device_spec, *output, *kernels_dir;
    const char *report; /* --report FILE.html, or NULL */
    cli_format_opt format;
    int explain, quiet, no_roofline, roofline_size_given, transfers;
    uint64_t roofline_size; /* --roofline-size: the short roofline's buffer, 0 for auto */
    const char *profile;    /* --profile: only "inferred" */
    int unroll;             /* --unroll: K, or 0 for auto (the default) */
    int fill_zeros;         /* --fill zeros: the compression check; 0: --fill random (the default) */
} cli_run_args;

/* Parses argv (argv[0] "run") into a (zeroed by the caller): the
 * settings' defaults, then the options, then what they leave together
 * (conflicting flags, output paths, the format --output implies). 0, or
 * the usage error's status after its message. */
int cli_run_args_parse(const cli_command *self, int argc, char **argv, cli_run_args *a);
void cli_run_args_free(cli_run_args *a);

#endif
