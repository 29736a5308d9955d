/* bwlab probe: infer a device's memory system from measurement (cache
 * ladder, latency ladder, transaction unit, warp width and banks where
 * measurable), its host<->device transfers and launch latency; keep the
 * findings in the probe cache for --profile inferred. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_probe.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_each.h"
#include "cli_progress.h"
#include "cli_format.h"
#include "cli_limits.h"
#include "cli_signal.h"
#include "cli_option.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "report_probe.h"
#include "results_json.h"

typedef struct probe_state {
    const char *kernels;
    int quick, quiet;
    char *cache_path;
    cli_each each; /* --device, --format, --output; the devices, their provenance (which devs
                    * point into), failures and cache notes */
    bench_probe_doc_device *devs; /* per device: both arrays are each's (cli_each_alloc) */
    bench_probe_result **results;
    cli_progress_mode show; /* the status line's kind */
    int invalid;            /* a device's pointer chase failed validation */
} probe_state;

static void state_free(probe_state *s)
{
    for (size_t k = 0; s->results && k < s->each.ndev; k++)
        bench_probe_result_free(s->results[k]);
    free(s->cache_path);
    cli_each_free(&s->each);
}

const cli_option cmd_probe_options[] = {
    CLI_EACH_OPT_DEVICE(probe_state),
    { .name = "quick",
      .help = "fewer points and repeats (2 per doubling, working sets to 2 x the\n"
              "last-level cache, transfers to 16 MiB): under 30 s on PoCL",
      .set = cli_set_flag, .offset = offsetof(probe_state, quick) },
    CLI_EACH_OPT_FORMAT_OUTPUT(probe_state, 0, "table|csv|json|md", CLI_FORMATS_ALL, CLI_HELP_FORMAT_ALL),
    CLI_OPT_KERNELS(probe_state, kernels, CLI_OPT_NEWLINE, "read probe.cl from DIR (also $BWLAB_KERNEL_DIR)"),
    CLI_OPT_QUIET(probe_state, quiet, 0),
    CLI_OPTION_END,
};

/* what the status line of one device's probe needs */
typedef struct probe_progress {
    const ocl_device_info *d;
    cli_progress_mode mode;
    char last_phase[32];
} probe_progress;

static void progress_line(void *ctx, const char *phase, double f)
{
    probe_progress *pp = ctx;
    /* plain lines: one per phase, not one per step */
    if (pp->mode == CLI_PROGRESS_PLAIN && !strcmp(pp->last_phase, phase))
        return;
    snprintf(pp->last_phase, sizeof pp->last_phase, "%s", phase);
    cli_progress_show(pp->mode, "[probe] device %zu: %s, %.0f%%", pp->d->index, phase, 100 * f);
}

/* probes device k and stores its findings in the cache */
static bw_code probe_device(probe_state *s, size_t k, cli_progress_mode show, bw_error *err)
{
    const ocl_device_info *d = cli_each_device(&s->each, k);
    bench_probe_opts o;
    memset(&o, 0, sizeof o);
    o.quick = s->quick;
    o.kernel_dir = s->kernels;
    o.stop = &cli_signal_caught;
    probe_progress pp = { d, show, "" };
    if (show != CLI_PROGRESS_NONE) {
        o.progress = progress_line;
        o.progress_ctx = &pp;
    }
    ocl_context *ctx = NULL;
    bw_code rc = ocl_context_create(s->each.plats, s->each.dev_idx[k], &ctx, err);
    if (rc == BW_OK)
        rc = bench_probe_run(ctx, &o, &s->results[k], err);
    ocl_context_free(ctx);
    cli_progress_clear(show);
    if (rc != BW_OK && !(rc == BW_E_INTERRUPTED && s->results[k]))
        return rc;
    s->devs[k].result = s->results[k];
    char date[32], note[600];
    cli_iso_date(date, sizeof date);
    bench_probe_entry e = bench_probe_entry_of(s->results[k], date);
    bench_tune_key key = bench_tune_key_of(d, BWLAB_VERSION);
    bw_error we = BW_ERROR_INIT;
    if (s->results[k]->interrupted)
        snprintf(note, sizeof note, "not stored: the probe was interrupted (in its %s)",
                 s->results[k]->interrupted_in);
    else if (!s->results[k]->chase_valid)
        snprintf(note, sizeof note, "not stored: the pointer chase failed validation");
    else if (bench_probe_cache_store(s->cache_path, &key, &e, &we) != BW_OK)
        snprintf(note, sizeof note, "not stored: %s", bw_error_text(&we));
    else
        snprintf(note, sizeof note, "stored in %s (for --profile inferred)", s->cache_path);
    bw_error_clear(&we);
    s->devs[k].cache_note = cli_each_note(&s->each, k, note);
    return rc;
}

