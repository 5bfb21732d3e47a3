#!/usr/bin/env bash
# The release build a kiosk box runs: .build/release/kioskprint, with the
# Swift runtime linked in so the box needs no toolchain, and linked to keep
# the agent's resident memory small:
#
#   --static-swift-stdlib           no Swift toolchain on the box
#   -function-sections (Swift, C)   every function its own section, so the
#                                   linker can drop unused ones and move the
#                                   rest one by one
#   lld, --symbol-ordering-file     the functions the agent runs at start,
#                                   idle and per job first (kioskprint.order,
#                                   made by kioskprint-startup-order in
#                                   Benchmarks/): they share a few MB of pages
#                                   instead of touching most of the program's 20 MB
#   -z pack-relative-relocs         relative relocations as DT_RELR: 38 KB in
#                                   place of 2.3 MB read at every start
#   --no-export-dynamic             no 1 MB dynamic symbol table: nothing
#                                   loads into the agent that links against it
#
# Usage: scripts/build-release.sh [--with-bench] [swift build arguments]
#
# Without --product it builds kioskprint; other arguments go to `swift build`
# (e.g. --product kioskprint, as the demo runs it). --with-bench also builds
# the Benchmarks package's kioskprint-bench and kioskprint-startup-order with
# the same flags, into Benchmarks/.build/release: the bench's figures are of
# code linked as the box's. docs/BENCHMARKS.md has the figures. Debian 12's
# glibc (2.36) reads DT_RELR.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-env.sh
order="$PWD/scripts/kioskprint.order"
with_bench=false
arguments=()
for argument in "$@"; do
    if [[ "$argument" == --with-bench ]]; then with_bench=true; else arguments+=("$argument"); fi
done
# SwiftPM does not know the order file is an input: link again when it changed.
for binary in .build/release/kioskprint Benchmarks/.build/release/kioskprint-bench \
              Benchmarks/.build/release/kioskprint-startup-order; do
    if [[ -e "$binary" && "$order" -nt "$binary" ]]; then rm -f "$binary"; fi
done
flags=(-c release --static-swift-stdlib
    -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xcc -ffunction-sections -Xcxx -ffunction-sections
    -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic
    -Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
# Products by name: a plain `swift build` would also link dependencies'
# dynamic libraries (GRDB's), which cannot take a static Swift runtime.
if [[ " ${arguments[*]} " == *" --product "* ]]; then
    swift build "${flags[@]}" "${arguments[@]}"
else
    swift build "${flags[@]}" --product kioskprint "${arguments[@]}"
fi
if [[ "$with_bench" == true ]]; then
    # SwiftPM reuses the Benchmarks package's cached build plan while its
    # manifests are unchanged, and so missed a source file added to the
    # product beside it ("cannot find type ... in scope"): plan again.
    rm -f Benchmarks/.build/release/description.json
    for product in kioskprint-bench kioskprint-startup-order; do
        swift build --package-path Benchmarks "${flags[@]}" --product "$product"
    done
fi
