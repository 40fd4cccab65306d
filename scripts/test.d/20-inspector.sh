#!/usr/bin/env bash
# The inspector's page in headless Chromium (Selenium): a click on a view shows its hit-test walk and responder chain, and the view gets the touch; in a scene, and attached to an application on the event server.
#
# Debian's chromium and chromium-driver, Selenium from PyPI; each is
# installed when missing, and the pass fails, saying what is missing, when
# one cannot be. It uses the unit pass's build of the checked copy (run
# alone on a fresh clone, it builds the tool there first).
need chromium chromium
need chromedriver chromium-driver
need python3 python3
if ! python3 -c 'import selenium' 2>/dev/null; then
    step "python3 -m pip install selenium"
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet selenium \
        || { echo "FAIL: Selenium is missing and pip could not install it (python3 -m pip install selenium)" >&2; exit 1; }
fi
copy="$(scripts/checked-copy)"
read -r -a flags <<<"$(scripts/checked-copy --build-flags)"
step "swift build --product openuikit, openuikit-server, TouchLogger ${flags[*]} (in the checked copy; done already after the unit pass)"
for product in openuikit openuikit-server TouchLogger; do
    (cd "$copy" && swift build --product "$product" "${flags[@]}")
done
bin="$(cd "$copy" && swift build --show-bin-path "${flags[@]}")"
step "Tests/Browser/inspector_page_test.py (openuikit inspect on a scene file, served with --listen 127.0.0.2; headless Chromium)"
timeout 120 python3 Tests/Browser/inspector_page_test.py "$bin/openuikit" "$OPENUIKIT_TEST_STATE/inspector.png"
step "Tests/Browser/inspector_attach_test.py (openuikit inspect --attach: openuikit-server and TouchLogger as processes, headless Chromium)"
timeout 120 python3 Tests/Browser/inspector_attach_test.py "$bin" "$OPENUIKIT_TEST_STATE/inspector-attach.png"
