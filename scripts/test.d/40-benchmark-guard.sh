#!/usr/bin/env bash
# Instructions and allocations of a hit test, a tap, a pan, a labels frame and a cards frame, counted by callgrind, against their limits.
# independent, at normal priority
#
# Its release build is one long chain of whole-module compiles (HID, Core
# Graphics, Quartz Core, UIKit, then the benchmarks): fed only idle time,
# it finished long after the other passes (docs/performance.md, "The test
# command's time").
need valgrind valgrind
need python3 python3
step "Benchmarks/instruction-counts.sh --check (release build, then callgrind)"
Benchmarks/instruction-counts.sh --check
