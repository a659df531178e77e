#!/usr/bin/env bash
#
# Memory per idle keep-alive connection: Weft against Netty, Vert.x and Helidon SE.
#
# Each server (weft: bench/plaintext/PlaintextServer.java on this tree's engine jar, as in run-http1.sh; netty,
# vertx, helidon: the programs of bench/engine) is started afresh and warmed up (wrk, WARMUP), then
# bench/idle/hold.py opens IDLE_CONNECTIONS connections, sends one GET /plaintext on each, reads the answer and
# keeps them all open and idle. Before and after, the script forces a full collection (jcmd GC.run) and reads:
#   heap    the Java heap in use after the collection (jcmd GC.heap_info): what the server's objects hold;
#   native  the growth of the process's resident memory (VmRSS): thread stacks, direct buffers, the JVM's
#           own structures. Every JVM runs with -XX:+AlwaysPreTouch, so the whole heap is resident from the
#           start and VmRSS grows by native memory alone (without it, VmRSS would show which heap pages happened
#           to be touched, not what is held).
# Each figure is the growth divided by the number of connections; total = heap + native.
#
# Weft runs with weft.httpserver.maxConnections set to twice IDLE_CONNECTIONS: at its default (10,000) it
# closes idle connections once more than 90 % of the limit are open (its low-resources mode), and the point
# here is what a held connection costs. The others have no such limit.
#
# Knobs (environment variables):
#   SERVERS           servers to run, in this order            (default "weft netty vertx helidon")
#   ROUNDS            rounds; each starts every server afresh   (default 2)
#   IDLE_CONNECTIONS  connections held                          (default 10000)
#   WARMUP            wrk warm-up on /plaintext before the first reading (default 3s; 0 = none)
#   JVM_OPTS          JVM flags, identical for every server     (default "-Xms1g -Xmx1g -XX:+UseParallelGC -XX:+AlwaysPreTouch")
#   WEFT_JAR          use this Weft jar instead of building httpserver-engine with Maven
#   SKIP_BUILD        1 = do not build the bench/engine programs; use their target/ as is (default 0)
#   BENCH_JDK         use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT   seconds to wait for a server to become ready (default 30)
#   HOLD_TIMEOUT      seconds to wait for every connection to be open and answered (default 120)
#   QUIET_WAIT        seconds to wait for a quiet machine before each start (default 0: memory does not depend
#                     on other work; see lib/common.sh for QUIET_LOAD and QUIET_BUSY)
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2034 # REPO_DIR is used by lib/weft-jar.sh (through lib/plaintext.sh)
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
CLASSES_DIR="$TARGET_DIR/classes"
# shellcheck disable=SC2034 # used by lib/plaintext.sh
LIB_DIR="$TARGET_DIR/lib"
LOG_DIR="$TARGET_DIR/logs-idle"
RESULTS_FILE="$TARGET_DIR/results-idle.txt"
HOLD_PY="$BENCH_DIR/idle/hold.py"

SERVERS="${SERVERS:-weft netty vertx helidon}"
ROUNDS="${ROUNDS:-2}"
IDLE_CONNECTIONS="${IDLE_CONNECTIONS:-10000}"
WARMUP="${WARMUP:-3s}"
JVM_OPTS="${JVM_OPTS:--Xms1g -Xmx1g -XX:+UseParallelGC -XX:+AlwaysPreTouch}"
SKIP_BUILD="${SKIP_BUILD:-0}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-30}"
HOLD_TIMEOUT="${HOLD_TIMEOUT:-120}"
QUIET_WAIT="${QUIET_WAIT:-0}"
MODES=()
WARMUP_NOTE="wrk -t1 -c16 -d$WARMUP http://127.0.0.1:PORT/plaintext"

# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# The Weft jar, PlaintextServer, server_cmd and provider_class_ok (netty, vertx, helidon: lib/engine-peers.sh).
# shellcheck source=lib/plaintext.sh
source "$BENCH_DIR/lib/plaintext.sh"

