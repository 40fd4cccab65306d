#!/usr/bin/env bash
# Builds the core benchmarks in release and runs them, printing a results table.
#
#   Benchmarks/run.sh            # full run (about a minute)
#   Benchmarks/run.sh --quick    # short run
#   Benchmarks/run.sh --only hit # one measurement (hit, tap, socket), e.g. for a profiler
#
# The release build lives in .build-release so that it does not collide with
# debug builds in .build.
set -euo pipefail

cd "$(dirname "$0")/.."
swift build -c release --product openuikit-benchmarks --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
exec "$bin/openuikit-benchmarks" "$@"
