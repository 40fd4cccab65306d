#!/usr/bin/env bash
# What the event server's outputs cost per frame: builds the display
# benchmark in release and runs it in a window on a private Xvfb (or on
# DISPLAY when --here is given).
#
#   Benchmarks/display.sh                  # 300 samples of each case
#   Benchmarks/display.sh --samples 1000
#   Benchmarks/display.sh --here           # on the X display already in DISPLAY
#
# The release build lives in .build-release, apart from debug builds.
set -euo pipefail

cd "$(dirname "$0")/.."
swift build -c release --product openuikit-display-benchmark --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${1:-}" = "--here" ]; then
    shift
    exec "$bin/openuikit-display-benchmark" "$@"
fi
command -v Xvfb >/dev/null || { echo "Xvfb is not installed (apt-get install xvfb), or use --here with a DISPLAY" >&2; exit 1; }
fifo="$(mktemp -u)"
mkfifo "$fifo"
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$fifo" 2>/dev/null &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; rm -f "$fifo"' EXIT
read -r number <"$fifo"
DISPLAY=":$number" "$bin/openuikit-display-benchmark" "$@"
