#!/usr/bin/env bash
# Instructions and allocations of a hit test, a tap, a pan, a labels frame and a cards frame, counted by callgrind, against their limits.
# independent
need valgrind valgrind
need python3 python3
step "Benchmarks/instruction-counts.sh --check (release build, then callgrind)"
Benchmarks/instruction-counts.sh --check
