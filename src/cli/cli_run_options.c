/* cli_run_options: `bwlab run`'s option table, each value checked and
 * stored in the command line's arguments (cli_run_options.h). */
#include "cli_run_options.h"

#include <stdlib.h>
#include <string.h>

#include "bench_plan.h"
#include "bw_parse.h"
#include "bench_run.h"
#include "cli.h"
#include "cli_inferred.h"
#include "cli_limits.h"

/* a number option's value through parse (bw_parse_u64, bw_parse_double),
 * its refusal said with bw_parse's message */
static int parse_u64_arg(const cli_command *self, const char *flag, const char *arg, uint64_t *u)
{
    bw_error err = BW_ERROR_INIT;
    int st = bw_parse_u64(arg, flag, u, &err) != BW_OK ? cli_usage_error(self, "%s", bw_error_text(&err)) : 0;
    bw_error_clear(&err);
    return st;
}

static int set_elem(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    uint64_t u = 0;
    int st = parse_u64_arg(self, "--elem", arg, &u);
    if (!st && u != 4 && u != 8 && u != 16)
        st = cli_usage_error(self, "--elem: '%s': measured kernels load 4, 8 or 16 bytes per lane", arg);
    *(int64_t *)field = (int64_t)u;
    return st;
}

static int set_rse(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    bw_error err = BW_ERROR_INIT;
    double pct = 0;
    int st = 0;
    if (bw_parse_double(arg, "--rse", &pct, &err) != BW_OK)
        st = cli_usage_error(self, "%s", bw_error_text(&err));
    else if (pct < 0 || pct > 100)
        st = cli_usage_error(self, "--rse: '%s' percent is out of range (0..100)", arg);
    bw_error_clear(&err);
    *(double *)field = pct / 100.0;
    return st;
}

static int set_local(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    bw_error err = BW_ERROR_INIT;
    uint64_t u = 0;
    int st = 0;
    if (bw_parse_u64(arg, "--local", &u, &err) != BW_OK || u == 0 || u > 65536)
        st = cli_usage_error(self, "--local: '%s' is not a work-group size (1..65536)", arg);
    bw_error_clear(&err);
    *(int64_t *)field = (int64_t)u;
    return st;
}

static int set_index(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    int *bits = field;
    if (!strcmp(arg, "auto"))
        *bits = 0;
    else if (!strcmp(arg, "32") || !strcmp(arg, "64"))
        *bits = atoi(arg);
    else
        return cli_usage_error(self, "--index: '%s' is not 32, 64 or auto", arg);
    return 0;
}

static int set_unroll(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    int *k = field;
    if (!strcmp(arg, "auto")) {
        *k = 0;
        return 0;
    }
    char *end = NULL;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end || !bench_unroll_valid(v))
        return cli_usage_error(self, "--unroll: '%s' is not 1, 2, 4, 8, 16 or auto", arg);
    *k = (int)v;
    return 0;
}

static int set_dram_unit(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    uint64_t u = 0;
    int st = parse_u64_arg(self, "--dram-unit", arg, &u);
    if (!st && (u < 1 || u > (uint64_t)MODEL_MAX_UNIT))
        st = cli_usage_error(self, "--dram-unit: '%s' is out of range (1..%lld bytes)", arg,
                             (long long)MODEL_MAX_UNIT);
    *(int64_t *)field = (int64_t)u;
    return st;
}

static int set_fill(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    if (strcmp(arg, "zeros") && strcmp(arg, "random"))
        return cli_usage_error(self, "--fill: '%s' is not zeros or random", arg);
    *(int *)field = !strcmp(arg, "zeros");
    return 0;
}

