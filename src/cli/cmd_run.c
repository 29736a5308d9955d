/* bwlab run: measure patterns on OpenCL devices and set each measurement
 * beside the model: the options, the devices opened and planned, and the
 * exit status; the measurement itself is bench_pipeline's, the document
 * written cli_run_doc's. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_run.h"
#include "bw_hook.h"
#include "bench_probe.h"
#include "bench_tune.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_inferred.h"
#include "cli_failures.h"
#include "cli_journal.h"
#include "cli_progress.h"
#include "cli_run_options.h"
#include "cli_limits.h"
#include "cli_signal.h"
#include "cli_tuned.h"
#include "model_profile.h"
#include "report_nominal.h"

#include "cli_run_state.h"

static void state_free(run_state *s)
{
    cli_run_args_free(&s->a);
    bench_pipeline_free(&s->pipe);
    free(s->tuned);
    free(s->plateau);
    free(s->tune_path);
    free(s->unroll_memory);
    free(s->dev_idx);
    bench_device_list_free(&s->provs);
    bench_kernels_free(s->kernels);
    ocl_platforms_free(s->plats);
    model_profiles_free(s->profiles);
    json_decref(s->nominal);
}

/* The pipeline's progress: a finished pattern goes to the journal, a
 * plan's note to stderr, and the rest redraws the status line */
static void on_progress(void *ctx, size_t k, const bench_progress *p)
{
    run_state *s = ctx;
    if (k != s->shown_k) { /* a new device: its first phase is drawn */
        s->shown_k = k;
        s->progress.last_phase[0] = '\0';
    }
    if (!strcmp(p->phase, "finished")) {
        cli_run_journal_result(s, k, p);
        return;
    }
    if (!strcmp(p->phase, "plan")) { /* what the budget left out: said before it is measured */
        cli_progress_clear(s->progress.mode);
        cli_print_line("bwlab run", "note", "%s", p->spec);
        return;
    }
    cli_progress_runner(&s->progress, p);
}

static void on_note(void *ctx, const char *line)
{
    (void)ctx;
    cli_print_line("bwlab run", "note", "%s", line);
}

static void on_failed(void *ctx, const bw_error *err)
{
    (void)ctx;
    cli_fail(cli_find("run"), err);
}

static void on_measured(void *ctx, size_t k)
{
    run_state *s = ctx;
    const bench_pipeline_device *d = &s->pipe.devs[k];
    if (s->tuned[k].found && d->plan && d->results)
        cli_tuned_check(cli_find("run"), ocl_device_at(s->plats, s->dev_idx[k]), &s->tuned[k].entry, d->plan,
                        d->results);
}

/* Two outputs on one file, or an output over a cache the run reads: the
 * usage error's status, else 0. */
static int check_outputs(const cli_command *self, const run_state *s)
{
    char *tune_path = NULL, *probe_path = NULL;
    if (bench_tune_cache_path(&tune_path, NULL) != BW_OK)
        tune_path = NULL;
    if (s->a.profile && bench_probe_cache_path(&probe_path, NULL) != BW_OK)
        probe_path = NULL;
    const char *paths[] = { s->a.output, s->a.report, tune_path, probe_path };
    const char *what[] = { "--output", "--report", "the tuning cache", "the probe cache" };
    const int outputs[] = { 1, 1, 0, 0 };
    int st = cli_outputs_distinct(self, paths, what, outputs, 4);
    free(tune_path);
    free(probe_path);
    return st;
}

/* The patterns checked, then the devices found and selected, the kernels
 * read, each device's profile (--profile inferred), provenance and cached
 * peak: 0, or the exit status after the message. */
static int open_devices(const cli_command *self, run_state *s)
{
    bw_error err = BW_ERROR_INIT;
    bw_code rc;
    int st = 0;
    bench_plan_opts *o = &s->pipe.popts;
    *o = s->a.popts;
    s->pipe.settings = s->a.settings;
    s->pipe.unroll = s->a.unroll;
    s->pipe.fill_zeros = s->a.fill_zeros;
    /* bad input is bad input on any machine: checked before a platform is
     * looked up, so that it never reads as a missing driver */
    if ((rc = bench_plan_check_input(o, &err)) != BW_OK)
        st = rc == BW_E_NOMEM ? cli_nomem(self) : cli_usage_error(self, "%s", bw_error_text(&err));
    else if (model_profiles_load_default(&s->profiles, &err) != BW_OK ||
             ocl_discover(s->profiles, &s->plats, &err) != BW_OK ||
             ocl_select(s->plats, s->a.device_spec, &s->dev_idx, &s->ndev, &err) != BW_OK ||
             bench_kernels_load(s->a.kernels_dir, &s->kernels, &err) != BW_OK)
        st = cli_fail(self, &err);
    else if (!(s->tuned = calloc(s->ndev, sizeof *s->tuned)))
        st = cli_nomem(self);
    else if (s->a.profile)
        st = cli_inferred_profiles(self, s->plats, s->dev_idx, s->ndev);
    /* after --profile inferred: the provenance carries the profile used */
    if (!st && bench_device_list_make(s->plats, s->dev_idx, s->ndev, &s->provs, &err) != BW_OK)
        st = cli_fail(self, &err);
    if (!st)
        s->tune_path = cli_tuned_lookup(self, s->plats, s->dev_idx, s->ndev, s->tuned);
    if (!st && !(s->plateau = calloc(s->ndev, sizeof *s->plateau)))
        st = cli_nomem(self);
    for (size_t k = 0; !st && k < s->ndev; k++)
        s->plateau[k].gbs = cli_inferred_memory_gbs(self, ocl_device_at(s->plats, s->dev_idx[k]), s->plateau[k].date,
                                                    sizeof s->plateau[k].date);
    /* the nominal peaks every figure is checked against: a table that
     * cannot be read leaves the figures unchecked, said once */
    if (!st && report_nominal_load(&s->nominal, &err) != BW_OK)
        cli_note(self, "figures not checked against nominal peaks: %s", bw_error_text(&err));
    bw_error_clear(&err);
    return st;
}

