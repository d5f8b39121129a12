#!/usr/bin/env bash
# Installs what patchcli's build, tests, demo and benchmarks need and is not there yet.
# Debian/Ubuntu: apt packages (as root, or through sudo). macOS: Homebrew. Then the Python peers.
set -euo pipefail

# libcurl4-openssl-dev: tests that talk to `serve` use URLSession, whose Linux implementation (FoundationNetworking) loads libcurl.
# busybox: a bzip2 decoder that is not libbz2, which reads the diff's recoded bzip2 streams in
# BZip2RecoderTests.
# postgresql: the server binaries (initdb, postgres) the PostgreSQL event-store tests start on loopback
# (Tests/PatchEventsPostgresTests/PostgresCluster.swift); under CI=true those tests fail without them.
apt_packages=(pkg-config libbz2-dev libzstd-dev liblzma-dev libbrotli-dev libsqlite3-dev libcurl4-openssl-dev bsdiff wabt binaryen postgresql busybox)
brew_packages=(pkg-config bzip2 zstd xz brotli sqlite bsdiff wabt binaryen postgresql@16)
python_modules=(bsdiff4:bsdiff4 wasmtime:wasmtime msgpack:msgpack tuf:tuf brotli:brotli pbxproj:pbxproj kin:kin)

say() { printf 'setup: %s\n' "$*" >&2; }

if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for package in "${apt_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if ((${#missing[@]})); then
        sudo=""
        if [ "$(id -u)" -ne 0 ]; then
            command -v sudo >/dev/null || { say "need root to install: ${missing[*]}"; exit 1; }
            sudo="sudo"
        fi
        say "installing ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
elif command -v brew >/dev/null 2>&1; then
    for package in "${brew_packages[@]}"; do
        brew list --formula "$package" >/dev/null 2>&1 || brew install "$package"
    done
else
    say "no apt or Homebrew: install the equivalents of: ${apt_packages[*]}"
fi

python=${PYTHON:-python3}
pip_missing=()
for entry in "${python_modules[@]}"; do
    module=${entry%%:*}
    package=${entry#*:}
    "$python" -c "import $module" 2>/dev/null || pip_missing+=("$package")
done
if ((${#pip_missing[@]})); then
    say "pip installing ${pip_missing[*]}"
    "$python" -m pip install --quiet --disable-pip-version-check "${pip_missing[@]}" 2>&1 | grep -v "Running pip as the 'root' user" >&2 || true
fi
