#!/usr/bin/env bash
# The release build a kiosk box runs: .build/release/kioskprint (and the
# bench beside it), with the Swift runtime linked in so the box needs no
# toolchain, and linked to keep the agent's resident memory small:
#
#   --static-swift-stdlib           no Swift toolchain on the box
#   -function-sections (Swift, C)   every function its own section, so the
#                                   linker can drop unused ones and move the
#                                   rest one by one
#   lld, --symbol-ordering-file     the functions the agent runs at start,
#                                   idle and per job first (kioskprint.order,
#                                   made by `kioskprint-bench startup-order`):
#                                   they share a few MB of pages instead of
#                                   touching most of the program's 20 MB
#   -z pack-relative-relocs         relative relocations as DT_RELR: 38 KB in
#                                   place of 2.3 MB read at every start
#   --no-export-dynamic             no 1 MB dynamic symbol table: nothing
#                                   loads into the agent that links against it
#
# docs/BENCHMARKS.md has the figures. Extra arguments go to `swift build`
# (e.g. --product kioskprint); without --product it builds kioskprint and
# kioskprint-bench. Debian 12's glibc (2.36) reads DT_RELR.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-env.sh
order="$PWD/scripts/kioskprint.order"
# SwiftPM does not know the order file is an input: link again when it changed.
for binary in .build/release/kioskprint .build/release/kioskprint-bench; do
    if [[ -e "$binary" && "$order" -nt "$binary" ]]; then rm -f "$binary"; fi
done
flags=(-c release --static-swift-stdlib
    -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xcc -ffunction-sections -Xcxx -ffunction-sections
    -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic
    -Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
if [[ " $* " == *" --product "* ]]; then
    swift build "${flags[@]}" "$@"
else
    # Products by name: a plain `swift build` would also link dependencies'
    # dynamic libraries (GRDB's), which cannot take a static Swift runtime.
    for product in kioskprint kioskprint-bench; do swift build "${flags[@]}" --product "$product" "$@"; done
fi
