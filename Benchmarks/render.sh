#!/usr/bin/env bash
# Builds the rendering benchmarks in release and runs them: the "cards"
# scene's full and damaged frames, a 1,000-row list scrolling, and a
# finger dragging a card over the cards (touch to pixels), and a
# 10,000-row table flung at 120 Hz (CPU per frame, median and p99).
#
#   Benchmarks/render.sh            # full run
#   Benchmarks/render.sh --quick    # short run
#
# For instruction counts, which do not vary with the machine's load:
#   valgrind --tool=callgrind --toggle-collect='*countedDamagedFrames*' \
#     .build-release/release/openuikit-render-benchmarks --count damaged
# (full, damaged, scroll, drag, table; animated or moving with
# countedAnimatedFrames or countedMovingCardFrames; animated-picture, the
# picture of an animated frame drawn whole, with countedFullFrames;
# see docs/compositor.md and docs/performance.md).
set -euo pipefail

cd "$(dirname "$0")/.."
swift build -c release --product openuikit-render-benchmarks --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
exec "$bin/openuikit-render-benchmarks" "$@"
