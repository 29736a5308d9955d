/* bwlab roofline: measure each device's roof (peak FLOP/s, streaming
 * bandwidth, an intensity sweep) and set it beside the roofline model. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_plan.h"
#include "bench_roofline.h"
#include "bench_runner.h"
#include "bw_hook.h"
#include "bw_parse.h"
#include "cli.h"
#include "cli_each.h"
#include "cli_format.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_signal.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "report_roofline.h"

#define DEFAULT_BUDGET_S 5.0

/* Everything the command owns, freed in one place. */
typedef struct roofline_state {
    const char *device_spec, *output, *kernels_dir;
    cli_format_opt format;
    double budget_s;
    uint64_t size; /* --size: the source buffer's bytes, 0 for auto */
    char *source, *kernel_path;
    cli_each each;                  /* the devices, their provenance (which devs point into) and failures */
    report_roofline_device *devs;
    bench_roofline_result **results;
} roofline_state;

static void state_free(roofline_state *s)
{
    for (size_t k = 0; s->results && k < s->each.ndev; k++)
        bench_roofline_result_free(s->results[k]);
    free(s->results);
    free(s->devs);
    free(s->source);
    free(s->kernel_path);
    cli_each_free(&s->each);
}

#define ROOFLINE_FORMATS ((1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON) | (1u << CLI_FORMAT_CSV) | (1u << CLI_FORMAT_MD))

const cli_option cmd_roofline_options[] = {
    CLI_OPT_DEVICE(roofline_state, device_spec, 0, CLI_HELP_DEVICE),
    CLI_OPT_BUDGET(roofline_state, budget_s, 0,
                   "seconds for each device, building, filling and validating included\n"
                   "(default 5), planned by time: a buffer whose fill and launches would\n"
                   "not fit is cut, a sweep whose sizing runs long ends early, and once\n"
                   "the budget ends each kernel has 3 timed launches where the time\n"
                   "allowed, else at least 1; budget_note says what was cut"),
    CLI_OPT_SIZE(roofline_state, size, 0, &cli_roofline_size_rule,
                 "the source buffer, whole MiB (default auto: the working set 'bwlab run'\n"
                 "plans, 4 x the last-level cache, within the device's limits)"),
    CLI_OPT_FORMAT(roofline_state, format, CLI_OPT_NEWLINE, "table|csv|json|md", ROOFLINE_FORMATS,
                   "table (default), csv, json or md; --output FILE.json etc. picks it too"),
    CLI_OPT_OUTPUT(roofline_state, output, 0, CLI_HELP_OUTPUT),
    CLI_OPT_KERNELS(roofline_state, kernels_dir, 0, "read roofline.cl from DIR (also $BWLAB_KERNEL_DIR)"),
    CLI_OPTION_END,
};

static int parse_args(const cli_command *self, int argc, char **argv, roofline_state *s)
{
    int operands, st = cli_options_parse(self, argc, argv, s, &operands);
    if (st || (st = cli_output_path_check(self, "--output", s->output)) != 0)
        return st;
    cli_format_from_output(s->output, s->format.given, ROOFLINE_FORMATS, &s->format.format);
    return 0;
}

static bw_code measure_device(roofline_state *s, size_t k, bw_error *err)
{
    const ocl_device_info *d = cli_each_device(&s->each, k);
    bench_roofline_opts o;
    ocl_context *ctx = NULL;
    bench_settings settings = bench_settings_default();
    bw_code rc = bench_roofline_opts_of(d, &settings, s->budget_s, s->size, &o, err);
    o.stop = &cli_signal_caught;
    if (rc == BW_OK && !s->source)
        rc = bench_roofline_kernel_load(s->kernels_dir, &s->source, &s->kernel_path, err);
    if (rc == BW_OK)
        rc = ocl_context_create(s->each.plats, s->each.dev_idx[k], &ctx, err);
    if (rc == BW_OK)
        rc = bench_roofline_run(ctx, s->source, &o, &s->results[k], err);
    ocl_context_free(ctx);
    /* interrupted: what was measured is reported, marked */
    if (rc == BW_OK || rc == BW_E_INTERRUPTED)
        s->devs[k].result = s->results[k];
    return rc;
}

int cmd_roofline(int argc, char **argv)
{
    const cli_command *self = cli_find("roofline");
    roofline_state s;
    memset(&s, 0, sizeof s);
    s.budget_s = DEFAULT_BUDGET_S;
    int st = parse_args(self, argc, argv, &s);
    bw_error err = BW_ERROR_INIT;
    /* from here a signal stops the measurement; what was measured is
     * written, and the handler stays while it is (cli_signal.h) */
    cli_signal_saved saved;
    int catching = !st;
    if (catching)
        cli_signal_catch(&saved);
    if (st || (st = cli_each_open(self, s.device_spec, &s.each)) != 0)
        goto done;
    size_t n = s.each.ndev;
    s.devs = calloc(n, sizeof *s.devs);
    s.results = calloc(n, sizeof *s.results);
    if (!s.devs || !s.results) {
        st = cli_nomem(self);
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        s.devs[k].device = &s.each.provs.devices[k];
        s.devs[k].is_default = s.each.provs.devices[k].is_default;
        s.devs[k].working_set_source = s.size ? "--size" : "auto";
        if (cli_signal_caught)
            continue; /* not measured: reported as not run */
        bw_code rc = measure_device(&s, k, &err);
        if (rc == BW_E_INTERRUPTED)
            bw_error_clear(&err);
        else if (rc != BW_OK && (st = cli_each_fail(self, &s.each, k, rc, &err, &s.devs[k].failure)) != 0)
            goto done;
    }
    char date[32];
    cli_iso_date(date, sizeof date);
    /* main passed argv + 1: argv[-1] is the program name */
    report_roofline_meta m = { date, argc + 1, argv - 1, s.budget_s, s.kernel_path, cli_signal_caught != 0 };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    switch (s.format.format) {
    case CLI_FORMAT_JSON: rc = report_roofline_json(&m, s.devs, n, &b, &err); break;
    case CLI_FORMAT_CSV: report_roofline_csv(&m, s.devs, n, &b); break;
    case CLI_FORMAT_MD: report_roofline_md(&m, s.devs, n, &b); break;
    default: report_roofline_table(&m, s.devs, n, &b); break;
    }
    bw_hook_phase("writing"); /* test builds only: a signal as the results are written */
    st = cli_each_finish(self, &s.each, rc, &b, s.output, "the results measured", 0, &err);
    bw_buf_free(&b);
done:
    if (catching)
        cli_signal_restore(&saved);
    bw_error_clear(&err);
    state_free(&s);
    return st;
}
