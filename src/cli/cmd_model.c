/* bwlab model: the analytic model of one warp-instruction, of a whole
 * launch, and the roofline, without any device. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_parse.h"
#include "cli.h"
#include "cli_inferred.h"
#include "cli_format.h"
#include "cli_option.h"
#include "model_affine.h"
#include "model_bank.h"
#include "model_expr.h"
#include "model_launch.h"
#include "model_partial.h"
#include "model_pattern.h"
#include "model_profile.h"
#include "model_roofline.h"
#include "model_warp.h"
#include "ocl_device.h"
#include "report_model.h"

typedef struct model_args {
    const char *expr, *pattern, *mask, *profile, *space, *access;
    const char *device; /* with --profile inferred: whose probe */
    const char *elem, *active, *base, *warp, *lanes, *sector, *line, *banks, *bank_width, *dram_unit;
    const char *items, *unroll, *peak_gflops, *peak_gbs, *intensity, *tile;
    int launch, roofline;
    cli_format_opt format;
} model_args;

/* a string option of model_args: its values are checked once all are read */
#define MODEL_STR(name_, metavar_, field, ...)                                                                        \
    .name = (name_), .metavar = (metavar_), .set = cli_set_string, .offset = offsetof(model_args, field), __VA_ARGS__

const cli_option cmd_model_options[] = {
    { MODEL_STR("expr", "EXPR", expr, .section = "Address source (one of):",
                .usage = "(--expr EXPR | --pattern SPEC)",
                .help = "byte address of lane t in warp w, e.g. '4*g' or 't < 16 ? 4*t : 4000 + 256*(t-16)'\n"
                        "(variables t, w, g = w*W + t, W; C operators; min(), max())") },
    { MODEL_STR("pattern", "SPEC", pattern, .usage = "",
                .help = "a catalogue pattern, e.g. stride:s=2 (see 'bwlab patterns')") },
    { MODEL_STR("elem", "E", elem, .section = "Instruction:", .help = "bytes per lane (default 4)") },
    { MODEL_STR("active", "N", active, .usage = "[--active N | --mask HEX]",
                .help = "lanes 0..N-1 active (default: all; 0: none, efficiencies do not apply)") },
    { MODEL_STR("mask", "HEX", mask, .usage = "", .help = "active lanes as a hex bit mask, bit t = lane t") },
    { MODEL_STR("base", "B", base, .flags = CLI_OPT_NEWLINE,
                .help = "byte offset added to every address (default 0)") },
    { MODEL_STR("warp", "K", warp, .help = "which warp's addresses (default 0)") },
    { MODEL_STR("space", "SPACE", space, .values = "global|local",
                .help = "global or local (adds the bank-conflict model); default: the\n"
                        "pattern's own space (local for bank), else global") },
    { MODEL_STR("profile", "NAME", profile, .section = "Profile (docs/design.md section 3):",
                .flags = CLI_OPT_NEWLINE, .usage = "[--profile NAME | --profile inferred [--device SPEC]]",
                .help = "nvidia (default), amd-gcn, amd-cdna2, amd-cdna3, amd-rdna, intel-xe, cpu, generic,\n"
                        "or inferred: the device's own profile with the fields its cached\n"
                        "'bwlab probe' found (unit as the DRAM unit, W, banks) in place; the\n"
                        "output says which") },
    { MODEL_STR("device", "SPEC", device, .usage = "",
                .help = "with --profile inferred: whose probe (default: the default device)") },
    { MODEL_STR("lanes", "W", lanes, .flags = CLI_OPT_NEWLINE,
                .label = "--lanes W, --sector S, --line L, --banks N, --bank-width B",
                .help = "override one field") },
    { MODEL_STR("sector", "S", sector, .help = NULL) },
    { MODEL_STR("line", "L", line, .help = NULL) },
    { MODEL_STR("banks", "N", banks, .help = NULL) },
    { MODEL_STR("bank-width", "B", bank_width, .help = NULL) },
    { MODEL_STR("dram-unit", "BYTES", dram_unit, .usage = "[--dram-unit BYTES]",
                .help = "the unit the memory behind the caches is filled in (a third\n"
                        "granularity beside sectors and lines: DRAM units, their efficiency\n"
                        "and the launch's DRAM footprint); default: the profile's, none for\n"
                        "the vendor profiles until a probe measures it") },
    { .name = "launch", .section = "Whole launch:", .flags = CLI_OPT_NEWLINE,
      .usage = "[--launch --items N] [--access load|store|write]", .label = "--launch, --items N",
      .help = "requested, instruction-model and footprint bytes of N work-items", .set = cli_set_flag,
      .offset = offsetof(model_args, launch) },
    { MODEL_STR("items", "N", items, .usage = "") },
    { MODEL_STR("unroll", "K", unroll, .usage = "[--unroll K]",
                .help = "with --launch: K items per work-item (1, 2, 4, 8, 16), as bwlab run\n"
                        "--unroll runs them; the counts are the same for every K") },
    { MODEL_STR("access", "KIND", access, .usage = "",
                .help = "count the access as a load (default) or a store (with --launch), or\n"
                        "as write mode's store (bwlab run --access write): the pattern's\n"
                        "stores with their partial sectors, beside a coalesced load of\n"
                        "src[g] for a launch") },
    { .name = "roofline", .section = "Roofline:", .flags = CLI_OPT_NEWLINE,
      .usage = "[--roofline --peak-gflops P --peak-gbs B (--intensity I | --tile T)]",
      .label = "--roofline --peak-gflops P --peak-gbs B",
      .help = "with --intensity I (FLOP/byte) or --tile T\n"
              "(tiled float matmul, I = T/4); the address source is optional then",
      .set = cli_set_flag, .offset = offsetof(model_args, roofline) },
    { MODEL_STR("peak-gflops", "P", peak_gflops, .usage = "") },
    { MODEL_STR("peak-gbs", "B", peak_gbs, .usage = "") },
    { MODEL_STR("intensity", "I", intensity, .usage = "") },
    { MODEL_STR("tile", "T", tile, .usage = "") },
    /* --format as CLI_OPT_FORMAT has it, under a heading of its own */
    { .name = "format", .metavar = "FORMAT", .values = "table|json", .section = "Output:",
      .flags = CLI_OPT_NEWLINE, .help = "table (default, for people) or json (one object, for scripts)",
      .set = cli_set_format, .offset = offsetof(model_args, format),
      .param = CLI_FORMATS_TABLE_JSON },
    CLI_OPTION_END,
};

