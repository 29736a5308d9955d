/* cli_each: the skeleton that bwlab tune, roofline and probe share. It
 * selects the devices of --device, keeps their provenance (the records
 * src/report reads) and each device's failure and note, so a command
 * measures device after device and a failure on one leaves the others.
 * Owner: the cli_each owns everything in it; cli_each_free frees it. */
#ifndef CLI_EACH_H
#define CLI_EACH_H

#include <stddef.h>

#include "bench_device.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "cli.h"
#include "model_profile.h"
#include "ocl_device.h"

typedef struct cli_each {
    model_profiles *profiles;
    ocl_platforms *plats;
    size_t *dev_idx, ndev;    /* the selected devices' indexes in plats */
    bench_device_list provs;  /* their provenance, in that order */
    char **failures, **notes; /* per device: a text, or NULL */
    int any_failed;           /* a device failed (cli_each_fail) */
} cli_each;

/* Loads the profiles, discovers the platforms, selects `device_spec` and
 * lists the devices' provenance. Returns 0, or, having printed the error,
 * the exit status. */
int cli_each_open(const cli_command *self, const char *device_spec, cli_each *e);

/* The discovery's record of selected device k. */
const ocl_device_info *cli_each_device(const cli_each *e, size_t k);

/* Device k failed with rc: prints err, prefixed with the device, and keeps
 * its text in failures[k]; *text is that text ("out of memory" when it
 * could not be kept). Returns the exit status when the whole command must
 * stop (one device, and input no device can take: exit 2, as in bwlab
 * run), else 0. Clears err. */
int cli_each_fail(const cli_command *self, cli_each *e, size_t k, bw_code rc, bw_error *err, const char **text);

/* Keeps a copy of `note` as device k's note; returns it, or NULL when
 * memory runs out. */
const char *cli_each_note(cli_each *e, size_t k, const char *note);

/* The last step of a command that measured device after device: writes
 * b, its results formatted (rc: the formatting's code), to output, then
 * returns the exit status: the write's failure (printed); 128 + the
 * signal caught, saying "bwlab NAME: interrupted by SIGINT: wrote
 * `written` so far"; 1 when a device failed (e->any_failed) or `failed`;
 * else 0. Clears err. */
int cli_each_finish(const cli_command *self, const cli_each *e, bw_code rc, const bw_buf *b, const char *output,
                    const char *written, int failed, bw_error *err);

void cli_each_free(cli_each *e); /* accepts a zeroed cli_each */

#endif
