#!/usr/bin/env bash
# A short libFuzzer pass over every parser of outside input (Fuzz/run.sh --short).
# independent
# It starts once the benchmark guard's release build is done. Both live on
# idle processor time, and that build, a chain of whole-module -O compiles
# one after another, is the longer: sharing the idle time with this pass it
# ended last, leaving a core idle for its last 155 s (612 s in all on an idle
# machine); this pass now fills that core instead.
step "waiting for the benchmark guard's release build"
after_milestone benchmark-guard built
step "Fuzz/run.sh --short"
Fuzz/run.sh --short
