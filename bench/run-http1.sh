#!/usr/bin/env bash
#
# HTTP/1.1 "plaintext" benchmark: Weft vs. Netty, Vert.x and Helidon SE, the JDK's built-in server and
# robaho/httpserver.
#
# For weft, jdk and robaho the same program (bench/plaintext/PlaintextServer.java, written only against the
# com.sun.net.httpserver API) is started once per provider; only the class path and the
# provider-specific system properties differ. netty, vertx and helidon are the small programs of
# bench/engine (each framework's defaults, TCP_NODELAY on), serving the same GET /plaintext (13 bytes,
# text/plain). Every server runs on the same JDK with the same JVM_OPTS. Load is generated with wrk
# against 127.0.0.1.
#
# Knobs (environment variables):
#   PROVIDERS       providers to run, in this order         (default "weft netty vertx helidon jdk robaho")
#   ROUNDS          rounds; each round runs every provider   (default 3)
#   DURATION        wrk duration of each measured run        (default 10s)
#   WARMUP          wrk warm-up before each measured run     (default 3s; 0 = no warm-up)
#   CONNECTIONS     wrk connections                          (default 64)
#   PIPELINE_DEPTH  requests per pipelined send              (default 16)
#   WRK_THREADS     wrk threads                              (default 1)
#   JVM_OPTS        JVM flags, identical for every provider  (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   WEFT_JAR        use this Weft jar instead of building httpserver-engine with Maven
#   SKIP_BUILD      1 = do not build the bench/engine programs (netty, vertx, helidon); use target/ as is
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 30)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and the load generator (default: not pinned;
#                   see lib/common.sh)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD      1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY      % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP       a peer (jdk, robaho) below PEER_DROP x its baseline makes the run not comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE  the peers' baselines                     (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start the script waits up to
# QUIET_WAIT seconds for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later
# ones: CPUs busy <= QUIET_BUSY % in a one-second sample, since the load average still counts the
# script's own previous run); a start that finds none is marked "!" in the tables and listed at the
# end of the report, which shows the load average (1, 5, 15 min) and CPU use before every start. The medians of
# the peers (jdk, robaho; never Weft's) are compared with their rows in bench/baselines.tsv: one below
# PEER_DROP x its baseline puts a "NOT COMPARABLE" box at the top of the report and, after the report
# is written, makes the script exit with status 3 (unless ACCEPT_DISTURBED=1).
#
# How each provider is selected (HttpServerProvider.provider() looks at the system property
# com.sun.net.httpserver.HttpServerProvider first, then META-INF/services on the class path,
# then falls back to the JDK's sun.net.httpserver.DefaultHttpServerProvider):
#   weft   : Weft jar on the class path; it registers itself in
#            META-INF/services/com.sun.net.httpserver.spi.HttpServerProvider.
#   jdk    : nothing on the class path -> JDK default provider. TCP_NODELAY is off by default
#            in the JDK server; -Dsun.net.httpserver.nodelay=true turns it on
#            (jdk.httpserver sun/net/httpserver/ServerConfig.java reads that property).
#   robaho : io.github.robaho:httpserver:1.0.29 on the class path. Checked in the jar from
#            Maven Central: it contains META-INF/services/com.sun.net.httpserver.spi.HttpServerProvider
#            naming robaho.net.httpserver.DefaultHttpServerProvider (so the class path alone
#            selects it), and its README documents selecting it explicitly with
#            -Dcom.sun.net.httpserver.HttpServerProvider=robaho.net.httpserver.DefaultHttpServerProvider,
#            which we pass as well so the choice cannot depend on class path order.
#            TCP_NODELAY: robaho/net/httpserver/ServerConfig.java (in the -sources.jar) reads
#            Boolean.getBoolean("robaho.net.httpserver.nodelay") and ServerImpl calls
#            setTcpNoDelay(true) on accepted sockets only when it is set, so we pass
#            -Drobaho.net.httpserver.nodelay=true. (Its default executor, used because
#            PlaintextServer sets none, is a cached thread pool; the JDK's default runs
#            handlers on its dispatcher thread.)
# Every server prints "ready <provider class>"; the harness checks that class, so a run can
# never silently measure the wrong implementation.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2034 # REPO_DIR is used by lib/weft-jar.sh (through lib/plaintext.sh)
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
CLASSES_DIR="$TARGET_DIR/classes"
LIB_DIR="$TARGET_DIR/lib"
LOG_DIR="$TARGET_DIR/logs"
RESULTS_FILE="$TARGET_DIR/results-http1.txt"
PIPELINE_LUA="$BENCH_DIR/pipeline.lua"

PROVIDERS="${PROVIDERS:-weft netty vertx helidon jdk robaho}"
SKIP_BUILD="${SKIP_BUILD:-0}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-3s}"
CONNECTIONS="${CONNECTIONS:-64}"
PIPELINE_DEPTH="${PIPELINE_DEPTH:-16}"
WRK_THREADS="${WRK_THREADS:-1}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-30}"

MODES=(plain pipelined)

# Shared functions: logging, server/wrk lifecycle and the EXIT trap, JDK search, tools, measure().
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# The Weft and robaho jars, PlaintextServer, server_cmd and provider_class_ok.
# shellcheck source=lib/plaintext.sh
source "$BENCH_DIR/lib/plaintext.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
check_common_knobs

read -r -a PROVIDER_LIST <<<"$PROVIDERS"
(( ${#PROVIDER_LIST[@]} > 0 )) || die "PROVIDERS is empty"
for p in "${PROVIDER_LIST[@]}"; do
  case $p in
    weft | jdk | robaho | netty | vertx | helidon) ;;
    *) die "unknown provider '$p' (known: weft netty vertx helidon jdk robaho)" ;;
  esac
done
has_provider() { [[ " ${PROVIDER_LIST[*]} " == *" $1 "* ]]; }
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"

read -r -a JVM_FLAGS <<<"$JVM_OPTS"

install_cleanup_traps

ensure_tool wrk wrk
ensure_tool curl curl

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$CLASSES_DIR" "$LIB_DIR" "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
# Artifacts
# ---------------------------------------------------------------------------------------------
if has_provider weft; then prepare_weft_jar; fi
if has_provider robaho; then fetch_robaho_jar; fi
compile_plaintext_server
maven_env "$JDK"
for p in "${PROVIDER_LIST[@]}"; do
  if is_engine_provider "$p"; then build_engine_peer "$p"; fi
done

# ---------------------------------------------------------------------------------------------
# Provider definitions
# ---------------------------------------------------------------------------------------------
# Provider-specific system properties (selection + TCP_NODELAY), one per line.
provider_props() {
  case $1 in
    weft) ;; # selected via META-INF/services in the Weft jar
    netty | vertx | helidon) ;; # not PlaintextServer: their own programs (lib/engine-peers.sh)
    jdk) echo "-Dsun.net.httpserver.nodelay=true" ;;
    robaho)
      echo "-Dcom.sun.net.httpserver.HttpServerProvider=robaho.net.httpserver.DefaultHttpServerProvider"
      echo "-Drobaho.net.httpserver.nodelay=true"
      ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Measurement (start_server, measure and quiet_wait are in lib/common.sh)
