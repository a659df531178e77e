#!/usr/bin/env bash
#
# Micronaut benchmark: the same Micronaut 4.10 app on Weft (weft-micronaut) and on Netty
# (micronaut-http-server-netty, Micronaut's default server), side by side in one run: requests per second
# (plaintext and JSON, each plain keep-alive and pipelined) and resident memory (RSS) after startup and under
# 1,000 open connections.
#
# bench/micronaut/src holds one app (MicronautBenchApplication: GET /plaintext -> String "Hello, World!",
# text/plain; GET /json -> a record serialized by micronaut-serde, {"message":"Hello, World!"}), with each
# server's default threading (Netty runs the non-blocking routes on its event loops, Weft on the connection's
# virtual thread). bench/micronaut/{weft,netty}/pom.xml compile that same source with different dependencies,
# and maven-shade-plugin packs each into the executable jar bench/micronaut/<server>/target/app.jar:
#   weft  : dev.weft:weft-micronaut built from this working tree (the root reactor's `bench` profile
#           packages it with the app; nothing is installed into ~/.m2)
#   netty : io.micronaut:micronaut-http-server-netty
# Every server is started as `java $JVM_OPTS -Dmicronaut.server.port=PORT -jar app.jar`; the JVM flags and
# the app are identical, only the jar's server differs. Load comes from wrk against 127.0.0.1.
#
# Per server and round: start; read VmRSS (after startup); a JIT warm-up of JIT_WARMUP in each
# mode; for each mode a warm-up then a measured wrk run (plaintext, plaintext-pipelined, json, json-pipelined;
# pipelined = bench/pipeline.lua, PIPELINE_DEPTH requests per send); then wrk with HOLD_CONNECTIONS
# connections on /plaintext for HOLD_DURATION while VmRSS is read every half second (the highest reading is
# reported); stop. Rounds alternate the order of the servers (weft netty, netty weft, ...).
#
# Knobs (environment variables):
#   SERVERS          servers to run                            (default "weft netty")
#   ROUNDS           rounds; each round runs every server once (default 3)
#   DURATION         wrk duration of each measured run         (default 5s)
#   JIT_WARMUP       wrk in each mode after startup            (default 10s; 0 = none)
#   WARMUP           wrk warm-up before each measured run      (default 2s; 0 = no warm-up)
#   CONNECTIONS      wrk connections of the measured runs      (default 64)
#   PIPELINE_DEPTH   requests per pipelined send               (default 16)
#   WRK_THREADS      wrk threads                               (default 1)
#   HOLD_CONNECTIONS connections of the memory run             (default 1000)
#   HOLD_DURATION    duration of the memory run                (default 5s)
#   JVM_OPTS         JVM flags, identical for every server     (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   BENCH_JDK        use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT  seconds to wait for a server to become ready (default 60)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and wrk (default: not pinned; see
#                    lib/common.sh); SERVER_CPUS=1 LOAD_CPUS=0 gives the server a core of its own
#   SKIP_BUILD       1 = use the existing bench/micronaut/*/target/app.jar, build nothing (default 0)
#   QUIET_WAIT       seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD       1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY       % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP        the peer (netty) below PEER_DROP x its baseline makes the run not comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE   the peers' baselines                      (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start the script waits up to
# QUIET_WAIT seconds for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later
# ones: CPUs busy <= QUIET_BUSY % in a one-second sample, since the load average still counts the
# script's own previous run); a start that finds none is marked "!" in the tables and listed at the
# end of the report, which shows the load average (1, 5, 15 min) and CPU use before every start. The medians of
# the peer (netty; never Weft's), in every mode and in the memory run (mode plaintext-hold-HOLD_CONNECTIONS),
# are compared with its rows in bench/baselines.tsv for the same CPU placement (none yet: the first run on a
# quiet machine with UPDATE_BASELINES=1 writes them): one below PEER_DROP x its baseline puts a
# "NOT COMPARABLE" box at the top of the report and, after the report is written, makes the script exit with
# status 3 (unless ACCEPT_DISTURBED=1).
#
# The app prints "ready <EmbeddedServer class> <port>" once the server listens (its log level is WARN,
# so Micronaut's own start-up lines are silent); the harness checks that class, so a jar that ended
# up with the wrong server is never measured under the wrong name.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
LOG_DIR="$TARGET_DIR/logs-micronaut"
RESULTS_FILE="$TARGET_DIR/results-micronaut.txt"
PIPELINE_LUA="$BENCH_DIR/pipeline.lua"
MICRONAUT_DIR="$BENCH_DIR/micronaut"

SERVERS="${SERVERS:-weft netty}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-5s}"
JIT_WARMUP="${JIT_WARMUP:-10s}"
WARMUP="${WARMUP:-2s}"
CONNECTIONS="${CONNECTIONS:-64}"
PIPELINE_DEPTH="${PIPELINE_DEPTH:-16}"
WRK_THREADS="${WRK_THREADS:-1}"
HOLD_CONNECTIONS="${HOLD_CONNECTIONS:-1000}"
HOLD_DURATION="${HOLD_DURATION:-5s}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-60}"
SKIP_BUILD="${SKIP_BUILD:-0}"

