#!/usr/bin/env bash
#
# HTTP/2 "plaintext" benchmark: Weft h2c vs. Netty, Vert.x and Helidon SE h2c and robaho/httpserver h2c, and
# Weft h2c vs. Weft HTTP/1.1, with h2load (nghttp2) against 127.0.0.1.
#
# The server is bench/plaintext/PlaintextServer.java, exactly as in run-http1.sh (same class path,
# provider selection, JVM_OPTS; no CPU pinning, as in run-http1.sh). Every run measures one target:
#   weft-h2c   : h2load -n REQUESTS -c CLIENTS -m STREAMS http://127.0.0.1:PORT/plaintext
#                h2load speaks HTTP/2 with prior knowledge on an http:// URL (connection preface,
#                no Upgrade); Weft detects the preface on its cleartext port (h2c is on by default,
#                so Weft gets no extra property).
#   robaho-h2c : the same command against io.github.robaho:httpserver:1.0.29, started with
#                -Drobaho.net.httpserver.http2OverNonSSL=true in addition to the properties of
#                run-http1.sh. Its ServerConfig reads Boolean.getBoolean("robaho.net.httpserver.http2OverNonSSL")
#                and ServerImpl hands a connection whose request line is "PRI * HTTP/2.0" to its
#                HTTP/2 connection only when it is set (otherwise robaho speaks HTTP/1.1 only on
#                cleartext); its README documents the property for "prior knowledge". Its other
#                HTTP/2 settings keep their defaults (no MAX_CONCURRENT_STREAMS limit, 64 KiB windows).
#   netty-h2c, vertx-h2c, helidon-h2c: the same command against the programs of bench/engine (as in
#                run-http1.sh), which speak h2c with prior knowledge beside HTTP/1.1 on their port: Netty's
#                frame codec and multiplexer, Vert.x's default (http2ClearTextEnabled), Helidon's HTTP/2
#                module on the class path; each with its defaults.
#   weft-h1    : h2load --h1 with the same -n/-c/-m: HTTP/1.1, pipelining -m requests per connection.
#   (robaho-h1 is accepted as well, but is not in the default TARGETS.)
#   nghttpd-h2c: a reference point, not in the default TARGETS: nghttp2's own C server (Debian package
#                nghttp2-server, installed on demand), one thread, h2c with prior knowledge
#                (nghttpd --no-tls), serving the same 13-byte body from a file. The report then adds
#                "Weft h2c / nghttpd h2c" (no target): what the client and the box allow an HTTP/2
#                server that is not ours.
#
# Knobs (environment variables):
#   TARGETS         targets to run, each round in a rotating order
#                   (default "weft-h2c netty-h2c vertx-h2c helidon-h2c robaho-h2c weft-h1")
#   SKIP_BUILD      1 = do not build the bench/engine programs; use their target/ as is (default 0)
#   ROUNDS          rounds; each round runs every target once, on a fresh server (default 3)
#   REQUESTS        h2load -n of each measured run            (default 200000)
#   CLIENTS         h2load -c (connections)                   (default 16)
#   STREAMS         h2load -m (concurrent streams per connection; HTTP/1.1: pipelining depth) (default 100)
#   WARMUP          h2load -n of the warm-up run before each measured run, same -c/-m (default 1000000;
#                   0 = none). All three targets were still speeding up after 200,000 requests: in
#                   consecutive 200,000-request runs on one server, Weft h2c went 139k, 315k, 345k,
#                   377k, 412k, then ~420k req/s; robaho h2c 45k, 64k, 68k, 70k, 76k, 72k.
#   WARMUP_RUNS     h2load runs the warm-up is split into, each opening new connections as the measured
#                   run does (default 1). With 5, both protocols get close to steady state: the JIT has
#                   then also compiled what a new connection runs (see bench/README.md, session 4).
#   H2LOAD_TIMEOUT  seconds after which an h2load run is killed and counted as failed (default 120)
#   JVM_OPTS        JVM flags, identical for every server     (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   WEFT_JAR        use this Weft jar instead of building httpserver-engine with Maven
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 30)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and the load generator (default: not pinned;
#                   see lib/common.sh)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD      1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY      % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP       a peer target (robaho-h2c, robaho-h1, nghttpd-h2c) below PEER_DROP x its baseline makes
#                   the run not comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE  the peers' baselines                      (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start the script waits up to
# QUIET_WAIT seconds for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later
# ones: CPUs busy <= QUIET_BUSY % in a one-second sample, since the load average still counts the
# script's own previous run); a start that finds none is marked "!" in the tables and listed at the
# end of the report, which shows the load average (1, 5, 15 min) and CPU use before every start. The
# medians of the peer targets (never Weft's) are compared with their rows in bench/baselines.tsv: one
# below PEER_DROP x its baseline puts a "NOT COMPARABLE" box at the top of the report and, after the
# report is written, makes the script exit with status 3 (unless ACCEPT_DISTURBED=1; a failed run's
# status 1 comes first).
#
# A run fails (and is left out of the medians) when h2load exits non-zero or times out, prints no
# "finished in" line, reports any failed, errored or timed-out request, fewer succeeded requests
# than it was asked for, or any 4xx/5xx status, or when the server died. A failed warm-up fails
# the run without a measured run. The script prints h2load's output and the end of the server's
# log for every failed run, writes the report anyway, and exits with status 1 if any run failed.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2034 # REPO_DIR is used by lib/weft-jar.sh (through lib/plaintext.sh)
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
CLASSES_DIR="$TARGET_DIR/classes"
LIB_DIR="$TARGET_DIR/lib"
LOG_DIR="$TARGET_DIR/logs-h2"
RESULTS_FILE="$TARGET_DIR/results-h2.txt"

TARGETS="${TARGETS:-weft-h2c netty-h2c vertx-h2c helidon-h2c robaho-h2c weft-h1}"
SKIP_BUILD="${SKIP_BUILD:-0}"
ROUNDS="${ROUNDS:-3}"
REQUESTS="${REQUESTS:-200000}"
CLIENTS="${CLIENTS:-16}"
STREAMS="${STREAMS:-100}"
WARMUP="${WARMUP:-1000000}"
WARMUP_RUNS="${WARMUP_RUNS:-1}"
H2LOAD_TIMEOUT="${H2LOAD_TIMEOUT:-120}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-30}"

# A target is "<provider>-<mode>". SAMPLES and the commands are keyed like run-http1.sh's, by
# provider and mode ("weft h2c", "weft h1", ...); MEDIAN and the CPU figures by target.
MODES=(h2c h1)
LOAD_TOOL=h2load

# Shared functions: logging, server lifecycle and the EXIT trap, JDK search, tools, median/ratio.
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# The Weft and robaho jars, PlaintextServer, server_cmd and provider_class_ok.
# shellcheck source=lib/plaintext.sh
source "$BENCH_DIR/lib/plaintext.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
check_positive_ints ROUNDS REQUESTS CLIENTS STREAMS H2LOAD_TIMEOUT STARTUP_TIMEOUT WARMUP_RUNS
check_cpu_lists
check_quiet_knobs
[[ $WARMUP =~ ^(0|[1-9][0-9]*)$ ]] || die "WARMUP must be 0 or a number of requests (got '$WARMUP')"
# h2load refuses -n smaller than -c.
(( REQUESTS >= CLIENTS )) || die "REQUESTS ($REQUESTS) must be at least CLIENTS ($CLIENTS)"
(( WARMUP == 0 || WARMUP / WARMUP_RUNS >= CLIENTS )) \
  || die "WARMUP ($WARMUP) must be 0 or at least CLIENTS ($CLIENTS) per warm-up run ($WARMUP_RUNS runs)"

read -r -a TARGET_LIST <<<"$TARGETS"
(( ${#TARGET_LIST[@]} > 0 )) || die "TARGETS is empty"
declare -A SEEN=()
PROVIDER_LIST=()
for t in "${TARGET_LIST[@]}"; do
  case $t in
    weft-h2c | weft-h1 | robaho-h2c | robaho-h1 | nghttpd-h2c) ;;
    netty-h2c | netty-h1 | vertx-h2c | vertx-h1 | helidon-h2c | helidon-h1) ;;
    *) die "unknown target '$t' (known: weft-h2c robaho-h2c weft-h1 robaho-h1 nghttpd-h2c, and netty, vertx," \
      "helidon with -h2c or -h1)" ;;
  esac
  [[ -z ${SEEN[$t]:-} ]] || die "target '$t' is listed twice in TARGETS"
  SEEN[$t]=1
  [[ " ${PROVIDER_LIST[*]} " == *" ${t%-*} "* ]] || PROVIDER_LIST+=("${t%-*}")
done
has_provider() { [[ " ${PROVIDER_LIST[*]} " == *" $1 "* ]]; }
has_target() { [[ " ${TARGET_LIST[*]} " == *" $1 "* ]]; }
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"

read -r -a JVM_FLAGS <<<"$JVM_OPTS"

install_cleanup_traps

ensure_tool h2load nghttp2-client
ensure_tool curl curl
ensure_tool timeout coreutils

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$CLASSES_DIR" "$LIB_DIR" "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
# Artifacts (lib/plaintext.sh)
# ---------------------------------------------------------------------------------------------
if has_provider weft; then prepare_weft_jar; fi
if has_provider robaho; then fetch_robaho_jar; fi
NGHTTPD_ROOT="$TARGET_DIR/nghttpd-root"
if has_provider nghttpd; then
  ensure_tool nghttpd nghttp2-server
  mkdir -p "$NGHTTPD_ROOT"
  printf 'Hello, World!' >"$NGHTTPD_ROOT/plaintext"
fi
compile_plaintext_server
maven_env "$JDK"
for p in "${PROVIDER_LIST[@]}"; do
  if is_engine_provider "$p"; then build_engine_peer "$p"; fi
done

# ---------------------------------------------------------------------------------------------
# Provider definitions
# ---------------------------------------------------------------------------------------------
# Provider-specific system properties, one per line: run-http1.sh's (selection + TCP_NODELAY),
# plus robaho's switch for HTTP/2 with prior knowledge on cleartext connections. The same server
# command serves both modes of a provider.
provider_props() {
  case $1 in
    weft) ;; # selected via META-INF/services in the Weft jar; h2c with prior knowledge is on by default
    robaho)
      echo "-Dcom.sun.net.httpserver.HttpServerProvider=robaho.net.httpserver.DefaultHttpServerProvider"
      echo "-Drobaho.net.httpserver.nodelay=true"
      echo "-Drobaho.net.httpserver.http2OverNonSSL=true"
      ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
