/* cli_each: the skeleton that bwlab tune, roofline and probe share. It
 * holds the options they share (--device, --format, --output), selects
 * the devices of --device, keeps their provenance (the records src/report
 * reads) and each device's failure and note, so a command measures device
 * after device and a failure on one leaves the others; cli_each_run is
 * the whole command around the command's own steps.
 * Owner: the cli_each owns everything in it, the per-device arrays of
 * cli_each_alloc included, but the option strings (argv's); cli_each_free
 * frees it. What those arrays' elements point to (the results) stays the
 * command's to free, before cli_each_free. */
#ifndef CLI_EACH_H
#define CLI_EACH_H

#include <stddef.h>

#include "bench_device.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "cli.h"
#include "cli_option.h"
#include "model_profile.h"
#include "ocl_device.h"

typedef struct cli_each {
    const char *device_spec;  /* --device, or NULL */
    const char *output;       /* --output, or NULL: standard output */
    cli_format_opt format;    /* --format, or the one --output's name picks (cli_each_parse) */
    model_profiles *profiles;
    ocl_platforms *plats;
    size_t *dev_idx, ndev;    /* the selected devices' indexes in plats */
    bench_device_list provs;  /* their provenance, in that order */
    char **failures, **notes; /* per device: a text, or NULL */
    int any_failed;           /* a device failed (cli_each_fail) */
    void **arrays;            /* the command's per-device arrays (cli_each_alloc) */
    size_t n_arrays;
    struct json_t *nominal;   /* data/nominal.json, or NULL when it cannot be read (cli_each_nominal) */
} cli_each;

/* The shared option rows of a command whose state (of type `type`)
 * embeds its cli_each as `each`: --device, and --format (flags, values,
 * allowed and help as CLI_OPT_FORMAT's) followed by --output. */
#define CLI_EACH_OPT_DEVICE(type) CLI_OPT_DEVICE(type, each.device_spec, 0, CLI_HELP_DEVICE)
#define CLI_EACH_OPT_FORMAT_OUTPUT(type, flags_, values_, allowed_, help_)                                         \
    CLI_OPT_FORMAT_OUTPUT(type, each.format, each.output, flags_, values_, allowed_, help_)

/* Parses argv into state (whose cli_each is e) by self's option table,
 * then checks --output and lets its name pick the format among `allowed`
 * (cli_output_format). Returns 0, or the usage error's status. */
int cli_each_parse(const cli_command *self, int argc, char **argv, void *state, cli_each *e, unsigned allowed);

/* The command's cache: its path from path_of (bench_tune_cache_path,
 * bench_probe_cache_path) into *path, which the caller frees; refused when
 * --output names the same file (`what`: "the tuning cache"). Returns 0, or
 * the exit status having printed why. */
int cli_each_cache(const cli_command *self, const cli_each *e, bw_code (*path_of)(char **, bw_error *), char **path,
                   const char *what);

/* Loads the profiles, discovers the platforms, selects e->device_spec and
 * lists the devices' provenance. Returns 0, or, having printed the error,
 * the exit status. */
int cli_each_open(const cli_command *self, cli_each *e);

/* Device k's nominal DRAM GB/s and its entry's name (report_nominal_dram),
 * or 0 and NULL: what the command's figures are checked against. */
double cli_each_nominal(const cli_each *e, size_t k, const char **name);

/* The discovery's record of selected device k. */
const ocl_device_info *cli_each_device(const cli_each *e, size_t k);

/* Device k failed with rc: prints err, prefixed with the device, and keeps
 * its text in failures[k]; *text is that text ("out of memory" when it
 * could not be kept). Returns the exit status when the whole command must
 * stop (one device, and input no device can take: exit 2, as in bwlab
 * run), else 0. Clears err. */
int cli_each_fail(const cli_command *self, cli_each *e, size_t k, bw_code rc, bw_error *err, const char **text);

/* A zeroed array of ndev elements of `size` bytes for the command's
 * per-device records or results, freed by cli_each_free (what its
 * elements own stays the command's to free). NULL when memory runs out. */
void *cli_each_alloc(cli_each *e, size_t size);

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

/* A command's own steps, each given its state. */
typedef struct cli_each_steps {
    /* cli_each_run: before the devices open (a cache's path and its checks),
     * or NULL; 0, or the exit status having printed why */
    int (*before)(const cli_command *self, void *state);
    /* cli_each_run: the per-device records and results (cli_each_alloc);
     * 0, or -1 when memory runs out */
    int (*alloc)(void *state);
    /* device k's record, before it is measured; 1 when it needs no
     * measurement (its cached entry, or a device the signal came before) */
    int (*begin)(const cli_command *self, void *state, size_t k);
    /* measures device k: BW_OK, BW_E_INTERRUPTED (what it measured
     * stands), or the failure, described in err */
    bw_code (*measure)(const cli_command *self, void *state, size_t k, bw_error *err);
    /* where device k's failure text goes (its record's) */
    const char **(*failure)(void *state, size_t k);
    /* cli_each_run: the results, formatted into b; date: now; argc, argv:
     * the command line from the program's name */
    bw_code (*format)(void *state, const char *date, int argc, char **argv, bw_buf *b, bw_error *err);
} cli_each_steps;

/* Device after device: begin, then, unless it says so or a signal was
 * caught, measure; an interruption keeps what was measured, a failure is
 * the device's (cli_each_fail). Returns 0, or the exit status when a
 * failure stops the command. Clears err. */
int cli_each_measure(const cli_command *self, cli_each *e, const cli_each_steps *steps, void *state, bw_error *err);

/* The command after its options (tune, roofline): with signals caught
 * (cli_signal.h) until the output is written, steps->before, the devices
 * (cli_each_open), steps->alloc, cli_each_measure, then steps->format
 * written to --output (cli_each_finish: "the results measured"). argc and
 * argv are the command's, as main passes them (argv[0] its name). Returns
 * the exit status. */
int cli_each_run(const cli_command *self, cli_each *e, const cli_each_steps *steps, void *state, int argc,
                 char **argv);

void cli_each_free(cli_each *e); /* accepts a zeroed cli_each */

#endif
