# The Weft engine jar for the benchmark harnesses that run Weft on the class path (lib/plaintext.sh for
# run-http1.sh and run-h2.sh; run-ws.sh; run-latency.sh). Source it after lib/common.sh, with REPO_DIR set; the
# function uses JDK (find_jdk), set later by the harness.
# shellcheck shell=bash

WEFT_DEFAULT_JAR="$REPO_DIR/httpserver-engine/target/weft-httpserver-0.1.0-SNAPSHOT.jar"
SPI_SERVICE="META-INF/services/com.sun.net.httpserver.spi.HttpServerProvider"
WEFT_PROVIDER_CLASS=""

# Uses WEFT_JAR if given, else builds httpserver-engine with Maven. Sets WEFT_JAR (absolute) and
# WEFT_PROVIDER_CLASS (from the jar's service file, if unzip is there).
prepare_weft_jar() {
  if [[ -n ${WEFT_JAR:-} ]]; then
    [[ -f $WEFT_JAR ]] || die "WEFT_JAR=$WEFT_JAR does not exist"
    WEFT_JAR="$(cd "$(dirname "$WEFT_JAR")" && pwd)/$(basename "$WEFT_JAR")"
    log "using WEFT_JAR=$WEFT_JAR"
  else
    log "building the Weft engine"
    # Maven's output goes to stderr, so stdout carries only the report (even with -B -q, Maven 3.8
    # prints terminal colour resets on stdout).
    run env JAVA_HOME="$JDK" mvn -B -q -f "$REPO_DIR/pom.xml" -pl httpserver-engine -am -Dmaven.test.skip=true package >&2
    WEFT_JAR="$WEFT_DEFAULT_JAR"
    [[ -f $WEFT_JAR ]] || die "Maven build finished but $WEFT_JAR is missing"
  fi
  if command -v unzip >/dev/null 2>&1; then
    WEFT_PROVIDER_CLASS=$(unzip -p "$WEFT_JAR" "$SPI_SERVICE" 2>/dev/null |
      sed -e 's/#.*//' -e 's/[[:space:]]//g' | awk 'NF { print; exit }') || true
  fi
  [[ -n $WEFT_PROVIDER_CLASS ]] ||
    warn "no $SPI_SERVICE found in $WEFT_JAR; HttpServer.create() will probably fall back to the JDK provider"
}
