#!/usr/bin/env bash
# The whole test suite (swift test, debug build) with every exclusivity check on: built from a copy of the sources without @exclusivity(unchecked).
#
# One build serves two purposes, which used to take a build each: the
# tests check behaviour, and the copy (scripts/checked-copy) puts back the
# runtime's checks against overlapping accesses that the event path's hot
# state opts out of, so that an overlapping access traps here, naming both
# accesses, instead of corrupting state in a release build. The annotated
# sources themselves are compiled and run by the benchmark guard (release)
# and the fuzzing pass.
# The X window's tests start their own Xvfb and drive it with xdotool; xwd
# takes screenshots of it.
need Xvfb xvfb
need xdotool xdotool
need xwd x11-apps
step "scripts/checked-copy"
copy="$(scripts/checked-copy)"
read -r -a flags <<<"$(scripts/checked-copy --build-flags)"
root="$PWD"
cd "$copy"
step "swift build --build-tests ${flags[*]} (in the copy)"
swift build --build-tests "${flags[@]}"
step "swift test (in the copy, exclusivity checked)"
# The README's commands are tried on a clone of the repository, which the
# copy is not.
OPENUIKIT_REPOSITORY="$root" swift test --skip-build
