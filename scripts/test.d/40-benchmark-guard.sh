#!/usr/bin/env bash
# Instructions and allocations of a hit test, a tap and a pan, counted by callgrind, against generous limits.
need valgrind valgrind
need python3 python3
step "Benchmarks/instruction-counts.sh --check (release build, then callgrind)"
Benchmarks/instruction-counts.sh --check
