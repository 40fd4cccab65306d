#!/usr/bin/env bash
# The tests check equality with expectEqual(a, b), not #expect(a == b), whose expansion costs ten times the compile time.
#
# Each `#expect(a == b)` took 19-40 ms to compile against 3 ms for
# `expectEqual(a, b)`; two thousand of them were more than a minute of the
# test command's processor time (docs/performance.md). `scripts/expect-equal
# --fix` rewrites what this pass finds; checks of values that are not
# Equatable are listed in scripts/expect-equal.known.
need python3 python3
step "scripts/expect-equal --check (Tests/)"
scripts/expect-equal --check
step "none; $(grep -c . scripts/expect-equal.known) checks of values that are not Equatable left as they are (scripts/expect-equal.known)"
