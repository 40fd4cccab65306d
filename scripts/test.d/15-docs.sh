#!/usr/bin/env bash
# The API reference builds with DocC (UIKit, QuartzCore, CoreGraphics) and none of its symbol links leads nowhere; lists public API without a doc comment.
#
# It uses the unit pass's build (of the checked copy: the same declarations
# and doc comments), so that scripts/test builds the package in debug once;
# run alone (`scripts/test docs` on a fresh clone), it makes that build.
need python3 python3
read -r -a flags <<<"$(scripts/checked-copy --build-flags)"
step "scripts/docs --check --package-path <the checked copy> -- ${flags[*]} (DocC archives in .build/docs)"
scripts/docs --check --package-path "$(scripts/checked-copy)" -- "${flags[@]}"
