#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in a build folder of its own:
#
#   scripts/sanitize.sh address                 the whole suite under AddressSanitizer
#   scripts/sanitize.sh thread                  the whole suite under ThreadSanitizer
#   scripts/sanitize.sh address --filter 'HTTPAPITests|SpoolerTests|RenderingTests'
#
# Extra arguments go to `swift test`. A finding stops the test process with
# the sanitizer's report (the stack of the bad access and of the memory's
# allocation and free); the exit status is non-zero. The C libraries
# (GLib, Pango, cairo, libcups) are not instrumented: their own bugs show
# only where Swift code touches the memory.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/need-root.sh
source scripts/swift-env.sh
kind="${1:?usage: scripts/sanitize.sh address|thread [swift test arguments]}"
shift
case "$kind" in
  address|thread) ;;
  *) echo "scripts/sanitize.sh: the sanitizer is address or thread, not $kind" >&2; exit 64 ;;
esac
bash scripts/install-deps.sh
scratch=".build-$kind"
# Swift's backtracer would catch the sanitizer's signal first: let the sanitizer report.
export SWIFT_BACKTRACE=enable=no
# Leaks are reported by the process's end, which a test runner reaches with
# libraries' caches still held: only bad accesses are findings here.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
# Every race in one run (the process still exits non-zero when any was reported).
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" "$@"
