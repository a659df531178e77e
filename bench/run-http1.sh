#!/usr/bin/env bash
#
# HTTP/1.1 "plaintext" benchmark: Weft vs. the JDK's built-in server vs. robaho/httpserver.
#
# The same program (bench/plaintext/PlaintextServer.java, written only against the
# com.sun.net.httpserver API) is started once per provider; only the class path and the
# provider-specific system properties differ. Load is generated with wrk against 127.0.0.1.
#
# Knobs (environment variables):
#   PROVIDERS       providers to run, in this order         (default "weft jdk robaho")
#   ROUNDS          rounds; each round runs every provider   (default 3)
#   DURATION        wrk duration of each measured run        (default 10s)
#   WARMUP          wrk warm-up before each measured run     (default 3s; 0 = no warm-up)
#   CONNECTIONS     wrk connections                          (default 64)
#   PIPELINE_DEPTH  requests per pipelined send              (default 16)
#   WRK_THREADS     wrk threads                              (default 1)
#   JVM_OPTS        JVM flags, identical for every provider  (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   WEFT_JAR        use this Weft jar instead of building httpserver-engine with Maven
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 30)
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
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
CLASSES_DIR="$TARGET_DIR/classes"
LIB_DIR="$TARGET_DIR/lib"
LOG_DIR="$TARGET_DIR/logs"
RESULTS_FILE="$TARGET_DIR/results-http1.txt"
PIPELINE_LUA="$BENCH_DIR/pipeline.lua"
SERVER_SRC="$BENCH_DIR/plaintext/PlaintextServer.java"
SERVER_MAIN="PlaintextServer"

PROVIDERS="${PROVIDERS:-weft jdk robaho}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-3s}"
CONNECTIONS="${CONNECTIONS:-64}"
PIPELINE_DEPTH="${PIPELINE_DEPTH:-16}"
WRK_THREADS="${WRK_THREADS:-1}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-30}"

ROBAHO_GAV="io.github.robaho:httpserver:1.0.29"
ROBAHO_JAR="$LIB_DIR/httpserver-1.0.29.jar"
WEFT_DEFAULT_JAR="$REPO_DIR/httpserver-engine/target/weft-httpserver-0.1.0-SNAPSHOT.jar"
SPI_SERVICE="META-INF/services/com.sun.net.httpserver.spi.HttpServerProvider"

MODES=(plain pipelined)

log() { printf '[bench] %s\n' "$*" >&2; }
warn() { printf '[bench] WARNING: %s\n' "$*" >&2; }
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }

