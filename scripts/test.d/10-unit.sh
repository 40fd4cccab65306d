#!/usr/bin/env bash
# The whole test suite (swift test, debug build).
step "swift build --build-tests"
swift build --build-tests
step "swift test"
swift test --skip-build
