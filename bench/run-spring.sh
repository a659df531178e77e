#!/usr/bin/env bash
#
# Spring WebFlux "plaintext" benchmark: the same Spring Boot 4.1.1 app on Weft, Reactor Netty
# and Jetty.
#
# bench/spring/src holds one app (PlaintextApplication: GET /plaintext -> Mono<String>
# "Hello, World!", text/plain; this script measures only that endpoint. The app also serves
# GET /api/report?size=N, a CPU-bound JSON report, for other harnesses: see ReportController and
# bench/clinic/README.md). bench/spring/{weft,netty,jetty}/pom.xml compile that same source
# with different dependencies, and spring-boot-maven-plugin repackages each into
# bench/spring/<server>/target/app.jar:
#   weft  : spring-boot-starter-webflux without spring-boot-starter-reactor-netty,
#           plus dev.weft:weft-spring-boot-starter:0.1.0-SNAPSHOT (installed from this repository)
#   netty : spring-boot-starter-webflux (Reactor Netty, Boot's default reactive server)
#   jetty : spring-boot-starter-webflux without spring-boot-starter-reactor-netty,
#           plus spring-boot-starter-jetty
# Every server is started as `java $JVM_OPTS -jar app.jar --server.port=PORT`; the JVM flags and
# the app are identical, only the jar's server differs. Load comes from wrk against 127.0.0.1,
# in two modes (plain keep-alive, and pipelined with bench/pipeline.lua).
#
# Knobs (environment variables):
#   SERVERS         servers to run                            (default "weft netty jetty")
#   ROUNDS          rounds; each round runs every server once (default 3)
#   DURATION        wrk duration of each measured run         (default 10s)
#   WARMUP          wrk warm-up before each measured run      (default 5s; 0 = no warm-up)
#   CONNECTIONS     wrk connections                           (default 64)
#   PIPELINE_DEPTH  requests per pipelined send               (default 16)
#   WRK_THREADS     wrk threads                               (default 1)
#   JVM_OPTS        JVM flags, identical for every server     (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 60)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and the load generator (default: not pinned;
#                   see lib/common.sh)
#   SKIP_BUILD      1 = use the existing bench/spring/*/target/app.jar, build nothing (default 0)
#   WEFT_INSTALL    0 = do not install spring-boot-starter from this repository first; use the
#                   weft-spring-boot-starter already in ~/.m2 (default 1)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD      1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY      % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP       a peer (netty, jetty) below PEER_DROP x its baseline makes the run not comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE  the peers' baselines                      (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start the script waits up to
# QUIET_WAIT seconds for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later
# ones: CPUs busy <= QUIET_BUSY % in a one-second sample, since the load average still counts the
# script's own previous run); a start that finds none is marked "!" in the tables and listed at the
# end of the report, which shows the load average (1, 5, 15 min) and CPU use before every start. The medians of
# the peers (netty, jetty; never Weft's) are compared with their rows in bench/baselines.tsv: one below
# PEER_DROP x its baseline puts a "NOT COMPARABLE" box at the top of the report and, after the report
# is written, makes the script exit with status 3 (unless ACCEPT_DISTURBED=1).
#
# The app prints "ready <WebServer class> <port>" once the server listens (its log level is WARN,
# so Boot's own start-up lines are silent); the harness checks that class, so a jar that ended
# up with the wrong server (e.g. Reactor Netty winning in the weft jar) is never measured under
# the wrong name.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
LOG_DIR="$TARGET_DIR/logs-spring"
RESULTS_FILE="$TARGET_DIR/results-spring.txt"
PIPELINE_LUA="$BENCH_DIR/pipeline.lua"
SPRING_DIR="$BENCH_DIR/spring"

SERVERS="${SERVERS:-weft netty jetty}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-5s}"
CONNECTIONS="${CONNECTIONS:-64}"
PIPELINE_DEPTH="${PIPELINE_DEPTH:-16}"
WRK_THREADS="${WRK_THREADS:-1}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-60}"
SKIP_BUILD="${SKIP_BUILD:-0}"
WEFT_INSTALL="${WEFT_INSTALL:-1}"

MODES=(plain pipelined)

# Shared functions: logging, server/wrk lifecycle and the EXIT trap, JDK search, tools, measure().
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
check_common_knobs
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"
[[ $WEFT_INSTALL == 0 || $WEFT_INSTALL == 1 ]] || die "WEFT_INSTALL must be 0 or 1 (got '$WEFT_INSTALL')"

parse_server_list weft netty jetty

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
app_jar() { echo "$SPRING_DIR/$1/target/app.jar"; }

maven_env "$JDK"

if [[ $SKIP_BUILD == 1 ]]; then
  log "SKIP_BUILD=1: using the existing jars"
