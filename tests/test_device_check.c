/* tools/device-check.sh and tools/device-deps.sh without a GPU: the set-up
 * steps (--setup-only) against fake driver, ICD and package folders, the
 * "nothing found" message, a whole run on PoCL behind a fake GPU library,
 * and device-deps.sh --dry-run (no network). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bw_file.h"
#include "test_util.h"

static char *path_of(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* mkdir -p dir/rel; returns the path (caller frees) */
static char *make_dir(const char *dir, const char *rel)
{
    char *p = path_of(dir, rel);
    for (char *s = p + strlen(dir) + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            mkdir(p, 0755);
            *s = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    cr_assert(stat(p, &st) == 0 && S_ISDIR(st.st_mode), "cannot create %s", p);
    return p;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static char *read_text(const char *path)
{
    char *text = NULL;
    cr_assert_eq(bw_file_read(path, &text, NULL, NULL), BW_OK, "cannot read %s", path);
    return text;
}

static char *script(const char *name)
{
    char *tools = path_of(tu_source_root(), "tools");
    char *p = path_of(tools, name);
    free(tools);
    return p;
}

typedef struct env {
    char *v[16];
    int n;
} env;

static void env_add(env *e, const char *key, const char *value)
{
    cr_assert(e->n < 15);
    size_t n = strlen(key) + strlen(value) + 2;
    e->v[e->n] = malloc(n);
    snprintf(e->v[e->n], n, "%s=%s", key, value);
    e->v[++e->n] = NULL;
}

static void env_free(env *e)
{
    for (int i = 0; i < e->n; i++)
        free(e->v[i]);
    e->n = 0;
}

/* a hermetic environment under tmp: its own driver folders, package folder
 * and private folder; the system ICD folder sys_vendors, or tmp/sys-vendors
 * when NULL; $OUT out, or unset when NULL; the loader forced private or not */
static void base_env(env *e, const char *tmp, const char *driver_dirs, const char *sys_vendors,
                     const char *out, bool force_private)
{
    char *sys = make_dir(tmp, "sys-vendors"), *deps = make_dir(tmp, "deps");
    char *priv = path_of(tmp, "private");
    env_add(e, "BWLAB_DRIVER_DIRS", driver_dirs);
    env_add(e, "BWLAB_SYSTEM_VENDORS_DIR", sys_vendors ? sys_vendors : sys);
    env_add(e, "BWLAB_DEPS_DIR", deps);
    env_add(e, "BWLAB_PRIVATE_DIR", priv);
    env_add(e, "BWLAB_FORCE_PRIVATE_LOADER", force_private ? "1" : "");
    env_add(e, "OUT", out ? out : "");
    free(sys);
    free(deps);
    free(priv);
}

static tu_result setup_only(const env *e)
{
    char *s = script("device-check.sh");
    tu_result r = tu_run_cmd((const char *[]){ "bash", s, "--setup-only", NULL },
                             (const char *const *)e->v);
    free(s);
    return r;
}

/* the value of `export KEY='...'` in the script's output (caller frees) */
static char *exported(const char *out, const char *key)
{
    char pat[128];
    snprintf(pat, sizeof pat, "export %s='", key);
    const char *s = strstr(out, pat);
    cr_assert_not_null(s, "no %s in: %s", key, out);
    s += strlen(pat);
    const char *end = strchr(s, '\'');
    cr_assert_not_null(end);
    return strndup(s, (size_t)(end - s));
}

/* how many .icd files in dir hold exactly `content` */
static int icds_with(const char *dir, const char *content, int *total)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no ICD folder %s", dir);
    int hits = 0;
    *total = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 4 || strcmp(de->d_name + n - 4, ".icd"))
            continue;
        (*total)++;
        char *p = path_of(dir, de->d_name);
        char *text = read_text(p);
        hits += !strcmp(text, content);
        free(text);
        free(p);
    }
    closedir(d);
    return hits;
}

static void touch(const char *dir, const char *name)
{
    tu_write_file(dir, name, "");
}

