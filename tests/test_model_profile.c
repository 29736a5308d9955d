/* Device profiles: the shipped data file carries docs/design.md's table, bad
 * files are refused with a clear message, and matching picks the right
 * profile from plain device facts. */
#include <criterion/criterion.h>
#include <string.h>

#include "model_profile.h"
#include "model_profile_priv.h"

static model_profiles *load(void)
{
    model_profiles *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_load_default(&p, &err), BW_OK, "%s", bw_error_text(&err));
    return p;
}

Test(model_profile, shipped_values)
{
    static const struct {
        const char *name;
        int lanes;
        int64_t sector, line;
        int banks;
    } want[] = {
        { "nvidia", 32, 32, 128, 32 },  { "amd-gcn", 64, 64, 64, 32 }, { "amd-cdna2", 64, 64, 128, 32 },
        { "amd-cdna3", 64, 128, 128, 32 }, { "amd-rdna", 32, 128, 128, 32 }, { "intel-xe", 16, 64, 64, 16 },
        { "cpu", 8, 64, 64, 0 },
    };
    model_profiles *ps = load();
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const model_profile *p = model_profiles_find(ps, want[i].name);
        cr_assert_not_null(p, "%s", want[i].name);
        cr_expect_eq(p->geo.lanes, want[i].lanes, "%s", want[i].name);
        cr_expect_eq(p->geo.sector, want[i].sector, "%s", want[i].name);
        cr_expect_eq(p->geo.line, want[i].line, "%s", want[i].name);
        cr_expect_eq(p->geo.banks, want[i].banks, "%s", want[i].name);
        cr_expect_eq(p->geo.bank_width, 4);
        cr_expect_geq(p->n_sources, 1, "%s has no source", want[i].name);
    }
    const model_profile *cpu = model_profiles_find(ps, "cpu");
    cr_expect_str_eq(cpu->lanes_from, "preferred_vector_width_float");
    cr_expect_str_eq(cpu->line_from, "global_mem_cacheline_size");
    const model_profile *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(model_profiles_get(ps, "nosuch", &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "'nosuch'") && strstr(bw_error_text(&err), "nvidia"));
    bw_error_clear(&err);
    model_profiles_free(ps);
}

static const char *match(model_profiles *ps, const char *vendor, const char *name, const char *type)
{
    model_device_facts f = { vendor, name, type, NULL };
    char why[256];
    const model_profile *p = model_profiles_match(ps, &f, why, sizeof why);
    cr_assert_not_null(p, "%s/%s", vendor, name);
    cr_expect(why[0] != '\0');
    return p->name;
}

Test(model_profile, matching)
{
    model_profiles *ps = load();
    cr_expect_str_eq(match(ps, "NVIDIA Corporation", "NVIDIA H200", "gpu"), "nvidia");
    cr_expect_str_eq(match(ps, "Advanced Micro Devices, Inc.", "gfx90a:sramecc+:xnack-", "gpu"), "amd-cdna2");
    cr_expect_str_eq(match(ps, "Advanced Micro Devices, Inc.", "gfx942:sramecc+:xnack-", "gpu"), "amd-cdna3");
    cr_expect_str_eq(match(ps, "Advanced Micro Devices, Inc.", "gfx1100", "gpu"), "amd-rdna");
    cr_expect_str_eq(match(ps, "Advanced Micro Devices, Inc.", "gfx906:sramecc+:xnack-", "gpu"), "amd-gcn");
    cr_expect_str_eq(match(ps, "Intel(R) Corporation", "Intel(R) Arc(TM) A770 Graphics", "gpu"), "intel-xe");
    cr_expect_str_eq(match(ps, "Intel(R) Corporation", "Intel(R) Xeon(R) Gold", "cpu"), "cpu");
    cr_expect_str_eq(match(ps, "AuthenticAMD", "pthread-haswell-AMD EPYC", "cpu"), "cpu");
    cr_expect_str_eq(match(ps, "Apple", "Apple M2", "gpu"), "generic");
    /* Mesa's radeonsi names carry the chip family, not the gfx target */
    cr_expect_str_eq(match(ps, "AMD", "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 17.0.6, DRM 3.57)", "gpu"),
                     "amd-rdna");
    cr_expect_str_eq(match(ps, "AMD", "AMD Radeon RX Vega (radeonsi, vega10, LLVM 17.0.6)", "gpu"),
                     "amd-gcn");
    model_profiles_free(ps);
}