h2load_cmd() { # mode requests port -> fills H2LOAD_CMD
  local mode=$1 requests=$2 port=$3
  H2LOAD_CMD=(h2load)
  [[ $mode == h1 ]] && H2LOAD_CMD+=(--h1)
  H2LOAD_CMD+=(-n "$requests" -c "$CLIENTS" -m "$STREAMS" "http://127.0.0.1:$port/plaintext")
}

# CPU time (user + system) of a process so far, in clock ticks, from /proc/PID/stat (fields 14
# and 15; the fields are counted after the command name, which may contain spaces).
CLK_TCK=$(getconf CLK_TCK 2>/dev/null) || CLK_TCK=100
proc_cpu_ticks() { # pid
  local stat fields
  stat=$(<"/proc/$1/stat") || return 1
  read -r -a fields <<<"${stat##*) }"
  echo $((fields[11] + fields[12]))
}
# Busy CPU time of the whole machine so far, in clock ticks: the first line of /proc/stat without
# idle and iowait (user nice system idle iowait irq softirq steal ...).
machine_busy_ticks() {
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}
# CPU time (user + system) of this shell's finished children, in milliseconds, into CHILDREN_CPU_MS.
# Bash's `times` must run in this shell itself (in a $(...) subshell it would report the subshell's
# children), so its output goes through a file. Its second line is "0m1.234s 0m0.567s".
children_cpu_ms() {
  times >"$LOG_DIR/.times"
  CHILDREN_CPU_MS=$(awk 'NR == 2 { split($0, a, /[ms ]+/); printf "%d\n", (a[1] * 60 + a[2] + a[3] * 60 + a[4]) * 1000 }' \
    "$LOG_DIR/.times")
}

