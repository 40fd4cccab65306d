#!/usr/bin/env bash
# Side by side in one run: our 10,000-row UITableView flung at 120 Hz
# (openuikit-render-benchmarks --table-only, TableScene.swift) and Qt's
# QListView with the same rows flung the same way
# (QtListBenchmark/qt_list_benchmark.cpp): 390 x 844 points at 3 pixels per
# point, 44-point rows of "Row N", a fling released at 7,200 points per
# second slowing by 0.998 per millisecond, each 1/120 s refresh timed in
# thread CPU time (ours: the run loop's turn and the compositor's damaged
# frame; Qt's: setting the scroll position and painting into the offscreen
# platform's backing store).
#
#   Benchmarks/qt-list.sh            # 20 flings each
#   Benchmarks/qt-list.sh --quick    # 3 flings each
#   Benchmarks/qt-list.sh --qt-only  # Qt's side alone
#
# Qt 6's development files (apt-get install qt6-base-dev) are needed for
# Qt's side; without them it is skipped, saying so, and the script exits 0.
# The Qt program is compiled into .build-release/qt-list-benchmark; nothing
# of Qt goes into the library.
set -euo pipefail

cd "$(dirname "$0")/.."
quick=false
qt_only=false
for argument in "$@"; do
    case "$argument" in
        --quick) quick=true ;;
        --qt-only) qt_only=true ;;
        *) echo "usage: Benchmarks/qt-list.sh [--quick] [--qt-only]" >&2; exit 2 ;;
    esac
done
flings=20
if $quick; then flings=3; fi

if ! pkg-config --exists Qt6Widgets 2>/dev/null; then
    echo "skipped: Qt 6 Widgets is not installed (apt-get install qt6-base-dev gives it); no QListView figures"
    exit 0
fi
mkdir -p .build-release
qt_bin=.build-release/qt-list-benchmark
# shellcheck disable=SC2046
"${CXX:-g++}" -O2 -std=c++17 -fPIC $(pkg-config --cflags Qt6Widgets) \
    Benchmarks/QtListBenchmark/qt_list_benchmark.cpp -o "$qt_bin" $(pkg-config --libs Qt6Widgets)

qt="$(QT_QPA_PLATFORM=offscreen "$qt_bin" "$flings")"
figure() { awk -v key="$1" '$1 == key { print $2 }' <<< "$qt"; }
echo "Qt $(pkg-config --modversion Qt6Widgets) QListView, 10,000 rows flung at 120 Hz, CPU/frame  median $(figure median_ms) ms   p99 $(figure p99_ms) ms   ($(figure frames) frames, $(figure painted) painted, $(figure pixels) pixels)"
if $qt_only; then exit 0; fi

swift build -c release --product openuikit-render-benchmarks --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
if $quick; then
    "$bin/openuikit-render-benchmarks" --table-only --quick
else
    "$bin/openuikit-render-benchmarks" --table-only
fi