/* (a) a driver folder with the NVIDIA library: an ICD file naming its
 * absolute path; the system's loader is used (it is installed here) */
Test(device_check, fake_nvidia_driver_gets_an_icd)
{
    char *tmp = tu_temp_dir();
    char *drv = make_dir(tmp, "driver/lib64");
    touch(drv, "libnvidia-opencl.so.1");
    char *lib = path_of(drv, "libnvidia-opencl.so.1");
    char *drivers = path_of(tmp, "driver");
    env e = { .n = 0 };
    base_env(&e, tmp, drivers, NULL, NULL, false);

    tu_result r = setup_only(&e);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *vendors = exported(r.out, "OCL_ICD_VENDORS");
    char *want = path_of(tmp, "private/vendors");
    cr_expect_str_eq(vendors, want);
    char content[4096];
    snprintf(content, sizeof content, "%s\n", lib);
    int total = 0;
    cr_expect_eq(icds_with(vendors, content, &total), 1, "no ICD names %s", lib);
    cr_expect_eq(total, 1);
    cr_expect(strstr(r.out, lib) != NULL, "the found library is not printed: %s", r.out);
    char *ld = exported(r.out, "LD_LIBRARY_PATH");
    cr_expect(strstr(ld, drv) != NULL, "LD_LIBRARY_PATH %s lacks %s", ld, drv);
    cr_expect(strstr(r.out, "private prefix: none") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "export BWLAB_KERNEL_DIR=") != NULL, "%s", r.out);

    free(ld);
    free(want);
    free(vendors);
    tu_result_free(&r);
    env_free(&e);
    free(drivers);
    free(lib);
    free(drv);
    tu_rmdir(tmp);
    free(tmp);
}

/* (b) the system's own ICDs (here AMD's) are copied unchanged, and a vendor
 * library one of them names gets no second ICD */
Test(device_check, system_icds_are_kept)
{
    char *tmp = tu_temp_dir();
    char *drv = make_dir(tmp, "driver");
    touch(drv, "libamdocl64.so");
    touch(drv, "libnvidia-opencl.so.1");
    env e = { .n = 0 };
    base_env(&e, tmp, drv, NULL, NULL, false);
    char *sys = path_of(tmp, "sys-vendors");
    tu_write_file(sys, "amdocl64.icd", "libamdocl64.so\n");

    tu_result r = setup_only(&e);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *vendors = exported(r.out, "OCL_ICD_VENDORS");
    int total = 0;
    cr_expect_eq(icds_with(vendors, "libamdocl64.so\n", &total), 1, "amdocl64.icd not kept");
    char *kept = path_of(vendors, "amdocl64.icd");
    cr_expect(exists(kept), "amdocl64.icd not under its own name");
    char *nv = path_of(drv, "libnvidia-opencl.so.1"), *amd = path_of(drv, "libamdocl64.so");
    char content[4096];
    snprintf(content, sizeof content, "%s\n", nv);
    cr_expect_eq(icds_with(vendors, content, &total), 1, "no ICD for %s", nv);
    snprintf(content, sizeof content, "%s\n", amd);
    cr_expect_eq(icds_with(vendors, content, &total), 0, "AMD's library listed twice");
    cr_expect_eq(total, 2);
    cr_expect(strstr(r.err, "amdocl64.icd") != NULL, "%s", r.err);

    free(amd);
    free(nv);
    free(kept);
    free(vendors);
    free(sys);
    tu_result_free(&r);
    env_free(&e);
    free(drv);
    tu_rmdir(tmp);
    free(tmp);
}

