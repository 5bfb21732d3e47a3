# Sourced by the other scripts: finds the Swift toolchain even under sudo,
# whose secure PATH usually leaves out /opt/swift.
if ! command -v swift >/dev/null 2>&1; then
  for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin "$HOME/.local/share/swiftly/bin"; do
    if [ -x "$candidate/swift" ]; then PATH="$candidate:$PATH"; export PATH; break; fi
  done
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "KioskPrint needs a Swift 6.1 or newer toolchain, and none is on PATH." >&2
  echo "Install the Debian 12 toolchain from swift.org (for example to /opt/swift) and run this again." >&2
  exit 1
fi
