#!/usr/bin/env bash
# Installs the Debian 12 packages KioskPrint builds, runs and tests against.
# Idempotent: packages already present are skipped, so a warm machine pays nothing.
set -euo pipefail

# Build: the C libraries the Swift wrapper modules link; libstdc++ for
# TOMLKit's C++ parser; gcc for the libgpiod stand-in the GPIO tests and the
# demo compile at run time; valgrind, whose callgrind the release build runs
# the agent under to make its link order (scripts/build-release.sh).
build_pkgs=(
  libcups2-dev libavahi-client-dev libgpiod-dev libsqlite3-dev
  libcairo2-dev libpango1.0-dev libzint-dev libsystemd-dev libjpeg-dev
  fonts-dejavu-core pkg-config libstdc++-12-dev gcc libc6-dev
  valgrind
)
# Run and test: the simulated printers (ippeveprinter, ipptool, ippfind),
# a private Avahi daemon on loopback, a private D-Bus, tmux for the
# interactive picker test, and systemd-analyze, systemd-sysusers and
# systemd-tmpfiles for the unit's tests; curl, the HTTP API's independent
# client in its tests; headless Chromium, the browser the status page is
# tested in; promtool (Debian ships it in prometheus) checks the agent's
# /metrics and the shipped alert rules; LPrint, the independent label
# printer (ZPL) the label tests print through beside the simulators, and
# socat, which bridges its local socket to a loopback port. The role printers'
# tests and the demo print through a private cupsd (cups, its PDF filters in
# cups-filters, lp and lpadmin in cups-client), and Ghostscript makes the
# documents ipptool's conformance files send; openssl reads the certificate a
# TLS role printer presents; libnss-mdns resolves BOX.local as a client on the
# network does (its postinst adds mdns4_minimal to /etc/nsswitch.conf, as
# Debian desktops have it), and the tests run it beside their private Avahi.
run_pkgs=(
  cups-ipp-utils avahi-daemon avahi-utils dbus-daemon tmux procps systemd
  curl chromium prometheus lprint socat
  cups cups-filters cups-client ghostscript openssl libnss-mdns
)
# The benchmarks (the Benchmarks/ package, built by `scripts/build-release.sh --with-bench`):
# `kioskprint-bench render` compares against Ghostscript's PDF-to-PWG path (gstoraster's),
# and reads each process's peak memory through GNU time.
# `kioskprint-bench print`, `agent` and `api` compare against a private cupsd (lp, ipptool,
# a driverless queue).
bench_pkgs=(
  time
)

missing=()
for p in "${build_pkgs[@]}" "${run_pkgs[@]}" "${bench_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  # avahi-daemon's postinst tries to start the system service; a kiosk box
  # wants that, a CI container has no init, so a failure there is harmless.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

# Test: the barcode decoder the Rendering tests read printed barcodes back
# with (zxing-cpp from PyPI, Pillow to open the PNG previews).
if ! python3 -c "import zxingcpp, PIL" 2>/dev/null; then
  echo "install-deps: installing zxing-cpp and pillow (pip)"
  python3 -m pip install --quiet zxing-cpp pillow
fi
# Test: python-escpos, the independent ESC/POS client the raw role printer
# tests point at the agent's port (its Network printer, as a POS uses it).
if ! python3 -c "import escpos.printer" 2>/dev/null; then
  echo "install-deps: installing python-escpos (pip)"
  python3 -m pip install --quiet "python-escpos==3.1"
fi
