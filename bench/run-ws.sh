#!/usr/bin/env bash
#
# WebSocket benchmark: Weft vs. Jetty 12 on the same machine, in one run, with bench/ws-load (a Go client
# built on github.com/gorilla/websocket) against 127.0.0.1. Two parts:
#
#   echo : every run starts a fresh server and runs
#            ws-load echo -url ws://127.0.0.1:PORT/echo -c CONNECTIONS -size MESSAGE_SIZE -window WINDOW
#                         -warmup WARMUP -d DURATION -pid SERVER_PID
#          CONNECTIONS connections, each a closed loop: send a text message of MESSAGE_SIZE bytes, wait for
#          its echo (WINDOW = messages in flight per connection), for WARMUP and then the measured
#          DURATION. ws-load reports messages/s (echoes received in the measured window), the latency
#          percentiles of those round trips, and the CPU time per message of the server process and of
#          itself (from /proc and getrusage, over the measured window only). No compression is offered;
#          COMPRESSED=1 adds a second mode, echo-deflate, in which ws-load offers permessage-deflate
#          (-compress), and the report shows whether each server accepted it.
#   idle : a fresh server per run; after a full GC the server's heap and RSS are read (the baseline),
#            ws-load idle -url ws://127.0.0.1:PORT/echo -n IDLE_SESSIONS
#          opens the sessions, holds them IDLE_HOLD seconds, the script forces a full GC in the server
#          (jcmd PID GC.run) and reads the heap used (jcmd PID GC.heap_info) and VmRSS and Threads from
#          /proc/PID/status; then ws-load pings every session (each must answer), and closes them all
#          with a close handshake.
#
# Servers (same JDK, same JVM_OPTS, each with its own defaults otherwise):
#   weft  : bench/ws/WeftEchoServer.java: HttpServer.create() (Weft found by ServiceLoader) with a
#           WebSocketHandler on /echo whose listener does session.sendText(message).
#   jetty : bench/ws/jetty (JettyEchoServer, Jetty 12.1.12's own WebSocket API on its core server):
#           session.sendText(message, callback) and the next frame demanded once the echo is written.
# Both bind 127.0.0.1 with a listen backlog of 1024. The idle runs only, to hold 10,000 quiet sessions:
#   weft  : -Dweft.httpserver.maxConnections=2*IDLE_SESSIONS (default 10,000, which 10,000 sessions plus
#           the smoke test's connection exceed) -Dweft.httpserver.websocket.idleTimeout=IDLE_TIMEOUT
#   jetty : -Dbench.ws.idleTimeout=IDLE_TIMEOUT (JettyEchoServer sets it on the connector and on the
#           WebSocket container; Jetty's default is 30 s)
#
# Knobs (environment variables):
#   SERVERS         servers to run, each round in a rotating order (default "weft jetty")
#   PARTS           "echo idle" (default), "echo" or "idle"
#   ROUNDS          echo rounds; each runs every server (and mode) once, on a fresh server (default 3)
#   CONNECTIONS     echo connections (default 64)
#   MESSAGE_SIZE    bytes per echo message (default 256)
#   WINDOW          messages in flight per connection (default 1: strictly one at a time)
#   WARMUP          seconds of load before the measured window, on the same connections (default 5)
#   DURATION        seconds measured (default 10)
#   COMPRESSED      1 = also run the echo-deflate mode (default 0)
#   IDLE_SESSIONS   sessions held by the idle part (default 10000)
#   IDLE_ROUNDS     idle runs per server (default 1)
#   IDLE_HOLD       seconds the sessions are held before the heap is read (default 10)
#   IDLE_TIMEOUT    WebSocket idle timeout of both servers in the idle runs, ISO-8601 (default PT10M)
#   JVM_OPTS        JVM flags, identical for every server (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   IDLE_JVM_OPTS   JVM flags of the idle runs, identical for every server (default: JVM_OPTS)
#   WEFT_JAR        use this Weft jar instead of building httpserver-engine with Maven
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 30)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and the load generator (default: not pinned;
#                   see lib/common.sh)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD      1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY      % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP       jetty's echo rate below PEER_DROP x its baseline makes the run not comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE  the peers' baselines (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start (echo and idle) the script waits up to
# QUIET_WAIT seconds for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later
# ones: CPUs busy <= QUIET_BUSY % in a one-second sample, since the load average still counts the
# script's own previous run); a start that finds none is marked "!" in the tables and listed at the
# end of the report, which shows the load average (1, 5, 15 min) and CPU use before every start. The
# peer's (jetty's, never Weft's) median messages/s of each echo mode is compared with its rows in
# bench/baselines.tsv: below PEER_DROP x its baseline, a "NOT COMPARABLE" box opens the report and,
# after the report is written, the script exits with status 3 (unless ACCEPT_DISTURBED=1; a failed
# run's status 1 comes first).
#
# A run fails (and is left out of the medians) when ws-load exits non-zero or is killed (every ws-load run
# is bounded by `timeout`), reports any error (a failed handshake, a missing, late, wrong or reordered
# echo, a session that ended or did not answer the ping, a close handshake that did not complete), opens
# fewer sessions than asked, or when the server died. The script prints ws-load's output and the end of
# the server log of every failed run, writes the report anyway, and exits with status 1.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
WS_CLASSES_DIR="$TARGET_DIR/ws-classes"
LOG_DIR="$TARGET_DIR/logs-ws"
RESULTS_FILE="$TARGET_DIR/results-ws.txt"
JETTY_DIR="$BENCH_DIR/ws/jetty"
WS_LOAD="$TARGET_DIR/ws-load"

SERVERS="${SERVERS:-weft jetty}"
PARTS="${PARTS:-echo idle}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-64}"
MESSAGE_SIZE="${MESSAGE_SIZE:-256}"
WINDOW="${WINDOW:-1}"
WARMUP="${WARMUP:-5}"
DURATION="${DURATION:-10}"
COMPRESSED="${COMPRESSED:-0}"
IDLE_SESSIONS="${IDLE_SESSIONS:-10000}"
IDLE_ROUNDS="${IDLE_ROUNDS:-1}"
IDLE_HOLD="${IDLE_HOLD:-10}"
IDLE_TIMEOUT="${IDLE_TIMEOUT:-PT10M}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
IDLE_JVM_OPTS="${IDLE_JVM_OPTS:-$JVM_OPTS}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-30}"

LOAD_TOOL=ws-load

# Shared functions: logging, server lifecycle and the EXIT trap, JDK search, median/ratio, report_failure.
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# prepare_weft_jar.
# shellcheck source=lib/weft-jar.sh
source "$BENCH_DIR/lib/weft-jar.sh"
# build_ws_load, kv, load_problem, med, range.
# shellcheck source=lib/ws-load.sh
source "$BENCH_DIR/lib/ws-load.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
WARMUP=${WARMUP%s}
DURATION=${DURATION%s}
check_positive_ints ROUNDS CONNECTIONS MESSAGE_SIZE WINDOW DURATION IDLE_SESSIONS IDLE_ROUNDS IDLE_HOLD STARTUP_TIMEOUT
check_cpu_lists
check_quiet_knobs
[[ $WARMUP =~ ^(0|[1-9][0-9]*)$ ]] || die "WARMUP must be a number of seconds (got '$WARMUP')"
[[ $COMPRESSED =~ ^[01]$ ]] || die "COMPRESSED must be 0 or 1 (got '$COMPRESSED')"
[[ $IDLE_TIMEOUT =~ ^PT[0-9]+[HMS]$ ]] || die "IDLE_TIMEOUT must look like PT10M (got '$IDLE_TIMEOUT')"
((CONNECTIONS <= 20000 && IDLE_SESSIONS <= 50000)) || die "CONNECTIONS must be <= 20000, IDLE_SESSIONS <= 50000"
((MESSAGE_SIZE >= 16 && MESSAGE_SIZE <= 1048576)) || die "MESSAGE_SIZE must be 16-1048576"
((WINDOW <= 1024)) || die "WINDOW must be <= 1024"

read -r -a SERVER_LIST <<<"$SERVERS"
(( ${#SERVER_LIST[@]} > 0 )) || die "SERVERS is empty"
declare -A SEEN=()
for s in "${SERVER_LIST[@]}"; do
  [[ $s == weft || $s == jetty ]] || die "unknown server '$s' (known: weft jetty)"
  [[ -z ${SEEN[$s]:-} ]] || die "server '$s' is listed twice in SERVERS"
  SEEN[$s]=1
done
has_server() { [[ " ${SERVER_LIST[*]} " == *" $1 "* ]]; }
read -r -a PART_LIST <<<"$PARTS"
for p in "${PART_LIST[@]}"; do
  [[ $p == echo || $p == idle ]] || die "unknown part '$p' (known: echo idle)"
done
has_part() { [[ " ${PART_LIST[*]} " == *" $1 "* ]]; }
MODES=(echo)
[[ $COMPRESSED == 1 ]] && MODES+=(echo-deflate)

read -r -a ECHO_JVM_FLAGS <<<"$JVM_OPTS"
read -r -a IDLE_JVM_FLAGS <<<"$IDLE_JVM_OPTS"
JVM_FLAGS=("${ECHO_JVM_FLAGS[@]}")

install_cleanup_traps

ensure_tool timeout coreutils
ensure_tool pgrep procps

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
JCMD="$JDK/bin/jcmd"
[[ -x $JCMD ]] || die "$JCMD is missing (the idle part needs jcmd from the same JDK)"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"

# 10,000 sessions need 10,000 descriptors in the server and in ws-load (each a process of its own).
if has_part idle; then
  raise_open_files $((IDLE_SESSIONS + 1024)) "the idle part"
fi

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$WS_CLASSES_DIR" "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
# Artifacts
# ---------------------------------------------------------------------------------------------
build_ws_load

if has_server weft; then
  prepare_weft_jar
  log "compiling bench/ws/WeftEchoServer.java"
  run "$JDK/bin/javac" --release 21 -cp "$WEFT_JAR" -d "$WS_CLASSES_DIR" "$BENCH_DIR/ws/WeftEchoServer.java"
fi
if has_server jetty; then
  log "building the Jetty echo server"
  run env JAVA_HOME="$JDK" mvn -B -q -f "$JETTY_DIR/pom.xml" -DskipTests package >&2
  JETTY_VERSION=$(find "$JETTY_DIR/target/lib" -name 'jetty-server-*.jar' -printf '%f\n' | sed 's/^jetty-server-//; s/\.jar$//')
  [[ -n $JETTY_VERSION ]] || die "no jetty-server jar in $JETTY_DIR/target/lib"
fi

# ---------------------------------------------------------------------------------------------
# Server definitions (start_server in lib/common.sh calls server_cmd, provider_class_ok, server_smoke)
# ---------------------------------------------------------------------------------------------
IDLE_RUN=0 # 1 while the idle part runs: server_cmd uses IDLE_JVM_OPTS and adds the idle settings
server_props() { # server -> its system properties, one a line
  ((IDLE_RUN)) || return 0
  case $1 in
    weft)
      echo "-Dweft.httpserver.maxConnections=$((2 * IDLE_SESSIONS))"
      echo "-Dweft.httpserver.websocket.idleTimeout=$IDLE_TIMEOUT"
      ;;
    jetty) echo "-Dbench.ws.idleTimeout=$IDLE_TIMEOUT" ;;
  esac
}

server_cmd() { # server port -> fills SERVER_CMD
  local server=$1 port=$2 props=()
  mapfile -t props < <(server_props "$server")
  if ((IDLE_RUN)); then JVM_FLAGS=("${IDLE_JVM_FLAGS[@]}"); else JVM_FLAGS=("${ECHO_JVM_FLAGS[@]}"); fi
  case $server in
    weft) SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" "${props[@]}" -cp "$WEFT_JAR:$WS_CLASSES_DIR" WeftEchoServer "$port") ;;
    jetty) SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" "${props[@]}" -cp "$JETTY_DIR/target/classes:$JETTY_DIR/target/lib/*" \
      JettyEchoServer "$port") ;;
  esac
}

provider_class_ok() {
  case $1 in
    weft) if [[ -n $WEFT_PROVIDER_CLASS ]]; then [[ $2 == "$WEFT_PROVIDER_CLASS" ]]; else [[ $2 == dev.weft.* ]]; fi ;;
    jetty) [[ $2 == org.eclipse.jetty.server.Server ]] ;;
  esac
}

# One echo over one connection must work before a server is measured.
server_smoke() { # port deadline
  local port=$1 deadline=$2 out="$LOG_DIR/smoke-$1.txt"
  while ((SECONDS < deadline)); do
    if "$WS_LOAD" echo -url "ws://127.0.0.1:$port/echo" -c 1 -size "$MESSAGE_SIZE" -warmup 0 -d 200ms \
      -timeout 3s >"$out" 2>&1 </dev/null; then
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.2
  done
  SMOKE_PROBLEM="does not echo over WebSocket at ws://127.0.0.1:$port/echo ($(grep -m 1 '^error=' "$out" 2>/dev/null || tail -n 1 "$out"))"
  return 1
}

# ---------------------------------------------------------------------------------------------
# Measurement helpers
# ---------------------------------------------------------------------------------------------
# Heap used after a full GC, in KiB: jcmd GC.run, then the "used" figures of GC.heap_info's heap lines
# (Parallel: PSYoungGen + ParOldGen; G1: garbage-first heap; Metaspace and class space left out).
heap_used_kib() { # pid tag
  local pid=$1 out="$LOG_DIR/heap-$2.txt"
  "$JCMD" "$pid" GC.run >"$out" 2>&1 || { echo NA; return 0; }
  "$JCMD" "$pid" GC.heap_info >>"$out" 2>&1 || { echo NA; return 0; }
  awk '/Metaspace|class space/ { next }
    match($0, /used [0-9]+[KMG]/) {
      v = substr($0, RSTART + 5, RLENGTH - 5); u = substr(v, length(v)); n = substr(v, 1, length(v) - 1) + 0
      if (u == "M") n *= 1024; if (u == "G") n *= 1048576
      sum += n; found = 1 }
    END { if (found) print sum; else print "NA" }' "$out"
}

proc_status() { # pid field -> the number after "field:" in /proc/PID/status (VmRSS in kB), or NA
  awk -v f="$2:" '$1 == f { print $2; found = 1; exit } END { if (!found) print "NA" }' "/proc/$1/status" 2>/dev/null || echo NA
}

ws_echo_cmd() { # mode port pid -> fills LOAD_CMD
  LOAD_CMD=("$WS_LOAD" echo -url "ws://127.0.0.1:$2/echo" -c "$CONNECTIONS" -size "$MESSAGE_SIZE" -window "$WINDOW"
    -warmup "${WARMUP}s" -d "${DURATION}s" -pid "$3")
  [[ $1 == echo-deflate ]] && LOAD_CMD+=(-compress)
  return 0
}
ws_idle_cmd() { # port -> fills LOAD_CMD
  LOAD_CMD=("$WS_LOAD" idle -url "ws://127.0.0.1:$1/echo" -n "$IDLE_SESSIONS" -hold "$((IDLE_HOLD + 300))s")
}

# ---------------------------------------------------------------------------------------------
# Echo runs
# ---------------------------------------------------------------------------------------------
declare -A RATE=() P50=() P99=() P999=() SERVER_US=() CLIENT_US=() EXTENSIONS=() ROUND_RATE=() LOAD_CMDS=()
ECHO_LINES=()
bench_echo() { # server mode round
  local server=$1 mode=$2 round=$3 key="$1 $2" out problem rate=FAILED
  start_server "$server" "$round" "$server-$mode"
  server_cmd "$server" PORT
  SERVER_CMDS["$server echo"]="$(quote_cmd "${SERVER_CMD[@]}")"
  ws_echo_cmd "$mode" PORT SERVER_PID
  LOAD_CMDS[$mode]="$(quote_cmd "${LOAD_CMD[@]}")"

  out="$LOG_DIR/ws-load-$server-$mode-r$round.txt"
  ws_echo_cmd "$mode" "$SERVER_PORT" "$SERVER_PID"
  measure_ws_load "$out" "$((WARMUP + DURATION + 60))" "$key" "$server $mode round $round"
  rate=$WS_RATE problem=$WS_PROBLEM
  if [[ -z $problem ]]; then
    RATE[$key]+="$rate "
    CLIENT_US[$key]+="$(kv "$out" client_cpu_us_per_msg) "
    EXTENSIONS[$key]=$(kv "$out" extensions)
  fi
  ROUND_RATE["$round $key"]=$rate
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi # its server start saw a busy machine (quiet_wait)
  ECHO_LINES+=("$(printf '%-5s %-6s %-12s %-6s %12s %9s %9s %9s %9s %9s %6s %-4s %s' "$round" "$server" "$mode" "$SERVER_PORT" \
    "$rate" "$(kv "$out" latency_us_p50)" "$(kv "$out" latency_us_p99)" "$(kv "$out" latency_us_p999)" \
    "$(kv "$out" server_cpu_us_per_msg)" "$(kv "$out" client_cpu_us_per_msg)" "$(kv "$out" other_cpu_pct)" \
    "$mark" "${problem:-ok}")")
  log "$server $mode round $round: $rate messages/s"
  stop_server
}

# ---------------------------------------------------------------------------------------------
# Idle runs
# ---------------------------------------------------------------------------------------------
declare -A HEAP_KIB=() HEAP_BASE_KIB=() HEAP_PER_SESSION=() RSS_KIB=() RSS_PER_SESSION=() THREADS=()
IDLE_LINES=()
bench_idle() { # server round
  local server=$1 round=$2 out rc=0 problem="" open heap0 heap1 rss0 rss1 threads per rss_per deadline load_pid
  IDLE_RUN=1
  start_server "$server" "$round" "$server-idle"
  server_cmd "$server" PORT
  SERVER_CMDS["$server idle"]="$(quote_cmd "${SERVER_CMD[@]}")"
  ws_idle_cmd PORT
  LOAD_CMDS[idle]="$(quote_cmd "${LOAD_CMD[@]}")"

  heap0=$(heap_used_kib "$SERVER_PID" "$server-r$round-before")
  rss0=$(proc_status "$SERVER_PID" VmRSS)
  out="$LOG_DIR/ws-load-$server-idle-r$round.txt"
  ws_idle_cmd "$SERVER_PORT"
  printf '+ %s\n' "$(quote_cmd "${LOAD_CMD[@]}")" >&2
  timeout -k 5 "$((IDLE_HOLD + 420))" "${LOAD_CMD[@]}" >"$out" 2>&1 </dev/null &
  load_pid=$!
  WRK_PID=$load_pid # the EXIT trap ends it
  deadline=$((SECONDS + 300))
  while ((SECONDS < deadline)) && ! grep -q '^open=' "$out" && kill -0 "$load_pid" 2>/dev/null; do
    sleep 0.2
  done
  open=$(kv "$out" open)
  heap1=NA rss1=NA threads=NA
  if [[ $open == "$IDLE_SESSIONS" ]]; then
    log "$server: $open sessions open; holding them ${IDLE_HOLD}s"
    sleep "$IDLE_HOLD"
    heap1=$(heap_used_kib "$SERVER_PID" "$server-r$round-sessions")
    rss1=$(proc_status "$SERVER_PID" VmRSS)
    threads=$(proc_status "$SERVER_PID" Threads)
  else
    problem="$open of $IDLE_SESSIONS sessions opened"
  fi
  # SIGUSR1 ends ws-load's hold; it goes to ws-load itself, the child of `timeout` (which would die of it).
  kill -USR1 "$(pgrep -P "$load_pid" -x ws-load || echo "$load_pid")" 2>/dev/null || true
  wait "$load_pid" || rc=$?
  WRK_PID=""
  problem+="${problem:+; }$(load_problem "$rc" "$out")"
  problem=${problem%; }
  [[ $heap1 == NA && -z $problem ]] && problem="no heap figure from jcmd (see $LOG_DIR/heap-$server-r$round-sessions.txt)"
  per=NA rss_per=NA
  if [[ -z $problem ]]; then
    per=$(awk -v a="$heap1" -v b="$heap0" -v n="$IDLE_SESSIONS" 'BEGIN { printf "%.2f", (a - b) / n }')
    if [[ $rss1 != NA && $rss0 != NA ]]; then
      rss_per=$(awk -v a="$rss1" -v b="$rss0" -v n="$IDLE_SESSIONS" 'BEGIN { printf "%.2f", (a - b) / n }')
    fi
    HEAP_KIB[$server]+="$heap1 "
    HEAP_BASE_KIB[$server]+="$heap0 "
    HEAP_PER_SESSION[$server]+="$per "
    RSS_KIB[$server]+="$rss1 "
    RSS_PER_SESSION[$server]+="$rss_per "
    THREADS[$server]+="$threads "
  else
    report_failure "$server idle round $round" "$out" "$problem"
  fi
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi
  IDLE_LINES+=("$(printf '%-5s %-6s %-6s %8s %8s %12s %12s %10s %12s %12s %8s %-4s %s' "$round" "$server" "$SERVER_PORT" \
    "$open" "$(kv "$out" alive)" "$heap0" "$heap1" "$per" "$rss0" "$rss1" "$threads" "$mark" "${problem:-ok}")")
  stop_server
  IDLE_RUN=0
}

# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------
START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
count=${#SERVER_LIST[@]}
if has_part echo; then
  for ((round = 1; round <= ROUNDS; round++)); do
    # The first server moves by one each round (weft jetty, jetty weft, ...), so none always runs first.
    for mode in "${MODES[@]}"; do
      for ((k = 0; k < count; k++)); do
        server=${SERVER_LIST[$(((round - 1 + k) % count))]}
        log "=== round $round/$ROUNDS: $server $mode ==="
        quiet_wait "round $round: $server $mode" "$server $mode"
        bench_echo "$server" "$mode" "$round"
      done
    done
  done
fi
if has_part idle; then
  for ((round = 1; round <= IDLE_ROUNDS; round++)); do
    for ((k = 0; k < count; k++)); do
      server=${SERVER_LIST[$(((round - 1 + k) % count))]}
      log "=== idle round $round/$IDLE_ROUNDS: $server, $IDLE_SESSIONS sessions ==="
      quiet_wait "idle round $round: $server" "$server idle"
      bench_idle "$server" "$round"
    done
  done
fi

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
kib_to_mib() { awk -v k="$1" 'BEGIN { if (k ~ /^[0-9.]+$/) printf "%.1f", k / 1024; else print "NA" }'; }

# The peer (jetty) of every echo mode is checked against its baseline; the idle part has no rate.
if has_part echo; then
  register_rate_peers
fi
BASELINE_SETTINGS="ROUNDS=$ROUNDS CONNECTIONS=$CONNECTIONS MESSAGE_SIZE=$MESSAGE_SIZE WINDOW=$WINDOW WARMUP=$WARMUP DURATION=$DURATION"
check_baselines

echo_ratio_line() { # mode
  local mode=$1 a="weft $1" b="jetty $1" r=n/a per_round=n/a cpu=n/a verdict="" rr ratios=()
  if has_server weft && has_server jetty; then
    r=$(ratio "$(med "${RATE[$a]:-}")" "$(med "${RATE[$b]:-}")")
    for ((rr = 1; rr <= ROUNDS; rr++)); do
      ratios+=("$(ratio "${ROUND_RATE["$rr $a"]:-NA}" "${ROUND_RATE["$rr $b"]:-NA}")")
    done
    per_round=$(median "${ratios[@]}")
    [[ $per_round == NA ]] && per_round=n/a
    cpu=$(ratio "$(med "${SERVER_US[$b]:-}")" "$(med "${SERVER_US[$a]:-}")")
  fi
  [[ $r != n/a ]] && verdict=$(awk -v r="$r" 'BEGIN { print (r + 0 >= 1.0) ? "met" : "NOT met" }')
  printf '%-26s %8s %10s %11s   >= 1.0 %s\n' "Weft / Jetty ($mode)" "$r" "$per_round" "$cpu" "$verdict"
}

report() {
  local s mode key vals ok
  report_disturbed
  echo "WebSocket benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1)); JVM_OPTS: $JVM_OPTS; IDLE_JVM_OPTS: $IDLE_JVM_OPTS"
  cpu_placement
  has_server jetty && echo "Jetty: $JETTY_VERSION (jetty-websocket-jetty-server, core API)"
  echo "ws-load: $WS_LOAD_VERSION"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); load average at the start of the report: $(cut -d' ' -f1-3 /proc/loadavg)"
  if has_part echo; then
    echo
    echo "Echo: $CONNECTIONS connections, $MESSAGE_SIZE-byte text messages, $WINDOW in flight per connection," \
      "${WARMUP}s warm-up + ${DURATION}s measured, $ROUNDS round(s)"
    printf '%-8s %-12s %18s %9s %9s %9s %11s %11s  %-9s %s\n' server mode "median msg/s" "p50 us" "p99 us" "p999 us" \
      "server us" "client us" "good runs" "extensions"
    printf '%-8s %-12s %18s %9s %9s %9s %11s %11s  %-9s %s\n' -------- ------------ ------------------ --------- --------- \
      --------- ----------- ----------- --------- ----------
    for mode in "${MODES[@]}"; do
      for s in "${SERVER_LIST[@]}"; do
        key="$s $mode"
        read -r -a vals <<<"${RATE[$key]:-}"
        ok=${#vals[@]}
        printf '%-8s %-12s %18s %9s %9s %9s %11s %11s  %-9s %s\n' "$s$(mark_of "$key")" "$mode" \
          "$(med "${RATE[$key]:-}" | awk '/^[0-9.]+$/ { printf "%.0f", $1; next } { printf "%s", $1 }') ($(range "${RATE[$key]:-}"))" \
          "$(med "${P50[$key]:-}")" "$(med "${P99[$key]:-}")" "$(med "${P999[$key]:-}")" \
          "$(med "${SERVER_US[$key]:-}")" "$(med "${CLIENT_US[$key]:-}")" "$ok/$ROUNDS" "${EXTENSIONS[$key]:-NA}"
      done
    done
    echo "(medians over the good runs; msg/s: echoes received per second in the measured window; p50/p99/p999:"
    echo " round-trip time of those messages; server us, client us: CPU time, user + system, of the server"
    echo " process and of ws-load in the measured window per message)"
    echo
    printf '%-26s %8s %10s %11s   %s\n' ratio msg/s per-round "server CPU" target
    printf '%-26s %8s %10s %11s   %s\n' -------------------------- -------- ---------- ----------- ------
    for mode in "${MODES[@]}"; do echo_ratio_line "$mode"; done
    echo "(msg/s: ratio of the medians, the figure the target applies to; per-round: median of the ratios within"
    echo " each round; server CPU: messages per CPU-second of the server, Jetty's us/msg over Weft's; > 1.00 = Weft better)"
    mark_legend
    echo
    report_baselines
  fi
  if has_part idle; then
    echo
    echo "Idle: $IDLE_SESSIONS sessions held ${IDLE_HOLD}s, then a full GC (jcmd GC.run); $IDLE_ROUNDS run(s) per server"
    printf '%-8s %16s %16s %18s %12s %18s %9s  %s\n' server "heap used MiB" "heap before MiB" "heap KiB/session" \
      "RSS MiB" "RSS KiB/session" threads "good runs"
    printf '%-8s %16s %16s %18s %12s %18s %9s  %s\n' -------- ---------------- ---------------- ------------------ \
      ------------ ------------------ --------- ---------
    for s in "${SERVER_LIST[@]}"; do
      read -r -a vals <<<"${HEAP_KIB[$s]:-}"
      printf '%-8s %16s %16s %18s %12s %18s %9s  %s\n' "$s$(mark_of "$s idle")" "$(kib_to_mib "$(med "${HEAP_KIB[$s]:-}")")" \
        "$(kib_to_mib "$(med "${HEAP_BASE_KIB[$s]:-}")")" "$(med "${HEAP_PER_SESSION[$s]:-}")" \
        "$(kib_to_mib "$(med "${RSS_KIB[$s]:-}")")" "$(med "${RSS_PER_SESSION[$s]:-}")" "$(med "${THREADS[$s]:-}" | awk '{ sub(/\.00$/, ""); print }')" \
        "${#vals[@]}/$IDLE_ROUNDS"
    done
    echo "(heap used: after a full GC with the sessions open; per session: (with - before) / $IDLE_SESSIONS;"
    echo " RSS: VmRSS of the server process; heap pages count once touched, so it includes garbage freed since;"
    echo " threads: the server process's threads with the sessions open)"
  fi
  echo
  report_failures_and_commands
  has_part echo && echo "  every echo run is wrapped in: timeout -k 5 $((WARMUP + DURATION + 60))"
  has_part idle && echo "  idle: after 'open=', sleep $IDLE_HOLD; jcmd SERVER_PID GC.run; jcmd SERVER_PID GC.heap_info;" \
    "/proc/SERVER_PID/status; kill -USR1 <ws-load>"
  echo
  report_quiet
  return 0
}

{
  report
  echo
  if has_part echo; then
    echo "Raw echo results:"
    printf '%-5s %-6s %-12s %-6s %12s %9s %9s %9s %9s %9s %6s %-4s %s\n' round server mode port "msg/s" p50_us p99_us \
      p999_us server_us client_us other% mark status
    printf '%s\n' "${ECHO_LINES[@]}"
    echo "other%: CPU used by all other processes in the measured window, in % of one core (0-200 on 2 cores)"
    echo
  fi
  if has_part idle; then
    echo "Raw idle results (heap in KiB after a full GC, RSS in kB):"
    printf '%-5s %-6s %-6s %8s %8s %12s %12s %10s %12s %12s %8s %-4s %s\n' round server port open alive heap_before \
      heap_with KiB/sess rss_before rss_with threads mark status
    printf '%s\n' "${IDLE_LINES[@]}"
    echo
  fi
  if ((${#FAILURE_DETAILS[@]} > 0)); then
    echo "Failed runs in detail:"
    printf '%s\n\n' "${FAILURE_DETAILS[@]}"
  fi
  echo
  echo "ws-load outputs, jcmd outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

finish_ws_run 'WeftEchoServer|JettyEchoServer'
