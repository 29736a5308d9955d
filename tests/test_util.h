/* test_util: helpers shared by the Criterion tests: running the bwlab
 * executable, a seeded generator, random address expressions. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "bw_buf.h"

/* Runs the bwlab executable ($BWLAB_EXE) with argv (NULL-terminated, not
 * including the program name) and extra environment entries "K=V" (NULL or
 * NULL-terminated; "K=" unsets). Captures stdout and stderr into heap
 * strings (caller frees). Returns the exit status, or 128+signal. */
int tu_run(const char *const *argv, const char *const *env, char **out, char **err);

/* tu_run's results together: exit status, stdout, stderr. */
typedef struct tu_result {
    int status;
    char *out, *err;
} tu_result;

tu_result tu_exec(const char *const *argv, const char *const *env);
void tu_result_free(tu_result *r);
/* Runs `bwlab cmd args...` (args NULL-terminated, at most 30) on a machine
 * with no OpenCL at all: OCL_ICD_VENDORS names a new empty directory,
 * removed afterwards. */
tu_result tu_exec_without_opencl(const char *cmd, const char *const *args);

/* Runs any program: argv[0] (searched in PATH when it has no slash) with
 * argv (NULL-terminated) and env as for tu_run. */
tu_result tu_run_cmd(const char *const *argv, const char *const *env);

/* Runs bwlab, asserts exit 0 and empty stderr, parses stdout as JSON
 * (asserting it parses); the caller json_decref()s the result. */
struct json_t;
struct json_t *tu_exec_json(const char *const *argv);
/* The same with extra environment entries, as for tu_run. */
struct json_t *tu_exec_json_env(const char *const *argv, const char *const *env);

/* Path of the source tree ($BWLAB_SOURCE_ROOT). */
const char *tu_source_root(void);

uint64_t tu_rand(uint64_t *state);
/* uniform in [lo, hi] */
int64_t tu_range(uint64_t *state, int64_t lo, int64_t hi);

/* A random well-formed address expression over t, w, g, W using every
 * operator of the language; depth limits nesting. Evaluation may fail
 * (division by zero, overflow): callers compare failure behaviour too. */
void tu_random_expr(uint64_t *state, int depth, bw_buf *out);
/* A random expression that mostly yields small non-negative addresses
 * (a few KiB), mixing affine, modular and conditional forms. */
void tu_random_address_expr(uint64_t *state, bw_buf *out);

/* Layering checks. tu_loaded_library: 1 when a shared object whose path
 * contains `part` is loaded in this process, its path into found.
 * tu_include_reaches: 1 when `file` (found in one of dirs[0..ndirs) under
 * root) includes, itself or through what it includes there, a header
 * whose name starts with one of bad[0..nbad); why names the chain
 * ("ocl_device.h <- bench_device.h <- report_devices.h"). */
int tu_loaded_library(const char *part, char *found, size_t n);
int tu_include_reaches(const char *root, const char *const *dirs, size_t ndirs, const char *const *bad, size_t nbad,
                       const char *file, char *why, size_t n);
/* Every .c and .h of root/dir checked with tu_include_reaches; asserts
 * none reaches, and that the folder holds more than 10 files. */
void tu_layer_includes_nothing_of(const char *dir, const char *const *dirs, size_t ndirs, const char *const *bad,
                                  size_t nbad);

/* Writes text to a new temporary file under a new temporary directory;
 * returns the directory (caller frees; remove with tu_rmdir). */
char *tu_temp_dir(void);
void tu_write_file(const char *dir, const char *name, const char *text);
void tu_rmdir(const char *dir);

#endif
