#!/bin/sh
# valgrind memcheck on bwlab: the model (no device), its error paths,
# bwlab compare on the sample result and probe files, and a short run on
# the CPU device (PoCL). Any invalid access, use of an
# uninitialised value or definite leak fails it. PoCL's and the loader's
# own findings are suppressed only where tools/valgrind.supp proves the
# stack theirs.
#   tools/valgrind.sh [build dir, default build]
set -eu
cd "$(dirname "$0")/.."
build="${1:-build}"
bwlab="$build/src/cli/bwlab"
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
log=$(mktemp "${TMPDIR:-/tmp}/bwlab-valgrind.XXXXXX")
trap 'rm -f "$log" "$log.out"' EXIT
failed=0

vg() { # expected exit status, then the bwlab arguments
    want=$1
    shift
    set +e
    valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --num-callers=40 \
        --suppressions=tools/valgrind.supp --log-file="$log" "$bwlab" "$@" >"$log.out" 2>&1
    st=$?
    set -e
    if [ "$st" != "$want" ] || ! grep -q "ERROR SUMMARY: 0 errors" "$log"; then
        echo "valgrind: bwlab $*: FAILED (exit $st, expected $want)" >&2
        grep -v "^==[0-9]*== *$" "$log" | head -n 60 >&2
        tail -n 5 "$log.out" >&2
        failed=1
    else
        echo "valgrind: bwlab $*: clean"
    fi
}

vg 0 model --expr '4*((g % 64)*64 + g / 64)' --launch --items 4096
vg 0 model --expr 't < 16 ? 4*t : 4000 + 256*(t - 16)' --profile amd-cdna3 --format json
vg 0 model --pattern transpose:version=tiled --launch --items 4096
vg 0 model --pattern bank:pitch=32 --space local
vg 0 model --pattern aos:struct=12,field=4 --roofline --peak-gflops 1000 --peak-gbs 100 --intensity 2
vg 0 patterns
vg 0 help run
vg 2 model --expr '100 / (w - 3) + 4*g' --launch --items 4096
vg 2 model --expr '4*g +' --launch --items 64
vg 0 compare tests/data/results/sample-nvidia-h100.json tests/data/results/sample-amd-mi300x.json \
    tests/data/probe/sample-nvidia-h100-probe.json --format json
vg 0 compare tests/data/results/sample-nvidia-h100.json tests/data/results/sample-nvidia-h100-run2.json \
    --baseline h100 --format md
vg 2 compare tests/data/results/README.md
vg 2 run --device cpu --pattern nosuch
vg 0 run --device cpu --pattern seq,stride:s=2 --size 256K --budget 0.1 --rse 100 --no-roofline --quiet --format json
[ "$failed" = 0 ] || { echo "valgrind: errors found (see above)" >&2; exit 1; }
echo "valgrind: no error"
