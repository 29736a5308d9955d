#!/bin/sh
# How patterns rank against seq, measured, in each access mode: ROUNDS
# separate runs of seq and two strides on one device in read, copy and
# write mode (--access all), each pattern's speed relative to seq of the
# same run and mode. These ratios are what a unit test must not assert on
# a shared machine; here they are printed, with how often each ordering
# held: seq > stride:s=2 > stride:s=16 within a mode, and how write ranks
# against read and copy for each stride.
#   tools/bench-order.sh [ROUNDS] [bwlab run options, e.g. --device gpu]
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-5}
[ $# -gt 0 ] && shift
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
patterns="seq,stride:s=2,stride:s=16"
[ $# -gt 0 ] || set -- --device cpu
i=0
while [ "$i" -lt "$rounds" ]; do
    i=$((i + 1))
    # CSV columns by name (docs/results.md): pattern, access, relative_to_seq
    build/src/cli/bwlab run --pattern "$patterns" --access all --size 64M --budget 20 --no-roofline \
        --format csv "$@" |
        awk -F, -v round="$i" '
            NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
            { printf "%s %s %s %s\n", round, $(col["pattern"]), $(col["access"]), $(col["relative_to_seq"]) }'
done | awk '
    { key = $2 " " $3; r[key] = r[key] " " $4; v[$1, $2, $3] = $4; rounds[$1] = 1 }
    END {
        printf "%-22s %s\n", "pattern, mode", "measured speed relative to seq of the same mode, one value per run"
        split("read copy write", modes, " ")
        split("seq stride:s=2 stride:s=16", pats, " ")
        for (p = 1; p <= 3; p++)
            for (m = 1; m <= 3; m++) {
                key = pats[p] " " modes[m]
                if (key in r) printf "%-22s%s\n", key, r[key]
            }
        for (m = 1; m <= 3; m++) {
            held = 0; total = 0
            for (k in rounds) {
                a = v[k, "stride:s=2", modes[m]]; b = v[k, "stride:s=16", modes[m]]
                if (a == "" || b == "") continue
                total++; if (b + 0 < a + 0 && a + 0 < 1) held++
            }
            printf "%-5s: seq > stride:s=2 > stride:s=16 held in %d of %d runs\n", modes[m], held, total
        }
        for (p = 2; p <= 3; p++) {
            below_copy = 0; below_read = 0; total = 0
            for (k in rounds) {
                w = v[k, pats[p], "write"]; c = v[k, pats[p], "copy"]; rd = v[k, pats[p], "read"]
                if (w == "" || c == "" || rd == "") continue
                total++; below_copy += (w + 0 < c + 0); below_read += (w + 0 < rd + 0)
            }
            printf "%s: write slower (relative to seq) than copy in %d of %d runs, than read in %d of %d\n",
                   pats[p], below_copy, total, below_read, total
        }
    }'