static void expect_nothing_found(const char *text, const char *d1, const char *d2, const char *sys)
{
    static const char *const needles[] = {
        "no GPU OpenCL library found", "libnvidia-opencl.so.1", "libamdocl64.so",
        "libigdrcl.so", "libRusticlOpenCL.so.1", "libMesaOpenCL.so.1",
        "rocm-opencl-runtime", "intel-opencl-icd", "BWLAB_DRIVER_DIRS",
    };
    for (size_t i = 0; i < sizeof needles / sizeof needles[0]; i++)
        cr_expect(strstr(text, needles[i]) != NULL, "no '%s' in: %s", needles[i], text);
    cr_expect(strstr(text, d1) && strstr(text, d2), "searched folders not named: %s", text);
    cr_expect(strstr(text, sys) != NULL, "ICD folder not named: %s", text);
}

/* (c) no library anywhere: exit 3 and a message naming where it looked and
 * what to install; a full run writes it to its log and runs nothing */
Test(device_check, nothing_found)
{
    char *tmp = tu_temp_dir();
    char *d1 = make_dir(tmp, "empty-one"), *d2 = make_dir(tmp, "empty-two/lib");
    touch(d2, "libOpenCL.so.1");
    char dirs[8192];
    snprintf(dirs, sizeof dirs, "%s:%s", d1, d2);
    env e = { .n = 0 };
    base_env(&e, tmp, dirs, NULL, NULL, false);
    char *sys = path_of(tmp, "sys-vendors");
    tu_write_file(sys, "pocl.icd", "libpocl.so.2\n");

    tu_result r = setup_only(&e);
    cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_expect_str_eq(r.out, "");
    expect_nothing_found(r.err, d1, d2, sys);
    tu_result_free(&r);

    char *out = path_of(tmp, "out");
    env_free(&e);
    base_env(&e, tmp, dirs, NULL, out, false);
    char *s = script("device-check.sh");
    r = tu_run_cmd((const char *[]){ "bash", s, NULL }, (const char *const *)e.v);
    cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    char *logp = path_of(out, "device-check.log"), *runp = path_of(out, "run.json");
    char *log = read_text(logp);
    expect_nothing_found(log, d1, d2, sys);
    cr_expect(!exists(runp), "bwlab ran without a GPU library");

    free(log);
    free(runp);
    free(logp);
    free(s);
    free(out);
    free(sys);
    tu_result_free(&r);
    env_free(&e);
    free(d2);
    free(d1);
    tu_rmdir(tmp);
    free(tmp);
}

/* a .deb named NAME holding the file at path src as usr/lib/x86_64-linux-gnu/SONAME */
static void pack_lib(const char *tmp, const char *name, const char *src, const char *soname)
{
    char root[64];
    snprintf(root, sizeof root, "pkg-%s", name);
    char *pkg = make_dir(tmp, root);
    char rel[128];
    snprintf(rel, sizeof rel, "%s/DEBIAN", root);
    char *ctl = make_dir(tmp, rel);
    snprintf(rel, sizeof rel, "%s/usr/lib/x86_64-linux-gnu", root);
    char *lib = make_dir(tmp, rel);
    char control[256];
    snprintf(control, sizeof control,
             "Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: bwlab <dev@bwlab>\nDescription: a test package\n",
             name);
    tu_write_file(ctl, "control", control);
    char *dest = path_of(lib, soname);
    tu_result r = tu_run_cmd((const char *[]){ "cp", src, dest, NULL }, NULL);
    cr_assert_eq(r.status, 0, "cp: %s", r.err);
    tu_result_free(&r);
    char debname[128];
    snprintf(debname, sizeof debname, "deps/%s_1.0_all.deb", name);
    char *deb = path_of(tmp, debname);
    r = tu_run_cmd((const char *[]){ "dpkg-deb", "--build", pkg, deb, NULL }, NULL);
    cr_assert_eq(r.status, 0, "dpkg-deb --build: %s", r.err);
    tu_result_free(&r);
    free(deb);
    free(dest);
    free(lib);
    free(ctl);
    free(pkg);
}

/* a .deb holding usr/lib/x86_64-linux-gnu/libbwlab-fake.so.1 (text, not
 * really a library), built with dpkg-deb into deps/ */