# ---------------------------------------------------------------------------------------------
START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "providers: ${PROVIDER_LIST[*]}; rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP;" \
  "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"

for ((round = 1; round <= ROUNDS; round++)); do
  for provider in "${PROVIDER_LIST[@]}"; do
    log "=== round $round/$ROUNDS: $provider ==="
    quiet_wait "round $round: $provider" "$provider"
    bench_one "$provider" "$round"
  done
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MEDIAN=()
compute_medians "${PROVIDER_LIST[@]}"
register_peers req/s "${PROVIDER_LIST[@]}"
BASELINE_SETTINGS="ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS PIPELINE_DEPTH=$PIPELINE_DEPTH"
check_baselines

fastest_median() { # mode providers... -> the highest of their medians in that mode, or NA
  local mode=$1 p best=NA v
  shift
  for p in "$@"; do
    v=${MEDIAN["$p $mode"]:-NA}
    [[ $v == NA ]] && continue
    if [[ $best == NA ]] || above "$v" "$best"; then best=$v; fi
  done
  echo "$best"
}

report() {
  local provider mode
  report_disturbed
  echo "HTTP/1.1 plaintext benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  cpu_placement
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP per mode;" \
    "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"
  echo
  printf '%-8s %18s %18s\n' provider "plain req/s" "pipelined req/s"
  printf '%-8s %18s %18s\n' -------- ------------------ ------------------
  for provider in "${PROVIDER_LIST[@]}"; do
    printf '%-8s %18s %18s\n' "$provider$(mark_of "$provider")" "${MEDIAN["$provider plain"]}" "${MEDIAN["$provider pipelined"]}"
  done
  echo "(medians over $ROUNDS round(s))"
  mark_legend
  echo
  printf '%-14s %10s %10s\n' ratio plain pipelined
  printf '%-14s %10s %10s\n' -------------- ---------- ----------
  local other label fastest=()
  for other in netty vertx helidon jdk robaho; do
    label="Weft/$other"
    [[ $other == jdk ]] && label="Weft/JDK"
    if has_provider weft && has_provider "$other"; then
      printf '%-14s %10s %10s\n' "$label" \
        "$(ratio "${MEDIAN["weft plain"]}" "${MEDIAN["$other plain"]}")" \
        "$(ratio "${MEDIAN["weft pipelined"]}" "${MEDIAN["$other pipelined"]}")"
      if is_engine_provider "$other"; then fastest+=("$other"); fi
    fi
  done
  if has_provider weft && ((${#fastest[@]} > 0)); then
    # Per mode, the fastest of the framework peers measured (Netty, Vert.x, Helidon SE).
    printf '%-14s %10s %10s\n' "Weft/fastest" "$(ratio "${MEDIAN["weft plain"]}" "$(fastest_median plain "${fastest[@]}")")" \
      "$(ratio "${MEDIAN["weft pipelined"]}" "$(fastest_median pipelined "${fastest[@]}")")"
    echo "(fastest: the highest median of ${fastest[*]} in each mode)"
  fi
  echo "(> 1.00 means Weft served more requests per second)"
  echo
  report_baselines
  echo
  for provider in "${PROVIDER_LIST[@]}"; do
    if is_engine_provider "$provider"; then echo "$provider: ${ENGINE_LIBS[$provider]:-?}"; fi
  done
  report_commands "${PROVIDER_LIST[@]}"
  echo
  report_quiet
}

{
  report
  echo
  echo "Raw results:"
  printf '%-5s %-7s %-10s %-6s %14s %8s %-4s %s\n' round provider mode port "req/s" non2xx mark socket_errors
  printf '%s\n' "${RAW_LINES[@]}"
  echo
  echo "wrk outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"

warn_leftover_servers

exit_if_disturbed
