/* cli_each: the device loop that tune, roofline and probe share: the
 * devices of --device with their provenance, each one's failure and note,
 * and the command's output and exit status at the end (cli_each.h). */
#include "cli_each.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_signal.h"

int cli_each_open(const cli_command *self, const char *device_spec, cli_each *e)
{
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    if (model_profiles_load_default(&e->profiles, &err) != BW_OK || ocl_discover(e->profiles, &e->plats, &err) != BW_OK ||
        ocl_select(e->plats, device_spec, &e->dev_idx, &e->ndev, &err) != BW_OK ||
        bench_device_list_make(e->plats, e->dev_idx, e->ndev, &e->provs, &err) != BW_OK) {
        st = cli_fail(self, &err);
    } else {
        e->failures = calloc(e->ndev ? e->ndev : 1, sizeof *e->failures);
        e->notes = calloc(e->ndev ? e->ndev : 1, sizeof *e->notes);
        if (!e->failures || !e->notes)
            st = cli_nomem(self);
    }
    bw_error_clear(&err);
    return st;
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

const char *cli_each_note(cli_each *e, size_t k, const char *note)
{
    free(e->notes[k]);
    e->notes[k] = strdup(note);
    return e->notes[k];
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
    bench_device_list_free(&e->provs);
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
