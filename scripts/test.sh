#!/usr/bin/env bash
# Runs the whole test suite against real parts: libcups talking to
# ippeveprinter on loopback, a private Avahi daemon, real SQLite files,
# tmux driving the interactive picker. Needs root for the private Avahi.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/need-root.sh
source scripts/swift-env.sh
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
