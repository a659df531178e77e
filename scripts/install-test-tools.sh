#!/usr/bin/env bash
# Installs the third-party peers the test suite talks to, only where missing (idempotent).
# Tools come from Debian's packages, the Python hpack decoder from PyPI; nothing is downloaded from anywhere else.
set -euo pipefail

need=()
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v mvn >/dev/null 2>&1 || need+=(maven)

if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "installing: ${need[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The build needs a JDK >= 21 (found by maven-toolchains-plugin); install Debian's if none is present.
have_jdk=false
for d in /usr/lib/jvm/*; do
  [ -f "$d/release" ] || continue
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$d/release")
  if [ -n "$v" ] && [ "$v" -ge 21 ] && [ -x "$d/bin/javac" ]; then have_jdk=true; fi
done
if ! $have_jdk; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  pkg=$(apt-cache search --names-only '^openjdk-(2[1-9]|[3-9][0-9])-jdk-headless$' | awk '{print $1}' | sort -V | tail -1)
  echo "installing $pkg"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$pkg" >/dev/null
fi

# HpackPythonInteropTest decodes our HPACK encoder's output with the independent Python `hpack` decoder.
# python3 (and pip, if needed) come from Debian's packages; the `hpack` module itself comes from PyPI,
# pinned, and only when `import hpack` does not already work.
HPACK_PY_VERSION=4.1.0
if ! command -v python3 >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "installing: python3"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3 >/dev/null
fi
if ! python3 -c 'import hpack' >/dev/null 2>&1; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    echo "installing: python3-pip"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-pip >/dev/null
  fi
  echo "installing: python hpack==$HPACK_PY_VERSION"
  # A plain install first; --user or --break-system-packages only if that is refused (PEP 668 environments).
  python3 -m pip install --quiet "hpack==$HPACK_PY_VERSION" \
    || python3 -m pip install --quiet --user "hpack==$HPACK_PY_VERSION" \
    || python3 -m pip install --quiet --break-system-packages "hpack==$HPACK_PY_VERSION"
  python3 -c 'import hpack' || { echo "python hpack module still not importable" >&2; exit 1; }
fi
