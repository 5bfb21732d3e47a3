# Sourced by demo.sh and test.sh: the simulated printers run a private
# avahi-daemon, which only root may start. Re-runs the calling script with
# sudo when that is possible, and otherwise says what to do.
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    exec sudo --preserve-env=PATH "$0" "$@"
  fi
  echo "$(basename "$0") needs root (it starts a private avahi-daemon for the simulated printers)." >&2
  echo "Run it as root, or install sudo and run it again." >&2
  exit 1
fi
