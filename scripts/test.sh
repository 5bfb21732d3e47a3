#!/usr/bin/env bash
# Runs the whole test suite against real parts: libcups talking to
# ippeveprinter on loopback, a private Avahi daemon, real SQLite files,
# tmux driving the interactive picker. Needs root for the private Avahi.
#
# --no-root: as the calling user, without sudo and without installing
# packages (scripts/install-deps.sh may need sudo): builds, then runs every
# suite but those in scripts/root-suites.txt. Other arguments go to swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
no_root=false
args=() skips=()
for arg in "$@"; do
  if [ "$arg" = "--no-root" ]; then no_root=true; else args+=("$arg"); fi
done
if $no_root; then
  # A listed name skips that suite and the suites nested in it, not one whose name merely starts alike.
  while read -r suite; do
    skips+=(--skip "^${suite//./\\.}([./]|\$)")
  done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' scripts/root-suites.txt)
else
  source scripts/need-root.sh
fi
source scripts/swift-env.sh
$no_root || bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "${skips[@]}" "${args[@]}"