static void build_fake_deb(const char *tmp)
{
    char *dir = make_dir(tmp, "fake-src");
    tu_write_file(dir, "libbwlab-fake.so.1", "not really a library\n");
    char *src = path_of(dir, "libbwlab-fake.so.1");
    pack_lib(tmp, "bwlab-fake", src, "libbwlab-fake.so.1");
    free(src);
    free(dir);
}

/* (d) with the system's loader "absent", the carried packages are unpacked
 * into the private prefix (never into /) and LD_LIBRARY_PATH points there;
 * with the loader present they are left alone */
Test(device_check, carried_packages_unpacked_into_private_prefix)
{
    char *tmp = tu_temp_dir();
    char *drv = make_dir(tmp, "driver");
    touch(drv, "libnvidia-opencl.so.1");
    env e = { .n = 0 };
    base_env(&e, tmp, drv, NULL, NULL, false);
    build_fake_deb(tmp);
    char *unpacked = path_of(tmp, "private/root/usr/lib/x86_64-linux-gnu/libbwlab-fake.so.1");
    char *libdir = path_of(tmp, "private/root/usr/lib/x86_64-linux-gnu");

    tu_result r = setup_only(&e);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(!exists(unpacked), "unpacked although the system has the libraries");
    char *ld = exported(r.out, "LD_LIBRARY_PATH");
    cr_expect(strstr(ld, "private/root") == NULL, "%s", ld);
    free(ld);
    tu_result_free(&r);

    env_free(&e);
    base_env(&e, tmp, drv, NULL, NULL, true);
    r = setup_only(&e);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(exists(unpacked), "%s not unpacked: %s", unpacked, r.err);
    cr_expect(!exists("/usr/lib/x86_64-linux-gnu/libbwlab-fake.so.1"), "unpacked into /");
    ld = exported(r.out, "LD_LIBRARY_PATH");
    cr_expect(strstr(ld, libdir) == ld, "LD_LIBRARY_PATH %s does not start with %s", ld, libdir);
    cr_expect(strstr(ld, drv) != NULL, "%s", ld);
    cr_expect(strstr(r.out, "private prefix: ") && strstr(r.out, "private/root"), "%s", r.out);
    free(ld);
    tu_result_free(&r);

    /* no packages carried: says what to do */
    char *deb = path_of(tmp, "deps/bwlab-fake_1.0_all.deb");
    unlink(deb);
    r = setup_only(&e);
    cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "tools/device-deps.sh") != NULL, "%s", r.err);
    tu_result_free(&r);

    free(deb);
    free(libdir);
    free(unpacked);
    env_free(&e);
    free(drv);
    tu_rmdir(tmp);
    free(tmp);
}

/* (d2) a carried library that needs another the system lacks as well (as
 * cairo needs pixman on a CUDA image): ldd names the second only once the
 * first is found, so both packages are unpacked, and a third one nothing
 * needs is not. The libraries are built here: exe -> liba -> libb. */
