#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets and runs each one.
#
#   Fuzz/run.sh [--short] [TARGET...]
#
# Each target is one Swift file defining LLVMFuzzerTestOneInput; it is
# compiled with the files in Fuzz/Support against the HID, EventServer and
# SceneFile modules (and CoreGraphics for a target that imports it), built here with coverage (-sanitize=fuzzer) and AddressSanitizer.
# Adding a target is adding a file (and, if you like, seed inputs in
# Fuzz/Corpus/TARGET/).
#
# The full pass runs each target for 1,000,000 executions, built with -O;
# --short (for CI) runs 10,000 or 20 seconds, whichever ends first, built
# without optimisation: the build then takes a third of the processor time
# (CoreGraphics 18 s instead of 53 s), and unoptimised code keeps the
# standard library's bounds checks on unsafe buffers, which -O removes and
# only AddressSanitizer would see. New inputs that reach new code go to
# .build/fuzz/corpus/TARGET; a crash stops its target and leaves its input in
# .build/fuzz/crashes/, and the script fails once every target has run. The
# seed corpus in the repository is only read.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000000
time_limit=0
optimization=-O
while [ $# -gt 0 ]; do
    case "$1" in
        --short) runs=10000; time_limit=20; optimization=-Onone ;;
        *) break ;;
    esac
    shift
