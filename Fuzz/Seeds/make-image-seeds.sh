#!/usr/bin/env bash
# Builds make-image-seeds.c against the system's libpng and libjpeg and
# writes its files into Fuzz/Corpus/ImageDecoders (the seeds are kept in
# the repository; run this again only to change them).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .build/fuzz
clang -O1 Fuzz/Seeds/make-image-seeds.c $(pkg-config --cflags --libs libpng) -ljpeg -o .build/fuzz/make-image-seeds
.build/fuzz/make-image-seeds Fuzz/Corpus/ImageDecoders
ls -l Fuzz/Corpus/ImageDecoders