Test(device_check, carried_packages_unpacked_with_what_they_need)
{
    char *tmp = tu_temp_dir();
    char *drv = make_dir(tmp, "driver");
    touch(drv, "libnvidia-opencl.so.1");
    env e = { .n = 0 };
    base_env(&e, tmp, drv, NULL, NULL, false);
    char *src = make_dir(tmp, "src");
    tu_write_file(src, "b.c", "int bw_b(void) { return 2; }\n");
    tu_write_file(src, "a.c", "int bw_b(void);\nint bw_a(void) { return bw_b() + 1; }\n");
    tu_write_file(src, "main.c", "int bw_a(void);\nint main(void) { return bw_a() == 3 ? 0 : 1; }\n");
    char *b_c = path_of(src, "b.c"), *a_c = path_of(src, "a.c"), *main_c = path_of(src, "main.c");
    char *libb = path_of(src, "libbwtb.so.1"), *liba = path_of(src, "libbwta.so.1"), *exe = path_of(src, "exe");
    char *bdir = path_of(tmp, "src");
    char rpath_link[4200];
    snprintf(rpath_link, sizeof rpath_link, "-Wl,-rpath-link,%s", bdir);
    const char *builds[][16] = {
        { "cc", "-shared", "-fPIC", "-Wl,-soname,libbwtb.so.1", "-o", libb, b_c, NULL },
        { "cc", "-shared", "-fPIC", "-Wl,-soname,libbwta.so.1", "-o", liba, a_c, libb, NULL },
        /* exe needs liba alone; liba needs libb (found at link time through -rpath-link) */
        { "cc", "-o", exe, main_c, liba, rpath_link, NULL },
    };
    for (size_t i = 0; i < 3; i++) {
        tu_result r = tu_run_cmd(builds[i], NULL);
        if (r.status != 0) {
            tu_result_free(&r);
            cr_skip_test("no C compiler to build the test's libraries");
        }
        tu_result_free(&r);
    }
    pack_lib(tmp, "bwtest-a", liba, "libbwta.so.1");
    pack_lib(tmp, "bwtest-b", libb, "libbwtb.so.1");
    pack_lib(tmp, "bwtest-unneeded", libb, "libbwtunneeded.so.1");
    /* the system has neither: only the packages can provide them */
    unlink(liba);
    unlink(libb);
    env_add(&e, "BWLAB_EXE", exe);

    tu_result r = setup_only(&e);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *got_a = path_of(tmp, "private/root/usr/lib/x86_64-linux-gnu/libbwta.so.1");
    char *got_b = path_of(tmp, "private/root/usr/lib/x86_64-linux-gnu/libbwtb.so.1");
    char *got_u = path_of(tmp, "private/root/usr/lib/x86_64-linux-gnu/libbwtunneeded.so.1");
    cr_expect(exists(got_a), "the package of the missing library was not unpacked: %s", r.err);
    cr_expect(exists(got_b), "the package of the library it needs was not unpacked: %s", r.err);
    cr_expect(!exists(got_u), "a package nothing needs was unpacked: %s", r.err);
    cr_expect(strstr(r.err, "still missing: libbwtb.so.1") != NULL, "%s", r.err);
    /* the exe loads with the exported path */
    char *ld = exported(r.out, "LD_LIBRARY_PATH");
    env run = { .n = 0 };
    env_add(&run, "LD_LIBRARY_PATH", ld);
    tu_result x = tu_run_cmd((const char *[]){ exe, NULL }, (const char *const *)run.v);
    cr_expect_eq(x.status, 0, "exe with LD_LIBRARY_PATH=%s: exit %d: %s", ld, x.status, x.err);
    tu_result_free(&x);
    env_free(&run);
    free(ld);
    tu_result_free(&r);
    free(got_u);
    free(got_b);
    free(got_a);
    free(bdir);
    free(exe);
    free(liba);
    free(libb);
    free(main_c);
    free(a_c);
    free(b_c);
    free(src);
    env_free(&e);
    free(drv);
    tu_rmdir(tmp);
    free(tmp);
}

/* a whole run, on PoCL (the system ICD, kept) beside a fake NVIDIA library:
 * every file under $OUT, extra arguments passed to `bwlab run` */
/* whether folder dir holds a file whose name ends in suffix */
static bool dir_has_suffix(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    bool found = false;
    struct dirent *e;
    size_t ls = strlen(suffix);
    while (d && !found && (e = readdir(d)))
        found = strlen(e->d_name) > ls && !strcmp(e->d_name + strlen(e->d_name) - ls, suffix);
    if (d)
        closedir(d);
    return found;
}

