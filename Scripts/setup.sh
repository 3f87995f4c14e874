#!/usr/bin/env bash
# Installs the system packages Repeat builds and tests with (Debian/Ubuntu).
# Safe to run again; does nothing that is already done.
set -euo pipefail
# chromium-headless-shell: the report tests render --report pages in a real browser.
# valgrind, binutils (objcopy): Scripts/check-benchmark-gates.py counts instructions with callgrind.
# time (GNU time): the memory tests read a run's peak resident set from /usr/bin/time.
# python3: the gate and Scripts/fuzz.py (libFuzzer and the sanitizers come with the Swift toolchain).
# libstdc++-12-dev: the release build links the Swift runtime in (--static-swift-stdlib), which names -lstdc++
# (one of Swift's own prerequisites on Debian 12 and Ubuntu, so usually there already).
packages=(libxml2-dev libsqlite3-dev libstdc++-12-dev pkg-config tzdata socat gpsd gpsd-clients python3 python3-gps
    chromium-headless-shell valgrind binutils time)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    echo "Installing: ${missing[*]}" >&2
    $SUDO apt-get update -qq
    # --no-install-recommends: gpsd-clients would otherwise pull in a GUI stack
    # (and chromium-headless-shell fonts and drivers the headless shell does not need).
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
