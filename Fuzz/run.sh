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
# The full pass runs each target for 1,000,000 executions; --short runs
# 10,000 or 20 seconds, whichever ends first (for CI). New inputs that reach new code go to
# .build/fuzz/corpus/TARGET; a crash stops the run and leaves its input in
# .build/fuzz/crashes/. The seed corpus in the repository is only read.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000000
time_limit=0
if [ "${1:-}" = "--short" ]; then
    runs=10000
    time_limit=20
    shift
fi
if ! command -v swiftc >/dev/null && [ -x /opt/swift/usr/bin/swiftc ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

# AddressSanitizer too by default (it checks the parsers' unsafe buffer
# reads); FUZZ_SANITIZERS=fuzzer builds with coverage alone, several times faster.
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
build=.build/fuzz
mkdir -p "$build/crashes"
flags=(-O -g -swift-version 6 -sanitize=$sanitizers -parse-as-library -package-name OpenUIKit
    -I "$build" -I Sources/CLinuxInput -I Sources/CSharedMemory -use-ld=lld)

echo "fuzz: building the HID, EventServer and SceneFile modules" >&2
swiftc "${flags[@]}" -wmo -module-name HID -emit-module -emit-module-path "$build/HID.swiftmodule" \
    -c -o "$build/HID.o" Sources/HID/*.swift
mapfile -t server_sources < <(find Sources/EventServer -name '*.swift' | sort)
swiftc "${flags[@]}" -wmo -module-name EventServer -emit-module -emit-module-path "$build/EventServer.swiftmodule" \
    -c -o "$build/EventServer.o" "${server_sources[@]}"

# Scene files are read by a module of their own, with no dependencies.
swiftc "${flags[@]}" -wmo -module-name SceneFile -emit-module -emit-module-path "$build/SceneFile.swiftmodule" \
    -c -o "$build/SceneFile.o" Sources/SceneFile/*.swift

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for file in Fuzz/Targets/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi

# Core Graphics (the image decoders) and the C libraries it wraps, only
# when a target imports it: libjpeg's small C front end is instrumented
# too; libpng, libjpeg and FreeType are the system's.
link_graphics=()
for target in "${targets[@]}"; do
    if grep -q '^import CoreGraphics' "Fuzz/Targets/$target.swift"; then
        echo "fuzz: building the CoreGraphics module" >&2
        c_modules=(-I Sources/CFreeType -I Sources/CFontconfig -I Sources/CPNG -I Sources/CJPEG -I Sources/CJPEGCodec/include
            $(pkg-config --cflags-only-I freetype2 libpng | sed 's/-I/-Xcc -I/g'))
        c_sanitizers=fuzzer-no-link
        [[ $sanitizers == *address* ]] && c_sanitizers+=,address
        clang -O1 -g -fsanitize=$c_sanitizers -I Sources/CJPEGCodec/include \
            -c Sources/CJPEGCodec/jpeg_codec.c -o "$build/jpeg_codec.o"
        mapfile -t graphics_sources < <(find Sources/CoreGraphics -name '*.swift' | sort)
        swiftc "${flags[@]}" "${c_modules[@]}" -wmo -module-name CoreGraphics -emit-module \
            -emit-module-path "$build/CoreGraphics.swiftmodule" -c -o "$build/CoreGraphics.o" "${graphics_sources[@]}"
        link_graphics=("${c_modules[@]}" "$build/CoreGraphics.o" "$build/jpeg_codec.o"
            $(pkg-config --libs freetype2 libpng fontconfig) -ljpeg)
        break
    fi
done

for target in "${targets[@]}"; do
    echo "fuzz: building $target" >&2
    swiftc "${flags[@]}" -module-name "Fuzz$target" -o "$build/$target" \
        Fuzz/Support/*.swift "Fuzz/Targets/$target.swift" "$build/HID.o" "$build/EventServer.o" "$build/SceneFile.o" \
        "${link_graphics[@]}"
done

for target in "${targets[@]}"; do
    corpus="$build/corpus/$target"
    mkdir -p "$corpus"
    seeds=()
    [ -d "Fuzz/Corpus/$target" ] && seeds=("Fuzz/Corpus/$target")
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
        exit 1
    }
    end=$(date +%s)
    executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" | grep -o '[0-9]*$')
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$build/$target.log" | tail -1)
    echo "fuzz: $target: $executions executions in $((end - start)) s, no crash; $coverage" >&2
    if [ "$time_limit" = 0 ] && [ "${executions:-0}" -lt "$runs" ]; then
        echo "fuzz: $target ran fewer than $runs executions" >&2
        exit 1
    fi
done