/* Every device planned, so that bad input fails first (bench_pipeline_plan):
 * 0 with *planned set, or the exit status. */
static int plan_devices(const cli_command *self, run_state *s, size_t *planned)
{
    bench_pipeline *p = &s->pipe;
    p->plats = s->plats;
    p->dev_idx = s->dev_idx;
    p->ndev = s->ndev;
    p->kernels = s->kernels;
    p->kernels_dir = s->a.kernels_dir;
    p->no_roofline = s->a.no_roofline;
    p->roofline_size = s->a.roofline_size;
    p->transfers = s->a.transfers;
    /* auto's K from the device's kept calibrations: no place for the
     * file (no home) is none */
    bw_error e = BW_ERROR_INIT;
    if (bench_unroll_memory_path(&s->unroll_memory, &e) != BW_OK)
        s->unroll_memory = NULL;
    bw_error_clear(&e);
    p->unroll_memory = s->unroll_memory;
    p->bwlab_version = BWLAB_VERSION;
    p->stop = &cli_signal_caught;
    p->ev = (bench_pipeline_events){ s, on_progress, on_note, on_failed, on_measured };
    bw_code rc = bench_pipeline_plan(p, planned);
    if (rc == BW_E_NOMEM)
        return cli_nomem(self);
    if (*planned)
        return 0;
    /* the refusals are already said */
    return rc != BW_OK ? bw_code_exit_status(rc) : 0;
}

/* Measures the planned devices in turn, until a signal stops the run, and
 * writes the results (also those of an interrupted run). The exit status:
 * 0, 1 when something failed, 128 + the signal, or a write's failure. */
static int measure_and_write(const cli_command *self, run_state *s, size_t planned, double t_run0)
{
    /* the first Ctrl-C, or the SIGTERM a batch scheduler sends at its time
     * limit, stops the run after the launch in flight (cli_signal.h) */
    cli_signal_saved saved;
    cli_signal_catch(&saved);
    s->progress.mode = cli_progress_mode_of(s->a.quiet);
    cli_iso_date(s->date, sizeof s->date);
    cli_host_identity(s->host, sizeof s->host, s->os, sizeof s->os);
    int st = cli_run_journal_start(self, s);
    if (st != 0) {
        cli_signal_restore(&saved);
        return st;
    }
    int any_failed = planned < s->ndev;
    /* --budget bounds the whole run, from here, less the writing */
    double run_end = t_run0 + s->pipe.settings.budget_s - BENCH_PIPELINE_WRITE_RESERVE_S;
    if (bench_pipeline_measure(&s->pipe, run_end, &any_failed) != BW_OK)
        return cli_nomem(self); /* nothing more is written */
    /* the handler stays while the results are written: a signal then lets
     * the write finish, and the exit status says it came */
    bw_hook_phase("writing"); /* test builds only: a signal as the results are written */
    cli_print_failures(self, &s->pipe);
    st = cli_run_write(self, s);
    cli_signal_restore(&saved);
    if (!st && cli_signal_caught) {
        cli_say(self, "interrupted by %s: wrote the results measured so far", cli_signal_name());
        st = cli_signal_status(st);
    } else if (!st && s->pipe.refused) {
        st = bw_code_exit_status(BW_E_RANGE); /* bad input: --size and --budget together */
    } else if (!st && any_failed) {
        st = bw_code_exit_status(BW_E_VALIDATION);
    }
    return st;
}

int cmd_run(int argc, char **argv)
{
    const cli_command *self = cli_find("run");
    double t_run0 = bench_now_s(); /* --budget counts from here */
    run_state s;
    memset(&s, 0, sizeof s);
    /* main passed argv + 1: argv[-1] is the program name */
    s.argc = argc + 1;
    s.argv = argv - 1;
    size_t planned = 0;
    int st = cli_run_args_parse(self, argc, argv, &s.a);
    if (!st)
        st = check_outputs(self, &s);
    if (!st)
        st = open_devices(self, &s);
    if (!st)
        st = plan_devices(self, &s, &planned);
    if (!st)
        st = measure_and_write(self, &s, planned, t_run0);
    /* a journal left here holds what a failed final write would lose */
    if (s.journal)
        cli_say(self, "the results measured are kept in '%s'", cli_journal_path(s.journal));
    cli_journal_close(s.journal, 0);
    state_free(&s);
    return st;
}
