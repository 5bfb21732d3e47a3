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
    targets=(job-json template configuration png jpeg pdf envelope printer-attributes http-request ipp-message role-printer raster raw-host-stream epos-request webprnt-request raw-status-answer native-text)
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
    # TOMLKit leaks the C strings it reads values through (about the file's size
    # per parse; the agent parses at start and on SIGHUP only), which adds up at
    # 30,000 parses a second: the configuration target runs in 45 s rounds with
    # a higher RSS limit, and a single allocation over 512 MB still stops it.
    rss=512 round=$seconds
    if [[ "$target" == configuration ]]; then rss=2048 round=45; fi
    status=0 left=$seconds
    : > "$log"
    while ((left > 0 && status == 0)); do
        this=$((left < round ? left : round))
        SWIFT_BACKTRACE=enable=no KIOSKPRINT_FUZZ_TARGET="$target" .build-fuzz/release/kioskprint-fuzz \
            -max_total_time="$this" -rss_limit_mb=$rss -malloc_limit_mb=512 -timeout=10 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix=".build-fuzz/artifacts/$target-" \
            "$work" "Tests/Fuzz/corpus/$target" >> "$log" 2>&1 || status=$?
        left=$((left - this))
    done
    # Keep only the inputs that reach code the kept corpus does not.
    SWIFT_BACKTRACE=enable=no KIOSKPRINT_FUZZ_TARGET="$target" .build-fuzz/release/kioskprint-fuzz -merge=1 -rss_limit_mb=512 -timeout=10 \
        "Tests/Fuzz/corpus/$target" "$work" >> "$log" 2>&1 || true
    # The executions and what stopped it, from libFuzzer's own summary.
    executions=$(grep -E "stat::number_of_executed_units" "$log" | awk '{ n += $2 } END { print n + 0 }')
    echo "  $executions executions"
    grep -E "stat::peak_rss_mb|ERROR|SUMMARY" "$log" | sort -u | sed "s/^/  /" || true
    if ((status != 0)); then echo "fuzz: $target found a problem (exit $status); see $log and .build-fuzz/artifacts/"; fi
done
