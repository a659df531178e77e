# Shared shell functions of the endpoint benchmarks with a memory run (bench/run-mvc.sh, bench/run-micronaut.sh):
# every server is the same app serving GET /plaintext and GET /json; each mode names the endpoint, pipelined or
# not (plaintext, plaintext-pipelined, json, json-pipelined); after the modes, wrk keeps HOLD_CONNECTIONS
# connections busy on /plaintext while the server's VmRSS is sampled.
#
# Source it after lib/common.sh (it replaces common.sh's wrk_cmd), with the knobs of common.sh plus
# JIT_WARMUP HOLD_CONNECTIONS HOLD_DURATION set, and call check_endpoint_knobs after check_common_knobs.
# build_app_jars builds each server's app.jar (after find_jdk has set JDK; it reads SKIP_BUILD).
# shellcheck shell=bash

# The measured URL's path is the mode without "-pipelined"; a "-pipelined" mode sends
# PIPELINE_DEPTH requests per write (bench/pipeline.lua, which repeats the URL's path).
wrk_cmd() { # mode duration port -> fills WRK_CMD
  local mode=$1 duration=$2 port=$3
  local url="http://127.0.0.1:$port/${mode%-pipelined}"
  WRK_CMD=(wrk "-t$WRK_THREADS" "-c$CONNECTIONS" "-d$duration")
  if [[ $mode == *-pipelined ]]; then
    WRK_CMD+=(-s "$PIPELINE_LUA" "$url" -- "$PIPELINE_DEPTH")
  else
    WRK_CMD+=("$url")
  fi
}

