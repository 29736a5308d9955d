/* cli_run_options: the setters (cli_option_set) of `bwlab run`'s plan and
 * timing options. Each refuses a value outside its set with a usage error
 * that names the option, the value and what it takes. */
#ifndef CLI_RUN_OPTIONS_H
#define CLI_RUN_OPTIONS_H

#include "cli_option.h"

/* --elem 4|8|16 into an int64_t: the bytes a measured kernel loads per lane */
int cli_run_elem(const struct cli_command *self, const cli_option *opt, const char *arg, void *field);
/* --rse PCT (0..100) into a double, as a fraction */
int cli_run_rse(const struct cli_command *self, const cli_option *opt, const char *arg, void *field);
/* --local N (1..65536) into an int64_t: work-items per work-group */
int cli_run_local(const struct cli_command *self, const cli_option *opt, const char *arg, void *field);
/* --index 32|64|auto into an int: the index bits, 0 for auto */
int cli_run_index(const struct cli_command *self, const cli_option *opt, const char *arg, void *field);
/* --access read|copy|write|both|all into an unsigned set of BENCH_ACCESS_BIT */
int cli_run_access(const struct cli_command *self, const cli_option *opt, const char *arg, void *field);

#endif
