#!/usr/bin/env bash
# Instructions and allocations of a hit test, a tap, a pan, a labels frame, a cards frame and the frames of a navigation push and a page sheet, counted by callgrind, against their limits.
# independent
need valgrind valgrind
need python3 python3
step "Benchmarks/instruction-counts.sh --build (the release build)"
Benchmarks/instruction-counts.sh --build
milestone built
step "Benchmarks/instruction-counts.sh --check (callgrind)"
Benchmarks/instruction-counts.sh --check
