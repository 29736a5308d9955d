#!/bin/sh
# Installs what building and running need (tools/setup.sh, without the test
# tools), builds, then measures every pattern on the default OpenCL device
# (PoCL on a CPU-only machine): `bwlab run` with any extra arguments.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
exec build/src/cli/bwlab run "$@"
