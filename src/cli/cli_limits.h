/* cli_limits: what the commands that size a device's buffers share on the
 * command line (the roofline buffer's size rule) and the results' date
 * stamp (date and host); the limits themselves are bench_limits.h's. */
#ifndef CLI_LIMITS_H
#define CLI_LIMITS_H

#include <stddef.h>

#include "bench_device.h"
#include "cli_option.h"

/* What a roofline buffer's size (roofline --size, run --roofline-size)
 * must be: "auto" or whole MiB of at least 1M, as the roofline plans
 * its buffer in MiB. */
extern const cli_size_rule cli_roofline_size_rule;

/* The current UTC time, ISO 8601 ("YYYY-MM-DDTHH:MM:SSZ"), into buf. */
void cli_iso_date(char *buf, size_t n);

/* The host's name and "SYSNAME RELEASE MACHINE" (uname) into host and os;
 * "unknown" for what cannot be read. */
void cli_host_identity(char *host, size_t nh, char *os, size_t no);

#endif
