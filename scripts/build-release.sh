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
#                                   idle and per job first: they share a few
#                                   MB of pages instead of touching most of
#                                   the program's 20 MB (idle: 17.5 MB against
#                                   22.9 MB linked without an order)
#   -z pack-relative-relocs         relative relocations as DT_RELR: 38 KB in
#                                   place of 2.3 MB read at every start
#   --no-export-dynamic             no 1 MB dynamic symbol table: nothing
#                                   loads into the agent that links against it
#
# The link order is made by this build, for the sources it builds: when
# .build/link-order/kioskprint.order was not made from these sources, it
# links kioskprint once without an order, profiles that agent under
# callgrind on a simulated kiosk site (kioskprint-startup-order: about a
# minute; needs root for the site's private Avahi, and valgrind), and links
# again with the order it wrote. Without root or valgrind the binary is
# linked without an order, and the build says so.
#
# Usage: scripts/build-release.sh [--with-bench] [swift build arguments]
#
# Without --product it builds kioskprint; other arguments go to `swift build`
# (e.g. --product kioskprint-demo, as the demo runs it). --with-bench also
# builds the Benchmarks package's kioskprint-bench with the same flags, into
# Benchmarks/.build/release: the bench's figures are of code linked as the
# box's. docs/BENCHMARKS.md has the figures. Debian 12's glibc (2.36) reads
# DT_RELR.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-env.sh
order_folder="$PWD/.build/link-order"
order="$order_folder/kioskprint.order"
with_bench=false
arguments=()
for argument in "$@"; do
    if [[ "$argument" == --with-bench ]]; then with_bench=true; else arguments+=("$argument"); fi
done
flags=(-c release --static-swift-stdlib
    -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xcc -ffunction-sections -Xcxx -ffunction-sections
    -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic)
ordered=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)

# What the order was made from: every source file and the toolchain (symbol
# names change with either). An order made for other sources still links,
# but a function missing from it lands after the ordered ones.
fingerprint() {
    { find Sources Package.swift -type f -print0 | sort -z | xargs -0 sha256sum; swift --version 2>&1; } | sha256sum | cut -d' ' -f1
}
order_is_fresh() { [[ -s "$order" && -f "$order_folder/made-from" && "$(cat "$order_folder/made-from")" == "$(fingerprint)" ]]; }

# Products by name: a plain `swift build` would also link dependencies'
# dynamic libraries (GRDB's), which cannot take a static Swift runtime.
# SwiftPM does not know the order file is an input: a binary older than the
# order is removed, so that it is linked again.
link_flags() {  # BINARY: the flags, with the order when there is one
    linking=("${flags[@]}")
    if [[ -s "$order" ]]; then
        if [[ -e "$1" && "$order" -nt "$1" ]]; then rm -f "$1"; fi
        linking+=("${ordered[@]}")
    fi
}

make_order() {
    echo "Making the link order for these sources (kioskprint-startup-order, about a minute under callgrind)..."
    rm -f "$order" "$order_folder/made-from" .build/release/kioskprint
    swift build "${flags[@]}" --product kioskprint
    swift build "${flags[@]}" --product kioskprint-startup-order
    if [[ "$(id -u)" -ne 0 ]] || ! command -v valgrind >/dev/null 2>&1; then
        echo "Note: kioskprint is linked without a link order, which costs the idle agent about 5 MB:" >&2
        echo "making one needs root (a private avahi-daemon) and valgrind. Run this script as root with valgrind installed." >&2
        return 0
    fi
    mkdir -p "$order_folder"
    .build/release/kioskprint-startup-order --kioskprint .build/release/kioskprint --out "$order.new"
    mv "$order.new" "$order"
    fingerprint > "$order_folder/made-from"
}

product=kioskprint
for ((i = 0; i < ${#arguments[@]}; i++)); do
    if [[ "${arguments[i]}" == --product ]]; then product="${arguments[i + 1]:-}"; fi
done
if [[ " ${arguments[*]} " != *" --product "* ]]; then arguments+=(--product kioskprint); fi
if [[ "$product" == kioskprint ]] && ! order_is_fresh; then make_order; fi
link_flags ".build/release/$product"
swift build "${linking[@]}" "${arguments[@]}"
if [[ "$with_bench" == true ]]; then
    # SwiftPM reuses the Benchmarks package's cached build plan while its
    # manifests are unchanged, and so missed a source file added to the
    # product beside it ("cannot find type ... in scope"): plan again.
    rm -f Benchmarks/.build/release/description.json
    link_flags Benchmarks/.build/release/kioskprint-bench
    swift build --package-path Benchmarks "${linking[@]}" --product kioskprint-bench
fi