static int set_access(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    unsigned *access = field;
    if (!strcmp(arg, "read"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    else if (!strcmp(arg, "copy"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    else if (!strcmp(arg, "write"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    else if (!strcmp(arg, "both"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    else if (!strcmp(arg, "all"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) |
                  BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    else
        return cli_usage_error(self, "--access: '%s' is not read, copy, write, both or all", arg);
    return 0;
}

static int add_patterns(const cli_command *self, cli_run_args *s, const char *list)
{
    bw_error err = BW_ERROR_INIT;
    char **v = NULL;
    size_t n = 0;
    if (model_pattern_split_list(list, &v, &n, &err) != BW_OK) {
        int st = cli_usage_error(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return st;
    }
    char **grown = realloc(s->specs, (s->nspecs + n) * sizeof *grown);
    if (!grown) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return cli_nomem(self);
    }
    s->specs = grown;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(v[i], "all")) {
            s->want_defaults = 1;
            free(v[i]);
        } else {
            s->specs[s->nspecs++] = v[i];
        }
    }
    free(v);
    return 0;
}

static int set_pattern(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    return add_patterns(self, field, arg);
}

static int set_expr(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    cli_run_args *s = field;
    const char **v = realloc(s->exprs, (s->nexprs + 1) * sizeof *v);
    if (!v)
        return cli_nomem(self);
    s->exprs = v;
    s->exprs[s->nexprs++] = arg;
    return 0;
}

static int set_roofline_size(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    cli_run_args *s = field;
    s->roofline_size_given = 1;
    return cli_set_size(self, opt, arg, &s->roofline_size);
}

static int set_profile(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    *(const char **)field = arg;
    if (strcmp(arg, CLI_INFERRED_PROFILE))
        return cli_usage_error(self, "--profile: '%s': bwlab run takes only 'inferred' (a profile from the "
                                     "device's cached 'bwlab probe'); without it each device uses the profile "
                                     "'bwlab devices' shows",
                               arg);
    return 0;
}

#define RUN_SET(fn, field) .set = (fn), .offset = offsetof(cli_run_args, field)
#define RUN_FLAG(field) RUN_SET(cli_set_flag, field)

static const cli_size_rule run_size_rule = { 0, NULL };

/* --pattern and --expr add to the list (CLI_OPT_REPEAT); any other option
 * is given once */
const cli_option cmd_run_options[] = {
    CLI_OPT_DEVICE(cli_run_args, device_spec, 0, CLI_HELP_DEVICE),
    { .name = "pattern", .metavar = "LIST", .values = "LIST|all", .flags = CLI_OPT_REPEAT,
      .help = "comma-separated pattern specs (see 'bwlab patterns'); may repeat; an\n"
              "item k=v continues the previous pattern: aos:struct=12,field=0,seq\n"
              "is two patterns; 'all' is the default set (the whole catalogue with\n"
              "strides 1..64, offsets 0..128 bytes, seq at 4 and 16 bytes, banks)",
      .set = set_pattern },
    { .name = "expr", .metavar = "EXPR", .flags = CLI_OPT_REPEAT,
      .help = "measure your own address expression (bytes; t, w, g, W); may repeat", .set = set_expr },
    { .name = "elem", .metavar = "E", .help = "bytes per lane: 4, 8 or 16 (default-set aos specs whose field it does\n"
                                                            "not fit are left out, named in the plan's note)",
      RUN_SET(set_elem, popts.elem) },
    CLI_OPT_SIZE(cli_run_args, popts.size, CLI_OPT_NEWLINE, &run_size_rule,
                 "working set each pattern touches (default auto: 4 x the device's\n"
                 "global-memory cache, or for a CPU device reporting none the host's\n"
                 "last-level cache, else 256 MiB; at least 512 MiB on a GPU; within its\n"
                 "largest allocation and a quarter of its memory); e.g. 256M. src and\n"
                 "dst together stay within 3/4 of the device's memory. On a --budget\n"
                 "of 5 s or more, an auto size whose patterns would not fit it (estimated\n"
                 "from a short calibration copy) is fitted, down to the cache figure\n"
                 "(below it, to 32 MiB, only where filling the buffers alone would take\n"
                 "a quarter of the time), with a note. A --size is never shrunk: where\n"
                 "the budget cannot hold the fill of its widest patterns' buffers\n"
                 "(strides span several times it), those are left out, named, before\n"
                 "the buffers are made"),
    CLI_OPT_BUDGET(cli_run_args, settings.budget_s, 0,
                   "seconds for the whole run (default 50): buffers, build, validation, form\n"
                   "choice, twins, timing, roofline and writing; held within 10% + 2 s\n"
                   "for S >= 5. Each pattern is validated on a sample of its work-groups,\n"
                   "then timed round-robin until its median is stable (1% relative\n"
                   "standard error and 0.2 s of launches) or the budget ends; on a CPU\n"
                   "the plain kernel form and one other (warp, where a warp's lanes stay\n"
                   "within one warp's bytes; else scalar) are timed in the first rounds\n"
                   "and the faster one kept, where lanes do not load consecutive elements\n"
                   "(those run the plain form's vector load); a twin (the kernel over a cache-resident\n"
                   "slice, after the pattern's own launches) is timed where it can\n"
                   "change the verdict. When the minimum of launches does not\n"
                   "fit, a note before measuring names the patterns left out; below\n"
                   "5 s every pattern keeps its launches and the run takes longer"),
    { .name = "rse", .metavar = "PCT",
      .help = "the relative standard error at which a pattern counts as stable\n"
              "(default 1; 0 times every pattern for the whole budget)",
      RUN_SET(set_rse, settings.rse_target) },
    CLI_OPT_FORMAT_OUTPUT(cli_run_args, format, output, 0, "table|csv|json|md", CLI_FORMATS_ALL, CLI_HELP_FORMAT_ALL),
    { .name = "explain", .flags = CLI_OPT_NEWLINE,
      .help = "a sentence under each row: what the pattern does, why the model says so", RUN_FLAG(explain) },
    CLI_OPT_QUIET(cli_run_args, quiet, 0),
    CLI_OPT_KERNELS(cli_run_args, kernels_dir, 0,
                    "read gather.cl, bw_expr.cl, fill.cl and roofline.cl from DIR (also $BWLAB_KERNEL_DIR)"),
    { .name = "local", .metavar = "N",
      .help = "work-items per work-group (default 256, a multiple of the warp,\n"
              "lowered to what the device and each built kernel allow)",
      RUN_SET(set_local, popts.local_size) },
    { .name = "unroll", .metavar = "K|auto",
      .help = "items per work-item of the gather and record kernels, 1, 2, 4, 8 or 16:\n"
              "work-item p runs items p + j*N/K, all K loads issued before any\n"
              "store, so more requests are in flight; the model does not change\n"
              "(default auto: seq read and copy at each K in the calibration,\n"
              "averaged with the device's last ones (unroll.json); per mode the\n"
              "smallest K within 3% of its best, copy's for copy and write)",
      RUN_SET(set_unroll, unroll) },
    { .name = "dram-unit", .metavar = "BYTES",
      .help = "the unit the memory behind the caches is filled in: the verdict's\n"
              "bounds are counted in it (the footprint in DRAM units) and say so\n"
              "(default: the profile's, none for the vendor profiles)",
      RUN_SET(set_dram_unit, popts.dram_unit) },
    { .name = "fill", .metavar = "zeros|random",
      .help = "random (default): every source holds pseudo-random data. zeros: after a\n"
              "device's patterns, seq read (validated) on a zero-filled source beside\n"
              "the random one, their ratio a compression check (runs[].compression_ratio;\n"
              "a memory path that compresses moves the zeros faster)",
      RUN_SET(set_fill, fill_zeros) },
    { .name = "index", .metavar = "32|64|auto",
      .help = "index arithmetic of the kernels: int or long (default auto: int on a\n"
              "GPU where the model proves every value fits, long otherwise); 32 is\n"
              "an error for a pattern not proven to fit",
      RUN_SET(set_index, popts.index_bits) },
    { .name = "access", .metavar = "MODE", .values = "read|copy|write|both|all", .flags = CLI_OPT_NEWLINE,
      .help = "what each work-item does at the pattern's address: copy (loads there and\n"
              "stores at dst[g]; the model counts that store too), read (loads there,\n"
              "compares with a key and stores only on a match: loads alone are counted\n"
              "and timed), write (loads src[g] and stores it there: the pattern's side\n"
              "is the stores; one-to-one stores only, so broadcast is refused), both\n"
              "(read and copy) or all (the three). Default: copy for --pattern and\n"
              "--expr; the default set measures copy for every pattern, read as well\n"
              "for seq and the strides, and write for seq, the strides, offset:bytes=4\n"
              "and reverse, side by side",
      RUN_SET(set_access, popts.access) },
    { .name = "no-roofline", .usage = "[--no-roofline | --roofline-size BYTES|auto]",
      .help = "skip the short roofline. By default, after a device's patterns, a\n"
              "short 'bwlab roofline' (at most 1 s, or --budget when smaller; the\n"
              "buffer 'bwlab roofline' takes, never --size; roofline.cl from --kernels)\n"
              "gives its measured peak FLOP/s and read GB/s, the ridge modeled from\n"
              "them and the measured one, the sweep and the tiled products: a few\n"
              "lines under the patterns, runs[].roofline in JSON, not in CSV",
      RUN_FLAG(no_roofline) },
    { .name = "roofline-size", .metavar = "BYTES|auto", .usage = "",
      .help = "the short roofline's buffer, whole MiB (default auto: the\n"
              "one 'bwlab roofline' takes, 4 x the last-level cache)",
      .set = set_roofline_size, .data = &cli_roofline_size_rule },
    { .name = "report", .metavar = "FILE.html", .flags = CLI_OPT_NEWLINE,
      .help = "also write this run's HTML report ('bwlab help report')", RUN_SET(cli_set_string, report) },
    /* described in the notes, with --profile inferred of 'bwlab help probe' */
    { .name = "profile", .metavar = "NAME", .usage = "[--profile inferred]", RUN_SET(set_profile, profile) },
    { .name = "transfers", RUN_FLAG(transfers) },
    CLI_OPTION_END,
};

int cli_run_args_parse(const cli_command *self, int argc, char **argv, cli_run_args *s)
{
    s->settings = bench_settings_default();
    int operands, st = cli_options_parse(self, argc, argv, s, &operands);
    if (st)
        return st;
    if (s->no_roofline && s->roofline_size_given)
        return cli_usage_error(self, "conflicting flags: --no-roofline and --roofline-size (the size is the "
                                     "short roofline's; give one)");
    if ((st = cli_output_format(self, s->output, &s->format, CLI_FORMATS_ALL)) != 0 ||
        (st = cli_output_path_check(self, "--report", s->report)) != 0)
        return st;
    s->popts.specs = (const char *const *)s->specs;
    s->popts.nspecs = s->nspecs;
    s->popts.exprs = s->exprs;
    s->popts.nexprs = s->nexprs;
    s->popts.with_defaults = s->want_defaults;
    s->popts.model_s = bench_pipeline_model_s(s->settings.budget_s);
    return 0;
}

void cli_run_args_free(cli_run_args *s)
{
    for (size_t i = 0; i < s->nspecs; i++)
        free(s->specs[i]);
    free(s->specs);
    free(s->exprs);
}
