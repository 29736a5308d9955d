#!/bin/sh
# Sets up with the test tools (tools/setup.sh --test: Criterion, hwloc,
# chromium, clang, oclgrind, valgrind besides what tools/run.sh installs),
# then builds and runs the test suite three times: plainly (build/), the
# suites that open a device again as on another machine (below), and all of
# it with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/),
# which must report nothing.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh --test
# PoCL's kernel cache starts empty, as on a fresh machine, whatever this one
# ran before: the first pass compiles and loads every kernel anew (a path a
# warm cache never takes), and the suite's time does not depend on the
# host's history. The later passes share it: they build the same kernels,
# and compiling them all again under the sanitizers took 5 of the suite's
# 17 minutes on a 2-vCPU guest.
kernels=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-pocl-cache.XXXXXX")
elsewhere=""
trap 'rm -rf "$kernels" ${elsewhere:+"$elsewhere"}' EXIT
export POCL_CACHE_DIR="$kernels"
meson test -C build --print-errorlogs
# The suites that open a device, again as on another machine: two GPUs
# listed before the CPU (the fake driver of tests/fake_icd answering
# discovery from recorded H100 and MI300X tables; it makes no context) and a
# CPU device that reports no cache, as PoCL does on some hosts (hwloc hands
# PoCL this machine's topology without its caches). Left out, since they
# would run as they did above: the suites that read files only (the model,
# compare, report, peers, golden, docs), those that name their own fake
# driver folder (cli_fake_devices, cli_fake_run), bench, whose plans give
# their sizes and caches and whose device is picked by type, and those
# whose every run names --device cpu and the size it measures, or is
# about signals, journals, outputs and faults (cli_run, cli_output, tune,
# faults; cli_run's runs without --device stop at their arguments), and
# device_check, whose script is given its own driver folder and sizes:
# the roofline's default size on a CPU without a cache is the roofline
# suite's. Log: build/meson-logs/elsewhere.txt.
device_suites="cli cli_devices ocl bench_plan cli_bad roofline probe"
rm -f build/meson-logs/elsewhere.txt
elsewhere=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-elsewhere.XXXXXX")
cp /etc/OpenCL/vendors/*.icd "$elsewhere/"
echo "$PWD/build/tests/libbwlab_fake_icd.so" >"$elsewhere/bwlab-fake.icd"
lstopo --filter cache:none --of xml --force "$elsewhere/topology.xml"
(
    export OCL_ICD_VENDORS="$elsewhere" HWLOC_XMLFILE="$elsewhere/topology.xml" HWLOC_THISSYSTEM=1
    export BWLAB_FAKE_ICD_TABLE="$PWD/tests/data/devices/nvidia-h100.json:$PWD/tests/data/devices/amd-mi300x.json"
    cache=$(build/src/cli/bwlab devices --device cpu --format json |
        sed -n 's/.*"global_cache_bytes": \([0-9]*\).*/\1/p' | head -n 1)
    [ "$cache" = 0 ] || echo "test.sh: PoCL ignores the hwloc topology here (it reports a ${cache:-?}-byte" \
        "cache): this pass has GPUs listed first, but the CPU device keeps its cache" >&2
    # shellcheck disable=SC2086
    meson test -C build --print-errorlogs --logbase elsewhere $device_suites
)
# -O1, as AddressSanitizer's own guide advises: the sanitized build
# compiles in half the time of -O2 and its tests run about as fast
BWLAB_BUILD=build-asan tools/setup.sh --test -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1
# BWLAB_TEST_QUICK: the longest kernel tests build one warp width here, not
# four, and every other spec (the host code they check is the same for
# each); the live clpeak run is left to the plain pass
# The sanitizer pass leaves out the suites whose code is mostly the timing
# loop the other suites also run under it (their plain runs stay): they
# cost a quarter of the pass and keep CI within its 15 minutes, which a
# slow shared host otherwise passes. Left out for the same reason:
# device_check, whose subject is a shell script (the bwlab runs it starts
# are cli_run's); compare, whose parser the
# fuzz_results target below runs under the sanitizers; and bench, whose
# kernel sweeps are PoCL's compile and launch time (its plan, validation
# and runner code run under the sanitizers in faults, bench_plan,
# toy_family, cli_bad and cli_output).
asan_suites=$(meson test -C build-asan --list 2>/dev/null |
    grep -vxE 'cli_run|cli_fake_run|tune|probe|default_run|device_check|compare|bench')
# shellcheck disable=SC2086
BWLAB_TEST_QUICK=1 meson test -C build-asan --print-errorlogs $asan_suites
# Criterion runs each test in a child process whose sanitizer reports do not
# change the test's verdict, so the log is searched as well.
if grep -E "ERROR: (Address|Leak)Sanitizer|Sanitizer has encountered a fatal error|runtime error:" \
        build-asan/meson-logs/testlog.txt; then
    echo "sanitizer reports found (see build-asan/meson-logs/testlog.txt)" >&2
    exit 1
fi
echo "sanitizer build: no reports"
# Fuzzing (tests/fuzz/README.md: each target 10 s here), every kernel family
# under Oclgrind, valgrind memcheck: each step prints one line per check,
# "...: clean" / "no crash" or "... FAILED"; counted in the closing line.
checks=build/meson-logs/checks.txt
: >"$checks"
# CI fuzzes each target 5 s (FUZZ_SECONDS), to keep the whole run short;
# tools/fuzz.sh alone gives each 30 s. valgrind and Oclgrind each keep one
# CPU busy, as do the fuzz targets once built: the two run one after the
# other beside the fuzzing, which keeps both CPUs of a small CI guest busy
# (fuzzing takes as long as the other two together there).
check() { # step: its lines in $checks.<step>, and a line if it failed before any check
    if ! FUZZ_SECONDS="${FUZZ_SECONDS:-5}" tools/"$1".sh >"$checks.$1" 2>&1 && ! grep -q FAILED "$checks.$1"; then
        echo "tools/$1.sh FAILED" >>"$checks.$1"
    fi
}
(
    check valgrind
    check oclgrind
) &
beside=$!
check fuzz
wait "$beside"
for step in fuzz oclgrind valgrind; do
    cat "$checks.$step" >>"$checks"
    rm -f "$checks.$step"
done
grep -E "clean|no crash|no error|FAILED" "$checks"
# one closing line for every pass, counting Criterion's tests
sed -n 's/.*Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3/p' \
    build/meson-logs/testlog.txt build/meson-logs/elsewhere.txt build-asan/meson-logs/testlog.txt 2>/dev/null |
    awk -v cp="$(grep -cE ': clean$|, no crash$' "$checks")" -v cf="$(grep -c 'FAILED' "$checks")" \
        '{ p += $1; f += $2 + $3 } END { p += cp; f += cf; printf "tests: %d passed, %d failed\n", p, f; exit f > 0 }'