Test(device_check, full_run_writes_results_under_out)
{
    char *tmp = tu_temp_dir();
    char *drv = make_dir(tmp, "driver"), *out = path_of(tmp, "out");
    touch(drv, "libnvidia-opencl.so.1");
    env e = { .n = 0 };
    base_env(&e, tmp, drv, "/etc/OpenCL/vendors", out, false);

    char *s = script("device-check.sh");
    /* sized, and no roofline (its buffer would follow the host's cache);
     * its own caches and results folder, outside the tree */
    env_add(&e, "BWLAB_LADDER_OPTIONS", "--size 4M --budget 0.2");
    env_add(&e, "BWLAB_TUNE_OPTIONS", "--size 4M --budget 1");
    /* the quick probe's ladder as on a host with a 32 MiB cache: one that
     * reports 300 MiB would take its ladder to 600 MiB (src/base/bw_hook.h) */
    env_add(&e, "BWLAB_TEST_FAULTS", "probe_llc@32");
    char *cache = make_dir(tmp, "cache"), *named = path_of(tmp, "named");
    env_add(&e, "BWLAB_CACHE_DIR", cache);
    env_add(&e, "BWLAB_RESULTS_DIR", named);
    tu_result r = tu_run_cmd((const char *[]){ "bash", s, "--device", "cpu", "--pattern", "seq",
                                               "--size", "16M", "--budget", "0.2", "--no-roofline", NULL },
                             (const char *const *)e.v);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    static const char *const files[] = { "device-check.log", "devices.txt", "devices.json", "run.json", "env.sh",
                                         "icd.txt", "ldd.txt", "ladder.txt", "tune.json", "strides.json",
                                         "size-512M.json", "size-4G.json", "probe.json", "expect.txt" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *p = path_of(out, files[i]);
        cr_expect(exists(p), "no %s", p);
        free(p);
    }
    char *p = path_of(out, "run.json");
    json_error_t je;
    json_t *j = json_load_file(p, 0, &je);
    cr_assert_not_null(j, "run.json: %s", je.text);
    json_t *cl = json_object_get(j, "command_line");
    int budgets = 0, gpu = 0;
    size_t i;
    json_t *a;
    int devices = 0;
    json_array_foreach(cl, i, a) {
        budgets += !strcmp(json_string_value(a), "--budget");
        devices += !strcmp(json_string_value(a), "--device");
        gpu += !strcmp(json_string_value(a), "gpu");
    }
    /* the caller's options replace the script's defaults: bwlab refuses an option given twice */
    cr_expect_eq(budgets, 1, "--budget given twice or not at all");
    cr_expect_eq(devices, 1, "--device given twice or not at all");
    cr_expect_eq(gpu, 0, "--device gpu added beside the caller's --device cpu");
    json_t *res = json_array_get(json_object_get(j, "results"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(res, "pattern")), "seq");
    cr_expect_str_eq(json_string_value(json_object_get(res, "status")), "ok");
    json_decref(j);
    free(p);
    /* the ladder: the three seq rows in read and copy mode at each K, on the run's device */
    for (int k = 1; k <= 8; k *= 2) {
        char name[32];
        snprintf(name, sizeof name, "ladder-unroll%d.json", k);
        p = path_of(out, name);
        j = json_load_file(p, 0, &je);
        cr_assert_not_null(j, "%s: %s", name, je.text);
        json_t *rs = json_object_get(j, "results");
        cr_expect_eq(json_array_size(rs), 6, "%s: seq, seq:elem=8, seq:elem=16 in read and copy", name);
        json_array_foreach(rs, i, a) {
            cr_expect_str_eq(json_string_value(json_object_get(a, "status")), "ok", "%s", name);
            cr_expect_eq(json_integer_value(json_object_get(a, "unroll")), k, "%s", name);
        }
        json_decref(j);
        free(p);
    }
    p = path_of(out, "devices.json");
    j = json_load_file(p, 0, &je);
    cr_expect_not_null(j, "devices.json: %s", je.text);
    json_decref(j);
    free(p);
    /* the strides in read mode, seq at both sizes */
    p = path_of(out, "strides.json");
    j = json_load_file(p, 0, &je);
    cr_assert_not_null(j, "strides.json: %s", je.text);
    for (int st = 1; st <= 64; st *= 2) {
        char pat[32];
        snprintf(pat, sizeof pat, "stride:s=%d", st);
        json_t *rs = json_object_get(j, "results"), *x;
        size_t ix;
        int found = 0;
        json_array_foreach(rs, ix, x) found |= !strcmp(json_string_value(json_object_get(x, "pattern")), pat) &&
                                              !strcmp(json_string_value(json_object_get(x, "access")), "read");
        cr_expect(found, "strides.json has no %s in read mode", pat);
    }
    json_decref(j);
    free(p);
    /* every step beside its range: PoCL has none on record, so each line
     * says so, and the figures measured are there */
    p = path_of(out, "expect.txt");
    char *ex = read_text(p);
    cr_expect(strstr(ex, "expected ranges: none on record") != NULL, "%s", ex);
    cr_expect(strstr(ex, "identity     compute units") != NULL, "%s", ex);
    cr_expect(strstr(ex, "granularity  read stride 64 / stride 1") != NULL, "%s", ex);
    cr_expect(strstr(ex, "sizes        seq read 512 MiB / 4 GiB") != NULL, "%s", ex);
    cr_expect(strstr(ex, "OUTSIDE") == NULL, "no range, nothing outside: %s", ex);
    cr_expect(strstr(ex, "tune         copy peak                          measured not measured") == NULL,
              "the tune ran: %s", ex);
    free(ex);
    free(p);
    /* the named copies, by device and date, in the results folder and under OUT */
    char day[16];
    time_t now = time(NULL);
    strftime(day, sizeof day, "%Y-%m-%d", gmtime(&now));
    static const char *const kinds[] = { "run", "tune", "probe" };
    char *out_named = path_of(out, "data/results");
    const char *const dirs[] = { named, out_named };
    for (size_t d = 0; d < 2; d++)
        for (size_t k = 0; k < 3; k++) {
            char tail[64];
            snprintf(tail, sizeof tail, "-%s-%s.json", day, kinds[k]);
            cr_expect(dir_has_suffix(dirs[d], tail), "no *%s in %s", tail, dirs[d]);
        }
    free(out_named);
    free(cache);
    free(named);
    p = path_of(out, "icd.txt");
    char *icd = read_text(p);
    cr_expect(strstr(icd, "libnvidia-opencl.so.1") != NULL, "%s", icd);
    free(icd);
    free(p);

    free(s);
    tu_result_free(&r);
    env_free(&e);
    free(out);
    free(drv);
    tu_rmdir(tmp);
    free(tmp);
}

