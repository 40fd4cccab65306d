#!/usr/bin/env bash
# Builds the layout solver's benchmark in release and runs it side by side
# with kiwi (the C++ Cassowary implementation behind PyPI's kiwisolver) on
# the same constraint systems: a grid of views with 1,000 and 10,000
# constraints added and solved, one edit constant changed and re-solved in
# the 10,000-constraint grid, a 100-view screen laid out from scratch, and a
# 10,000-long chain of equalities closed by a contradiction.
#
#   Benchmarks/layout.sh
#   KIWI_INCLUDE=/path/to/kiwi-checkout Benchmarks/layout.sh
#
# kiwi's headers come from KIWI_INCLUDE (a directory holding kiwi/kiwi.h),
# or else from kiwisolver's source distribution, downloaded with pip into
# .build-release/kiwi. They are compiled into a separate benchmark program
# (clang++ -O2); nothing of kiwi goes into the library.
#
# Figures are medians of the thread's CPU time in microseconds, for both
# programs: elapsed time on a shared machine mostly measures waiting for a core.
set -euo pipefail

cd "$(dirname "$0")/.."
swift build -c release --product openuikit-layout-benchmark --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"

include="${KIWI_INCLUDE:-}"
if [[ -z "$include" ]]; then
    include=.build-release/kiwi/include
    if [[ ! -f "$include/kiwi/kiwi.h" ]]; then
        mkdir -p .build-release/kiwi
        python3 -m pip download kiwisolver --no-binary kiwisolver --no-deps -d .build-release/kiwi >&2
        archive="$(ls .build-release/kiwi/kiwisolver-*.tar.gz | head -1)"
        tar -xzf "$archive" -C .build-release/kiwi
        mkdir -p "$include"
        cp -r "$(dirname "$(ls -d .build-release/kiwi/kiwisolver-*/kiwi/kiwi.h | head -1)")" "$include/"
    fi
fi
kiwi_bin=.build-release/kiwi-benchmark
"${CXX:-clang++}" -O2 -std=c++17 -I "$include" Benchmarks/LayoutBenchmarks/kiwi_benchmark.cpp -o "$kiwi_bin"

ours="$("$bin/openuikit-layout-benchmark")"
theirs="$("$kiwi_bin")"
printf '%-34s %14s %14s %8s\n' "system" "LayoutSolver µs" "kiwi µs" "ratio"
while read -r name time runs; do
    kiwi_time="$(awk -v n="$name" '$1 == n { print $2 }' <<< "$theirs")"
    ratio="$(awk -v a="$time" -v b="$kiwi_time" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
    printf '%-34s %14s %14s %8s\n' "$name" "$time" "$kiwi_time" "$ratio"
done <<< "$ours"