/* Parsed numbers and the objects built from them; freed in one place. */
typedef struct model_run {
    model_profiles *profiles;
    model_geometry geo;
    const char *profile_name;
    char inferred_fields[64], inferred_source[600]; /* --profile inferred */
    model_pattern *pattern;
    model_expr *expr;
    const model_expr *use_expr;
    int64_t elem, base, warp, items, unroll;
    model_lanes active;
    int64_t addr[MODEL_MAX_LANES];
    model_warp counts;
    model_bank bank;
    model_launch launch;
    int64_t warp_partial; /* --access write: the warp's partial sectors */
    model_roofline roof;
} model_run;

/* flag names and values are checked here so every message names them */
static int parse_u64_in(const cli_command *self, const char *flag, const char *s, uint64_t min,
                        uint64_t max, uint64_t *out)
{
    bw_error err = BW_ERROR_INIT;
    if (bw_parse_u64(s, flag, out, &err) != BW_OK) {
        int st = cli_usage_error(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        return st;
    }
    if (*out < min || *out > max)
        return cli_usage_error(self, "%s: '%s' is out of range (%llu..%llu)", flag, s,
                               (unsigned long long)min, (unsigned long long)max);
    return 0;
}

static int parse_double_pos(const cli_command *self, const char *flag, const char *s, double *out)
{
    bw_error err = BW_ERROR_INIT;
    if (bw_parse_double(s, flag, out, &err) != BW_OK) {
        int st = cli_usage_error(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        return st;
    }
    if (!(*out > 0))
        return cli_usage_error(self, "%s: '%s' must be a positive number", flag, s);
    return 0;
}

static int check_conflicts(const cli_command *self, model_args *a)
{
    if (a->expr && a->pattern)
        return cli_usage_error(self, "conflicting flags: --expr and --pattern (give one address source)");
    if (a->active && a->mask)
        return cli_usage_error(self, "conflicting flags: --active and --mask (give one lane set)");
    if (a->intensity && a->tile)
        return cli_usage_error(self, "conflicting flags: --intensity and --tile (give one)");
    if (a->items)
        a->launch = 1;
    if (a->peak_gflops || a->peak_gbs || a->intensity || a->tile)
        a->roofline = 1;
    if (a->launch && !a->items)
        return cli_usage_error(self, "--launch needs --items N");
    if (a->unroll && !a->launch)
        return cli_usage_error(self, "--unroll %s applies to a launch: add --launch --items N", a->unroll);
    if (a->access && strcmp(a->access, "write") && !a->launch)
        return cli_usage_error(self, "--access %s applies to a launch: add --launch --items N (or use --access write)",
                               a->access);
    if (a->roofline && (!a->peak_gflops || !a->peak_gbs))
        return cli_usage_error(self, "--roofline needs --peak-gflops P and --peak-gbs B");
    if (a->roofline && !a->intensity && !a->tile)
        return cli_usage_error(self, "--roofline needs --intensity I or --tile T");
    if (!a->expr && !a->pattern && !a->roofline)
        return cli_usage_error(self, "give an address source: --expr EXPR or --pattern SPEC");
    if (!a->expr && !a->pattern) {
        const char *stray = a->elem ? "--elem" : a->active ? "--active" : a->mask ? "--mask"
                            : a->base ? "--base" : a->warp ? "--warp" : a->space ? "--space"
                            : a->launch ? "--launch" : NULL;
        if (stray)
            return cli_usage_error(self, "%s needs an address source (--expr or --pattern)", stray);
    }
    if (a->space && strcmp(a->space, "global") && strcmp(a->space, "local"))
        return cli_usage_error(self, "--space: '%s' is not global or local", a->space);
    if (a->access && strcmp(a->access, "load") && strcmp(a->access, "store") && strcmp(a->access, "write"))
        return cli_usage_error(self, "--access: '%s' is not load, store or write", a->access);
    return 0;
}

static int apply_overrides(const cli_command *self, const model_args *a, model_run *r);

/* --profile inferred: the device's profile with its cached probe's
 * findings in place (cli_inferred); --device picks the device (one) */
static int inferred_geometry(const cli_command *self, const model_args *a, model_run *r)
{
    bw_error err = BW_ERROR_INIT;
    ocl_platforms *plats = NULL;
    size_t *idx = NULL, n = 0;
    int st = 0;
    if (model_profiles_load_default(&r->profiles, &err) != BW_OK || ocl_discover(r->profiles, &plats, &err) != BW_OK) {
        st = cli_fail(self, &err);
    } else if (ocl_select(plats, a->device, &idx, &n, &err) != BW_OK) {
        st = cli_usage_error(self, "--profile inferred: %s; it needs a device that 'bwlab probe' has probed: run "
                                   "'bwlab probe --device SPEC' first",
                             bw_error_text(&err));
    } else if (n != 1) {
        st = cli_usage_error(self, "--profile inferred: --device '%s' matches %zu devices; name one", a->device, n);
    } else {
        const ocl_device_info *d = ocl_device_at(plats, idx[0]);
        bw_code rc = cli_inferred_geometry(d, &r->geo, r->inferred_fields, sizeof r->inferred_fields,
                                           r->inferred_source, sizeof r->inferred_source, &err);
        if (rc == BW_E_USAGE)
            st = cli_usage_error(self, "%s", bw_error_text(&err));
        else if (rc != BW_OK)
            st = cli_fail(self, &err);
        r->profile_name = CLI_INFERRED_PROFILE;
    }
    bw_error_clear(&err);
    free(idx);
    ocl_platforms_free(plats);
    return st ? st : apply_overrides(self, a, r);
}

/* --profile inferred looks a device up: everything that can be checked
 * without one is checked first, so that bad input is exit 2 on a machine
 * without OpenCL too (the ranges that depend on the device's W, and the
 * profile's own checks, follow once it is known) */
static int precheck_without_device(const cli_command *self, const model_args *a)
{
    bw_error err = BW_ERROR_INIT;
    uint64_t v;
    int64_t sv;
    int st = 0;
    const struct { const char *flag, *value; uint64_t min, max; } nums[] = {
        { "--elem", a->elem, 1, MODEL_MAX_ELEM },
        { "--warp", a->warp, 0, MODEL_AFFINE_MAX_WARP - 1 },
        { "--items", a->items, 1, MODEL_LAUNCH_MAX_ITEMS },
        { "--lanes", a->lanes, 1, MODEL_MAX_LANES },
        { "--sector", a->sector, 1, MODEL_MAX_UNIT },
        { "--line", a->line, 1, MODEL_MAX_UNIT },
        { "--banks", a->banks, 0, MODEL_MAX_BANKS },
        { "--bank-width", a->bank_width, 1, MODEL_MAX_UNIT },
        { "--active", a->active, 0, MODEL_MAX_LANES },
    };
    for (size_t i = 0; !st && i < sizeof nums / sizeof nums[0]; i++)
        if (nums[i].value)
            st = parse_u64_in(self, nums[i].flag, nums[i].value, nums[i].min, nums[i].max, &v);
    if (!st && a->base && bw_parse_i64(a->base, "--base", &sv, &err) != BW_OK)
        st = cli_usage_error(self, "%s", bw_error_text(&err));
    if (!st && a->expr) {
        model_expr *e = NULL;
        if (model_expr_parse(a->expr, &e, &err) != BW_OK)
            st = cli_usage_error(self, "--expr: %s", bw_error_text(&err));
        model_expr_free(e);
    }
    if (!st && a->pattern) {
        model_pattern *p = NULL;
        if (model_pattern_parse(a->pattern, 1, 0, &p, &err) != BW_OK)
            st = cli_usage_error(self, "--pattern: %s", bw_error_text(&err));
        model_pattern_free(p);
    }
    bw_error_clear(&err);
    return st;
}

static int setup_geometry(const cli_command *self, const model_args *a, model_run *r)
{
    bw_error err = BW_ERROR_INIT;
    const model_profile *p = NULL;
    int st = 0;
    if (a->device && !(a->profile && !strcmp(a->profile, CLI_INFERRED_PROFILE)))
        return cli_usage_error(self, "--device names whose probe --profile inferred uses; without it the model "
                                     "needs no device");
    if (a->profile && !strcmp(a->profile, CLI_INFERRED_PROFILE))
        return (st = precheck_without_device(self, a)) != 0 ? st : inferred_geometry(self, a, r);
    if (model_profiles_load_default(&r->profiles, &err) != BW_OK ||
        model_profiles_get(r->profiles, a->profile ? a->profile : "nvidia", &p, &err) != BW_OK) {
        st = err.code == BW_E_USAGE ? cli_usage_error(self, "--profile: %s", bw_error_text(&err))
                                    : cli_fail(self, &err);
        bw_error_clear(&err);
        return st;
    }
    r->profile_name = p->name;
    r->geo = p->geo;
    return apply_overrides(self, a, r);
}

/* --lanes, --sector, --line, --banks, --bank-width, --dram-unit over the profile */
static int apply_overrides(const cli_command *self, const model_args *a, model_run *r)
{
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    uint64_t v;
    if (a->lanes && (st = parse_u64_in(self, "--lanes", a->lanes, 1, MODEL_MAX_LANES, &v)) == 0)
        r->geo.lanes = (int)v;
    if (!st && a->sector && (st = parse_u64_in(self, "--sector", a->sector, 1, MODEL_MAX_UNIT, &v)) == 0)
        r->geo.sector = (int64_t)v;
    if (!st && a->line && (st = parse_u64_in(self, "--line", a->line, 1, MODEL_MAX_UNIT, &v)) == 0)
        r->geo.line = (int64_t)v;
    if (!st && a->banks && (st = parse_u64_in(self, "--banks", a->banks, 0, MODEL_MAX_BANKS, &v)) == 0)
        r->geo.banks = (int)v;
    if (!st && a->bank_width &&
        (st = parse_u64_in(self, "--bank-width", a->bank_width, 1, MODEL_MAX_UNIT, &v)) == 0)
        r->geo.bank_width = (int64_t)v;
    if (!st && a->dram_unit &&
        (st = parse_u64_in(self, "--dram-unit", a->dram_unit, 1, MODEL_MAX_UNIT, &v)) == 0)
        r->geo.dram_unit = (int64_t)v;
    if (st)
        return st;
    if (model_geometry_check(&r->geo, &err) != BW_OK) {
        st = cli_usage_error(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
    }
    return st;
}

static int setup_source(const cli_command *self, const model_args *a, model_run *r)
{
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    uint64_t v;
    r->elem = 0;
    if (a->elem) {
        if ((st = parse_u64_in(self, "--elem", a->elem, 1, MODEL_MAX_ELEM, &v)) != 0)
            return st;
        r->elem = (int64_t)v;
    }
    if (a->pattern) {
        if (model_pattern_parse(a->pattern, r->geo.lanes, r->elem, &r->pattern, &err) != BW_OK) {
            st = cli_usage_error(self, "--pattern: %s", bw_error_text(&err));
            bw_error_clear(&err);
            return st;
        }
        r->use_expr = r->pattern->expr;
        r->elem = r->pattern->elem;
        r->active = r->pattern->active;
        if ((a->active || a->mask) && model_lanes_count(&r->active) != r->geo.lanes)
            return cli_usage_error(self, "conflicting flags: pattern '%s' sets its own active lanes; "
                                         "drop --active/--mask",
                                   r->pattern->spec);
    } else {
        if (model_expr_parse(a->expr, &r->expr, &err) != BW_OK) {
            st = cli_usage_error(self, "--expr: %s", bw_error_text(&err));
            bw_error_clear(&err);
            return st;
        }
        r->use_expr = r->expr;
        if (r->elem == 0)
            r->elem = 4;
        r->active = model_lanes_all(r->geo.lanes);
    }
    if (a->active) {
        if ((st = parse_u64_in(self, "--active", a->active, 0, (uint64_t)r->geo.lanes, &v)) != 0)
            return st;
        /* 0: no active lane, the case docs/model.md defines (0 units, efficiencies not applicable) */
        r->active = model_lanes_first(r->geo.lanes, (int)v);
    }
    if (a->mask) {
        if (model_lanes_parse_hex(a->mask, r->geo.lanes, &r->active, &err) != BW_OK) {
            st = cli_usage_error(self, "%s", bw_error_text(&err));
            bw_error_clear(&err);
            return st;
        }
    }
    int64_t sv;
    if (a->base) {
        if (bw_parse_i64(a->base, "--base", &sv, &err) != BW_OK) {
            st = cli_usage_error(self, "%s", bw_error_text(&err));
            bw_error_clear(&err);
            return st;
        }
        r->base = sv;
    }
    if (a->warp) {
        if ((st = parse_u64_in(self, "--warp", a->warp, 0, MODEL_AFFINE_MAX_WARP - 1, &v)) != 0)
            return st;
        r->warp = (int64_t)v;
    }
    if (a->items) {
        if ((st = parse_u64_in(self, "--items", a->items, 1, MODEL_LAUNCH_MAX_ITEMS, &v)) != 0)
            return st;
        r->items = (int64_t)v;
    }
    if (a->unroll) {
        if ((st = parse_u64_in(self, "--unroll", a->unroll, 1, 16, &v)) != 0)
            return st;
        if (v & (v - 1))
            return cli_usage_error(self, "--unroll: '%s' is not 1, 2, 4, 8 or 16", a->unroll);
        r->unroll = (int64_t)v;
    }
    return 0;
}

/* addresses of the chosen warp, base added; inactive lanes are not evaluated */
static bw_code warp_addresses(model_run *r, bw_error *err)
{
    int W = r->geo.lanes;
    for (int t = 0; t < W; t++) {
        r->addr[t] = 0;
        if (!model_lanes_has(&r->active, t))
            continue;
        model_expr_env env = { t, r->warp, r->warp * W + t, W };
        int64_t v;
        bw_code rc = model_expr_eval(r->use_expr, &env, &v, err);
        if (rc != BW_OK)
            return rc;
        if (__builtin_add_overflow(v, r->base, &r->addr[t]))
            return bw_error_set(err, BW_E_RANGE, "lane %d: address %lld plus --base %lld overflows", t,
                                (long long)v, (long long)r->base);
    }
    return BW_OK;
}

/* --space local, or no --space and a local-memory pattern family (bank) */
static int local_space(const model_args *a, const model_run *r)
{
    if (a->space)
        return !strcmp(a->space, "local");
    return r->pattern && r->pattern->family->space == MODEL_PATTERN_SPACE_LOCAL;
}

static int compute(const cli_command *self, const model_args *a, model_run *r)
{
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    /* K work-items' worth of whole warps: each warp-instruction one virtual warp's */
    if (r->unroll > 1 && r->items % (r->unroll * r->geo.lanes) != 0)
        return cli_usage_error(self, "--unroll %lld: %lld items do not split into %lld parts of whole %d-lane warps; "
                                     "give --items a multiple of %lld",
                               (long long)r->unroll, (long long)r->items, (long long)r->unroll, r->geo.lanes,
                               (long long)(r->unroll * r->geo.lanes));
    if (r->use_expr) {
        rc = warp_addresses(r, &err);
        if (rc == BW_OK)
            rc = model_warp_count(&r->geo, r->elem, r->addr, &r->active, &r->counts, &err);
        if (rc == BW_OK && local_space(a, r))
            model_bank_count(&r->geo, r->addr, &r->active, &r->bank);
        int write = a->access && !strcmp(a->access, "write");
        if (rc == BW_OK && write)
            r->warp_partial = model_partial_warp(r->addr, &r->active, r->elem, r->geo.sector);
        if (rc == BW_OK && a->launch) {
            /* write mode: each work-item loads src[g], coalesced, and stores at the address */
            char coalesced[32];
            snprintf(coalesced, sizeof coalesced, "%lld*g", (long long)r->elem);
            model_expr *load = NULL;
            if (write)
                rc = model_expr_parse(coalesced, &load, &err);
            model_access acc[2] = {
                { r->use_expr, r->elem, r->active, r->items, r->base, write || (a->access && !strcmp(a->access, "store")) },
                { load, r->elem, r->active, r->items, 0, 0 },
            };
            /* an answer within seconds, whatever --items says: a launch too
             * irregular to count in bounded work fails (BW_E_TOOBIG), never hangs */
            if (rc == BW_OK)
                rc = model_launch_count_bounded(&r->geo, acc, write ? 2 : 1, MODEL_LAUNCH_INTERACTIVE_WORK,
                                                &r->launch, &err);
            model_expr_free(load);
        }
    }
    if (rc == BW_OK && a->roofline) {
        double P = 0, B = 0, I = 0;
        uint64_t T = 0;
        int st = parse_double_pos(self, "--peak-gflops", a->peak_gflops, &P);
        if (!st)
            st = parse_double_pos(self, "--peak-gbs", a->peak_gbs, &B);
        if (!st && a->intensity)
            st = parse_double_pos(self, "--intensity", a->intensity, &I);
        if (!st && a->tile)
            st = parse_u64_in(self, "--tile", a->tile, 1, UINT64_C(1) << 40, &T);
        if (st)
            return st;
        rc = a->tile ? model_roofline_tile(P, B, (int64_t)T, &r->roof, &err)
                     : model_roofline_eval(P, B, I, &r->roof, &err);
    }
    int st = 0;
    if (rc != BW_OK)
        st = rc == BW_E_USAGE ? cli_usage_error(self, "%s", bw_error_text(&err)) : cli_fail(self, &err);
    bw_error_clear(&err);
    return st;
}

static int output(const cli_command *self, const model_args *a, model_run *r)
{
    report_model rep = { 0 };
    rep.geo = &r->geo;
    rep.profile_name = r->profile_name;
    if (r->inferred_source[0]) {
        rep.inferred_fields = r->inferred_fields;
        rep.inferred_source = r->inferred_source;
    }
    if (r->use_expr) {
        rep.expr_text = r->pattern ? r->pattern->expr_text : NULL;
        rep.pattern_spec = r->pattern ? r->pattern->spec : NULL;
        rep.warp = r->warp;
        rep.base = r->base;
        rep.local = local_space(a, r);
        rep.addr = r->addr;
        rep.active = &r->active;
        rep.counts = &r->counts;
        rep.bank = rep.local ? &r->bank : NULL;
        rep.launch = a->launch ? &r->launch : NULL;
        rep.items = r->items;
        rep.unroll = (int)r->unroll;
        rep.launch_store = a->access && !strcmp(a->access, "store");
        rep.write = a->access && !strcmp(a->access, "write");
        rep.warp_partial = r->warp_partial;
    }
    rep.roof = a->roofline ? &r->roof : NULL;
    char *text = r->expr ? model_expr_to_string(r->expr) : NULL;
    if (r->expr)
        rep.expr_text = text;
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    if (a->format.format == CLI_FORMAT_JSON)
        rc = report_model_json(&rep, &b, &err);
    else
        report_model_table(&rep, &b);
    if (rc == BW_OK)
        rc = cli_write_output(NULL, &b, &err);
    int st = rc == BW_OK ? 0 : cli_fail(self, &err);
    free(text);
    bw_buf_free(&b);
    bw_error_clear(&err);
    return st;
}

int cmd_model(int argc, char **argv)
{
    const cli_command *self = cli_find("model");
    model_args a;
    memset(&a, 0, sizeof a);
    int operands, st = cli_options_parse(self, argc, argv, &a, &operands);
    if (st)
        return st;
    st = check_conflicts(self, &a);
    if (st)
        return st;
    model_run r;
    memset(&r, 0, sizeof r);
    st = setup_geometry(self, &a, &r);
    if (!st && (a.expr || a.pattern))
        st = setup_source(self, &a, &r);
    if (!st)
        st = compute(self, &a, &r);
    if (!st)
        st = output(self, &a, &r);
    model_pattern_free(r.pattern);
    model_expr_free(r.expr);
    model_profiles_free(r.profiles);
    return st;
}