/* device k's record; after a signal, the devices left are not probed */
static int begin_device(const cli_command *self, void *state, size_t k)
{
    (void)self;
    probe_state *s = state;
    s->devs[k].device = &s->each.provs.devices[k];
    const char *nominal_name = NULL;
    s->devs[k].nominal_gbs = cli_each_nominal(&s->each, k, &nominal_name);
    s->devs[k].is_default = s->each.provs.devices[k].is_default;
    if (!cli_signal_caught)
        return 0;
    s->devs[k].failure = "not probed: interrupted before this device";
    return 1;
}

/* probes device k; a pointer chase that fails validation is said, and
 * its latencies left out */
static bw_code measure_device(const cli_command *self, void *state, size_t k, bw_error *err)
{
    probe_state *s = state;
    bw_code rc = probe_device(s, k, s->show, err);
    if (rc == BW_OK && !s->results[k]->chase_valid) {
        const ocl_device_info *d = cli_each_device(&s->each, k);
        cli_error_line(self, "on device %zu ('%s'): pointer-chase validation failed: %s; its latencies are left out",
                       d->index, d->name, s->results[k]->chase_note);
        s->invalid = 1;
    }
    return rc;
}

static const char **failure_of(void *state, size_t k)
{
    return &((probe_state *)state)->devs[k].failure;
}

static const cli_each_steps probe_steps = {
    .begin = begin_device,
    .measure = measure_device,
    .failure = failure_of,
};

int cmd_probe(int argc, char **argv)
{
    const cli_command *self = cli_find("probe");
    probe_state s;
    memset(&s, 0, sizeof s);
    int st = cli_each_parse(self, argc, argv, &s, &s.each, CLI_FORMATS_ALL);
    bw_error err = BW_ERROR_INIT;
    if (st || (st = cli_each_cache(self, &s.each, bench_probe_cache_path, &s.cache_path, "the probe cache")) != 0 ||
        (st = cli_each_open(self, &s.each)) != 0)
        goto done;
    size_t n = s.each.ndev;
    s.devs = cli_each_alloc(&s.each, sizeof *s.devs);
    s.results = cli_each_alloc(&s.each, sizeof *s.results);
    if (!s.devs || !s.results) {
        st = cli_nomem(self);
        goto done;
    }
    s.show = cli_progress_mode_of(s.quiet);
    /* a signal stops the probe before its next launch or copy, and what
     * was measured is written (cli_signal.h) */
    cli_signal_saved saved;
    cli_signal_catch(&saved);
    st = cli_each_measure(self, &s.each, &probe_steps, &s, &err);
    cli_signal_restore(&saved);
    if (st)
        goto done;
    char date[32];
    cli_iso_date(date, sizeof date);
    bench_probe_doc_meta m = { date, argc + 1, argv - 1, s.cache_path, cli_signal_caught != 0 };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    /* bench writes the document; every format is rendered from it */
    json_t *doc = bench_probe_document(&m, s.devs, n);
    if (!doc)
        rc = bw_error_set(&err, BW_E_NOMEM, "out of memory");
    else if (s.each.format.format == CLI_FORMAT_JSON) {
        rc = results_json_dump(doc, &b, &err); /* consumes doc */
        doc = NULL;
    } else if (s.each.format.format == CLI_FORMAT_CSV)
        report_probe_csv(doc, &b);
    else if (s.each.format.format == CLI_FORMAT_MD)
        report_probe_md(doc, &b);
    else
        report_probe_table(doc, &b);
    json_decref(doc);
    st = cli_each_finish(self, &s.each, rc, &b, s.each.output, "what was measured", s.invalid, &err);
    bw_buf_free(&b);
done:
    bw_error_clear(&err);
    state_free(&s);
    return st;
}
