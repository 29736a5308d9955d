/* bwlab roofline: measure each device's roof (peak FLOP/s, streaming
 * bandwidth, an intensity sweep) and set it beside the roofline model. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_plan.h"
#include "bench_roofline.h"
#include "bench_run.h"
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
#include "results_json.h"

#define DEFAULT_BUDGET_S 5.0

/* Everything the command owns, freed in one place. */
typedef struct roofline_state {
    const char *kernels_dir;
    double budget_s;
    uint64_t size; /* --size: the source buffer's bytes, 0 for auto */
    char *source, *kernel_path;
    cli_each each; /* --device, --format, --output; the devices, their provenance (which devs
                    * point into) and failures */
    bench_roofline_doc_device *devs; /* per device: both arrays are each's (cli_each_alloc) */
    bench_roofline_result **results;
} roofline_state;

static void state_free(roofline_state *s)
{
    for (size_t k = 0; s->results && k < s->each.ndev; k++)
        bench_roofline_result_free(s->results[k]);
    free(s->source);
    free(s->kernel_path);
    cli_each_free(&s->each);
}

const cli_option cmd_roofline_options[] = {
    CLI_EACH_OPT_DEVICE(roofline_state),
    CLI_OPT_BUDGET(roofline_state, budget_s, 0,
                   "seconds for each device, building, filling and validating included\n"
                   "(default 5), planned by time: a buffer whose fill and launches would\n"
                   "not fit is cut, a sweep whose sizing runs long ends early, and once\n"
                   "the budget ends each kernel has 3 timed launches where the time\n"
                   "allowed, else at least 1; budget_note says what was cut"),
    CLI_OPT_SIZE(roofline_state, size, 0, &cli_roofline_size_rule,
                 "the source buffer, whole MiB (default auto: the working set 'bwlab run'\n"
                 "plans, 4 x the last-level cache, within the device's limits)"),
    CLI_EACH_OPT_FORMAT_OUTPUT(roofline_state, CLI_OPT_NEWLINE, "table|csv|json|md", CLI_FORMATS_ALL,
                               CLI_HELP_FORMAT_ALL),
    CLI_OPT_KERNELS(roofline_state, kernels_dir, 0, "read roofline.cl from DIR (also $BWLAB_KERNEL_DIR)"),
    CLI_OPTION_END,
};

static int alloc_devices(void *state)
{
    roofline_state *s = state;
    s->devs = cli_each_alloc(&s->each, sizeof *s->devs);
    s->results = cli_each_alloc(&s->each, sizeof *s->results);
    return s->devs && s->results ? 0 : -1;
}

static int begin_device(const cli_command *self, void *state, size_t k)
{
    (void)self;
    roofline_state *s = state;
    s->devs[k].device = &s->each.provs.devices[k];
    s->devs[k].is_default = s->each.provs.devices[k].is_default;
    s->devs[k].working_set_source = s->size ? "--size" : "auto";
    return 0;
}

static bw_code measure_device(const cli_command *self, void *state, size_t k, bw_error *err)
{
    (void)self;
    roofline_state *s = state;
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

static const char **failure_of(void *state, size_t k)
{
    return &((roofline_state *)state)->devs[k].failure;
}

static bw_code format_results(void *state, const char *date, int argc, char **argv, bw_buf *b, bw_error *err)
{
    roofline_state *s = state;
    size_t n = s->each.ndev;
    bench_roofline_doc_meta m = { date, argc, argv, s->budget_s, s->kernel_path, cli_signal_caught != 0 };
    /* bench writes the document; every format is rendered from it */
    json_t *doc = bench_roofline_document(&m, s->devs, n);
    if (!doc)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    switch (s->each.format.format) {
    case CLI_FORMAT_JSON: return results_json_dump(doc, b, err); /* consumes doc */
    case CLI_FORMAT_CSV: report_roofline_csv(doc, b); break;
    case CLI_FORMAT_MD: report_roofline_md(doc, b); break;
    default: report_roofline_table(doc, b); break;
    }
    json_decref(doc);
    return BW_OK;
}

static const cli_each_steps roofline_steps = {
    .alloc = alloc_devices,
    .begin = begin_device,
    .measure = measure_device,
    .failure = failure_of,
    .format = format_results,
};

int cmd_roofline(int argc, char **argv)
{
    const cli_command *self = cli_find("roofline");
    roofline_state s;
    memset(&s, 0, sizeof s);
    s.budget_s = DEFAULT_BUDGET_S;
    int st = cli_each_parse(self, argc, argv, &s, &s.each, CLI_FORMATS_ALL);
    if (!st)
        st = cli_each_run(self, &s.each, &roofline_steps, &s, argc, argv);
    state_free(&s);
    return st;
}
