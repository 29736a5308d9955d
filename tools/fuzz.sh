#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz (tests/fuzz/README.md) in
# build-fuzz/ with clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# then runs each for a bounded time on its checked-in seed corpus
# (tests/fuzz/<target>/). Exits non-zero on any crash, leak, hang or
# sanitizer report; the input is saved as build-fuzz/crashes/<target>-*.
#   tools/fuzz.sh                 every target, 30 s each
#   FUZZ_SECONDS=300 tools/fuzz.sh fuzz_expr
# New inputs found go to build-fuzz/corpus/<target>/, never into tests/:
# copy an interesting one there by hand (a crash becomes a regression test).
set -eu
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
targets="${*:-fuzz_expr fuzz_pattern fuzz_profile fuzz_results}"
cc="${FUZZ_CC:-clang}"
command -v "$cc" >/dev/null || { echo "fuzz.sh: $cc not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }

if [ ! -f build-fuzz/build.ninja ]; then
    # every object instrumented for coverage; UBSan findings abort (a
    # report the fuzzer must see as a crash)
    CC="$cc" meson setup build-fuzz -Dfuzz=true -Dtests=false -Db_lundef=false \
        -Db_sanitize=address,undefined \
        -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer" >/dev/null
fi
# the targets only: bwlab itself and the tools are not fuzzed
# shellcheck disable=SC2086
ninja -C build-fuzz $(printf 'tests/fuzz/%s ' $targets) >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p build-fuzz/crashes
failed=""
for t in $targets; do
    mkdir -p "build-fuzz/corpus/$t"
    log="build-fuzz/$t.log"
    dict=""
    [ ! -f "tests/fuzz/$t.dict" ] || dict="-dict=tests/fuzz/$t.dict"
    # longest input: short expressions and specs keep each run fast; the
    # files the other readers take are longer
    case $t in
        fuzz_expr) max_len=2048 ;;
        fuzz_pattern) max_len=4096 ;;
        *) max_len=32768 ;;
    esac
    if "build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -max_len="${FUZZ_MAX_LEN:-$max_len}" -print_final_stats=1 $dict \
            -artifact_prefix="build-fuzz/crashes/$t-" \
            "build-fuzz/corpus/$t" "tests/fuzz/$t" >"$log" 2>&1; then
        echo "fuzz: $t: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") runs, no crash"
    else
        echo "fuzz: $t FAILED (log: $log; input: build-fuzz/crashes/$t-*):" >&2
        grep -E "fuzz_|ERROR|runtime error|SUMMARY" "$log" | head -n 20 >&2
        failed="$failed $t"
    fi
done
[ -z "$failed" ] || { echo "fuzz: failures in:$failed" >&2; exit 1; }
