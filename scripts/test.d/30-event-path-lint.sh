#!/usr/bin/env bash
# The event path's folders call none of the standard library's closure-taking methods (each call would pay an executor check).
#
# A closure written in main-actor code and passed to the standard library
# (`filter`, `map`, `contains(where:)`, `first(where:)`, `removeAll(where:)`,
# `sorted(by:)`, …) gets a dynamic check that it runs on the main actor, at
# every call: the library is not compiled with Swift 6's isolation checking.
# The event path uses plain loops or this module's helpers instead
# (docs/performance.md). This pass finds such calls in the folders a touch
# goes through. Calls already there when the pass was written are listed in
# scripts/event-path-closures.known, to be removed; a call that is not in
# that list fails the pass.
folders=(Sources/UIKit/Application Sources/UIKit/Events Sources/UIKit/Gestures Sources/UIKit/Controls
    Sources/UIKit/Views Sources/UIKit/Responders Sources/UIKit/Scrolling)
known="scripts/event-path-closures.known"

# Methods that always take a closure (or a key path turned into one), then
# methods whose closure form is recognised by its label or by a trailing
# closure that starts with `$0` or `name in`.
always='\.(lazy\.)?(filter|map|compactMap|flatMap|forEach|reduce|allSatisfy|mapValues|compactMapValues|drop\(while|prefix\(while)[[:space:]]*[({]'
labelled='\.(contains|first|last|firstIndex|lastIndex|min|max|sorted|sort|removeAll|split|partition|starts|elementsEqual)[[:space:]]*(\((where|by|whereSeparator):|\{[[:space:]]*(\(?\$[0-9]|[A-Za-z_][A-Za-z0-9_, ()]*[[:space:]]in[[:space:]]))'

step "searching ${folders[*]}"
found="$(grep -rnE "$always|$labelled" --include='*.swift' "${folders[@]}" \
    | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)"
# Compared without line numbers, so that edits elsewhere in a file do not matter.
new="$(printf '%s\n' "$found" | sed -E 's/^([^:]+):[0-9]+:[[:space:]]*/\1: /' | grep -v '^$' | sort \
    | comm -23 - <(sort "$known") || true)"
listed="$(grep -c . "$known" || true)"
if [ -n "$new" ]; then
    echo "FAIL: the event path calls the standard library's closure-taking methods here:" >&2
    printf '  %s\n' "$new" >&2
    echo "Use a loop, or filtered/mapped/firstPosition/anySatisfy/firstSatisfying/removeEvery (Sources/UIKit/Application/Array+*.swift)." >&2
    exit 1
fi
step "no new calls; $listed known ones left to remove (listed in $known)"