/* device-deps.sh --dry-run: the packages, pinned to the installed
 * versions, without the network */
Test(device_check, deps_dry_run_lists_packages)
{
    char *s = script("device-deps.sh");
    tu_result r = tu_run_cmd((const char *[]){ "bash", s, "--dry-run", NULL }, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "ocl-icd-libopencl1=") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "libjansson4") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "libc6") == NULL, "libc6 is on every Linux: %s", r.out);
    tu_result_free(&r);
    free(s);
}

/* tools/device-expect.py against a planted H200 check: each figure beside
 * the range data/gpu-expected.json gives the H200, worked out here from
 * the planted values: 132 units in [132, 132]; a copy peak of 4200 in
 * [3800, 4800]; seq copy 3990 / 4200 = 0.95, at least 0.9; read stride 4
 * at 500 / 2000 = 0.25 against 4 / min(16, 64) = 0.25 within 15%, stride
 * 16 at 150 / 2000 = 0.075 against 4 / 64 = 0.0625 (+20%: outside), a
 * pair ratio of 1.9 in [1.6, 2.4], 2-way banks 1 / 0.68 = 1.47 in [1.4,
 * 1.5], sizes 4000 / 4100 = 0.976 in [0.97, 1.03]; a clock of 2500 MHz
 * above 1980: outside. */
