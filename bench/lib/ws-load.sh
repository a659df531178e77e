# The Go WebSocket client ws-load (bench/ws-load) for the harnesses that drive servers with it (run-ws.sh,
# run-ws-jakarta.sh): the open-file limit its connections need (raise_open_files), building it (build_ws_load),
# reading its "key=value" output (kv), running and judging a measured run (measure_ws_load, load_problem), and
# for the report the median and range of a run's figures (med, range), the peers' figures for the baselines
# (register_rate_peers), the failed runs and the commands (report_failures_and_commands), and the end
# (finish_ws_run). Source it after lib/common.sh, with BENCH_DIR, WS_LOAD (where the binary goes), LOG_DIR and
# RESULTS_FILE set; load_problem reads SERVER_PID.
# shellcheck shell=bash

# Builds ws-load into WS_LOAD with the go on PATH (else /usr/local/go/bin/go, else Debian's golang-go) and sets
# WS_LOAD_VERSION (its dependencies and Go version, for the report).
build_ws_load() {
  local go
  go=$(command -v go || true)
  if [[ -z $go && -x /usr/local/go/bin/go ]]; then go=/usr/local/go/bin/go; fi
  if [[ -z $go ]]; then
    ensure_tool go golang-go
    go=$(command -v go)
  fi
  log "building ws-load"
  # -mod=readonly: go.mod and go.sum pin github.com/gorilla/websocket; the Go module proxy serves it.
  (cd "$BENCH_DIR/ws-load" && run env GOFLAGS=-mod=readonly "$go" build -o "$WS_LOAD" .) >&2
  # shellcheck disable=SC2034 # read by the harness's report
  WS_LOAD_VERSION="$("$go" version -m "$WS_LOAD" | awk '$1 == "dep" { printf "%s %s ", $2, $3 }
    NR == 1 { sub(/^[^:]*: /, ""); go = $0 } END { print "(" go ")" }')"
}

# Raises the soft open-file limit (ulimit -n) of this shell, and so of the server and ws-load it starts, to NEED
# if it is lower; dies if the hard limit does not allow it.
raise_open_files() { # need what-needs-them
  local need=$1 soft hard
  soft=$(ulimit -Sn)
  if [[ $soft != unlimited ]] && ((soft < need)); then
    hard=$(ulimit -Hn)
    [[ $hard == unlimited ]] || ((hard >= need)) ||
      die "$2 needs $need open files, but the hard limit (ulimit -Hn) is $hard"
    ulimit -Sn "$need"
    log "raised the open-file limit (ulimit -n) from $soft to $need"
  fi
}

kv() { # file key -> the value of the first "key=value" line, or NA
  awk -v k="$2" 'index($0, k "=") == 1 { print substr($0, length(k) + 2); found = 1; exit }
    END { if (!found) print "NA" }' "$1"
}

# The problems of a finished ws-load run (empty if none): its exit status, its error count and first error, and
# whether the server (SERVER_PID) died.
load_problem() { # rc out
  local rc=$1 out=$2 p="" errors
  if ((rc == 124 || rc == 137)); then
    p="ws-load killed by timeout"
  elif ((rc != 0)); then
    p="ws-load exited with $rc"
  fi
  errors=$(kv "$out" errors)
  if [[ $errors == NA ]]; then
    p+="${p:+; }no errors= line"
  elif ((errors != 0)); then
    p+="${p:+; }$errors error(s), first: $(kv "$out" error)"
  fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    p+="${p:+; }server died"
  fi
  echo "$p"
}