# Runs h2load (killed after H2LOAD_TIMEOUT s) with its output in $1. Sets H2_RPS (req/s or NA),
# H2_SERVER_US and H2_CLIENT_US (CPU microseconds per request of the server process and of
# h2load during the run, or NA), H2_OTHER_CPU (CPU used by everything else on the machine during
# the run, in % of one core, or NA) and H2_PROBLEM (empty if the run is good, else why it is not).
run_h2load() { # out requests h2load-args...
  local out=$1 requests=$2 rc=0 line n s0 s1 c0 c1 m0 m1 t0 t1
  shift 2
  printf '+ %s\n' "$(quote_cmd "$@")" >&2
  s0=$(proc_cpu_ticks "$SERVER_PID") || s0=""
  children_cpu_ms
  c0=$CHILDREN_CPU_MS
  m0=$(machine_busy_ticks) || m0=""
  t0=$EPOCHREALTIME
  run_wrk "$out" timeout -k 5 "$H2LOAD_TIMEOUT" "$@" || rc=$?
  t1=$EPOCHREALTIME
  m1=$(machine_busy_ticks) || m1=""
  children_cpu_ms
  c1=$CHILDREN_CPU_MS
  s1=$(proc_cpu_ticks "$SERVER_PID") || s1=""
  H2_SERVER_US=NA
  H2_OTHER_CPU=NA
  H2_CLIENT_US=$(awk -v d=$((c1 - c0)) -v n="$requests" 'BEGIN { printf "%.2f", d * 1e3 / n }')
  if [[ -n $s0 && -n $s1 ]]; then
    H2_SERVER_US=$(awk -v d=$((s1 - s0)) -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.2f", d / hz * 1e6 / n }')
    if [[ -n $m0 && -n $m1 ]]; then
      H2_OTHER_CPU=$(awk -v m=$((m1 - m0)) -v s=$((s1 - s0)) -v c=$((c1 - c0)) -v hz="$CLK_TCK" \
        -v t0="$t0" -v t1="$t1" 'BEGIN {
          other = (m - s) / hz - c / 1000; if (other < 0) other = 0
          printf "%.0f", (t1 > t0) ? other / (t1 - t0) * 100 : 0 }')
    fi
  fi
  H2_RPS=NA
  H2_PROBLEM=""
  if ((rc == 124 || rc == 137)); then
    H2_PROBLEM="h2load killed after ${H2LOAD_TIMEOUT}s"
  elif ((rc != 0)); then
    H2_PROBLEM="h2load exited with $rc"
  fi
  # finished in 1.46s, 13667.32 req/s, 787.79KB/s
  line=$(grep -m 1 '^finished in ' "$out") || line=""
  if [[ $line =~ ^finished\ in\ [^,]*,\ ([0-9]+(\.[0-9]+)?)\ req/s ]]; then
    H2_RPS=${BASH_REMATCH[1]}
  else
    H2_PROBLEM+="${H2_PROBLEM:+; }no 'finished in ..., N req/s' line"
  fi
  # requests: 20000 total, 20000 started, 20000 done, 20000 succeeded, 0 failed, 0 errored, 0 timeout
  line=$(grep -m 1 '^requests: ' "$out") || line=""
  if [[ -z $line ]]; then
    H2_PROBLEM+="${H2_PROBLEM:+; }no 'requests:' line"
  else
    for n in failed errored timeout; do
      if [[ ! $line =~ [[:space:]]([0-9]+)\ $n ]]; then
        H2_PROBLEM+="${H2_PROBLEM:+; }no '$n' count"
      elif ((BASH_REMATCH[1] != 0)); then
        H2_PROBLEM+="${H2_PROBLEM:+; }${BASH_REMATCH[1]} $n"
      fi
    done
    if [[ ! $line =~ [[:space:]]([0-9]+)\ succeeded ]]; then
      H2_PROBLEM+="${H2_PROBLEM:+; }no 'succeeded' count"
    elif ((BASH_REMATCH[1] != requests)); then
      H2_PROBLEM+="${H2_PROBLEM:+; }${BASH_REMATCH[1]} of $requests succeeded"
    fi
  fi
  # status codes: 20000 2xx, 0 3xx, 0 4xx, 0 5xx   (with --h1, 2xx may exceed -n slightly: h2load's count)
  line=$(grep -m 1 '^status codes: ' "$out") || line=""
  for n in 4xx 5xx; do
    if [[ $line =~ [[:space:]]([0-9]+)\ $n ]] && ((BASH_REMATCH[1] != 0)); then
      H2_PROBLEM+="${H2_PROBLEM:+; }${BASH_REMATCH[1]} $n responses"
    fi
  done
  [[ -z $H2_PROBLEM ]]
}

declare -A SERVER_US_SAMPLES=() CLIENT_US_SAMPLES=() ROUND_RPS=()
# Starts a fresh server for TARGET, runs the warm-up and the measured h2load run, stops it.
# Fills SAMPLES, SERVER_CMDS, WRK_CMDS and RAW_LINES (declared in lib/common.sh).
bench_target() { # target round
  local target=$1 round=$2 provider mode out rps=FAILED server_us=NA client_us=NA other=NA status=ok
  provider=${target%-*}
  mode=${target##*-}
  start_server "$provider" "$round" "$target"
  server_cmd "$provider" PORT
  SERVER_CMDS[$provider]="$(quote_cmd "${SERVER_CMD[@]}")"
  h2load_cmd "$mode" "$REQUESTS" PORT
  WRK_CMDS[$mode]="$(quote_cmd "${H2LOAD_CMD[@]}")"

  if [[ $WARMUP != 0 ]]; then
    local per_run=$((WARMUP / WARMUP_RUNS)) w
    for ((w = 1; w <= WARMUP_RUNS; w++)); do
      out="$LOG_DIR/h2load-$target-r$round-warmup.txt"
      ((WARMUP_RUNS == 1)) || out="$LOG_DIR/h2load-$target-r$round-warmup$w.txt"
      h2load_cmd "$mode" "$per_run" "$SERVER_PORT"
      log "$target round $round: warm-up ($per_run requests, run $w of $WARMUP_RUNS)"
      if ! run_h2load "$out" "$per_run" "${H2LOAD_CMD[@]}"; then
        report_failure "$target round $round (warm-up $w)" "$out" "$H2_PROBLEM"
        status="warm-up failed: $H2_PROBLEM"
        break
      fi
    done
  fi
  if [[ $status == ok ]]; then
    out="$LOG_DIR/h2load-$target-r$round.txt"
    h2load_cmd "$mode" "$REQUESTS" "$SERVER_PORT"
    if run_h2load "$out" "$REQUESTS" "${H2LOAD_CMD[@]}"; then
      rps=$H2_RPS
      server_us=$H2_SERVER_US
      client_us=$H2_CLIENT_US
      other=$H2_OTHER_CPU
    else
      report_failure "$target round $round (measured run)" "$out" "$H2_PROBLEM"
      status="failed: $H2_PROBLEM"
    fi
  fi
  if [[ $status == ok ]] && ! kill -0 "$SERVER_PID" 2>/dev/null; then
    warn "$target server died during the run; the run counts as failed"
    FAILURES+=("$target round $round: server died")
    status="server died"
    rps=FAILED
    server_us=NA
    client_us=NA
    other=NA
  fi
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi # its server start saw a busy machine (quiet_wait)
  RAW_LINES+=("$(printf '%-5s %-11s %-6s %14s %10s %10s %10s %-4s %s' "$round" "$target" "$SERVER_PORT" "$rps" \
    "$server_us" "$client_us" "$other" "$mark" "$status")")
  if [[ $rps == FAILED ]]; then
    log "$target round $round: FAILED ($status)"
  else
    log "$target round $round: $rps req/s"
  fi
  SAMPLES["$provider $mode"]+="$rps "
  SERVER_US_SAMPLES[$target]+="$server_us "
  CLIENT_US_SAMPLES[$target]+="$client_us "
  ROUND_RPS["$round $target"]=$rps
  stop_server
}

START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "targets: ${TARGET_LIST[*]}; rounds: $ROUNDS; requests: $REQUESTS; clients: $CLIENTS;" \
  "streams per client: $STREAMS; warm-up: $WARMUP requests"

count=${#TARGET_LIST[@]}
for ((round = 1; round <= ROUNDS; round++)); do
  # Every round runs every target once; the first target moves by one each round
  # (weft-h2c robaho-h2c weft-h1, robaho-h2c weft-h1 weft-h2c, ...) so none always runs first.
  for ((k = 0; k < count; k++)); do
    target=${TARGET_LIST[$(((round - 1 + k) % count))]}
    log "=== round $round/$ROUNDS: $target ==="
    quiet_wait "round $round: $target" "$target"
    bench_target "$target" "$round"
  done
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MEDIAN=() MEDIAN_SERVER_US=() MEDIAN_CLIENT_US=()
for t in "${TARGET_LIST[@]}"; do
  read -r -a vals <<<"${SAMPLES["${t%-*} ${t##*-}"]:-}"
  MEDIAN[$t]=$(median "${vals[@]}")
  read -r -a vals <<<"${SERVER_US_SAMPLES[$t]:-}"
  MEDIAN_SERVER_US[$t]=$(median "${vals[@]}")
  read -r -a vals <<<"${CLIENT_US_SAMPLES[$t]:-}"
  MEDIAN_CLIENT_US[$t]=$(median "${vals[@]}")
  # Every target but Weft's is a peer, checked against its baseline.
  [[ ${t%-*} == weft ]] || peer_figure "${t%-*}" "${t##*-}" "${MEDIAN[$t]}" req/s "$(marked_01 "$t")"
done
BASELINE_SETTINGS="ROUNDS=$ROUNDS REQUESTS=$REQUESTS CLIENTS=$CLIENTS STREAMS=$STREAMS WARMUP=$WARMUP WARMUP_RUNS=$WARMUP_RUNS"
check_baselines

# One ratio line: the ratio of the req/s medians (the figure the target applies to), the median of
# the ratios within each round (both runs made back to back, under similar load from other work),
# and the ratio of the server CPU per request (b's over a's: requests per CPU-second).
ratio_line() { # label a b goal
  local label=$1 a=$2 b=$3 goal=$4 r=n/a per_round=n/a cpu=n/a verdict="" round_ratios=() rr
  if has_target "$a" && has_target "$b"; then
    r=$(ratio "${MEDIAN[$a]}" "${MEDIAN[$b]}")
    for ((rr = 1; rr <= ROUNDS; rr++)); do
      round_ratios+=("$(ratio "${ROUND_RPS["$rr $a"]:-NA}" "${ROUND_RPS["$rr $b"]:-NA}")")
    done
    per_round=$(median "${round_ratios[@]}")
    [[ $per_round == NA ]] && per_round=n/a
    cpu=$(ratio "${MEDIAN_SERVER_US[$b]}" "${MEDIAN_SERVER_US[$a]}")
  fi
  if [[ $goal == - ]]; then
    verdict="(reference, no target)"
  elif [[ $r != n/a ]]; then
    verdict=$(awk -v r="$r" -v g="$goal" 'BEGIN { print (r + 0 >= g + 0) ? "met" : "NOT met" }')
  fi
  local goal_text=">= $goal"
  [[ $goal == - ]] && goal_text=""
  printf '%-22s %8s %10s %11s   %-7s %s\n' "$label" "$r" "$per_round" "$cpu" "$goal_text" "$verdict"
}

WARMUP_NOTE="the same h2load command with -n $((WARMUP / WARMUP_RUNS)), $WARMUP_RUNS time(s), each on new connections"
report() {
  local t vals ok
  report_disturbed
  echo "HTTP/2 plaintext benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  cpu_placement
  echo "h2load: $( (h2load --version 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; requests: $REQUESTS; clients: $CLIENTS;" \
    "streams per client: $STREAMS; warm-up: $WARMUP requests per run, in $WARMUP_RUNS h2load run(s)"
  echo
  printf '%-13s %14s %14s %14s  %s\n' target "median req/s" "server us/req" "h2load us/req" "good runs"
  printf '%-13s %14s %14s %14s  %s\n' ------------- -------------- -------------- -------------- ---------
  for t in "${TARGET_LIST[@]}"; do
    read -r -a vals <<<"${SAMPLES["${t%-*} ${t##*-}"]:-}"
    ok=$(printf '%s\n' "${vals[@]}" | grep -c '^[0-9]') || ok=0
    printf '%-13s %14s %14s %14s  %s\n' "$t$(mark_of "$t")" "${MEDIAN[$t]}" "${MEDIAN_SERVER_US[$t]}" "${MEDIAN_CLIENT_US[$t]}" \
      "$ok/${#vals[@]}"
  done
  echo "(medians over the good runs of $ROUNDS round(s); a failed run is not counted. us/req: CPU time,"
  echo " user + system, of the server process and of h2load during the measured run, per request)"
  mark_legend
  echo
  printf '%-22s %8s %10s %11s   %s\n' ratio req/s per-round "server CPU" target
  printf '%-22s %8s %10s %11s   %s\n' ---------------------- -------- ---------- ----------- ------
  local peer fastest=""
  for peer in netty vertx helidon; do
    if has_target "$peer-h2c"; then
      ratio_line "Weft h2c / $peer h2c" weft-h2c "$peer-h2c" 1
      if [[ -z $fastest ]] || above "${MEDIAN[$peer-h2c]}" "${MEDIAN[$fastest-h2c]}"; then fastest=$peer; fi
    fi
  done
  [[ -n $fastest ]] && echo "(the fastest of the framework peers: $fastest)"
  ratio_line "Weft h2c / robaho h2c" weft-h2c robaho-h2c 2
  ratio_line "Weft h2c / Weft h1" weft-h2c weft-h1 0.6
  if has_target nghttpd-h2c; then
    ratio_line "Weft h2c / nghttpd h2c" weft-h2c nghttpd-h2c -
    ratio_line "nghttpd h2c / Weft h1" nghttpd-h2c weft-h1 -
  fi
  echo "(req/s: ratio of the medians, the figure the target applies to; per-round: median of the ratios"
  echo " within each round; server CPU: requests per CPU-second, i.e. the second's us/req over the first's."
  echo " > 1.00 means the first did better)"
  echo
  report_baselines
  echo
  if ((${#FAILURES[@]} > 0)); then
    echo "FAILED runs (h2load output and server log: see below in $RESULTS_FILE, and $LOG_DIR):"
    printf '  %s\n' "${FAILURES[@]}"
    echo
  fi
  for t in "${PROVIDER_LIST[@]}"; do
    if is_engine_provider "$t"; then echo "$t: ${ENGINE_LIBS[$t]:-?}"; fi
  done
  report_commands "${PROVIDER_LIST[@]}"
  echo "  every h2load run is wrapped in: timeout -k 5 $H2LOAD_TIMEOUT"
  echo
  echo "robaho runs each stream's handler on a thread of its cached pool, and hundreds of runnable threads raise"
  echo "the load average to 20-45 during its runs; the start after a robaho run sees that decaying, not other work"
  echo "(see its CPU-busy figure below, and other_cpu% in the raw lines of $RESULTS_FILE)."
  echo
  report_quiet
}

{
  report
  echo
  echo "Raw results:"
  printf '%-5s %-11s %-6s %14s %10s %10s %10s %-4s %s\n' round target port "req/s" server_us h2load_us other_cpu% mark status
  printf '%s\n' "${RAW_LINES[@]}"
  echo
  echo "server_us, h2load_us: CPU microseconds per request of the server and of h2load in the measured run;"
  echo "other_cpu%: CPU used by all other processes during the measured run, in % of one core (0-200 on"
  echo "2 cores): more than a few % means other work competed with the benchmark; mark: '!' if the server"
  echo "start saw a busy machine."
  if ((${#FAILURE_DETAILS[@]} > 0)); then
    echo
    echo "Failed runs in detail:"
    printf '%s\n\n' "${FAILURE_DETAILS[@]}"
  fi
  echo
  echo "h2load outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"

warn_leftover_servers

if ((${#FAILURES[@]} > 0)); then
  die "${#FAILURES[@]} run(s) failed (listed above)"
fi

exit_if_disturbed