# Print a command (shell-quoted) and run it.
run() {
  printf '+' >&2
  printf ' %q' "$@" >&2
  printf '\n' >&2
  "$@"
}

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"
[[ $CONNECTIONS =~ ^[1-9][0-9]*$ ]] || die "CONNECTIONS must be a positive integer (got '$CONNECTIONS')"
[[ $PIPELINE_DEPTH =~ ^[1-9][0-9]*$ ]] || die "PIPELINE_DEPTH must be a positive integer (got '$PIPELINE_DEPTH')"
[[ $WRK_THREADS =~ ^[1-9][0-9]*$ ]] || die "WRK_THREADS must be a positive integer (got '$WRK_THREADS')"
[[ $STARTUP_TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "STARTUP_TIMEOUT must be a positive integer (got '$STARTUP_TIMEOUT')"
[[ $DURATION =~ ^[1-9][0-9]*[smh]?$ ]] || die "DURATION must look like 10s, 1m, ... (got '$DURATION')"
[[ $WARMUP =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "WARMUP must be 0 or look like 3s (got '$WARMUP')"
(( WRK_THREADS <= CONNECTIONS )) || die "WRK_THREADS must not exceed CONNECTIONS"

read -r -a PROVIDER_LIST <<<"$PROVIDERS"
(( ${#PROVIDER_LIST[@]} > 0 )) || die "PROVIDERS is empty"
for p in "${PROVIDER_LIST[@]}"; do
  case $p in
    weft | jdk | robaho) ;;
    *) die "unknown provider '$p' (known: weft jdk robaho)" ;;
  esac
done
has_provider() { [[ " ${PROVIDER_LIST[*]} " == *" $1 "* ]]; }

read -r -a JVM_FLAGS <<<"$JVM_OPTS"

# ---------------------------------------------------------------------------------------------
# Server lifecycle; the EXIT trap guarantees the server dies whatever happens.
# ---------------------------------------------------------------------------------------------
SERVER_PID=""
SERVER_PORT=""
WRK_PID=""
STARTED_PIDS=()

# Run wrk in the background and wait for it, so that a signal to this script is handled at
# once (bash defers traps while a foreground child runs). Output goes to $1.
run_wrk() {
  local out=$1 rc=0
  shift
  "$@" >"$out" 2>&1 </dev/null &
  WRK_PID=$!
  wait "$WRK_PID" || rc=$?
  WRK_PID=""
  return "$rc"
}

stop_server() {
  local pid=$SERVER_PID port=$SERVER_PORT i
  SERVER_PID=""
  SERVER_PORT=""
  [[ -n $pid ]] || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      warn "server pid $pid ignored SIGTERM for 10s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  wait "$pid" 2>/dev/null || true
  if [[ -n $port ]] && port_in_use "$port"; then
    warn "port $port still has a listener after stopping pid $pid"
  fi
}

cleanup() {
  local rc=$?
  trap - EXIT
  if [[ -n $WRK_PID ]]; then
    kill -TERM "$WRK_PID" 2>/dev/null || true
    wait "$WRK_PID" 2>/dev/null || true
  fi
  stop_server
  # Belt and braces: anything this script started that is somehow still alive.
  local pid
  for pid in "${STARTED_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

port_in_use() {
  local port=$1
  if command -v ss >/dev/null 2>&1; then
    [[ -n $(ss -Htln "sport = :$port" 2>/dev/null) ]] && return 0
  fi
  # A successful connect means somebody listens there.
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

free_port() {
  local port i
  for ((i = 0; i < 200; i++)); do
    port=$((20000 + RANDOM % 30000))
    if ! port_in_use "$port"; then
      echo "$port"
      return 0
    fi
  done
  die "could not find a free port"
}

# ---------------------------------------------------------------------------------------------
# JDK >= 21
# ---------------------------------------------------------------------------------------------
jdk_major() {
  local home=$1 v
  [[ -f $home/release && -x $home/bin/java && -x $home/bin/javac ]] || return 1
  v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release" | head -n 1)
  [[ $v == 1.* ]] && v=${v#1.}
  v=${v%%[.+-]*}
  [[ $v =~ ^[0-9]+$ ]] || return 1
  echo "$v"
}

find_jdk() {
  local best="" best_major=0 dir major
  if [[ -n ${BENCH_JDK:-} ]]; then
    major=$(jdk_major "$BENCH_JDK") || die "BENCH_JDK=$BENCH_JDK is not a JDK"
    (( major >= 21 )) || die "BENCH_JDK=$BENCH_JDK is Java $major, need >= 21"
    echo "$BENCH_JDK"
    return 0
  fi
  for dir in /usr/lib/jvm/*; do
    [[ -d $dir ]] || continue
    major=$(jdk_major "$dir") || continue
    if (( major >= 21 && major > best_major )); then
      best=$dir
      best_major=$major
    fi
  done
  if [[ -z $best && -n ${JAVA_HOME:-} ]]; then
    major=$(jdk_major "$JAVA_HOME") || major=0
    (( major >= 21 )) && best=$JAVA_HOME
  fi
  [[ -n $best ]] || die "no JDK >= 21 found in /usr/lib/jvm/* or JAVA_HOME (set BENCH_JDK)"
  echo "$best"
}

# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------
apt_install() {
  local pkg=$1 sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "$pkg is missing and we are not root (install it: apt-get install $pkg)"
    sudo=(sudo)
  fi
  command -v apt-get >/dev/null 2>&1 || die "$pkg is missing and apt-get is not available"
  log "$pkg not found; installing it with apt-get"
  if ! run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$pkg"; then
    run "${sudo[@]}" apt-get update
    run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$pkg"
  fi
}

ensure_tool() {
  local tool=$1 pkg=$2
  command -v "$tool" >/dev/null 2>&1 || apt_install "$pkg"
  command -v "$tool" >/dev/null 2>&1 || die "$tool still not found after installing $pkg"
}

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
WEFT_PROVIDER_CLASS=""
if has_provider weft; then
  if [[ -n ${WEFT_JAR:-} ]]; then
    [[ -f $WEFT_JAR ]] || die "WEFT_JAR=$WEFT_JAR does not exist"
    WEFT_JAR="$(cd "$(dirname "$WEFT_JAR")" && pwd)/$(basename "$WEFT_JAR")"
    log "using WEFT_JAR=$WEFT_JAR"
  else
    log "building the Weft engine"
    run env JAVA_HOME="$JDK" mvn -B -q -f "$REPO_DIR/pom.xml" -pl httpserver-engine -am -Dmaven.test.skip=true package
    WEFT_JAR="$WEFT_DEFAULT_JAR"
    [[ -f $WEFT_JAR ]] || die "Maven build finished but $WEFT_JAR is missing"
  fi
  if command -v unzip >/dev/null 2>&1; then
    WEFT_PROVIDER_CLASS=$(unzip -p "$WEFT_JAR" "$SPI_SERVICE" 2>/dev/null |
      sed -e 's/#.*//' -e 's/[[:space:]]//g' | awk 'NF { print; exit }') || true
  fi
  [[ -n $WEFT_PROVIDER_CLASS ]] ||
    warn "no $SPI_SERVICE found in $WEFT_JAR; HttpServer.create() will probably fall back to the JDK provider"
fi

if has_provider robaho; then
  if [[ -s $ROBAHO_JAR ]]; then
    log "robaho jar already present: $ROBAHO_JAR"
  else
    log "fetching $ROBAHO_GAV from Maven Central"
    # Run outside any project directory so Maven does not pick up a pom.xml.
    (cd "$TARGET_DIR" && run env JAVA_HOME="$JDK" mvn -B -q dependency:copy \
      "-Dartifact=$ROBAHO_GAV" "-DoutputDirectory=$LIB_DIR")
    [[ -s $ROBAHO_JAR ]] || die "dependency:copy did not produce $ROBAHO_JAR"
  fi
fi

log "compiling $SERVER_SRC"
run "$JDK/bin/javac" --release 21 -d "$CLASSES_DIR" "$SERVER_SRC"

# ---------------------------------------------------------------------------------------------
# Provider definitions
# ---------------------------------------------------------------------------------------------
provider_cp() {
  case $1 in
    weft) echo "$WEFT_JAR:$CLASSES_DIR" ;;
    jdk) echo "$CLASSES_DIR" ;;
    robaho) echo "$ROBAHO_JAR:$CLASSES_DIR" ;;
  esac
}

# Provider-specific system properties (selection + TCP_NODELAY), one per line.
provider_props() {
  case $1 in
    weft) ;; # selected via META-INF/services in the Weft jar
    jdk) echo "-Dsun.net.httpserver.nodelay=true" ;;
    robaho)
      echo "-Dcom.sun.net.httpserver.HttpServerProvider=robaho.net.httpserver.DefaultHttpServerProvider"
      echo "-Drobaho.net.httpserver.nodelay=true"
      ;;
  esac
}

# Succeeds if the provider class printed by the server is the one we meant to measure.
provider_class_ok() {
  local provider=$1 cls=$2
  case $provider in
    jdk) [[ $cls == sun.net.httpserver.DefaultHttpServerProvider ]] ;;
    robaho) [[ $cls == robaho.net.httpserver.DefaultHttpServerProvider ]] ;;
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
  mapfile -t props < <(provider_props "$provider")
  SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" "${props[@]}" -cp "$(provider_cp "$provider")" "$SERVER_MAIN" "$port")
}

wrk_cmd() { # mode duration port -> fills WRK_CMD
  local mode=$1 duration=$2 port=$3
  local url="http://127.0.0.1:$port/plaintext"
  WRK_CMD=(wrk "-t$WRK_THREADS" "-c$CONNECTIONS" "-d$duration")
  if [[ $mode == pipelined ]]; then
    WRK_CMD+=(-s "$PIPELINE_LUA" "$url" -- "$PIPELINE_DEPTH")
  else
    WRK_CMD+=("$url")
  fi
}

quote_cmd() { local out="" a; for a in "$@"; do out+=" $(printf '%q' "$a")"; done; echo "${out# }"; }

# Start a server and wait until it is ready and serves /plaintext. Retries on another port
# if the first one was grabbed in the meantime. Sets SERVER_PID / SERVER_PORT.
start_server() {
  local provider=$1 round=$2 attempt port logf deadline line cls body
  for ((attempt = 1; attempt <= 3; attempt++)); do
    port=$(free_port)
    logf="$LOG_DIR/server-$provider-r$round.log"
    server_cmd "$provider" "$port"
    printf '+ %s\n' "$(quote_cmd "${SERVER_CMD[@]}")" >&2
    "${SERVER_CMD[@]}" >"$logf" 2>&1 </dev/null &
    SERVER_PID=$!
    SERVER_PORT=$port
    STARTED_PIDS+=("$SERVER_PID")

    deadline=$((SECONDS + STARTUP_TIMEOUT))
    line=""
    while ((SECONDS < deadline)); do
      line=$(grep -m 1 '^ready ' "$logf" 2>/dev/null) || line=""
      [[ -n $line ]] && break
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    if [[ -z $line ]]; then
      warn "$provider server did not become ready (attempt $attempt, port $port); log $logf:"
      sed 's/^/    /' "$logf" >&2 || true
      stop_server
      continue
    fi

    cls=${line#ready }
    cls=${cls%$'\r'}
    if ! provider_class_ok "$provider" "$cls"; then
      stop_server
      die "$provider: server reports provider '$cls', which is not the $provider implementation"
    fi

    body=""
    while ((SECONDS < deadline)); do
      body=$(curl -fsS --max-time 2 "http://127.0.0.1:$port/plaintext" 2>/dev/null) || body=""
      [[ $body == "Hello, World!" ]] && break
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.2
    done
    if [[ $body != "Hello, World!" ]]; then
      warn "$provider server on port $port does not answer GET /plaintext correctly (got '$body'); log $logf:"
      sed 's/^/    /' "$logf" >&2 || true
      stop_server
      die "$provider: smoke test failed"
    fi
    log "$provider ready on port $port ($cls, pid $SERVER_PID)"
    return 0
  done
  die "$provider: server failed to start 3 times"
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
declare -A SAMPLES=()   # "provider mode" -> space separated req/s values
declare -A SERVER_CMDS=() WRK_CMDS=()
RAW_LINES=()

# Run one wrk measurement; prints req/s (or NA) on stdout.
measure() {
  local provider=$1 mode=$2 round=$3 port=$4 out rps non2xx sockerr
  out="$LOG_DIR/wrk-$provider-$mode-r$round.txt"
  if [[ $WARMUP != 0 ]]; then
    wrk_cmd "$mode" "$WARMUP" "$port"
    printf '+ %s   # warm-up\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
    run_wrk "$LOG_DIR/wrk-$provider-$mode-r$round-warmup.txt" "${WRK_CMD[@]}" ||
      warn "$provider $mode warm-up: wrk exited with $?"
  fi
  wrk_cmd "$mode" "$DURATION" "$port"
  printf '+ %s\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
  run_wrk "$out" "${WRK_CMD[@]}" || warn "$provider $mode: wrk exited with $?"

  rps=$(awk '/^Requests\/sec:/ { print $2; exit }' "$out")
  [[ $rps =~ ^[0-9]+(\.[0-9]+)?$ ]] || rps=NA
  non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF; exit }' "$out")
  non2xx=${non2xx:-0}
  sockerr=$(awk '/Socket errors:/ { sub(/^ *Socket errors: */, ""); gsub(/, /, ","); gsub(/ /, "="); print; exit }' "$out")
  sockerr=${sockerr:-none}
  [[ $rps == NA ]] && { warn "$provider $mode round $round: no Requests/sec in wrk output:"; sed 's/^/    /' "$out" >&2; }
  [[ $non2xx != 0 ]] && warn "$provider $mode round $round: $non2xx non-2xx/3xx responses"
  [[ $sockerr != none ]] && warn "$provider $mode round $round: socket errors: $sockerr"
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    warn "$provider server died during the $mode run; treating the result as NA"
    rps=NA
  fi
  RAW_LINES+=("$(printf '%-5s %-7s %-10s %-6s %14s %8s %s' "$round" "$provider" "$mode" "$port" "$rps" "$non2xx" "$sockerr")")
  log "$provider $mode round $round: $rps req/s"
  SAMPLES["$provider $mode"]+="$rps "
}

median() { # values... (NA ignored) -> median with 2 decimals, or NA
  printf '%s\n' "$@" | awk '/^[0-9]+(\.[0-9]+)?$/ { print }' | sort -g |
    awk '{ a[NR] = $1 } END {
      if (NR == 0) { print "NA"; exit }
      if (NR % 2) printf "%.2f\n", a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2
    }'
}

ratio() { # a b -> a/b with 2 decimals, or n/a
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) { print "n/a"; exit }
    printf "%.2f\n", a / b }'
}

