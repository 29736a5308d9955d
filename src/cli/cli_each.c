/* cli_each: the device loop that tune, roofline and probe share: their
 * shared options, the devices of --device with their provenance, each
 * one's failure and note, the loop that measures them, and the command's
 * output and exit status at the end (cli_each.h). */
#include "cli_each.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_hook.h"
#include "cli_limits.h"
#include "cli_signal.h"
#include "report_nominal.h"

int cli_each_parse(const cli_command *self, int argc, char **argv, void *state, cli_each *e, unsigned allowed)
{
    int operands, st = cli_options_parse(self, argc, argv, state, &operands);
    return st ? st : cli_output_format(self, e->output, &e->format, allowed);
}

int cli_each_cache(const cli_command *self, const cli_each *e, bw_code (*path_of)(char **, bw_error *), char **path,
                   const char *what)
{
    bw_error err = BW_ERROR_INIT;
    if (path_of(path, &err) != BW_OK) {
        int st = cli_fail(self, &err);
        bw_error_clear(&err);
        return st;
    }
    return cli_output_not_cache(self, e->output, *path, what);
}

int cli_each_open(const cli_command *self, cli_each *e)
{
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    if (model_profiles_load_default(&e->profiles, &err) != BW_OK || ocl_discover(e->profiles, &e->plats, &err) != BW_OK ||
        ocl_select(e->plats, e->device_spec, &e->dev_idx, &e->ndev, &err) != BW_OK ||
        bench_device_list_make(e->plats, e->dev_idx, e->ndev, &e->provs, &err) != BW_OK) {
        st = cli_fail(self, &err);
    } else {
        e->failures = calloc(e->ndev ? e->ndev : 1, sizeof *e->failures);
        e->notes = calloc(e->ndev ? e->ndev : 1, sizeof *e->notes);
        if (!e->failures || !e->notes)
            st = cli_nomem(self);
    }
    /* the nominal peaks: a table that cannot be read leaves the figures unchecked, said once */
    if (!st && report_nominal_load(&e->nominal, &err) != BW_OK)
        cli_note(self, "figures not checked against nominal peaks: %s", bw_error_text(&err));
    bw_error_clear(&err);
    return st;
}

double cli_each_nominal(const cli_each *e, size_t k, const char **name)
{
    const bench_device *d = &e->provs.devices[k];
    return report_nominal_dram(e->nominal, d->vendor, d->name, d->board_name, (long long)d->global_mem_bytes, name);
}

const ocl_device_info *cli_each_device(const cli_each *e, size_t k)
{
    return ocl_device_at(e->plats, e->dev_idx[k]);
}

int cli_each_fail(const cli_command *self, cli_each *e, size_t k, bw_code rc, bw_error *err, const char **text)
{
    const ocl_device_info *d = cli_each_device(e, k);
    bw_error_prefix(err, "on device %zu (%s): ", d->index, d->name);
    int st = cli_fail(self, err);
    if (e->ndev == 1 && bw_code_exit_status(rc) == 2) {
        bw_error_clear(err);
        return st;
    }
    e->failures[k] = strdup(bw_error_text(err));
    *text = e->failures[k] ? e->failures[k] : "out of memory";
    e->any_failed = 1;
    bw_error_clear(err);
    return 0;
}

void *cli_each_alloc(cli_each *e, size_t size)
{
    void **grown = realloc(e->arrays, (e->n_arrays + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    e->arrays = grown;
    void *a = calloc(e->ndev, size);
    if (a)
        e->arrays[e->n_arrays++] = a;
    return a;
}

const char *cli_each_note(cli_each *e, size_t k, const char *note)
{
    free(e->notes[k]);
    e->notes[k] = strdup(note);
    return e->notes[k];
}

int cli_each_measure(const cli_command *self, cli_each *e, const cli_each_steps *steps, void *state, bw_error *err)
{
    for (size_t k = 0; k < e->ndev; k++) {
        if (steps->begin(self, state, k) || cli_signal_caught)
            continue; /* not measured: reported as not run */
        bw_code rc = steps->measure(self, state, k, err);
        if (rc != BW_OK && rc != BW_E_INTERRUPTED) {
            int st = cli_each_fail(self, e, k, rc, err, steps->failure(state, k));
            if (st)
                return st;
        }
        bw_error_clear(err);
    }
    return 0;
}

int cli_each_run(const cli_command *self, cli_each *e, const cli_each_steps *steps, void *state, int argc,
                 char **argv)
{
    bw_error err = BW_ERROR_INIT;
    /* from here a signal stops the measurement; what was measured is
     * written, and the handler stays while it is (cli_signal.h) */
    cli_signal_saved saved;
    cli_signal_catch(&saved);
    int st = steps->before ? steps->before(self, state) : 0;
    if (!st)
        st = cli_each_open(self, e);
    if (!st && steps->alloc(state) != 0)
        st = cli_nomem(self);
    if (!st)
        st = cli_each_measure(self, e, steps, state, &err);
    if (!st) {
        char date[32];
        cli_iso_date(date, sizeof date);
        bw_buf b = BW_BUF_INIT;
        /* main passed argv + 1: argv[-1] is the program name */
        bw_code rc = steps->format(state, date, argc + 1, argv - 1, &b, &err);
        bw_hook_phase("writing"); /* test builds only: a signal as the results are written */
        st = cli_each_finish(self, e, rc, &b, e->output, "the results measured", 0, &err);
        bw_buf_free(&b);
    }
    cli_signal_restore(&saved);
    bw_error_clear(&err);
    return st;
}

void cli_each_free(cli_each *e)
{
    for (size_t k = 0; k < e->ndev; k++) {
        if (e->failures)
            free(e->failures[k]);
        if (e->notes)
            free(e->notes[k]);
    }
    free(e->failures);
    free(e->notes);
    for (size_t i = 0; i < e->n_arrays; i++)
        free(e->arrays[i]);
    free(e->arrays);
    bench_device_list_free(&e->provs);
    json_decref(e->nominal);
    free(e->dev_idx);
    ocl_platforms_free(e->plats);
    model_profiles_free(e->profiles);
    memset(e, 0, sizeof *e);
}

int cli_each_finish(const cli_command *self, const cli_each *e, bw_code rc, const bw_buf *b, const char *output,
                    const char *written, int failed, bw_error *err)
{
    int st = 0;
    if (rc == BW_OK)
        rc = cli_write_output(output, b, err);
    if (rc != BW_OK) {
        st = cli_fail(self, err);
    } else if (cli_signal_caught) {
        cli_say(self, "interrupted by %s: wrote %s so far", cli_signal_name(), written);
        st = cli_signal_status(0);
    } else if (e->any_failed || failed) {
        st = bw_code_exit_status(BW_E_VALIDATION);
    }
    bw_error_clear(err);
    return st;
}
