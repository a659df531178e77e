#!/usr/bin/env bash
#
# Per-request cost: Weft against Netty (and optionally Vert.x and Helidon SE), counted rather than timed.
#
# The servers are those of run-http1.sh (weft: bench/plaintext/PlaintextServer.java on this tree's engine jar;
# netty, vertx, helidon: the programs of bench/engine), on the same JDK with the same JVM_OPTS, serving
# GET /plaintext to wrk on 127.0.0.1, keep-alive (wrk -c CONNECTIONS) and pipelined (PIPELINE_DEPTH requests
# per send, bench/pipeline.lua). For each server and mode the script warms the server up (WARMUP of the same
# wrk load), then measures one wrk run of DURATION and divides what it counted by the requests wrk completed
# in it ("N requests in" of wrk's output):
#
#   syscalls/req   perf stat -e raw_syscalls:sys_enter -p PID (a kernel tracepoint counter over every thread of
#                  the server, started 0.5 s before wrk and stopped right after it): every system call the
#                  server made. Counting does not slow the server measurably (req/s is reported beside it).
#   ctxsw/req      perf stat's context-switches (software event) over the same window: the server's threads
#                  leaving a CPU, voluntarily (blocking, futex waits) or not.
#   alloc B/req    bytes allocated in the Java heap over the same window, exactly from the heap's own
#                  accounting: before the window `jcmd PID VM.log` turns on gc+heap=debug logging into a file
#                  and `jcmd PID GC.heap_info` reads the heap in use (the sum of the generations' "used"); after
#                  it, GC.heap_info again. allocated = used(after) - used(before) + the sum over the young (and
#                  any full) collections in the log of used(before the collection) - used(after it). The server
#                  is idle around the readings, so the log holds the window's collections only; the log output
#                  is removed again after the window (what=all=off on that output alone). TLABs count as
#                  used when handed out, so the error is a few TLABs (a few MB over GBs allocated).
#   CPU us/req     utime + stime of /proc/PID/stat (all threads; clock ticks) over the same window.
#   per call       in the same perf stat, the tracepoints syscalls:sys_enter_<name> of each call in PERF_SYSCALLS,
#                  and syscalls:sys_exit_read filtered on ret == -11: reads that found no data (EAGAIN), after
#                  which a virtual thread parks. Exact counts at full speed.
#   breakdown      a separate, shorter wrk run of STRACE_DURATION under `strace -c -f -p PID` (every thread)
#                  lists every system call the server makes (to check that PERF_SYSCALLS covers the ones that
#                  matter) with its calls per request and share of all calls. strace stops the server at every
#                  call, so the server runs several times slower and its mix shifts (a slower server finds more
#                  data waiting, so it parks less): trust its shares and ratios, not its absolute figures; the
#                  perf counts are the figures.
#   response bytes the size of one response (head + body, curl's size_header + size_download), for the copies
#                  per request that docs/benchmarks.md derives from each server's code path.
#
# Park/unpark round trips are not counted directly: a virtual thread whose socket read finds no data (a read
# failing with EAGAIN) arms the JDK poller with epoll_ctl and parks until the poller's epoll_wait unparks it, so
# Weft's EAGAIN reads and epoll_ctl per request are the proxy for its parks; futex calls count platform threads
# (carriers, pollers, event loops) going to sleep and being woken, which both servers have.
#
# Knobs (environment variables):
#   SERVERS         servers to run, in this order            (default "weft netty"; known: weft netty vertx helidon)
#   ROUNDS          rounds; each starts every server afresh   (default 1; with more, the table shows medians)
#   DURATION        wrk duration of each measured (perf) window (default 10s)
#   WARMUP          wrk warm-up before each measured window    (default 10s)
#   STRACE_DURATION wrk duration of the strace window          (default 5s; 0 = no strace breakdown)
#   PERF_SYSCALLS   system calls counted one by one with perf (default "read write writev futex epoll_wait
#                   epoll_ctl sched_yield")
#   TOP_SYSCALLS    system calls listed per run in the strace breakdown (default 8)
#   CONNECTIONS     wrk connections                          (default 64)
#   PIPELINE_DEPTH  requests per pipelined send              (default 16)
#   WRK_THREADS     wrk threads                              (default 1)
#   JVM_OPTS        JVM flags, identical for every server     (default "-Xms512m -Xmx512m -XX:+UseParallelGC", as
#                   run-http1.sh; bytes allocated need a collector whose GC.heap_info prints generations as
#                   "total NK, used NK": Parallel, Serial or G1)
#   WEFT_JAR        use this Weft jar instead of building httpserver-engine with Maven
#   SKIP_BUILD      1 = do not build the bench/engine programs; use their target/ as is (default 0)
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 30)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and wrk (default: not pinned; lib/common.sh)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 0: counts per request
#                   move much less with other work than req/s does; the report still gives the load average;
#                   QUIET_LOAD and QUIET_BUSY as in lib/common.sh)
#
# Needs perf (with the raw_syscalls tracepoints: root, or kernel.perf_event_paranoid <= -1), strace, wrk, curl.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2034 # REPO_DIR is used by lib/weft-jar.sh (through lib/plaintext.sh)
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
CLASSES_DIR="$TARGET_DIR/classes"
# shellcheck disable=SC2034 # used by lib/plaintext.sh
LIB_DIR="$TARGET_DIR/lib"
LOG_DIR="$TARGET_DIR/logs-cost"
RESULTS_FILE="$TARGET_DIR/results-cost.txt"
# shellcheck disable=SC2034 # used by wrk_cmd (lib/common.sh)
PIPELINE_LUA="$BENCH_DIR/pipeline.lua"

