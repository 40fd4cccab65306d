# Sourced by scripts that run independent jobs at once (Fuzz/run.sh's
# builds, Benchmarks/instruction-counts.sh's callgrind runs).
#
#   side_by_side FUNCTION ITEM...   runs FUNCTION ITEM for each item, as many
#                                   at once as there are processors; fails if
#                                   any of them failed (after all have ended)
side_by_side() {
    local function="$1" running=0 failed=0 at_once
    at_once=$(nproc 2>/dev/null || echo 1)
    shift
    for item in "$@"; do
        "$function" "$item" &
        running=$((running + 1))
        if [ "$running" -ge "$at_once" ]; then
            wait -n || failed=1
            running=$((running - 1))
        fi
    done
    while [ "$running" -gt 0 ]; do
        wait -n || failed=1
        running=$((running - 1))
    done
    return "$failed"
}
