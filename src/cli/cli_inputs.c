/* cli_inputs: loading and merging the result files of compare and
 * report, each bad file named on stderr, and the exit status they leave
 * (cli_inputs.h). */
#include "cli_inputs.h"

#include <stdio.h>

int cli_inputs_load(const cli_command *self, char **paths, size_t n, const char *output, results_merged **m,
                    bw_code *rc, size_t *bad, bw_error *err)
{
    const char *outs[1] = { output }, *flags[1] = { "--output" };
    results_load_opts lo = { outs, flags, 1 };
    *bad = 0;
    *rc = results_load_paths_opts((const char *const *)paths, n, &lo, m, err);
    if (*rc == BW_E_USAGE) {
        int st = cli_usage_error(self, "%s", bw_error_text(err));
        bw_error_clear(err);
        return st;
    }
    for (size_t i = 0; *m && i < (*m)->n_diags; i++) {
        const results_merge_diag *d = &(*m)->diags[i];
        /* a file's name and what was wrong with it: outside text, escaped */
        if (d->is_error)
            cli_error_line(self, "%s: %s", d->file, d->message);
        else
            cli_note(self, "%s: %s", d->file, d->message);
        *bad += d->is_error;
    }
    return 0;
}

int cli_inputs_status(const cli_command *self, bw_code rc, size_t bad, const char *rest, const bw_error *err)
{
    if (rc != BW_OK)
        return cli_fail(self, err);
    if (!bad)
        return 0;
    cli_error_line(self,
                   "%zu problem%s in the inputs (named above: an input skipped, or a row or figure out of its valid "
                   "range left out); the rest %s",
                   bad, bad == 1 ? "" : "s", rest);
    return 2;
}