# Runs LOAD_CMD (bounded by `timeout`, output in OUT) and judges it: sets WS_RATE to its msgs_per_sec and adds
# its latency percentiles (p50, p99, p99.9) and the server's CPU per message to P50, P99, P999 and SERVER_US
# under KEY (associative arrays of space-separated values the harness declares); a failed run is reported
# (report_failure WHAT) and leaves WS_RATE=FAILED and WS_PROBLEM set.
# shellcheck disable=SC2004 # P50 ... SERVER_US are the harness's associative arrays, not indexed ones
measure_ws_load() { # out time-limit key what
  local out=$1 limit=$2 key=$3 what=$4 rc=0
  printf '+ %s\n' "$(quote_cmd "${LOAD_CMD[@]}")" >&2
  run_wrk "$out" timeout -k 5 "$limit" "${LOAD_CMD[@]}" || rc=$?
  WS_PROBLEM=$(load_problem "$rc" "$out")
  WS_RATE=FAILED
  if [[ -z $WS_PROBLEM ]]; then
    WS_RATE=$(kv "$out" msgs_per_sec)
    [[ $WS_RATE =~ ^[0-9]+(\.[0-9]+)?$ ]] || WS_PROBLEM="no msgs_per_sec= line"
  fi
  if [[ -n $WS_PROBLEM ]]; then
    report_failure "$what" "$out" "$WS_PROBLEM"
    WS_RATE=FAILED
    return 0
  fi
  P50[$key]+="$(kv "$out" latency_us_p50) "
  P99[$key]+="$(kv "$out" latency_us_p99) "
  P999[$key]+="$(kv "$out" latency_us_p999) "
  SERVER_US[$key]+="$(kv "$out" server_cpu_us_per_msg) "
}

# peer_figure (lib/common.sh) for every server but Weft in every mode of MODES: the median of RATE["server mode"]
# (messages/s), marked if a start of that server and mode saw a busy machine.
register_rate_peers() {
  local mode s
  for mode in "${MODES[@]}"; do
    for s in "${SERVER_LIST[@]}"; do
      [[ $s == weft ]] && continue
      peer_figure "$s" "$mode" "$(med "${RATE["$s $mode"]:-}")" msg/s "$(marked_01 "$s $mode")"
    done
  done
}

# For the report: the failed runs (FAILURES, from report_failure), then the exact commands: SERVER_CMDS and
# LOAD_CMDS (associative arrays the harness fills: what -> command).
report_failures_and_commands() {
  local key
  if ((${#FAILURES[@]} > 0)); then
    echo "FAILED runs (ws-load output and server log: see below in $RESULTS_FILE, and $LOG_DIR):"
    printf '  %s\n' "${FAILURES[@]}"
    echo
  fi
  echo "Commands (PORT = a free port picked per run, SERVER_PID = the server's process id):"
  for key in "${!SERVER_CMDS[@]}"; do
    echo "  $key server: ${SERVER_CMDS[$key]}"
  done | sort
  for key in "${!LOAD_CMDS[@]}"; do
    echo "  ws-load $key: ${LOAD_CMDS[$key]}"
  done | sort
}

# The end of a harness, after it wrote RESULTS_FILE: prints its report (the harness's function `report`), warns of
# server processes still running (matching the pgrep -f pattern), and exits: status 1 if a run failed, else 3 if a
# peer fell below its baseline (exit_if_disturbed), else 0.
finish_ws_run() { # leftover-pattern
  echo
  report
  echo
  echo "Raw numbers: $RESULTS_FILE"
  if command -v pgrep >/dev/null 2>&1 && pgrep -f -- "$1" >/dev/null 2>&1; then
    warn "benchmark server processes are still running:"
    pgrep -af -- "$1" >&2 || true
  fi
  if ((${#FAILURES[@]} > 0)); then
    die "${#FAILURES[@]} run(s) failed (listed above)"
  fi
  exit_if_disturbed
}

med() { local vals; read -r -a vals <<<"$1"; median "${vals[@]}"; } # space-separated values -> median, or NA
range() { # values -> "min-max" of the numeric ones
  # shellcheck disable=SC2086 # split the space-separated values, one a line
  printf '%s\n' $1 | awk '/^[0-9.]+$/ { v = $1 + 0; if (n == 0 || v < lo) lo = v; if (n == 0 || v > hi) hi = v; n++ }
    END { if (n) printf "%.0f-%.0f", lo, hi; else printf "-" }'
}
