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
#include "bench_probe_cache.h"
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

typedef struct probe_state {
    const char *device_spec, *output, *kernels;
    int quick, quiet;
    cli_format_opt format;
    char *cache_path;
    cli_each each; /* the devices, their provenance (which devs point into), failures and cache notes */
    report_probe_device *devs;
    bench_probe_result **results;
} probe_state;

static void state_free(probe_state *s)
{
    for (size_t k = 0; s->results && k < s->each.ndev; k++)
        bench_probe_result_free(s->results[k]);
    free(s->results);
    free(s->devs);
    free(s->cache_path);
    cli_each_free(&s->each);
}

#define PROBE_FORMATS ((1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON) | (1u << CLI_FORMAT_CSV) | (1u << CLI_FORMAT_MD))

const cli_option cmd_probe_options[] = {
    CLI_OPT_DEVICE(probe_state, device_spec, 0, CLI_HELP_DEVICE),
    { .name = "quick",
      .help = "fewer points and repeats (2 per doubling, working sets to 2 x the\n"
              "last-level cache, transfers to 16 MiB): under 30 s on PoCL",
      .set = cli_set_flag, .offset = offsetof(probe_state, quick) },
    CLI_OPT_FORMAT(probe_state, format, 0, "table|csv|json|md", PROBE_FORMATS,
                   "table (default), csv, json or md; --output FILE.json etc. picks it too"),
    CLI_OPT_OUTPUT(probe_state, output, 0, CLI_HELP_OUTPUT),
    CLI_OPT_KERNELS(probe_state, kernels, CLI_OPT_NEWLINE, "read probe.cl from DIR (also $BWLAB_KERNEL_DIR)"),
    CLI_OPT_QUIET(probe_state, quiet, 0),
    CLI_OPTION_END,
};

static int parse_args(const cli_command *self, int argc, char **argv, probe_state *s)
{
    int operands, st = cli_options_parse(self, argc, argv, s, &operands);
    if (st || (st = cli_output_path_check(self, "--output", s->output)) != 0)
        return st;
    cli_format_from_output(s->output, s->format.given, PROBE_FORMATS, &s->format.format);
    return 0;
}

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

int cmd_probe(int argc, char **argv)
{
    const cli_command *self = cli_find("probe");
    probe_state s;
    memset(&s, 0, sizeof s);
    int st = parse_args(self, argc, argv, &s);
    bw_error err = BW_ERROR_INIT;
    int invalid = 0;
    if (st)
        goto done;
    if (bench_probe_cache_path(&s.cache_path, &err) != BW_OK) {
        st = cli_fail(self, &err);
        goto done;
    }
    if ((st = cli_output_not_cache(self, s.output, s.cache_path, "the probe cache")) != 0)
        goto done;
    if ((st = cli_each_open(self, s.device_spec, &s.each)) != 0)
        goto done;
    size_t n = s.each.ndev;
    s.devs = calloc(n, sizeof *s.devs);
    s.results = calloc(n, sizeof *s.results);
    if (!s.devs || !s.results) {
        st = cli_nomem(self);
        goto done;
    }
    cli_progress_mode show = cli_progress_mode_of(s.quiet);
    /* a signal stops the probe before its next launch or copy, and what
     * was measured is written (cli_signal.h) */
    cli_signal_saved saved;
    cli_signal_catch(&saved);
    for (size_t k = 0; k < n; k++) {
        const ocl_device_info *d = cli_each_device(&s.each, k);
        s.devs[k].device = &s.each.provs.devices[k];
        s.devs[k].is_default = s.each.provs.devices[k].is_default;
        if (cli_signal_caught) {
            s.devs[k].failure = "not probed: interrupted before this device";
            continue;
        }
        bw_code rc = probe_device(&s, k, show, &err);
        if (rc == BW_E_INTERRUPTED) {
            bw_error_clear(&err);
        } else if (rc != BW_OK) {
            if ((st = cli_each_fail(self, &s.each, k, rc, &err, &s.devs[k].failure)) != 0)
                goto done;
        } else if (!s.results[k]->chase_valid) {
            cli_error_line(self, "on device %zu ('%s'): pointer-chase validation failed: %s; its latencies are left out",
                           d->index, d->name, s.results[k]->chase_note);
            invalid = 1;
        }
    }
    cli_signal_restore(&saved);
    char date[32];
    cli_iso_date(date, sizeof date);
    report_probe_meta m = { date, argc + 1, argv - 1, s.cache_path, cli_signal_caught != 0 };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    if (s.format.format == CLI_FORMAT_JSON)
        rc = report_probe_json(&m, s.devs, n, &b, &err);
    else if (s.format.format == CLI_FORMAT_CSV)
        report_probe_csv(&m, s.devs, n, &b);
    else if (s.format.format == CLI_FORMAT_MD)
        report_probe_md(&m, s.devs, n, &b);
    else
        report_probe_table(&m, s.devs, n, &b);
    st = cli_each_finish(self, &s.each, rc, &b, s.output, "what was measured", invalid, &err);
    bw_buf_free(&b);
done:
    bw_error_clear(&err);
    state_free(&s);
    return st;
}