MODES=(plaintext plaintext-pipelined json json-pipelined)

# Shared functions: logging, server/wrk lifecycle and the EXIT trap, JDK search, tools, measure().
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# The endpoint modes (wrk_cmd), the memory run and the report tables.
# shellcheck source=lib/endpoints.sh
source "$BENCH_DIR/lib/endpoints.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
check_common_knobs
check_endpoint_knobs
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"

parse_server_list weft netty

read -r -a JVM_FLAGS <<<"$JVM_OPTS"

install_cleanup_traps

ensure_tool wrk wrk
ensure_tool curl curl

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
app_jar() { echo "$MICRONAUT_DIR/$1/target/app.jar"; }

build_app_jars "$MICRONAUT_DIR" "${SERVER_LIST[@]}"

# The embedded servers inside each jar, for the report (and a sanity check of each jar): a shaded jar has no
# library list (Micronaut's own jars, built by Gradle, carry no Maven metadata), so the server classes are
# looked up, with the versions of the Maven-built libraries (Weft's, Netty's). A weft jar holding Micronaut's
# Netty server gets a warning (the ready-line check then shows which server really starts).
declare -A SERVER_LIBS=()
for s in "${SERVER_LIST[@]}"; do
  jar=$(app_jar "$s")
  [[ -s $jar ]] || die "$jar is missing (build it, or run without SKIP_BUILD=1)"
  libs=""
  if command -v unzip >/dev/null 2>&1; then
    entries=$(unzip -Z1 "$jar" 2>/dev/null) || entries=""
    for cls in dev/weft/micronaut/server/WeftEmbeddedServer io/micronaut/http/server/netty/NettyHttpServer; do
      grep -qx "$cls.class" <<<"$entries" && libs+="${cls//\//.} "
    done
    libs+=$(unzip -p "$jar" 'META-INF/maven/*/pom.properties' 2>/dev/null | tr -d '\r' |
      awk -F= '$1 == "artifactId" { a = $2 } $1 == "version" { v = $2 } a != "" && v != "" { print a "-" v; a = v = "" }' |
      grep -E '^(weft-httpserver|weft-micronaut|netty-codec-http-[0-9])' | sort -u | tr '\n' ' ') || true
    if [[ $s != netty && $libs == *NettyHttpServer* ]]; then
      warn "$jar contains Micronaut's Netty server; the ready-line check will show which server actually starts"
    fi
  fi
  SERVER_LIBS[$s]=${libs% }
  log "$s jar: $jar (${SERVER_LIBS[$s]:-libraries not listed})"
done

# ---------------------------------------------------------------------------------------------
# Server definitions (used by start_server in lib/common.sh)
# ---------------------------------------------------------------------------------------------
server_cmd() { # server port -> fills SERVER_CMD
  SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" "-Dmicronaut.server.port=$2" -jar "$(app_jar "$1")")
}

# Succeeds if the EmbeddedServer class printed by the app belongs to the intended server.
provider_class_ok() {
  local server=$1 cls=$2
  case $server in
    weft) [[ $cls == dev.weft.micronaut.* ]] ;;
    netty) [[ $cls == io.micronaut.http.server.netty.NettyHttpServer ]] ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
measure_rounds_with_memory

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MEDIAN=()
compute_medians "${SERVER_LIST[@]}"

register_endpoint_peers "${SERVER_LIST[@]}"
BASELINE_SETTINGS="ROUNDS=$ROUNDS DURATION=$DURATION JIT_WARMUP=$JIT_WARMUP WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS PIPELINE_DEPTH=$PIPELINE_DEPTH HOLD_DURATION=$HOLD_DURATION"
check_baselines

report() {
  local server
  report_disturbed
  echo "Micronaut benchmark: plaintext and JSON ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  cpu_placement
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; duration: $DURATION; JIT warm-up: $JIT_WARMUP per mode;" \
    "warm-up: $WARMUP per mode;" \
    "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"
  echo
  report_endpoint_tables netty
  echo
  report_memory
  echo
  report_baselines
  echo
  echo "Embedded server and server libraries in each jar:"
  for server in "${SERVER_LIST[@]}"; do
    echo "  $server: ${SERVER_LIBS[$server]:-?}"
  done
  echo
  report_endpoint_commands
  echo
  report_quiet
}

{
  report
  echo
  report_endpoint_raw
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"

leftover_pattern="$MICRONAUT_DIR/[a-z]*/target/app.jar"
if command -v pgrep >/dev/null 2>&1 && pgrep -f -- "$leftover_pattern" >/dev/null 2>&1; then
  warn "processes matching '$leftover_pattern' are still running:"
  pgrep -af -- "$leftover_pattern" >&2 || true
fi

exit_if_disturbed