START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "providers: ${PROVIDER_LIST[*]}; rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP;" \
  "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"

for ((round = 1; round <= ROUNDS; round++)); do
  for provider in "${PROVIDER_LIST[@]}"; do
    log "=== round $round/$ROUNDS: $provider ==="
    start_server "$provider" "$round"
    server_cmd "$provider" PORT
    SERVER_CMDS[$provider]="$(quote_cmd "${SERVER_CMD[@]}")"
    for mode in "${MODES[@]}"; do
      measure "$provider" "$mode" "$round" "$SERVER_PORT"
      wrk_cmd "$mode" "$DURATION" PORT
      WRK_CMDS[$mode]="$(quote_cmd "${WRK_CMD[@]}")"
    done
    stop_server
  done
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MEDIAN=()
for provider in "${PROVIDER_LIST[@]}"; do
  for mode in "${MODES[@]}"; do
    read -r -a vals <<<"${SAMPLES["$provider $mode"]:-}"
    MEDIAN["$provider $mode"]=$(median "${vals[@]}")
  done
done

report() {
  local provider mode
  echo "HTTP/1.1 plaintext benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP per mode;" \
    "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"
  echo
  printf '%-8s %18s %18s\n' provider "plain req/s" "pipelined req/s"
  printf '%-8s %18s %18s\n' -------- ------------------ ------------------
  for provider in "${PROVIDER_LIST[@]}"; do
    printf '%-8s %18s %18s\n' "$provider" "${MEDIAN["$provider plain"]}" "${MEDIAN["$provider pipelined"]}"
  done
  echo "(medians over $ROUNDS round(s))"
  echo
  printf '%-14s %10s %10s\n' ratio plain pipelined
  printf '%-14s %10s %10s\n' -------------- ---------- ----------
  local other label
  for other in robaho jdk; do
    label="Weft/$other"
    [[ $other == jdk ]] && label="Weft/JDK"
    if has_provider weft && has_provider "$other"; then
      printf '%-14s %10s %10s\n' "$label" \
        "$(ratio "${MEDIAN["weft plain"]}" "${MEDIAN["$other plain"]}")" \
        "$(ratio "${MEDIAN["weft pipelined"]}" "${MEDIAN["$other pipelined"]}")"
    else
      printf '%-14s %10s %10s\n' "$label" n/a n/a
    fi
  done
  echo "(> 1.00 means Weft served more requests per second)"
  echo
  echo "Commands (PORT = a free port picked per run):"
  for provider in "${PROVIDER_LIST[@]}"; do
    echo "  $provider server: ${SERVER_CMDS[$provider]:-}"
  done
  if [[ $WARMUP != 0 ]]; then
    echo "  warm-up before each measured run: the same wrk command with -d$WARMUP"
  fi
  for mode in "${MODES[@]}"; do
    echo "  wrk $mode: ${WRK_CMDS[$mode]:-}"
  done
}

{
  report
  echo
  echo "Raw results:"
  printf '%-5s %-7s %-10s %-6s %14s %8s %s\n' round provider mode port "req/s" non2xx socket_errors
  printf '%s\n' "${RAW_LINES[@]}"
  echo
  echo "wrk outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"

if command -v pgrep >/dev/null 2>&1 && pgrep -f -- "$SERVER_MAIN" >/dev/null 2>&1; then
  warn "processes matching '$SERVER_MAIN' are still running:"
  pgrep -af -- "$SERVER_MAIN" >&2 || true
fi
