#!/bin/sh
# Times the launch model on 2^26-item launches of every catalogue pattern
# and prints its speed-up over the naive item-by-item count (same run).
set -eu
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build tools/bench_model >/dev/null
exec build/tools/bench_model
