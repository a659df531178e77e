#!/usr/bin/env bash
# Installs the third-party peers the test suite talks to, only where missing (idempotent).
# Tools come from Debian's packages, the Python modules from PyPI and h2spec's Go modules from the Go module proxy;
# nothing is downloaded from anywhere else.
set -euo pipefail

# Installs Debian packages, with sudo when not root (apt-get update first: a fresh machine has no lists).
apt_install() {
  local sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "installing: $*"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

need=()
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v mvn >/dev/null 2>&1 || need+=(maven)

if [ ${#need[@]} -gt 0 ]; then
  apt_install "${need[@]}"
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

# Python modules come from PyPI, pinned, and only when `import` does not already work. python3 (and pip, if
# needed) come from Debian's packages.
if ! command -v python3 >/dev/null 2>&1; then
  apt_install python3
fi
pip_install() { # module-to-import requirement... ; installs the pinned requirements when the module is missing
  local module=$1
  shift
  python3 -c "import $module" >/dev/null 2>&1 && return 0
  if ! python3 -m pip --version >/dev/null 2>&1; then
    apt_install python3-pip
  fi
  echo "installing: python $*"
  # A plain install first; --user or --break-system-packages only if that is refused (PEP 668 environments).
  python3 -m pip install --quiet "$@" \
    || python3 -m pip install --quiet --user "$@" \
    || python3 -m pip install --quiet --break-system-packages "$@"
  python3 -c "import $module" || { echo "python $module module still not importable" >&2; exit 1; }
}

# HpackPythonInteropTest decodes our HPACK encoder's output with the independent Python `hpack` decoder.
HPACK_PY_VERSION=4.1.0
pip_install hpack "hpack==$HPACK_PY_VERSION"

# The HTTP/2 client tests drive raw HTTP/2 with the Python `h2` package (src/test/resources/h2/*.py).
# Pinned, with its two dependencies pinned too (h2 4.1.0 accepts hpack 4.x and hyperframe 6.x).
H2_PY_VERSION=4.1.0
pip_install h2 "h2==$H2_PY_VERSION" "hpack==$HPACK_PY_VERSION" "hyperframe==6.0.1"

# HTTP/2 peers: nghttp and h2load (Debian's nghttp2-client).
if ! command -v nghttp >/dev/null 2>&1 || ! command -v h2load >/dev/null 2>&1; then
  apt_install nghttp2-client
fi

# Slow-client attacks (slow body, slow read) against a small connection limit: Debian's slowhttptest.
if ! command -v slowhttptest >/dev/null 2>&1; then
  apt_install slowhttptest
fi

# The access log's combined format checked by a standard log analyser (AccessLogGoaccessTest): Debian's goaccess.
if ! command -v goaccess >/dev/null 2>&1; then
  apt_install goaccess
fi

# A reverse proxy in front of Weft (NginxFrontTest): Debian's nginx, run by the tests as their own foreground
# process on a loopback port with a configuration in a temporary folder (the package's own service is not used).
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt_install nginx
fi
# nginx's stream module, for `proxy_protocol on` in front of Weft (the PROXY protocol tests).
if [ ! -f /usr/lib/nginx/modules/ngx_stream_module.so ]; then
  apt_install libnginx-mod-stream
fi

# HAProxy in front of Weft with send-proxy-v2 and send-proxy-v2-ssl (the PROXY protocol tests), run by the
# tests as their own foreground process (the package's own service is not used).
if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
  apt_install haproxy
fi

# h2spec (HTTP/2 conformance, H2specConformanceTest), built from source with Go into a tools folder outside
# the repository: $WEFT_TOOLS_BIN, by default ~/.cache/weft-tools/bin (./run-tests exports it for the tests).
# scripts/h2spec/go.mod and go.sum pin h2spec v2.2.1 and every module it is built with; only when that binary
# is missing. Go itself: the one on PATH, else /usr/local/go/bin/go, else Debian's golang-go.
WEFT_TOOLS_BIN=${WEFT_TOOLS_BIN:-$HOME/.cache/weft-tools/bin}
if [ ! -x "$WEFT_TOOLS_BIN/h2spec" ]; then
  go_cmd=$(command -v go || true)
  if [ -z "$go_cmd" ] && [ -x /usr/local/go/bin/go ]; then go_cmd=/usr/local/go/bin/go; fi
  if [ -z "$go_cmd" ]; then
    apt_install golang-go
    go_cmd=$(command -v go)
  fi
  echo "building: h2spec v2.2.1 with $("$go_cmd" version) into $WEFT_TOOLS_BIN"
  mkdir -p "$WEFT_TOOLS_BIN"
  # -mod=readonly: go.mod and go.sum are complete, and nothing in the repository is written.
  (cd "$(dirname "$0")/h2spec" \
    && GOTOOLCHAIN=local GOFLAGS=-mod=readonly GOBIN="$WEFT_TOOLS_BIN" \
       "$go_cmd" install github.com/summerwind/h2spec/cmd/h2spec)
  "$WEFT_TOOLS_BIN/h2spec" --version >/dev/null || { echo "h2spec did not build" >&2; exit 1; }
fi

# Node packages the tests drive (pinned), installed into $WEFT_TOOLS_BIN/../node; tests run node with
# NODE_PATH=$WEFT_TOOLS_BIN/../node/node_modules. Only when the package's folder is missing.
WEFT_NODE_HOME="$(dirname "$WEFT_TOOLS_BIN")/node"
npm_install() { # package version
  local pkg=$1 version=$2
  [ -f "$WEFT_NODE_HOME/node_modules/$pkg/package.json" ] \
    && grep -q "\"version\": \"$version\"" "$WEFT_NODE_HOME/node_modules/$pkg/package.json" && return 0
  if ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
  fi
  echo "installing: node $pkg@$version"
  mkdir -p "$WEFT_NODE_HOME"
  npm install --prefix "$WEFT_NODE_HOME" --no-audit --no-fund --silent --save-exact "$pkg@$version"
}

# Headless browser tests: Debian's Chromium, driven by playwright-core (which never downloads a browser:
# the tests point it at /usr/bin/chromium).
if ! command -v chromium >/dev/null 2>&1; then
  apt_install chromium
fi
PLAYWRIGHT_CORE_VERSION=1.65.1
npm_install playwright-core "$PLAYWRIGHT_CORE_VERSION"

# WebSocket peers: Python websockets and wsproto (RFC 8441 client over h2), Node ws.
pip_install websockets "websockets==17.4"
pip_install wsproto "wsproto==1.3.2"
npm_install ws 8.23.0
