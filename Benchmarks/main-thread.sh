#!/usr/bin/env bash
# The main thread's figures, with the release build of Tests/Apps/TemplateApp
# (an application as Xcode's template writes it):
# - wake-up: how long from a background thread's DispatchQueue.main.async
#   to the block running on the idle main thread (N wake-ups, 5 ms apart);
# - idle: the processor time an idle application uses over some seconds
#   (user and system, from /proc), and how often it wakes (voluntary
#   context switches).
#
#   Benchmarks/main-thread.sh                 # 1,000 wake-ups, 5 s idle
#   Benchmarks/main-thread.sh 10000 30
#
# The release build lives in .build-release, apart from debug builds.
set -euo pipefail

cd "$(dirname "$0")/.."
wakeups="${1:-1000}"
idle_seconds="${2:-5}"
swift build -c release --product TemplateApp --scratch-path .build-release >&2
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"

env -u OPENUIKIT_SERVER "$bin/TemplateApp" wake-up "$wakeups" | grep wake-up

env -u OPENUIKIT_SERVER "$bin/TemplateApp" idle >/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep 0.5
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
switches() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$pid/status"; }
before_ticks=$(ticks); before_switches=$(switches)
sleep "$idle_seconds"
after_ticks=$(ticks); after_switches=$(switches)
hz=$(getconf CLK_TCK)
echo "idle for $idle_seconds s: $(( (after_ticks - before_ticks) * 1000 / hz )) ms of processor time, $(( after_switches - before_switches )) wake-ups of the main thread"