check_endpoint_knobs() {
  check_positive_ints HOLD_CONNECTIONS
  [[ $HOLD_DURATION =~ ^[1-9][0-9]*[smh]?$ ]] || die "HOLD_DURATION must look like 5s, 1m, ... (got '$HOLD_DURATION')"
  [[ $JIT_WARMUP =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "JIT_WARMUP must be 0 or look like 5s (got '$JIT_WARMUP')"
  (( WRK_THREADS <= HOLD_CONNECTIONS )) || die "WRK_THREADS must not exceed HOLD_CONNECTIONS"
  (( $(ulimit -n) > HOLD_CONNECTIONS + 100 )) ||
    die "the open-files limit ($(ulimit -n)) is too low for HOLD_CONNECTIONS=$HOLD_CONNECTIONS (ulimit -n)"
}

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
# Unless SKIP_BUILD=1, builds <app-dir>/<server>/target/app.jar for each server named, with Maven on JDK:
# weft in the root reactor's `bench` profile (<app-dir>/weft must be one of its modules), so that the app
# packages the Weft modules of this working tree (nothing is installed into ~/.m2); the others from their own
# pom. Fills MVN_ENV (maven_env) either way.
build_app_jars() { # app-dir servers...
  local app_dir=$1 s
  shift
  maven_env "$JDK"
  if [[ $SKIP_BUILD == 1 ]]; then
    log "SKIP_BUILD=1: using the existing jars"
    return 0
  fi
  for s in "$@"; do
    log "building the $s variant"
    if [[ $s == weft ]]; then
      run "${MVN_ENV[@]}" mvn -B -q -f "$REPO_DIR/pom.xml" -Pbench -pl "${app_dir#"$REPO_DIR"/}/weft" -am \
        -Dmaven.test.skip=true clean package >&2 || die "could not build $app_dir/weft (see above)"
    else
      run "${MVN_ENV[@]}" mvn -B -q -f "$app_dir/$s/pom.xml" -DskipTests clean package >&2 ||
        die "could not build $app_dir/$s (see above)"
    fi
  done
}

# ---------------------------------------------------------------------------------------------
# Memory
# ---------------------------------------------------------------------------------------------
declare -A RSS_START=() RSS_HOLD=() HOLD_RPS=() # server -> space separated values (KiB, req/s)
HOLD_LINES=()
SAMPLER_PID=""

vm_rss_kib() { # pid -> VmRSS in KiB from /proc/PID/status, or NA
  awk '$1 == "VmRSS:" { print $2; found = 1; exit } END { if (!found) print "NA" }' "/proc/$1/status" 2>/dev/null ||
    echo NA
}

# Runs wrk with HOLD_CONNECTIONS connections on /plaintext while a background loop records the
# server's VmRSS every half second; records the highest reading and wrk's req/s.
hold_connections() { # server round
  local server=$1 round=$2 out="$LOG_DIR/wrk-$1-hold-r$2.txt" samples="$LOG_DIR/rss-$1-hold-r$2.txt" peak rps
  local pid=$SERVER_PID
  : >"$samples"
  (while kill -0 "$pid" 2>/dev/null; do vm_rss_kib "$pid" >>"$samples"; sleep 0.5; done) &
  SAMPLER_PID=$!
  STARTED_PIDS+=("$SAMPLER_PID")
  HOLD_CMD=(wrk "-t$WRK_THREADS" "-c$HOLD_CONNECTIONS" "-d$HOLD_DURATION" "http://127.0.0.1:$SERVER_PORT/plaintext")
  printf '+ %s\n' "$(quote_cmd "${HOLD_CMD[@]}")" >&2
  run_wrk "$out" "${HOLD_CMD[@]}" || warn "$server hold run: wrk exited with $?"
  vm_rss_kib "$pid" >>"$samples"
  kill "$SAMPLER_PID" 2>/dev/null || true
  wait "$SAMPLER_PID" 2>/dev/null || true
  SAMPLER_PID=""
  peak=$(awk '/^[0-9]+$/ && $1 > max { max = $1 } END { print max ? max : "NA" }' "$samples")
  rps=$(awk '/^Requests\/sec:/ { print $2; exit }' "$out")
  [[ $rps =~ ^[0-9]+(\.[0-9]+)?$ ]] || rps=NA
  kill -0 "$pid" 2>/dev/null || { warn "$server server died during the hold run"; peak=NA; rps=NA; }
  if grep -q 'Socket errors' "$out"; then
    warn "$server hold run round $round: $(grep 'Socket errors' "$out" | sed 's/^ *//')"
  fi
  RSS_HOLD[$server]+="$peak "
  HOLD_RPS[$server]+="$rps "
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi
  HOLD_LINES+=("$(printf '%-5s %-7s %12s %14s %s' "$round" "$server" "$peak" "$rps" "$mark")")
  log "$server with $HOLD_CONNECTIONS connections, round $round: peak RSS $peak KiB, $rps req/s"
}

# Starts NAME, reads its RSS, runs every mode, holds HOLD_CONNECTIONS connections, stops it.
bench_with_memory() { # name round
  local name=$1 round=$2 mode rss
  start_server "$name" "$round"
  rss=$(vm_rss_kib "$SERVER_PID")
  RSS_START[$name]+="$rss "
  log "$name RSS after startup, round $round: $rss KiB"
  if [[ $JIT_WARMUP != 0 ]]; then
    for mode in "${MODES[@]}"; do
      wrk_cmd "$mode" "$JIT_WARMUP" "$SERVER_PORT"
      printf '+ %s   # JIT warm-up\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
      run_wrk "$LOG_DIR/wrk-$name-jit-$mode-r$round.txt" "${WRK_CMD[@]}" || warn "$name JIT warm-up: wrk exited with $?"
    done
  fi
  server_cmd "$name" PORT
  SERVER_CMDS[$name]="$(quote_cmd "${SERVER_CMD[@]}")"
  for mode in "${MODES[@]}"; do
    measure "$name" "$mode" "$round" "$SERVER_PORT"
    wrk_cmd "$mode" "$DURATION" PORT
    WRK_CMDS[$mode]="$(quote_cmd "${WRK_CMD[@]}")"
  done
  hold_connections "$name" "$round"
  stop_server
}

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
# Runs ROUNDS rounds; each starts every server of SERVER_LIST afresh on a quiet machine and measures it
# (bench_with_memory). The starting server moves by one each round (a b c, b c a, ...), so no server always
# runs first or last.
measure_rounds_with_memory() {
  log "servers: ${SERVER_LIST[*]}; rounds: $ROUNDS; duration: $DURATION; JIT warm-up: $JIT_WARMUP; warm-up: $WARMUP;" \
    "connections: $CONNECTIONS; wrk threads: $WRK_THREADS; pipeline depth: $PIPELINE_DEPTH;" \
    "memory run: $HOLD_CONNECTIONS connections for $HOLD_DURATION"
  rotating_rounds bench_with_memory
}

mib() { awk -v k="$1" 'BEGIN { if (k !~ /^[0-9.]+$/) print "NA"; else printf "%.0f\n", k / 1024 }'; }

# The peers' req/s in every mode and in the memory run (mode plaintext-hold-HOLD_CONNECTIONS), for check_baselines.
register_endpoint_peers() { # names...
  local server
  register_peers req/s "$@"
  for server in "$@"; do
    [[ $server == weft ]] && continue
    peer_figure "$server" "plaintext-hold-$HOLD_CONNECTIONS" "$(median_of "${HOLD_RPS[$server]:-}")" req/s "$(marked_01 "$server")"
  done
}

# The req/s medians of every server in every mode, then Weft's ratio to each peer.
report_endpoint_tables() { # peers...
  local server other mode label line
  line=$(printf '%-8s' server)
  for mode in "${MODES[@]}"; do line+=$(printf ' %20s' "$mode"); done
  echo "$line"
  line=$(printf '%-8s' --------)
  for mode in "${MODES[@]}"; do line+=$(printf ' %20s' --------------------); done
  echo "$line"
  for server in "${SERVER_LIST[@]}"; do
    line=$(printf '%-8s' "$server$(mark_of "$server")")
    for mode in "${MODES[@]}"; do line+=$(printf ' %20s' "${MEDIAN["$server $mode"]}"); done
    echo "$line"
  done
  echo "(requests per second, medians over $ROUNDS round(s))"
  mark_legend
  echo
  line=$(printf '%-12s' ratio)
  for mode in "${MODES[@]}"; do line+=$(printf ' %20s' "$mode"); done
  echo "$line"
  for other in "$@"; do
    label="Weft/${other^}"
    line=$(printf '%-12s' "$label")
    for mode in "${MODES[@]}"; do
      if has_server weft && has_server "$other"; then
        line+=$(printf ' %20s' "$(ratio "${MEDIAN["weft $mode"]}" "${MEDIAN["$other $mode"]}")")
      else
        line+=$(printf ' %20s' n/a)
      fi
    done
    echo "$line"
  done
  echo "(> 1.00 means Weft served more requests per second)"
}

# Resident memory after start and under HOLD_CONNECTIONS connections.
report_memory() {
  local server
  printf '%-8s %16s %26s %26s\n' server "RSS after start" "RSS, $HOLD_CONNECTIONS connections (peak)" \
    "req/s, $HOLD_CONNECTIONS connections"
  for server in "${SERVER_LIST[@]}"; do
    printf '%-8s %12s MiB %22s MiB %26s\n' "$server$(mark_of "$server")" "$(mib "$(median_of "${RSS_START[$server]:-}")")" \
      "$(mib "$(median_of "${RSS_HOLD[$server]:-}")")" "$(median_of "${HOLD_RPS[$server]:-}")"
  done
  echo "(VmRSS of the server process, medians over $ROUNDS round(s); the peak is the highest of the readings"
  echo " taken every 0.5 s while wrk keeps $HOLD_CONNECTIONS connections busy on /plaintext for $HOLD_DURATION)"
}

# The commands of the run (report_commands) plus the JIT warm-up and the memory run.
report_endpoint_commands() {
  report_commands "${SERVER_LIST[@]}"
  [[ $JIT_WARMUP == 0 ]] ||
    echo "  JIT warm-up after startup: the wrk command of each mode with -d$JIT_WARMUP"
  echo "  memory run: $(quote_cmd wrk "-t$WRK_THREADS" "-c$HOLD_CONNECTIONS" "-d$HOLD_DURATION" \
    "http://127.0.0.1:PORT/plaintext")"
}

# The raw lines of every measured run and memory run, for the results file.
report_endpoint_raw() {
  echo "Raw results:"
  printf '%-5s %-7s %-10s %-6s %14s %8s %-4s %s\n' round server mode port "req/s" non2xx mark socket_errors
  printf '%s\n' "${RAW_LINES[@]}"
  echo
  echo "Memory runs (peak VmRSS in KiB):"
  printf '%-5s %-7s %12s %14s %s\n' round server "peak KiB" "req/s" mark
  printf '%s\n' "${HOLD_LINES[@]}"
  echo
  echo "wrk outputs, RSS readings and server logs: $LOG_DIR"
}
