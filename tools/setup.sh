#!/bin/sh
# Installs what bwlab needs (Debian 12 packages) when something is missing,
# then configures and builds it in build/. Fast when nothing changed.
#   tools/setup.sh                   what building and running need (tools/run.sh)
#   tools/setup.sh --test            that and the test tools (tools/test.sh)
#   BWLAB_BUILD=dir tools/setup.sh [--test] [meson options...]
# Building and running: the compiler, meson and ninja, the OpenCL loader and
# headers, PoCL (an OpenCL device on any CPU) and clinfo, libjansson (JSON), libxml2 (peer XML files)
# and libcairo2-dev (the HTML report's charts).
# The test tools, with --test: libcriterion-dev (the test suite; without it
# meson builds bwlab and skips the tests), hwloc's lstopo (tools/test.sh
# hides the caches from PoCL), chromium (the report's browser test), clang
# and libclang-rt-14-dev (the fuzz targets, tools/fuzz.sh), oclgrind
# (tools/oclgrind.sh), valgrind (tools/valgrind.sh) and clpeak (a peer tool:
# the compare_peers suite merges a live clpeak run with a bwlab run).
set -eu
cd "$(dirname "$0")/.."

RUN_PACKAGES="build-essential pkg-config meson ninja-build ocl-icd-libopencl1 ocl-icd-opencl-dev \
opencl-headers pocl-opencl-icd clinfo libjansson-dev libcairo2-dev libxml2-dev"
TEST_PACKAGES="libcriterion-dev hwloc chromium clang libclang-rt-14-dev oclgrind valgrind clpeak"

tests=0
if [ "${1:-}" = --test ]; then
    tests=1
    shift
fi
packages=$RUN_PACKAGES
[ "$tests" = 0 ] || packages="$packages $TEST_PACKAGES"

missing=""
for p in $packages; do
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
elif [ "$tests" = 1 ] && ! grep -q '"name": "base"' "$build/meson-info/intro-tests.json" 2>/dev/null; then
    # configured by tools/run.sh before Criterion was installed: the tests
    # are built only once meson has looked for it again
    meson setup --reconfigure "$build" "$@" >/dev/null
fi
ninja -C "$build" >/dev/null
