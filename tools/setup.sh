#!/bin/sh
# Installs what bwlab needs (Debian 12 packages) when something is missing,
# then configures and builds it in build/. Fast when nothing changed.
# (hwloc's lstopo serves the tests: tools/test.sh hides the caches from PoCL.)
# (libcairo2-dev draws the HTML report's charts; chromium renders that report in its browser test.)
# (clang and libclang-rt-14-dev build the fuzz targets, tools/fuzz.sh; oclgrind
# checks the kernels, tools/oclgrind.sh; valgrind, tools/valgrind.sh.)
#   tools/setup.sh            build dir: build/
#   BWLAB_BUILD=dir tools/setup.sh [meson options...]
set -eu
cd "$(dirname "$0")/.."

PACKAGES="build-essential pkg-config meson ninja-build ocl-icd-libopencl1 ocl-icd-opencl-dev \
opencl-headers pocl-opencl-icd clinfo libcriterion-dev libjansson-dev hwloc libcairo2-dev chromium \
clang libclang-rt-14-dev oclgrind valgrind"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "bwlab setup: installing:$missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $missing >/dev/null
    else
        echo "bwlab setup: missing packages:$missing" >&2
        echo "install them with:  sudo apt-get install -y$missing" >&2
        exit 1
    fi
fi

build="${BWLAB_BUILD:-build}"
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$@" >/dev/null
fi
ninja -C "$build" >/dev/null
