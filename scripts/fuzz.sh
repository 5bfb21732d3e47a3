#!/usr/bin/env bash
# Runs libFuzzer on every reader of outside input (or the targets named),
# each for SECONDS_EACH seconds (default 600), with memory and time limits,
# because most risks here are memory and time bombs. It works in
# .build-fuzz/corpus/TARGET, then merges the inputs that reach new code into
# Tests/Fuzz/corpus/TARGET (what the test suite replays; commit them). A
# crash, a hang or an out-of-memory input is written to .build-fuzz/artifacts/
# and named at the end of that target's log.
#
#   scripts/fuzz.sh                      every target, 600 s each
#   SECONDS_EACH=60 scripts/fuzz.sh template job-json
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-env.sh
seconds="${SECONDS_EACH:-600}"
targets=("$@")
if ((${#targets[@]} == 0)); then
    targets=(job-json template configuration png jpeg pdf envelope printer-attributes)
fi
# A build of its own: -sanitize=fuzzer instruments every Swift module and links libFuzzer.
# lld: gold stops with an internal error on the instrumented objects' debug info.
swift build -c release --product kioskprint-fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
mkdir -p .build-fuzz/artifacts .build-fuzz/logs
for target in "${targets[@]}"; do
    log=".build-fuzz/logs/$target.log"
    work=".build-fuzz/corpus/$target"
    mkdir -p "$work"
    echo "fuzz: $target for ${seconds}s (log: $log)"
    status=0
    SWIFT_BACKTRACE=enable=no KIOSKPRINT_FUZZ_TARGET="$target" .build-fuzz/release/kioskprint-fuzz \
        -max_total_time="$seconds" -rss_limit_mb=512 -malloc_limit_mb=512 -timeout=10 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix=".build-fuzz/artifacts/$target-" \
        "$work" "Tests/Fuzz/corpus/$target" > "$log" 2>&1 || status=$?
    # Keep only the inputs that reach code the kept corpus does not.
    SWIFT_BACKTRACE=enable=no KIOSKPRINT_FUZZ_TARGET="$target" .build-fuzz/release/kioskprint-fuzz -merge=1 -rss_limit_mb=512 -timeout=10 \
        "Tests/Fuzz/corpus/$target" "$work" >> "$log" 2>&1 || true
    # The executions and what stopped it, from libFuzzer's own summary.
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY" "$log" | sed "s/^/  /" || true
    if ((status != 0)); then echo "fuzz: $target found a problem (exit $status); see $log and .build-fuzz/artifacts/"; fi
done
