# Shared shell functions of the PlaintextServer harnesses (bench/run-http1.sh, bench/run-h2.sh):
# the artifacts (Weft jar, robaho jar, compiled PlaintextServer) and the provider definitions that
# start_server in lib/common.sh calls (server_cmd, provider_class_ok). The providers netty, vertx and
# helidon are not PlaintextServer but the programs of bench/engine (lib/engine-peers.sh), which serve the
# same GET /plaintext.
#
# Source it after lib/common.sh, with BENCH_DIR REPO_DIR TARGET_DIR CLASSES_DIR LIB_DIR set.
# The functions also use JDK JAVA (find_jdk) and the array JVM_FLAGS, set later by the harness,
# which defines
#   provider_props NAME  -> the provider's system properties (selection, TCP_NODELAY, ...), one a line
# How each provider is selected, and why these properties, is explained at the top of run-http1.sh.
# shellcheck shell=bash

# prepare_weft_jar, WEFT_JAR and WEFT_PROVIDER_CLASS.
# shellcheck source=weft-jar.sh
source "$BENCH_DIR/lib/weft-jar.sh"
# ENGINE_MAIN, build_engine_peer, engine_peer_cmd, engine_peer_class_ok.
# shellcheck source=engine-peers.sh
source "$BENCH_DIR/lib/engine-peers.sh"

# The providers that are programs of bench/engine rather than PlaintextServer on a provider jar.
is_engine_provider() { [[ $1 == netty || $1 == vertx || $1 == helidon ]]; }

ROBAHO_GAV="io.github.robaho:httpserver:1.0.29"
ROBAHO_JAR="$LIB_DIR/httpserver-1.0.29.jar"
SERVER_SRC="$BENCH_DIR/plaintext/PlaintextServer.java"
SERVER_MAIN="PlaintextServer"

# Fetches the robaho jar into LIB_DIR with mvn dependency:copy (only once).
fetch_robaho_jar() {
  if [[ -s $ROBAHO_JAR ]]; then
    log "robaho jar already present: $ROBAHO_JAR"
  else
    log "fetching $ROBAHO_GAV from Maven Central"
    # Run outside any project directory so Maven does not pick up a pom.xml.
    (cd "$TARGET_DIR" && run env JAVA_HOME="$JDK" mvn -B -q dependency:copy \
      "-Dartifact=$ROBAHO_GAV" "-DoutputDirectory=$LIB_DIR" >&2)
    [[ -s $ROBAHO_JAR ]] || die "dependency:copy did not produce $ROBAHO_JAR"
  fi
}

compile_plaintext_server() {
  log "compiling $SERVER_SRC"
  run "$JDK/bin/javac" --release 21 -d "$CLASSES_DIR" "$SERVER_SRC"
}

provider_cp() {
  case $1 in
    weft) echo "$WEFT_JAR:$CLASSES_DIR" ;;
    jdk) echo "$CLASSES_DIR" ;;
    robaho) echo "$ROBAHO_JAR:$CLASSES_DIR" ;;
  esac
}

# Succeeds if the provider class printed by the server is the one we meant to measure.
provider_class_ok() {
  local provider=$1 cls=$2
  case $provider in
    jdk) [[ $cls == sun.net.httpserver.DefaultHttpServerProvider ]] ;;
    robaho) [[ $cls == robaho.net.httpserver.DefaultHttpServerProvider ]] ;;
    nghttpd) [[ $cls == nghttpd ]] ;;
    netty | vertx | helidon) engine_peer_class_ok "$provider" "$cls" ;;
    weft)
      if [[ -n $WEFT_PROVIDER_CLASS ]]; then
        [[ $cls == "$WEFT_PROVIDER_CLASS" ]]
      else
        [[ $cls != sun.net.httpserver.* && $cls != robaho.* ]]
      fi
      ;;
  esac
}

server_cmd() { # provider port -> fills SERVER_CMD
  local provider=$1 port=$2 props=()
  SMOKE_CURL_ARGS=()
  if [[ $provider == nghttpd ]]; then
    SMOKE_CURL_ARGS=(--http2-prior-knowledge) # it speaks no HTTP/1.1
    # Not a JVM provider: nghttp2's own C server (one thread by default), serving the same body from
    # the file NGHTTPD_ROOT/plaintext. exec keeps the PID, so its CPU time is measured as a server's.
    SERVER_CMD=(bash -c 'echo "ready nghttpd"; exec nghttpd --no-tls -d "$0" "$1"' "$NGHTTPD_ROOT" "$port")
    return
  fi
  if is_engine_provider "$provider"; then
    engine_peer_cmd "$provider" "$port"
    return
  fi
  mapfile -t props < <(provider_props "$provider")
  SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" "${props[@]}" -cp "$(provider_cp "$provider")" "$SERVER_MAIN" "$port")
}

warn_leftover_servers() {
  if command -v pgrep >/dev/null 2>&1 && pgrep -f -- "$SERVER_MAIN" >/dev/null 2>&1; then
    warn "processes matching '$SERVER_MAIN' are still running:"
    pgrep -af -- "$SERVER_MAIN" >&2 || true
  fi
}
