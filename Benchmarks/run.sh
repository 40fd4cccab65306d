#!/usr/bin/env bash
# Builds the core benchmarks in release and runs them, printing a results
# table: hit test, tap, pan (ten recognizers on the hit path), tap over a
# Unix-domain socket, and a scroll view's deceleration.
#
#   Benchmarks/run.sh            # full run (about a minute)
#   Benchmarks/run.sh --quick    # short run
#   Benchmarks/run.sh --only pan # one measurement (hit, tap, pan, socket, scroll), e.g. for a profiler
#
# Timings vary with the machine's load; for a figure that does not, count
# instructions with Benchmarks/instruction-counts.sh (callgrind), which CI
# runs as a guard against regressions.
#
# The release build lives in .build-release so that it does not collide with
# debug builds in .build.
set -euo pipefail

cd "$(dirname "$0")/.."
swift build -c release --product openuikit-benchmarks --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
exec "$bin/openuikit-benchmarks" "$@"
