#!/usr/bin/env bash
# The screen's figures, with release builds:
# - touch to photon: a dot dragged under the finger, from the server's read
#   of each event to the refresh that presented the first frame showing it,
#   headless at 120 Hz (20,000 events at 233 Hz: 10,300 frames), and in a
#   window on an X server (Xvfb, started here) at 60 Hz (20,000 events at
#   113 Hz: 10,600 frames). The event rates are not multiples of the
#   refresh rate, so that the events fall at every phase of the refresh,
#   as a touch panel's own clock does; at 240 Hz into 120 Hz every frame's
#   oldest event had the same phase and the figure was that phase's alone;
# - frames dropped: a 1,000-row table view flung again and again, each
#   fling left to decelerate, at 120 Hz, until 10 s of deceleration:
#   refreshes that showed no new frame while it moved (aim: none);
# - idle: the processor time the server and the demo app use while
#   nothing happens on the screen (aim: none), and how often they wake.
#
#   Benchmarks/screen.sh              # both
#   Benchmarks/screen.sh idle 10      # only the idle figures, over 10 s
#
# The release build lives in .build-release, apart from debug builds.
set -euo pipefail

cd "$(dirname "$0")/.."
for product in openuikit-server openuikit-latency-app openuikit-latency-benchmark OpenUIKitDemo; do
    swift build -c release --product "$product" --scratch-path .build-release >&2
done
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"

what="${1:-all}"
seconds="${2:-10}"
if [ "$what" = all ]; then
    "$bin/openuikit-latency-benchmark" --photon --refresh 120 --events 20000 --rate 233
    if command -v Xvfb >/dev/null; then
        Xvfb :77 -screen 0 1280x2600x24 -nolisten tcp >/dev/null 2>&1 &
        xvfb=$!
        sleep 1
        DISPLAY=:77 "$bin/openuikit-latency-benchmark" --photon --refresh 60 --events 20000 --rate 113 --display x11
        kill $xvfb
    else
        echo "NOT MEASURED: touch to photon in a window needs Xvfb (apt-get install -y xvfb)"
    fi
    "$bin/openuikit-latency-benchmark" --fling --refresh 120 || echo "(frames were dropped)"
fi

directory="$(mktemp -d)"
"$bin/openuikit-server" --socket "$directory/server.sock" --display headless --refresh 120 2>/dev/null &
server=$!
OPENUIKIT_SERVER="$directory/server.sock" "$bin/OpenUIKitDemo" >/dev/null 2>&1 &
app=$!
trap 'kill $server $app 2>/dev/null || true; rm -rf "$directory"' EXIT
sleep 2
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
switches() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
server_ticks=$(ticks $server); app_ticks=$(ticks $app)
server_switches=$(switches $server); app_switches=$(switches $app)
sleep "$seconds"
hz=$(getconf CLK_TCK)
echo "idle for $seconds s at 120 Hz: server $(( ($(ticks $server) - server_ticks) * 1000 / hz )) ms of processor time and $(( $(switches $server) - server_switches )) wake-ups; demo app $(( ($(ticks $app) - app_ticks) * 1000 / hz )) ms and $(( $(switches $app) - app_switches )) wake-ups"
