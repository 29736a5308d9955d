#!/bin/sh
# Sets up, then builds and runs the whole test suite twice: a plain build
# (build/) and one with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), which must report nothing.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
meson test -C build --print-errorlogs
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
# one closing line for both builds, counting Criterion's tests
sed -n 's/.*Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3/p' \
    build/meson-logs/testlog.txt build-asan/meson-logs/testlog.txt |
    awk '{ p += $1; f += $2 + $3 } END { printf "tests: %d passed, %d failed\n", p, f; exit f > 0 }'