Test(device_check, expected_ranges_beside_each_planted_h200_figure)
{
    char *tmp = tu_temp_dir();
    tu_write_file(tmp, "run.json",
                  "{\"runs\": [{\"device\": {\"name\": \"NVIDIA H200\", \"compute_units\": 132, \"clock_mhz\": 2500, "
                  "\"global_cache_bytes\": 4325376}}], \"results\": ["
                  "{\"pattern\": \"seq\", \"access\": \"copy\", \"status\": \"ok\", \"effective_gbs\": 3990, \"unroll\": 4},"
                  "{\"pattern\": \"bank:pitch=33,stride=1\", \"access\": \"read\", \"status\": \"ok\", \"family\": \"bank\", "
                  "\"effective_gbs\": 23200, \"conflict_ways\": 1, \"relative_to_seq\": 1},"
                  "{\"pattern\": \"bank:pitch=32,stride=2\", \"access\": \"read\", \"status\": \"ok\", \"family\": \"bank\", "
                  "\"effective_gbs\": 15776, \"conflict_ways\": 2, \"relative_to_seq\": 0.68}]}");
    tu_write_file(tmp, "tune.json", "{\"devices\": [{\"peak_read_gbs\": 4137, \"peak_copy_gbs\": 4200}]}");
    tu_write_file(tmp, "strides.json",
                  "{\"results\": [{\"pattern\": \"stride:s=1\", \"access\": \"read\", \"status\": \"ok\", \"effective_gbs\": 2000},"
                  "{\"pattern\": \"stride:s=4\", \"access\": \"read\", \"status\": \"ok\", \"effective_gbs\": 500},"
                  "{\"pattern\": \"stride:s=16\", \"access\": \"read\", \"status\": \"ok\", \"effective_gbs\": 150}]}");
    tu_write_file(tmp, "probe.json",
                  "{\"devices\": [{\"sector_pairs\": {\"ratio\": 1.9}, \"inferred_banks\": 32, "
                  "\"memory\": {\"latency_ns\": 310}}]}");
    tu_write_file(tmp, "size-512M.json",
                  "{\"results\": [{\"pattern\": \"seq\", \"access\": \"read\", \"status\": \"ok\", \"effective_gbs\": 4000}]}");
    tu_write_file(tmp, "size-4G.json",
                  "{\"results\": [{\"pattern\": \"seq\", \"access\": \"read\", \"status\": \"ok\", \"effective_gbs\": 4100}]}");
    char *s = script("device-expect.py");
    tu_result r = tu_run_cmd((const char *[]){ "python3", s, tmp, NULL }, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    const char *o = r.out;
    cr_expect(strstr(o, "expected ranges: NVIDIA H200") != NULL, "%s", o);
    static const char *const want[][2] = {
        { "compute units", "in range" },
        { "clock", "OUTSIDE" },
        { "copy peak", "in range" },
        { "seq copy (K = 4) / tune copy", "in range" },
        { "read stride 4 / stride 1", "in range" },
        { "read stride 16 / stride 1", "OUTSIDE" },
        { "read stride 8 / stride 1", "not measured" },
        { "split / adjacent sector pair", "in range" },
        { "2-way slowdown", "in range" },
        { "conflict-free local reads", "in range" },
        { "probe's inferred banks", "in range" },
        { "memory, one chase", "in range" },
        { "seq read 512 MiB / 4 GiB", "in range" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *at = strstr(o, want[i][0]);
        cr_assert_not_null(at, "no line for %s: %s", want[i][0], o);
        const char *eol = strchr(at, '\n');
        char ln[512];
        snprintf(ln, sizeof ln, "%.*s", (int)(eol ? eol - at : (long)strlen(at)), at);
        cr_expect(strstr(ln, want[i][1]) != NULL, "%s: want '%s' in: %s", want[i][0], want[i][1], ln);
        cr_expect(strchr(ln, '(') != NULL, "%s: no source in: %s", want[i][0], ln);
    }
    tu_result_free(&r);
    /* an expected-ranges file it cannot read is exit 2 */
    char *bad = path_of(tmp, "nothing.json");
    r = tu_run_cmd((const char *[]){ "python3", s, tmp, bad, NULL }, NULL);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    tu_result_free(&r);
    free(bad);
    free(s);
    tu_rmdir(tmp);
    free(tmp);
}