SERVERS="${SERVERS:-weft netty}"
ROUNDS="${ROUNDS:-1}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-10s}"
STRACE_DURATION="${STRACE_DURATION:-5s}"
TOP_SYSCALLS="${TOP_SYSCALLS:-8}"
PERF_SYSCALLS="${PERF_SYSCALLS:-read write writev futex epoll_wait epoll_ctl sched_yield}"
CONNECTIONS="${CONNECTIONS:-64}"
PIPELINE_DEPTH="${PIPELINE_DEPTH:-16}"
WRK_THREADS="${WRK_THREADS:-1}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
SKIP_BUILD="${SKIP_BUILD:-0}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-30}"
QUIET_WAIT="${QUIET_WAIT:-0}"

MODES=(plain pipelined)

# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# The Weft jar, PlaintextServer, server_cmd and provider_class_ok (netty, vertx, helidon: lib/engine-peers.sh).
# shellcheck source=lib/plaintext.sh
source "$BENCH_DIR/lib/plaintext.sh"

check_common_knobs
check_positive_ints TOP_SYSCALLS
[[ $STRACE_DURATION =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "STRACE_DURATION must be 0 or look like 5s (got '$STRACE_DURATION')"
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"
parse_server_list weft netty vertx helidon
# shellcheck disable=SC2034 # used by server_cmd (lib/plaintext.sh, lib/engine-peers.sh)
read -r -a JVM_FLAGS <<<"$JVM_OPTS"
read -r -a SYSCALL_LIST <<<"$PERF_SYSCALLS"
# shellcheck disable=SC2054 # one perf argument: a comma-separated list of events
PERF_EVENTS=(-e raw_syscalls:sys_enter,context-switches,cpu-migrations)
for name in "${SYSCALL_LIST[@]}"; do
  [[ $name =~ ^[a-z0-9_]+$ ]] || die "PERF_SYSCALLS: '$name' is not a system call name"
  PERF_EVENTS+=(-e "syscalls:sys_enter_$name")
done
PERF_EVENTS+=(-e syscalls:sys_exit_read --filter 'ret == -11')

provider_props() { :; } # weft: selected through META-INF/services in its jar; the others are bench/engine programs

install_cleanup_traps
ensure_tool wrk wrk
ensure_tool curl curl
ensure_tool perf linux-perf
ensure_tool strace strace
perf stat -x, "${PERF_EVENTS[@]}" -- true >/dev/null 2>&1 ||
  die "perf cannot count the tracepoints $(quote_cmd "${PERF_EVENTS[@]}") (run as root, or lower" \
    "kernel.perf_event_paranoid; a name in PERF_SYSCALLS may not exist)"

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
JCMD="$JDK/bin/jcmd"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
CLK_TCK=$(getconf CLK_TCK)

rm -rf "$LOG_DIR"
mkdir -p "$CLASSES_DIR" "$LOG_DIR"

if has_server weft; then prepare_weft_jar; fi
compile_plaintext_server
maven_env "$JDK"
for s in "${SERVER_LIST[@]}"; do
  if is_engine_provider "$s"; then build_engine_peer "$s"; fi
done

# ---------------------------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------------------------
# Heap in use in KiB (no collection): the sum of the generations' "used" in GC.heap_info (lines such as
# "PSYoungGen total 153088K, used 55697K"; the spaces inside a generation print "x% used" and are not summed).
heap_used_kib() { # pid
  "$JCMD" "$1" GC.heap_info | awk 'match($0, /total [0-9]+K, used [0-9]+K/) { s = substr($0, RSTART, RLENGTH); sub(/.*used /, "", s); t += s + 0 }
    END { print t + 0 }'
}
# KiB freed by the collections of a gc+heap=debug log: the sum of used(before) - used(after) over its
# "Heap Before GC" and "Heap After GC" blocks (generation lines appear only inside them); and the number of
# collections.
gc_freed_kib() { # log -> "freed-KiB collections"
  awk '/Heap Before GC/ { side = "b"; n++; next } /Heap After GC/ { side = "a"; next }
    side != "" && match($0, /total [0-9]+K, used [0-9]+K/) {
      s = substr($0, RSTART, RLENGTH); sub(/.*used /, "", s)
      if (side == "b") before += s + 0; else after += s + 0
    }
    END { printf "%d %d\n", before - after, n }' "$1"
}
cpu_ticks() { # pid -> utime + stime of the whole process, in clock ticks
  sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
wrk_requests() { awk '/ requests in / { print $1; exit }' "$1"; }
per_request() { # value requests [scale] -> value * scale / requests, 2 decimals (NA if not computable)
  awk -v v="$1" -v n="$2" -v k="${3:-1}" 'BEGIN { if (v !~ /^-?[0-9.]+$/ || n + 0 <= 0) print "NA"; else printf "%.2f\n", v * k / n }'
}
perf_count() { # perf-csv event -> count (NA if not counted)
  awk -F, -v e="$2" '$3 == e && $1 ~ /^[0-9]+$/ { print $1; found = 1; exit } END { if (!found) print "NA" }' "$1"
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
declare -A FIG=()        # "server mode metric" -> space separated values, one per round
declare -A BREAKDOWN=()  # "server mode round" -> lines "syscall calls/req share% errors/req"
declare -A RESPONSE_BYTES=()
DETAIL_LINES=()

# The measured window of one mode: warm-up, then perf stat, CPU ticks and the heap accounting around measure()
# (lib/common.sh, which runs wrk and records req/s).
measure_cost() { # server mode round
  local server=$1 mode=$2 round=$3 port=$SERVER_PORT pid=$SERVER_PID tag="$1-$2-r$3"
  local perf_out="$LOG_DIR/perf-$tag.csv" gclog="$LOG_DIR/gc-$tag.log" perf_pid heap0 heap1 cpu0 cpu1 req
  local syscalls ctxsw freed gcs alloc_kib
  if [[ $WARMUP != 0 ]]; then
    wrk_cmd "$mode" "$WARMUP" "$port"
    printf '+ %s   # warm-up\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
    run_wrk "$LOG_DIR/wrk-$tag-warmup.txt" "${WRK_CMD[@]}" || warn "$server $mode warm-up: wrk exited with $?"
  fi
  "$JCMD" "$pid" VM.log output="file=$gclog" output_options=filecount=0 what=gc+heap=debug decorators=uptime >/dev/null
  heap0=$(heap_used_kib "$pid")
  cpu0=$(cpu_ticks "$pid")
  perf stat -x, "${PERF_EVENTS[@]}" -p "$pid" -o "$perf_out" &
  perf_pid=$!
  STARTED_PIDS+=("$perf_pid")
  sleep 0.5
  local WARMUP=0 # measure() runs only the measured window
  measure "$server" "$mode" "$round" "$port"
  kill -INT "$perf_pid" 2>/dev/null || true
  wait "$perf_pid" || true
  cpu1=$(cpu_ticks "$pid")
  heap1=$(heap_used_kib "$pid")
  # Removes this output only ("VM.log disable" would also drop the JVM's own warnings on stdout).
  "$JCMD" "$pid" VM.log output="file=$gclog" what=all=off >/dev/null || true
  req=$(wrk_requests "$LOG_DIR/wrk-$server-$mode-r$round.txt")
  syscalls=$(perf_count "$perf_out" raw_syscalls:sys_enter)
  ctxsw=$(perf_count "$perf_out" context-switches)
  freed=0 gcs=0
  [[ -f $gclog ]] && read -r freed gcs < <(gc_freed_kib "$gclog")
  if ((heap0 > 0 && heap1 > 0)) && [[ -f $gclog ]]; then
    alloc_kib=$((heap1 - heap0 + freed))
  else
    # A collector whose GC.heap_info has no "total NK, used NK" generation lines (ZGC, Shenandoah), or no log.
    warn "$server $mode: could not read the heap in use (GC.heap_info) or the GC log; bytes allocated: NA"
    alloc_kib=NA
  fi
  FIG["$server $mode rps"]+="$(awk '/^Requests\/sec:/ { print $2; exit }' "$LOG_DIR/wrk-$server-$mode-r$round.txt") "
  FIG["$server $mode syscalls"]+="$(per_request "$syscalls" "$req") "
  FIG["$server $mode ctxsw"]+="$(per_request "$ctxsw" "$req") "
  FIG["$server $mode alloc"]+="$(per_request "$alloc_kib" "$req" 1024) "
  [[ $alloc_kib == NA ]] || alloc_kib=$((alloc_kib * 1024))
  FIG["$server $mode cpu"]+="$(per_request "$((cpu1 - cpu0))" "$req" "$((1000000 / CLK_TCK))") "
  local name
  for name in "${SYSCALL_LIST[@]}"; do
    FIG["$server $mode sc_$name"]+="$(per_request "$(perf_count "$perf_out" "syscalls:sys_enter_$name")" "$req") "
  done
  FIG["$server $mode eagain"]+="$(per_request "$(perf_count "$perf_out" syscalls:sys_exit_read)" "$req") "
  DETAIL_LINES+=("$(printf '%-5s %-8s %-10s %10s %12s %10s %14s %5s %10s' "$round" "$server" "$mode" "${req:-NA}" \
    "$syscalls" "$ctxsw" "$alloc_kib" "$gcs" "$((cpu1 - cpu0))")")
  log "$server $mode round $round: $req requests; syscalls $syscalls, context switches $ctxsw, allocated" \
    "$alloc_kib bytes ($gcs collections), CPU $((cpu1 - cpu0)) ticks"
}

# The strace window of one mode: calls per request of each system call, and its share of all calls.
strace_cost() { # server mode round
  local server=$1 mode=$2 round=$3 tag="$1-$2-r$3" out="$LOG_DIR/strace-$1-$2-r$3.txt" st_pid req total
  local wrk_out="$LOG_DIR/wrk-$tag-strace.txt"
  strace -c -f -qq -p "$SERVER_PID" -o "$out" &
  st_pid=$!
  STARTED_PIDS+=("$st_pid")
  sleep 1 # strace attaches to every thread
  wrk_cmd "$mode" "$STRACE_DURATION" "$SERVER_PORT"
  printf '+ %s   # under strace -c -f -p PID\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
  run_wrk "$wrk_out" "${WRK_CMD[@]}" || warn "$server $mode strace window: wrk exited with $?"
  kill -TERM "$st_pid" 2>/dev/null || true # strace detaches and writes its summary
  wait "$st_pid" || true
  req=$(wrk_requests "$wrk_out")
  kill -0 "$SERVER_PID" 2>/dev/null || die "$server died under strace"
  [[ $req =~ ^[0-9]+$ && $req -gt 0 ]] || { warn "$server $mode: no requests in the strace window"; return 0; }
  # "% time seconds usecs/call calls [errors] syscall": calls is field 4, the name the last field.
  total=$(awk '$NF == "total" { print $4 }' "$out")
  BREAKDOWN["$server $mode $round"]=$(awk -v n="$req" -v t="$total" '
    $1 ~ /^[0-9.]+$/ && $NF != "total" && NF >= 5 {
      err = (NF == 6) ? $5 : 0
      printf "%s %.3f %.1f %.3f\n", $NF, $4 / n, 100 * $4 / t, err / n }' "$out" | sort -k2,2gr | head -n "$TOP_SYSCALLS")
  BREAKDOWN["$server $mode $round"]+=$'\n'"total $(per_request "$total" "$req") 100.0 - ($req requests, $(
    awk '/^Requests\/sec:/ { print $2; exit }' "$wrk_out") req/s)"
}

START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "servers: ${SERVER_LIST[*]}; rounds: $ROUNDS; window: $DURATION (strace: $STRACE_DURATION); warm-up: $WARMUP;" \
  "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"
for ((round = 1; round <= ROUNDS; round++)); do
  for server in "${SERVER_LIST[@]}"; do
    log "=== round $round/$ROUNDS: $server ==="
    quiet_wait "round $round: $server" "$server"
    start_server "$server" "$round"
    server_cmd "$server" PORT
    SERVER_CMDS[$server]="$(quote_cmd "${SERVER_CMD[@]}")"
    RESPONSE_BYTES[$server]=$(curl -s -o /dev/null -w '%{size_header} + %{size_download}' \
      "http://127.0.0.1:$SERVER_PORT/plaintext") || RESPONSE_BYTES[$server]="?"
    for mode in "${MODES[@]}"; do
      measure_cost "$server" "$mode" "$round"
      wrk_cmd "$mode" "$DURATION" PORT
      WRK_CMDS[$mode]="$(quote_cmd "${WRK_CMD[@]}")"
    done
    if [[ $STRACE_DURATION != 0 ]]; then
      # After both perf windows: strace slows the server down and could disturb what follows it.
      for mode in "${MODES[@]}"; do strace_cost "$server" "$mode" "$round"; done
    fi
    stop_server
  done
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
med() { # "server mode metric" -> median over the rounds
  local vals
  read -r -a vals <<<"${FIG[$1]:-}"
  median "${vals[@]}"
}

report() {
  local server mode r
  echo "Per-request cost ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1)); JVM_OPTS: $JVM_OPTS"
  cpu_placement
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1); perf: $(perf version 2>&1 | head -n 1); strace: $(strace -V 2>&1 | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; measured window: $DURATION after a $WARMUP warm-up;" \
    "strace window: $STRACE_DURATION; connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH"
  echo
  local name line
  printf '%-9s %-10s %10s %10s %10s %12s %10s\n' server mode "req/s" "syscalls" "ctxsw" "alloc B" "CPU us"
  printf '%-9s %-10s %10s %10s %10s %12s %10s\n' --------- ---------- ---------- ---------- ---------- ------------ ----------
  for server in "${SERVER_LIST[@]}"; do
    for mode in "${MODES[@]}"; do
      printf '%-9s %-10s %10s %10s %10s %12s %10s\n' "$server$(mark_of "$server")" "$mode" \
        "$(med "$server $mode rps")" "$(med "$server $mode syscalls")" "$(med "$server $mode ctxsw")" \
        "$(med "$server $mode alloc")" "$(med "$server $mode cpu")"
    done
  done
  echo "(per request over the measured window, medians over $ROUNDS round(s); req/s: wrk's, with perf attached)"
  mark_legend
  echo
  echo "System calls per request, one by one (perf tracepoints, same window; read EAGAIN: reads that found no data):"
  line=$(printf '%-9s %-10s' server mode)
  for name in "${SYSCALL_LIST[@]}"; do line+=$(printf ' %11s' "$name"); done
  echo "$line $(printf '%11s %11s' "read EAGAIN" other)"
  for server in "${SERVER_LIST[@]}"; do
    for mode in "${MODES[@]}"; do
      local sum=0 v
      line=$(printf '%-9s %-10s' "$server" "$mode")
      for name in "${SYSCALL_LIST[@]}"; do
        v=$(med "$server $mode sc_$name")
        line+=$(printf ' %11s' "$v")
        sum=$(awk -v a="$sum" -v b="$v" 'BEGIN { print a + (b ~ /^[0-9.]+$/ ? b : 0) }')
      done
      line+=$(printf ' %11s %11s' "$(med "$server $mode eagain")" \
        "$(awk -v t="$(med "$server $mode syscalls")" -v s="$sum" 'BEGIN { if (t !~ /^[0-9.]+$/) print "NA"; else printf "%.2f\n", t - s }')")
      echo "$line"
    done
  done
  echo
  echo "Breakdown by system call under strace -c -f (the server runs several times slower there, so its mix"
  echo "shifts: compare shares and ratios, not absolute counts; the perf counts above are the figures). Columns:"
  echo "calls/req in the strace window, share of all calls, of which failed/req (read: EAGAIN):"
  for server in "${SERVER_LIST[@]}"; do
    for mode in "${MODES[@]}"; do
      for ((r = 1; r <= ROUNDS; r++)); do
        [[ -n ${BREAKDOWN["$server $mode $r"]:-} ]] || continue
        echo "  $server $mode, round $r:"
        printf '    %-18s %10s %8s %10s\n' syscall "calls/req" "share %" "failed/req"
        awk '{ printf "    %-18s %10s %8s %10s", $1, $2, $3, $4; for (i = 5; i <= NF; i++) printf " %s", $i; print "" }' \
          <<<"${BREAKDOWN["$server $mode $r"]}"
      done
    done
  done
  echo
  echo "One response (curl: head + body bytes):"
  for server in "${SERVER_LIST[@]}"; do echo "  $server: ${RESPONSE_BYTES[$server]:-?}"; done
  echo
  for server in "${SERVER_LIST[@]}"; do
    if is_engine_provider "$server"; then echo "$server: ${ENGINE_LIBS[$server]:-?}"; fi
  done
  report_commands "${SERVER_LIST[@]}"
  echo "  counters: perf stat -x, $(quote_cmd "${PERF_EVENTS[@]}") -p PID (the measured window);"
  echo "            strace -c -f -qq -p PID (the strace window); jcmd PID VM.log what=gc+heap=debug and GC.heap_info"
  echo
  report_quiet
}

{
  report
  echo
  echo "Raw counts of the measured windows (alloc in bytes; CPU in clock ticks of 1/$CLK_TCK s):"
  printf '%-5s %-8s %-10s %10s %12s %10s %14s %5s %10s\n' round server mode requests syscalls ctxsw alloc GCs "CPU ticks"
  printf '%s\n' "${DETAIL_LINES[@]}"
  echo
  echo "wrk outputs, perf and strace outputs, GC logs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"
warn_leftover_servers
