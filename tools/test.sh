#!/bin/sh
# Sets up, then builds and runs the whole test suite twice: a plain build
# (build/) and one with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), which must report nothing.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
meson test -C build --print-errorlogs
# The device-facing suites again on a CPU device that reports no cache, as
# PoCL does on some hosts: hwloc hands PoCL this machine's topology without
# its caches (log: build/meson-logs/nocache.txt).
rm -f build/meson-logs/nocache.txt
topology=$(mktemp "${TMPDIR:-/tmp}/bwlab-nocache.XXXXXX")
lstopo --filter cache:none --of xml --force "$topology"
cache=$(HWLOC_XMLFILE="$topology" HWLOC_THISSYSTEM=1 build/src/cli/bwlab devices --device cpu --format json |
    sed -n 's/.*"global_cache_bytes": \([0-9]*\).*/\1/p' | head -n 1)
if [ "$cache" = 0 ]; then
    HWLOC_XMLFILE="$topology" HWLOC_THISSYSTEM=1 \
        meson test -C build --print-errorlogs --logbase nocache ocl cli_devices bench cli_run
else
    echo "test.sh: PoCL ignores the hwloc topology here (it reports a ${cache:-?}-byte cache):" \
         "the no-cache pass is skipped" >&2
fi
rm -f "$topology"
BWLAB_BUILD=build-asan tools/setup.sh -Db_sanitize=address,undefined -Db_lundef=false
# on an empty PoCL kernel cache, as on a fresh machine: PoCL then compiles
# and loads every kernel anew, a path a warm cache never takes
cold_cache=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-pocl-cache.XXXXXX")
trap 'rm -rf "$cold_cache"' EXIT
POCL_CACHE_DIR="$cold_cache" meson test -C build-asan --print-errorlogs
# Criterion runs each test in a child process whose sanitizer reports do not
# change the test's verdict, so the log is searched as well.
if grep -E "ERROR: (Address|Leak)Sanitizer|Sanitizer has encountered a fatal error|runtime error:" \
        build-asan/meson-logs/testlog.txt; then
    echo "sanitizer reports found (see build-asan/meson-logs/testlog.txt)" >&2
    exit 1
fi
echo "sanitizer build: no reports"
# one closing line for every pass, counting Criterion's tests
sed -n 's/.*Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3/p' \
    build/meson-logs/testlog.txt build/meson-logs/nocache.txt build-asan/meson-logs/testlog.txt 2>/dev/null |
    awk '{ p += $1; f += $2 + $3 } END { printf "tests: %d passed, %d failed\n", p, f; exit f > 0 }'
