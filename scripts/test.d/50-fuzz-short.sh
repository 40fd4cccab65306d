#!/usr/bin/env bash
# A short libFuzzer pass over every parser of outside input (Fuzz/run.sh --short).
# independent
step "Fuzz/run.sh --short"
Fuzz/run.sh --short
