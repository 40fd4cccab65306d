#!/usr/bin/env bash
# The event server's latency benchmark: builds the server, the latency
# application and the driver in release, then plays a drag at 1 kHz through
# a real openuikit-server process into a separate application process.
#
#   Benchmarks/latency.sh                      # 100,000 events (100 s)
#   Benchmarks/latency.sh --events 1000000     # the full run (about 17 minutes)
#   Benchmarks/latency.sh --events 10000 --rate 1000
#   Benchmarks/latency.sh --bounded            # the server's memory under hostile clients and devices
#   Benchmarks/latency.sh --check              # system calls and wake-ups per event
#                                              # against limits (needs strace), 2 x 2 s
#
# The release build lives in .build-release, apart from debug builds.
set -euo pipefail

cd "$(dirname "$0")/.."
for product in openuikit-server openuikit-latency-app openuikit-latency-benchmark; do
    swift build -c release --product "$product" --scratch-path .build-release >&2
done
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${1:-}" = "--check" ]; then
    # Wake-ups are checked on every run; system calls with strace attached, in a run of their own.
    "$bin/openuikit-latency-benchmark" --events 2000
    exec "$bin/openuikit-latency-benchmark" --events 2000 --check
fi
exec "$bin/openuikit-latency-benchmark" "$@"
