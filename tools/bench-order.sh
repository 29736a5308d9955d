#!/bin/sh
# How patterns rank against seq, measured: ROUNDS separate runs of seq and
# two strides on one device, each pattern's speed relative to seq of the
# same run. These ratios are what a unit test must not assert on a shared
# machine; here they are printed, with how often the ordering held.
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
    # CSV: pattern is column 4, relative_to_seq column 12 (docs/results.md)
    build/src/cli/bwlab run --pattern "$patterns" --size 64M --budget 3 --format csv "$@" |
        awk -F, -v round="$i" 'NR > 1 { printf "%s %s %s\n", round, $4, $12 }'
done | awk '
    { r[$2] = r[$2] " " $3; n[$2]++
      if ($2 == "stride:s=2") s2[$1] = $3
      if ($2 == "stride:s=16") s16[$1] = $3 }
    END {
        printf "%-14s %s\n", "pattern", "measured speed relative to seq, one value per run"
        for (p in r) printf "%-14s%s\n", p, r[p]
        held = 0; total = 0
        for (k in s16) { total++; if (s16[k] < s2[k] && s2[k] < 1) held++ }
        printf "ordering seq > stride:s=2 > stride:s=16 held in %d of %d runs\n", held, total
    }'