else
  if has_server weft; then
    if [[ $WEFT_INSTALL == 1 ]]; then
      log "installing weft-spring-boot-starter (and what it needs) into ~/.m2"
      (cd "$REPO_DIR" && run "${MVN_ENV[@]}" mvn -B -q -DskipTests install -pl spring-boot-starter -am) ||
        die "could not install the Weft starter (mvn -DskipTests install -pl spring-boot-starter -am failed; see above)"
    else
      log "WEFT_INSTALL=0: using the weft-spring-boot-starter already in ~/.m2"
    fi
  fi
  for s in "${SERVER_LIST[@]}"; do
    log "building the $s variant"
    run "${MVN_ENV[@]}" mvn -B -q -f "$SPRING_DIR/$s/pom.xml" -DskipTests clean package ||
      die "could not build $SPRING_DIR/$s (see above)"
  done
fi

# The server libraries inside each jar, for the report (and a sanity check of each jar).
collect_boot_jar_libs '^(weft-|reactor-netty-http-|netty-codec-http-[0-9]|netty-transport-native-epoll-|jetty-server-|jetty-ee[0-9]*-servlet-[0-9]|spring-boot-[0-9]|spring-webflux-)' \
  netty reactor-netty-http- "${SERVER_LIST[@]}"

# ---------------------------------------------------------------------------------------------
# Server definitions (used by start_server in lib/common.sh)
# ---------------------------------------------------------------------------------------------
server_cmd() { boot_server_cmd "$@"; }

# Succeeds if the WebServer class printed by the app belongs to the intended server.
provider_class_ok() {
  local server=$1 cls=$2
  case $server in
    weft) [[ $cls == dev.weft.* ]] ;;
    netty) [[ $cls == org.springframework.boot.reactor.netty.NettyWebServer ]] ;;
    jetty) [[ $cls == org.springframework.boot.jetty.JettyWebServer ]] ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Measurement (start_server, measure and quiet_wait are in lib/common.sh)
# ---------------------------------------------------------------------------------------------
START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "servers: ${SERVER_LIST[*]}; rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP;" \
  "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"

# Every round runs every server once; the starting server moves by one each round (weft netty jetty, netty jetty
# weft, ...) so no server always runs first or last.
rotating_rounds bench_one

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MEDIAN=()
compute_medians "${SERVER_LIST[@]}"
register_peers req/s "${SERVER_LIST[@]}"
BASELINE_SETTINGS="ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS PIPELINE_DEPTH=$PIPELINE_DEPTH"
check_baselines

report() {
  local server other label
  report_disturbed
  echo "Spring WebFlux plaintext benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  cpu_placement
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP per mode;" \
    "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"
  echo
  printf '%-8s %18s %18s\n' server "plain req/s" "pipelined req/s"
  printf '%-8s %18s %18s\n' -------- ------------------ ------------------
  for server in "${SERVER_LIST[@]}"; do
    printf '%-8s %18s %18s\n' "$server$(mark_of "$server")" "${MEDIAN["$server plain"]}" "${MEDIAN["$server pipelined"]}"
  done
  echo "(medians over $ROUNDS round(s))"
  mark_legend
  echo
  printf '%-14s %10s %10s\n' ratio plain pipelined
  printf '%-14s %10s %10s\n' -------------- ---------- ----------
  for other in netty jetty; do
    label="Weft/${other^}"
    if has_server weft && has_server "$other"; then
      printf '%-14s %10s %10s\n' "$label" \
        "$(ratio "${MEDIAN["weft plain"]}" "${MEDIAN["$other plain"]}")" \
        "$(ratio "${MEDIAN["weft pipelined"]}" "${MEDIAN["$other pipelined"]}")"
    else
      printf '%-14s %10s %10s\n' "$label" n/a n/a
    fi
  done
  echo "(> 1.00 means Weft served more requests per second)"
  echo
  report_baselines
  echo
  echo "Server libraries in each jar:"
  for server in "${SERVER_LIST[@]}"; do
    echo "  $server: ${SERVER_LIBS[$server]:-?}"
  done
  echo
  report_commands "${SERVER_LIST[@]}"
  echo
  report_quiet
}

{
  report
  echo
  echo "Raw results:"
  printf '%-5s %-7s %-10s %-6s %14s %8s %-4s %s\n' round server mode port "req/s" non2xx mark socket_errors
  printf '%s\n' "${RAW_LINES[@]}"
  echo
  echo "wrk outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"

leftover_pattern="$SPRING_DIR/[a-z]*/target/app.jar"
if command -v pgrep >/dev/null 2>&1 && pgrep -f -- "$leftover_pattern" >/dev/null 2>&1; then
  warn "processes matching '$leftover_pattern' are still running:"
  pgrep -af -- "$leftover_pattern" >&2 || true
fi

exit_if_disturbed