done
if ! command -v swiftc >/dev/null && [ -x /opt/swift/usr/bin/swiftc ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

# AddressSanitizer too by default (it checks the parsers' unsafe buffer
# reads); FUZZ_SANITIZERS=fuzzer builds with coverage alone, several times faster.
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
build=.build/fuzz
mkdir -p "$build/crashes"
flags=("$optimization" -gline-tables-only -swift-version 6 -sanitize=$sanitizers -parse-as-library -package-name OpenUIKit
    -I "$build" -I Sources/CLinuxInput -I Sources/CSharedMemory -use-ld=lld)

# The builds run side by side, as many at once as there are cores: the
# modules in two lanes (HID then EventServer; SceneFile then Core
# Graphics), then the targets; so do the runs (see below).
source scripts/side-by-side.sh

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for file in Fuzz/Targets/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi

# Core Graphics (the image decoders) and the C libraries it wraps, only
# when a target imports it: libjpeg's small C front end is instrumented
# too; libpng, libjpeg and FreeType are the system's.
needs_graphics=""
for target in "${targets[@]}"; do
    if grep -q '^import CoreGraphics' "Fuzz/Targets/$target.swift"; then needs_graphics=yes; fi
done
link_graphics=()
if [ -n "$needs_graphics" ]; then
    c_modules=(-I Sources/CFreeType -I Sources/CFontconfig -I Sources/CPNG -I Sources/CJPEG -I Sources/CJPEGCodec/include
        $(pkg-config --cflags-only-I freetype2 libpng | sed 's/-I/-Xcc -I/g'))
    link_graphics=("${c_modules[@]}" "$build/CoreGraphics.o" "$build/jpeg_codec.o"
        $(pkg-config --libs freetype2 libpng fontconfig) -ljpeg)
fi

# The event server's C modules: libpng (headless frames) and Xlib (the X
# window output); a target that links the server links their libraries.
server_c_modules=(-I Sources/CPNG -I Sources/CX11 $(pkg-config --cflags-only-I libpng | sed 's/-I/-Xcc -I/g'))
link_server=($(pkg-config --libs libpng x11 xext))

build_module_lane() {
    case "$1" in
    server)
        echo "fuzz: building the HID and EventServer modules" >&2
        swiftc "${flags[@]}" -wmo -module-name HID -emit-module -emit-module-path "$build/HID.swiftmodule" \
            -c -o "$build/HID.o" Sources/HID/*.swift
        local server_sources
        mapfile -t server_sources < <(find Sources/EventServer -name '*.swift' | sort)
        swiftc "${flags[@]}" "${server_c_modules[@]}" -wmo -module-name EventServer -emit-module -emit-module-path "$build/EventServer.swiftmodule" \
            -c -o "$build/EventServer.o" "${server_sources[@]}"
        ;;
    scenes-and-graphics)
        # Scene files are read by a module of their own, with no dependencies.
        echo "fuzz: building the SceneFile module" >&2
        swiftc "${flags[@]}" -wmo -module-name SceneFile -emit-module -emit-module-path "$build/SceneFile.swiftmodule" \
            -c -o "$build/SceneFile.o" Sources/SceneFile/*.swift
        [ -n "$needs_graphics" ] || return 0
        echo "fuzz: building the CoreGraphics module" >&2
        local c_sanitizers=fuzzer-no-link graphics_sources
        [[ $sanitizers == *address* ]] && c_sanitizers+=,address
        clang -O1 -g -fsanitize=$c_sanitizers -I Sources/CJPEGCodec/include \
            -c Sources/CJPEGCodec/jpeg_codec.c -o "$build/jpeg_codec.o"
        mapfile -t graphics_sources < <(find Sources/CoreGraphics -name '*.swift' | sort)
        swiftc "${flags[@]}" "${c_modules[@]}" -wmo -module-name CoreGraphics -emit-module \
            -emit-module-path "$build/CoreGraphics.swiftmodule" -c -o "$build/CoreGraphics.o" "${graphics_sources[@]}"
        ;;
    esac
}
build_target() {
    echo "fuzz: building $1" >&2
    swiftc "${flags[@]}" "${server_c_modules[@]}" -module-name "Fuzz$1" -o "$build/$1" \
        Fuzz/Support/*.swift "Fuzz/Targets/$1.swift" "$build/HID.o" "$build/EventServer.o" "$build/SceneFile.o" \
        "${link_graphics[@]}" "${link_server[@]}"
}

# What the build is made from: the flags, the targets and every source
# file it compiles. A build made from the same is not made again: a second
# run only runs.
inputs_checksum() {
    {
        printf '%s\n' "${flags[@]}" "${targets[@]}"
        find Sources/HID Sources/EventServer Sources/SceneFile Sources/CoreGraphics Sources/C* Fuzz/Support Fuzz/Targets \
            -type f -print0 | sort -z | xargs -0 sha256sum
    } | sha256sum | cut -d' ' -f1
}
built_from="$(inputs_checksum)"
if [ "$(cat "$build/built-from" 2>/dev/null)" = "$built_from" ]; then
    echo "fuzz: the build is up to date (the same flags, targets and sources)" >&2
else
    rm -f "$build/built-from"
    side_by_side build_module_lane server scenes-and-graphics
    side_by_side build_target "${targets[@]}"
    echo "$built_from" >"$build/built-from"
fi


run_target() {
    local target="$1" corpus="$build/corpus/$1" seeds=() start end executions coverage status
    mkdir -p "$corpus"
    if [ -d "Fuzz/Corpus/$target" ]; then seeds=("Fuzz/Corpus/$target"); fi
    echo "fuzz: running $target for $runs executions" >&2
    start=$(date +%s)
    # The budgets the code keeps, as limits: no input may take more than
    # 1 GB (the largest image a scene may decode is 256 MB, ASan's shadow
    # and the decoders' own buffers come on top) or 10 s (a decoder fed a
    # picture it cannot hold used to take 23 s and 1.86 GB).
    "$build/$target" -runs="$runs" -max_total_time="$time_limit" -max_len=8192 -print_final_stats=1 \
        -rss_limit_mb=1024 -timeout=10 \
        -artifact_prefix="$build/crashes/$target-" "$corpus" "${seeds[@]}" 2>"$build/$target.log" || {
        status=$?
        tail -40 "$build/$target.log" >&2
        echo "fuzz: $target FAILED (exit $status); the input is in $build/crashes/" >&2
        return 1
    }
    end=$(date +%s)
    executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" | grep -o '[0-9]*$')
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$build/$target.log" | tail -1)
    echo "fuzz: $target: $executions executions in $((end - start)) s, no crash; $coverage" >&2
    if [ "$time_limit" = 0 ] && [ "${executions:-0}" -lt "$runs" ]; then
        echo "fuzz: $target ran fewer than $runs executions" >&2
        return 1
    fi
}
# Side by side too, as many at once as there are cores: each run is one
# thread. A short run that meets its 20 s cap (EvemuRecording's at -Onone)
# makes fewer executions when the machine is busy, which the short pass
# accepts; the full runs have no cap. One after another, the short runs
# took about 60 s at the end of scripts/test with a core idle beside them.
side_by_side run_target "${targets[@]}"