/* A name list also matches the board name (CL_DEVICE_BOARD_NAME_AMD). */
Test(model_profile, matching_by_board_name)
{
    static const char *json =
        "{\"profiles\": [{\"name\": \"mi300\", \"lanes\": 64, \"sector\": 128, \"line\": 128,"
        " \"banks\": 32, \"bank_width\": 4, \"match\": {\"name\": [\"MI300\"]}},"
        " {\"name\": \"other\", \"lanes\": 1, \"sector\": 4, \"line\": 4, \"banks\": 0,"
        " \"bank_width\": 4}]}";
    model_profiles *ps = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_profiles_parse(json, "t", &ps, &err), BW_OK, "%s", bw_error_text(&err));
    char why[256];
    model_device_facts f = { "AMD", "gfx942", "gpu", "AMD Instinct MI300X" };
    const model_profile *p = model_profiles_match(ps, &f, why, sizeof why);
    cr_assert_not_null(p);
    cr_expect_str_eq(p->name, "mi300");
    cr_expect(strstr(why, "board name 'AMD Instinct MI300X' contains 'MI300'"), "%s", why);
    f.board_name = NULL;
    cr_expect_str_eq(model_profiles_match(ps, &f, why, sizeof why)->name, "other");
    model_profiles_free(ps);
    /* the sub-group list gives lanes only */
    static const char *bad =
        "{\"profiles\": [{\"name\": \"x\", \"lanes\": 1, \"sector\": 4, \"line\": 4,"
        " \"banks\": 0, \"bank_width\": 4, \"line_from\": \"sub_group_sizes_intel\"}]}";
    cr_expect_eq(model_profiles_parse(bad, "t", &ps, &err), BW_E_FORMAT);
    cr_expect(strstr(bw_error_text(&err), "line_from"), "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

typedef struct {
    const char *json;
    const char *needle;
} bad_file;

Test(model_profile, malformed_files)
{
    static const bad_file cases[] = {
        { "{ \"profiles\": [ { \"name\": \"x\", ", "line 1" },
        { "{ \"nothing\": 1 }", "'profiles'" },
        { "{ \"profiles\": [ { \"name\": \"x\", \"sector\": 32, \"line\": 128, \"banks\": 32, \"bank_width\": 4 } ] }", "'lanes'" },
        { "{ \"profiles\": [ { \"name\": \"x\", \"lanes\": \"32\", \"sector\": 32, \"line\": 128, \"banks\": 32, \"bank_width\": 4 } ] }", "not an integer" },
        { "{ \"profiles\": [ { \"name\": \"x\", \"lanes\": 32, \"sector\": 256, \"line\": 128, \"banks\": 32, \"bank_width\": 4 } ] }", "sector size 256" },
        { "{ \"profiles\": [ { \"name\": \"x\", \"lanes\": 32, \"sector\": 32, \"line\": 128, \"banks\": 32, \"bank_width\": 4 },"
          "  { \"name\": \"x\", \"lanes\": 32, \"sector\": 32, \"line\": 128, \"banks\": 32, \"bank_width\": 4 } ] }", "twice" },
        { "{ \"profiles\": [ { \"name\": \"x\", \"lanes\": 32, \"sector\": 32, \"line\": 128, \"banks\": 32, \"bank_width\": 4, \"lanes_from\": \"magic\" } ] }", "lanes_from" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_profiles *p = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_expect_eq(model_profiles_parse(cases[i].json, "test.json", &p, &err), BW_E_FORMAT, "case %zu", i);
        cr_expect_null(p);
        cr_expect(strstr(bw_error_text(&err), "test.json") != NULL, "%s", bw_error_text(&err));
        cr_expect(strstr(bw_error_text(&err), cases[i].needle) != NULL, "case %zu: %s", i, bw_error_text(&err));
        bw_error_clear(&err);
    }
}
