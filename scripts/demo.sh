#!/usr/bin/env bash
# Quick start: installs what is missing, builds, and runs KioskPrint's demo on
# built-in defaults (simulated printers on loopback; nothing else touched).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/need-root.sh
source scripts/swift-env.sh
bash scripts/install-deps.sh
# The build the install path makes (static, link-ordered): the demo runs what a
# box runs. kioskprint-demo (simulated printers; not installed on a box) starts
# the kioskprint beside it as the agent.
bash scripts/build-release.sh --product kioskprint
bash scripts/build-release.sh --product kioskprint-demo
exec .build/release/kioskprint-demo "$@"