check_positive_ints ROUNDS IDLE_CONNECTIONS STARTUP_TIMEOUT HOLD_TIMEOUT
check_cpu_lists
check_quiet_knobs
[[ $WARMUP =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "WARMUP must be 0 or look like 3s (got '$WARMUP')"
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"
(($(ulimit -n) > IDLE_CONNECTIONS + 200)) ||
  die "the open-files limit ($(ulimit -n)) is too low for IDLE_CONNECTIONS=$IDLE_CONNECTIONS (ulimit -n)"
read -r -a PROVIDER_LIST <<<"$SERVERS"
((${#PROVIDER_LIST[@]} > 0)) || die "SERVERS is empty"
for p in "${PROVIDER_LIST[@]}"; do
  [[ $p == weft ]] || is_engine_provider "$p" || die "unknown server '$p' (known: weft netty vertx helidon)"
done
read -r -a JVM_FLAGS <<<"$JVM_OPTS"

install_cleanup_traps
ensure_tool wrk wrk
ensure_tool curl curl
command -v python3 >/dev/null 2>&1 || die "python3 is needed (bench/idle/hold.py)"

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
JCMD="$JDK/bin/jcmd"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
rm -rf "$LOG_DIR"
mkdir -p "$CLASSES_DIR" "$LOG_DIR"

if [[ " ${PROVIDER_LIST[*]} " == *" weft "* ]]; then prepare_weft_jar; fi
compile_plaintext_server
maven_env "$JDK"
for p in "${PROVIDER_LIST[@]}"; do
  if is_engine_provider "$p"; then build_engine_peer "$p"; fi
done

provider_props() {
  case $1 in
    weft) echo "-Dweft.httpserver.maxConnections=$((IDLE_CONNECTIONS * 2))" ;;
  esac
}

# Heap in use after a full collection, in KiB.
heap_used_kib() { # pid
  "$JCMD" "$1" GC.run >/dev/null
  "$JCMD" "$1" GC.heap_info | awk '{ for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K.*/, "", v); s += v } }
    END { print s + 0 }'
}
rss_kib() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
per_connection() { awk -v a="$1" -v b="$2" -v n="$IDLE_CONNECTIONS" 'BEGIN { printf "%.0f\n", (b - a) * 1024 / n }'; }

declare -A HEAP=() NATIVE=() TOTAL=() # server -> space-separated bytes per connection
RAW_LINES=()

measure_idle() { # server round
  local server=$1 round=$2 heap0 rss0 heap1 rss1 fifo hold_pid out h n t deadline
  start_server "$server" "$round"
  server_cmd "$server" PORT
  SERVER_CMDS[$server]="$(quote_cmd "${SERVER_CMD[@]}")"
  if [[ $WARMUP != 0 ]]; then
    run_wrk "$LOG_DIR/wrk-$server-r$round-warmup.txt" wrk -t1 -c16 "-d$WARMUP" "http://127.0.0.1:$SERVER_PORT/plaintext" ||
      warn "$server warm-up: wrk exited with $?"
  fi
  heap0=$(heap_used_kib "$SERVER_PID")
  rss0=$(rss_kib "$SERVER_PID")
  out="$LOG_DIR/hold-$server-r$round.txt"
  fifo="$LOG_DIR/hold-$server-r$round.stdin"
  mkfifo "$fifo"
  python3 "$HOLD_PY" "$SERVER_PORT" "$IDLE_CONNECTIONS" <"$fifo" >"$out" 2>&1 &
  hold_pid=$!
  STARTED_PIDS+=("$hold_pid")
  exec 7>"$fifo" # holds the client's stdin open until the readings are taken
  deadline=$((SECONDS + HOLD_TIMEOUT))
  until grep -q '^holding' "$out" 2>/dev/null; do
    kill -0 "$hold_pid" 2>/dev/null || { sed 's/^/    /' "$out" >&2; die "$server: hold.py failed (see above)"; }
    ((SECONDS < deadline)) || die "$server: $IDLE_CONNECTIONS connections not held within ${HOLD_TIMEOUT}s"
    sleep 0.2
  done
  heap1=$(heap_used_kib "$SERVER_PID")
  rss1=$(rss_kib "$SERVER_PID")
  exec 7>&-
  wait "$hold_pid" 2>/dev/null || true
  rm -f "$fifo"
  kill -0 "$SERVER_PID" 2>/dev/null || die "$server died while the connections were held"
  stop_server
  h=$(per_connection "$heap0" "$heap1")
  n=$(per_connection "$rss0" "$rss1") # the heap is resident from the start (AlwaysPreTouch): VmRSS grows by native memory
  t=$((h + n))
  HEAP[$server]+="$h "
  NATIVE[$server]+="$n "
  TOTAL[$server]+="$t "
  RAW_LINES+=("$(printf '%-5s %-8s %10s %10s %10s %10s %8s %8s %8s' "$round" "$server" "$heap0" "$heap1" "$rss0" "$rss1" \
    "$h" "$n" "$t")")
  log "$server round $round: heap $h B, native $n B, total $t B per idle connection"
}

START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
for ((round = 1; round <= ROUNDS; round++)); do
  for server in "${PROVIDER_LIST[@]}"; do
    log "=== round $round/$ROUNDS: $server ==="
    quiet_wait "round $round: $server" "$server"
    measure_idle "$server" "$round"
  done
done

med() { local v; read -r -a v <<<"$1"; median "${v[@]}" | awk '{ printf "%.0f\n", $1 }'; }

report() {
  local s
  echo "Memory per idle keep-alive connection ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1)); JVM_OPTS: $JVM_OPTS"
  echo "$IDLE_CONNECTIONS connections held, each after one GET /plaintext; rounds: $ROUNDS; warm-up: $WARMUP"
  echo
  printf '%-8s %14s %14s %14s %12s\n' server "heap B/conn" "native B/conn" "total B/conn" "Weft/server"
  printf '%-8s %14s %14s %14s %12s\n' -------- -------------- -------------- -------------- ------------
  for s in "${PROVIDER_LIST[@]}"; do
    local r=n/a
    if [[ -n ${TOTAL[weft]:-} ]]; then r=$(ratio "$(med "${TOTAL[weft]}")" "$(med "${TOTAL[$s]}")"); fi
    printf '%-8s %14s %14s %14s %12s\n' "$s" "$(med "${HEAP[$s]}")" "$(med "${NATIVE[$s]}")" "$(med "${TOTAL[$s]}")" "$r"
  done
  echo "(medians over $ROUNDS round(s); heap: Java heap in use after a full GC; native: VmRSS beyond the heap,"
  echo " which -XX:+AlwaysPreTouch keeps resident from the start; Weft/server < 1.00: Weft holds less)"
  echo
  for s in "${PROVIDER_LIST[@]}"; do
    if is_engine_provider "$s"; then echo "$s: ${ENGINE_LIBS[$s]:-?}"; fi
  done
  report_commands "${PROVIDER_LIST[@]}"
  echo "  client: python3 bench/idle/hold.py PORT $IDLE_CONNECTIONS"
}

{
  report
  echo
  echo "Raw readings (KiB before/after; B per connection):"
  printf '%-5s %-8s %10s %10s %10s %10s %8s %8s %8s\n' round server heap0 heap1 rss0 rss1 heap native total
  printf '%s\n' "${RAW_LINES[@]}"
} >"$RESULTS_FILE"
echo
report
echo
echo "Raw numbers: $RESULTS_FILE"
