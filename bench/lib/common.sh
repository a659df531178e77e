# Shared shell functions of the Weft benchmark harnesses (bench/run-http1.sh, bench/run-spring.sh,
# bench/run-h2.sh, bench/run-ws.sh, bench/run-mvc.sh, bench/run-latency.sh, bench/run-files.sh, ...).
#
# Source it from a bash script running with `set -euo pipefail`, after setting:
#   ROUNDS DURATION WARMUP CONNECTIONS PIPELINE_DEPTH WRK_THREADS STARTUP_TIMEOUT   (knobs)
#   LOG_DIR PIPELINE_LUA                                                             (paths)
# then call check_common_knobs and install_cleanup_traps. (run-h2.sh uses h2load instead of wrk:
# it sets only ROUNDS STARTUP_TIMEOUT LOG_DIR, checks its own knobs, and uses start_server,
# stop_server, run_wrk, median, ratio, report_commands and report_failure but not measure/bench_one;
# run-ws.sh, with its Go client ws-load, likewise.) The sourcing script defines
#   server_cmd NAME PORT          -> fills the array SERVER_CMD with the command that starts a server
#   provider_class_ok NAME CLASS  -> succeeds if CLASS (from the server's "ready CLASS ..." line)
#                                    is the implementation NAME stands for
# which start_server calls. Every server must print one line "ready <class> [more]" on stdout
# once it listens, and must answer GET /plaintext with "Hello, World!" (unless the harness redefines
# server_smoke).
#
# Optional CPU placement, for every harness (empty = the scheduler decides, the default):
#   SERVER_CPUS  CPU list for the server (taskset -c syntax, e.g. "1")
#   LOAD_CPUS    CPU list for the load generator (e.g. "0")
# Pinning them to disjoint CPUs keeps the load generator from taking CPU time from the server under
# test, the way a separate load machine would; check_common_knobs checks the lists.
#
# Globals kept here: SERVER_PID SERVER_PORT WRK_PID STARTED_PIDS (lifecycle), SERVER_CMD WRK_CMD
# (filled by server_cmd / wrk_cmd), SAMPLES["name mode"] (req/s values), SERVER_CMDS WRK_CMDS
# (for the report), RAW_LINES (one line per measured run), LOAD_LINES RUN_MARK MARKED_RUNS
# MARKED_NAMES (quiet_wait), PEER_FIGURES BASELINE_LINES PEER_DROPS BASELINE_NOTES (baselines).
#
# Every harness also uses the quiet-machine gate and the peer baselines at the end of this file:
# quiet_wait before each server start (knobs QUIET_WAIT, QUIET_LOAD), peer_figure/register_peers and
# check_baselines after the run (PEER_DROP, ACCEPT_DISTURBED, UPDATE_BASELINES, BASELINES_FILE),
# report_disturbed, report_baselines and report_quiet in its report, and exit_if_disturbed last.
# shellcheck shell=bash

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
# Argument checks of the knobs every harness has
# ---------------------------------------------------------------------------------------------
check_positive_ints() { # variable names... -> dies unless each holds a positive integer
  local name
  for name in "$@"; do
    [[ ${!name} =~ ^[1-9][0-9]*$ ]] || die "$name must be a positive integer (got '${!name}')"
  done
}

check_common_knobs() {
  check_positive_ints ROUNDS CONNECTIONS PIPELINE_DEPTH WRK_THREADS STARTUP_TIMEOUT
  check_cpu_lists
  [[ $DURATION =~ ^[1-9][0-9]*[smh]?$ ]] || die "DURATION must look like 10s, 1m, ... (got '$DURATION')"
  [[ $WARMUP =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "WARMUP must be 0 or look like 3s (got '$WARMUP')"
  (( WRK_THREADS <= CONNECTIONS )) || die "WRK_THREADS must not exceed CONNECTIONS"
  check_quiet_knobs
}

SERVER_CPUS="${SERVER_CPUS:-}"
LOAD_CPUS="${LOAD_CPUS:-}"
SERVER_PIN=()
LOAD_PIN=()
check_cpu_lists() { # fills SERVER_PIN and LOAD_PIN (command prefixes) from SERVER_CPUS and LOAD_CPUS
  local name
  for name in SERVER_CPUS LOAD_CPUS; do
    [[ -z ${!name} || ${!name} =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
      die "$name must be a CPU list such as 1 or 0,2-3 (got '${!name}')"
  done
  if [[ -n $SERVER_CPUS || -n $LOAD_CPUS ]]; then
    command -v taskset >/dev/null || die "SERVER_CPUS/LOAD_CPUS need taskset (util-linux)"
  fi
  [[ -z $SERVER_CPUS ]] || SERVER_PIN=(taskset -c "$SERVER_CPUS")
  [[ -z $LOAD_CPUS ]] || LOAD_PIN=(taskset -c "$LOAD_CPUS")
}

# One line for the reports: where the server and the load generator ran.
cpu_placement() {
  if [[ -z $SERVER_CPUS && -z $LOAD_CPUS ]]; then
    echo "CPU placement: none (server and load generator share all $(nproc) CPUs)"
  else
    echo "CPU placement: server on CPUs ${SERVER_CPUS:-all}, load generator on CPUs ${LOAD_CPUS:-all}"
  fi
}

# ---------------------------------------------------------------------------------------------
# Server lifecycle; the EXIT trap guarantees the server dies whatever happens.
# ---------------------------------------------------------------------------------------------
SERVER_PID=""
SERVER_PORT=""
WRK_PID=""
STARTED_PIDS=()

# Run wrk (or another load generator: run-h2.sh runs h2load with it) in the background and wait
# for it, so that a signal to this script is handled at once (bash defers traps while a
# foreground child runs). Output goes to $1.
run_wrk() {
  local out=$1 rc=0
  shift
  "${LOAD_PIN[@]}" "$@" >"$out" 2>&1 </dev/null &
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
install_cleanup_traps() {
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM HUP
}

port_in_use() {
  local port=$1
  if command -v ss >/dev/null 2>&1; then
    [[ -n $(ss -Htln "sport = :$port" 2>/dev/null) ]] && return 0
  fi
  # A successful connect means somebody listens there.
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

# A port below the kernel's ephemeral range, where no client socket (one in TIME_WAIT after a run with many
# connections, say) can hold it.
free_port() {
  local port i low=32768
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=32768
  ((low > 21000)) || low=50000
  for ((i = 0; i < 200; i++)); do
    port=$((20000 + RANDOM % (low - 20000)))
    if ! port_in_use "$port"; then
      echo "$port"
      return 0
    fi
  done
  die "could not find a free port"
}

# ---------------------------------------------------------------------------------------------
# The servers of a harness that runs several (SERVERS="weft tomcat jetty")
# ---------------------------------------------------------------------------------------------
# Fills SERVER_LIST from $SERVERS; dies on an empty list, an unknown name or a name listed twice.
parse_server_list() { # known names...
  local s
  read -r -a SERVER_LIST <<<"$SERVERS"
  (( ${#SERVER_LIST[@]} > 0 )) || die "SERVERS is empty"
  local -A seen=()
  for s in "${SERVER_LIST[@]}"; do
    [[ " $* " == *" $s "* ]] || die "unknown server '$s' (known: $*)"
    [[ -z ${seen[$s]:-} ]] || die "server '$s' is listed twice in SERVERS"
    seen[$s]=1
  done
}
has_server() { [[ " ${SERVER_LIST[*]} " == *" $1 "* ]]; }

# Fills the array MVN_ENV with the environment Maven runs in: the benchmark JDK (the default java
# may be older than 21). Maven 3.8's bundled Guava calls sun.misc.Unsafe, which JDK 24+ reports
# with a multi-line warning on every build.
maven_env() { # jdk
  MVN_ENV=(env JAVA_HOME="$1")
  if (( $(jdk_major "$1") >= 24 )) && [[ ${MAVEN_OPTS:-} != *sun-misc-unsafe-memory-access* ]]; then
    MVN_ENV+=(MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow")
  fi
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

jar_versions() { # dir name-prefixes... -> "prefix-version ..." of the jars in dir
  local dir=$1 prefix out="" f
  shift
  for prefix in "$@"; do
    f=$(find "$dir" -maxdepth 1 -name "$prefix-[0-9]*.jar" -printf '%f\n' 2>/dev/null | sort | head -n 1)
    [[ -n $f ]] && out+="${f%.jar} "
  done
  echo "${out% }"
}

# ---------------------------------------------------------------------------------------------
# Servers and wrk
# ---------------------------------------------------------------------------------------------
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

# ---------------------------------------------------------------------------------------------
# Spring Boot harnesses (run-spring.sh, run-mvc.sh): every server is the same app, repackaged by
# spring-boot-maven-plugin into the jar the harness's app_jar NAME prints, started on one JDK
# ($JAVA) with the same flags (the array JVM_FLAGS).
# ---------------------------------------------------------------------------------------------
boot_server_cmd() { # server port -> fills SERVER_CMD
  SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" -jar "$(app_jar "$1")" "--server.port=$2")
}

# Checks each server's jar exists and fills SERVER_LIBS[NAME] with the server libraries inside it
# (BOOT-INF/lib entries matching LIB_REGEX), for the report. A jar other than OWNER's that holds
# OWNER_LIB (the default server's library, e.g. tomcat-embed-core-) gets a warning: the ready-line
# check then shows which server really starts.
declare -A SERVER_LIBS=()
collect_boot_jar_libs() { # lib-regex owner owner-lib servers...
  local regex=$1 owner=$2 owner_lib=$3 s jar libs
  shift 3
  for s in "$@"; do
    jar=$(app_jar "$s")
    [[ -s $jar ]] || die "$jar is missing (build it, or run without SKIP_BUILD=1)"
    libs=""
    if command -v unzip >/dev/null 2>&1; then
      libs=$(unzip -Z1 "$jar" 'BOOT-INF/lib/*' 2>/dev/null | sed 's|^BOOT-INF/lib/||; s|\.jar$||' |
        grep -E "$regex" | sort | tr '\n' ' ') || libs=""
      if [[ $s != "$owner" && $libs == *"$owner_lib"* ]]; then
        warn "$jar contains $owner_lib*; the ready-line check will show which server actually starts"
      fi
    fi
    SERVER_LIBS[$s]=${libs% }
    log "$s jar: $jar (${SERVER_LIBS[$s]:-libraries not listed})"
  done
}

quote_cmd() { local out="" a; for a in "$@"; do out+=" $(printf '%q' "$a")"; done; echo "${out# }"; }

# The smoke test of start_server: retries until the server on PORT answers GET /plaintext with
# "Hello, World!" or DEADLINE (in $SECONDS) passes. A harness whose servers serve something else
# (run-ws.sh) defines its own after sourcing this file. On failure it sets SMOKE_PROBLEM (what the
# server did wrong, for the warning) and fails.
SMOKE_PROBLEM=""
SMOKE_CURL_ARGS=() # extra curl options for server_smoke, e.g. --http2-prior-knowledge for an h2c-only server
server_smoke() { # port deadline
  smoke_until "$2" "Hello, World!" -fsS --max-time 2 "${SMOKE_CURL_ARGS[@]}" "http://127.0.0.1:$1/plaintext" && return 0
  SMOKE_PROBLEM="does not answer GET /plaintext correctly (got '$SMOKE_GOT')"
  return 1
}
# Runs `curl ARGS...` again and again (every 0.2 s) until its output is EXPECTED, the server dies or DEADLINE (in
# $SECONDS) passes; succeeds if it got EXPECTED. The last output stays in SMOKE_GOT, for the caller's SMOKE_PROBLEM.
SMOKE_GOT=""
smoke_until() { # deadline expected curl-args...
  local deadline=$1 expected=$2
  shift 2
  SMOKE_GOT=""
  while ((SECONDS < deadline)); do
    SMOKE_GOT=$(curl "$@" 2>/dev/null) || SMOKE_GOT=""
    [[ $SMOKE_GOT == "$expected" ]] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.2
  done
  return 1
}

# Start a server and wait until it is ready and passes server_smoke (GET /plaintext by default). Retries on another port
# if the first one was grabbed in the meantime. Sets SERVER_PID / SERVER_PORT and SERVER_LOG.
# The log is $LOG_DIR/server-<tag>-r<round>.log; tag defaults to the provider's name.
SERVER_LOG=""
start_server() { # provider round [tag]
  local provider=$1 round=$2 tag=${3:-$1} attempt port logf deadline line cls
  for ((attempt = 1; attempt <= 3; attempt++)); do
    port=$(free_port)
    logf="$LOG_DIR/server-$tag-r$round.log"
    SERVER_LOG=$logf
    server_cmd "$provider" "$port"
    printf '+ %s\n' "$(quote_cmd "${SERVER_PIN[@]}" "${SERVER_CMD[@]}")" >&2
    "${SERVER_PIN[@]}" "${SERVER_CMD[@]}" >"$logf" 2>&1 </dev/null &
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
    cls=${cls%% *} # the class is the first word; a server may print more after it
    if ! provider_class_ok "$provider" "$cls"; then
      stop_server
      die "$provider: server reports provider '$cls', which is not the $provider implementation"
    fi

    if ! server_smoke "$port" "$deadline"; then
      warn "$provider server on port $port $SMOKE_PROBLEM; log $logf:"
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
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi # the server start of this run saw a busy machine (quiet_wait)
  RAW_LINES+=("$(printf '%-5s %-7s %-10s %-6s %14s %8s %-4s %s' "$round" "$provider" "$mode" "$port" "$rps" "$non2xx" "$mark" \
    "$sockerr")")
  log "$provider $mode round $round: $rps req/s"
  SAMPLES["$provider $mode"]+="$rps "
}

median() { median_dp 2 "$@"; } # values... (NA ignored) -> median with 2 decimals, or NA
median_dp() { # decimals values... (NA ignored) -> median with that many decimals, or NA
  local dp=$1
  shift
  printf '%s\n' "$@" | awk '/^[0-9]+(\.[0-9]+)?$/ { print }' | sort -g |
    awk -v dp="$dp" '{ a[NR] = $1 } END {
      if (NR == 0) { print "NA"; exit }
      f = "%." dp "f\n"
      if (NR % 2) printf f, a[(NR + 1) / 2]; else printf f, (a[NR / 2] + a[NR / 2 + 1]) / 2
    }'
}
# The median of a space separated list of values (as SAMPLES holds them).
median_of() { local vals; read -r -a vals <<<"$1"; median "${vals[@]}"; }

ratio() { # a b -> a/b with 2 decimals, or n/a
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) { print "n/a"; exit }
    printf "%.2f\n", a / b }'
}

# Starts NAME, runs every mode in MODES against it for ROUND, stops it; records the exact commands used.
bench_one() { # name round
  local name=$1 round=$2 mode
  start_server "$name" "$round"
  server_cmd "$name" PORT
  SERVER_CMDS[$name]="$(quote_cmd "${SERVER_CMD[@]}")"
  for mode in "${MODES[@]}"; do
    measure "$name" "$mode" "$round" "$SERVER_PORT"
    wrk_cmd "$mode" "$DURATION" PORT
    WRK_CMDS[$mode]="$(quote_cmd "${WRK_CMD[@]}")"
  done
  stop_server
}

# Runs ROUNDS rounds; each starts every server of SERVER_LIST on a quiet machine (quiet_wait) and measures it with
# FN (bench_one, or the harness's own: FN NAME ROUND). The starting server moves by one each round (a b c, b c a,
# ...), so no server always runs first or last.
rotating_rounds() { # fn
  local fn=$1 count=${#SERVER_LIST[@]} round k server
  for ((round = 1; round <= ROUNDS; round++)); do
    for ((k = 0; k < count; k++)); do
      server=${SERVER_LIST[$(((round - 1 + k) % count))]}
      log "=== round $round/$ROUNDS: $server ==="
      quiet_wait "round $round: $server" "$server"
      "$fn" "$server" "$round"
    done
  done
}

# Fills the global MEDIAN["name mode"] from SAMPLES for every given name and mode.
compute_medians() { # names...
  local name mode vals
  for name in "$@"; do
    for mode in "${MODES[@]}"; do
      read -r -a vals <<<"${SAMPLES["$name $mode"]:-}"
      MEDIAN["$name $mode"]=$(median "${vals[@]}")
    done
  done
}

# Prints the exact server and wrk commands recorded by bench_one, for the report. A harness with
# another load generator sets LOAD_TOOL (its name) and WARMUP_NOTE (what its warm-up runs), and
# stores its commands in WRK_CMDS[mode] as bench_one does.
report_commands() { # names...
  local name mode
  echo "Commands (PORT = a free port picked per run):"
  for name in "$@"; do
    echo "  $name server: ${SERVER_CMDS[$name]:-}"
  done
  if [[ $WARMUP != 0 ]]; then
    echo "  warm-up before each measured run: ${WARMUP_NOTE:-the same wrk command with -d$WARMUP}"
  fi
  for mode in "${MODES[@]}"; do
    echo "  ${LOAD_TOOL:-wrk} $mode: ${WRK_CMDS[$mode]:-}"
  done
}

# The end of a harness: its report (the harness's function report) and then RAW_FN's raw lines into RESULTS_FILE,
# the report again on stdout, and where the raw numbers are.
write_results() { # raw-fn
  {
    report
    echo
    "$1"
  } >"$RESULTS_FILE"
  echo
  report
  echo
  echo "Raw numbers: $RESULTS_FILE"
}

# Failed runs of a harness that lists them in its report (run-h2.sh, run-ws.sh): prints the load
# tool's output (${LOAD_TOOL:-wrk}) and the end of the server log on stderr, and keeps the one-line
# summary in FAILURES and the details in FAILURE_DETAILS for the results file.
FAILURES=()
FAILURE_DETAILS=()
report_failure() { # what out problem
  local what=$1 out=$2 problem=$3 detail
  warn "$what failed: $problem"
  detail=$(
    echo "=== $what: $problem"
    echo "--- ${LOAD_TOOL:-wrk} output ($out):"
    sed -n '1,80p' "$out" 2>/dev/null || true
    echo "--- last 30 lines of the server log ($SERVER_LOG):"
    tail -n 30 "$SERVER_LOG" 2>/dev/null || true
  )
  printf '%s\n' "$detail" | sed 's/^/    /' >&2
  FAILURES+=("$what: $problem")
  FAILURE_DETAILS+=("$detail")
}

# ---------------------------------------------------------------------------------------------
# Quiet machine (every harness). A benchmark on a machine where other work takes the CPU measures
# that work, not the servers: before each server start the harness calls quiet_wait, which waits
# for the machine to settle, records the load average and the CPU use for the report, and marks
# the run if the machine is still busy. Knobs, the same in every harness:
#   QUIET_WAIT  most seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD  1-minute load average counted as quiet before the first start   (default 0.5)
#   QUIET_BUSY  % of the CPUs busy (other work) counted as quiet before later starts (default 10)
# ---------------------------------------------------------------------------------------------
QUIET_WAIT="${QUIET_WAIT:-60}"
QUIET_LOAD="${QUIET_LOAD:-0.5}"
QUIET_BUSY="${QUIET_BUSY:-10}"

cpu_busy_pct() { # -> % of all CPUs busy over one second (from /proc/stat), or ?
  local a b
  a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat 2>/dev/null) || a=""
  sleep 1
  b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat 2>/dev/null) || b=""
  [[ -n $a && -n $b ]] || { echo "?"; return 0; }
  awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
    if (y[2] - x[2] <= 0) print "?"; else printf "%.0f\n", 100 * (y[1] - x[1]) / (y[2] - x[2]) }'
}
load1() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0; }
above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }

# Waits for a quiet machine before a server start; sets RUN_MARK (1 if it did not get one), records a
# LOAD_LINES entry (load average 1/5/15 min, the wait, CPU busy) and, for a marked run, a MARKED_RUNS
# entry and MARKED_NAMES[name] (so that the report can put "!" after the name). Before the script's
# first server start, quiet means a 1-minute load average <= QUIET_LOAD. Later, the load average still
# counts the script's own previous run (it decays over minutes), so quiet means CPUs busy <= QUIET_BUSY %
# during a one-second sample: nothing of the harness runs meanwhile (its previous server is stopped), so
# whatever keeps the CPUs busy then is other work. Either waits at most QUIET_WAIT seconds.
LOAD_LINES=()
RUN_MARK=0
MARKED_RUNS=()
QUIET_STARTS=0
declare -A MARKED_NAMES=()
quiet_wait() { # what [name]
  local what=$1 name=${2:-} start=$SECONDS l busy loadavg mark="" quiet=0 rule
  if ((QUIET_STARTS == 0)); then
    rule="1-minute load average <= $QUIET_LOAD"
    l=$(load1)
    if above "$l" "$QUIET_LOAD" && ((QUIET_WAIT > 0)); then
      log "load average $l > $QUIET_LOAD: waiting up to ${QUIET_WAIT}s for the machine to settle before $what"
      while above "$l" "$QUIET_LOAD" && ((SECONDS - start < QUIET_WAIT)); do
        sleep $((QUIET_WAIT - (SECONDS - start) < 5 ? QUIET_WAIT - (SECONDS - start) : 5))
        l=$(load1)
      done
    fi
    busy=$(cpu_busy_pct)
    above "$(load1)" "$QUIET_LOAD" || quiet=1
  else
    rule="CPUs busy <= ${QUIET_BUSY}%"
    busy=$(cpu_busy_pct)
    while ! busy_ok "$busy" && ((SECONDS - start < QUIET_WAIT)); do
      sleep 1
      busy=$(cpu_busy_pct)
    done
    busy_ok "$busy" && quiet=1
  fi
  QUIET_STARTS=$((QUIET_STARTS + 1))
  loadavg=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) || loadavg="?"
  RUN_MARK=0
  if ((!quiet)); then
    RUN_MARK=1
    mark="  ! marked"
    MARKED_RUNS+=("$what: not $rule after waiting $((SECONDS - start)) s (load average $loadavg, CPU busy ${busy}%)")
    [[ -z $name ]] || MARKED_NAMES[$name]=1
    warn "!!!!!!!! no quiet machine ($rule) before $what after waiting $((SECONDS - start)) s: load average" \
      "$loadavg, CPU busy ${busy}% in the last second. This run is marked '!' in the report. !!!!!!!!"
  fi
  log "before $what: load average $loadavg, CPU busy ${busy}%${mark:+ (marked)}"
  LOAD_LINES+=("$(printf '%-42s %-16s waited %3ss, CPU busy %4s%%%s' "$what" "$loadavg" "$((SECONDS - start))" "$busy" \
    "$mark")")
}
busy_ok() { [[ $1 =~ ^[0-9]+$ ]] && (($1 <= QUIET_BUSY)); }

# " !" if a run of NAME (as given to quiet_wait) was marked, else nothing: for the report's tables.
mark_of() { if [[ -n ${MARKED_NAMES[$1]:-} ]]; then echo " !"; fi; }
marked_01() { if [[ -n ${MARKED_NAMES[$1]:-} ]]; then echo 1; else echo 0; fi; }
# The line under a table with marked names (nothing if no run was marked).
mark_legend() {
  if ((${#MARKED_RUNS[@]} > 0)); then
    echo "('!' after a name: a server start of it found no quiet machine; see the end)"
  fi
}

# Prints a framed block of lines that nobody scrolls past.
box() { # lines...
  local line width=0 border
  for line in "$@"; do ((${#line} > width)) && width=${#line}; done
  border=$(printf '%*s' $((width + 8)) '' | tr ' ' '#')
  echo "$border"
  echo "$border"
  for line in "$@"; do printf '###  %-*s  ###\n' "$width" "$line"; done
  echo "$border"
  echo "$border"
}

# For the end of a report: the load average and CPU use before each server start, then, loudly,
# the runs that started on a busy machine.
report_quiet() {
  echo "Load average (1, 5, 15 min) before each server start, after waiting up to QUIET_WAIT=${QUIET_WAIT}s for a"
  echo "quiet machine (the first start: a 1-minute load average <= QUIET_LOAD=$QUIET_LOAD; later ones, whose load"
  echo "average still counts this script's previous runs: CPUs busy <= QUIET_BUSY=${QUIET_BUSY}%), and how busy the"
  echo "CPUs were in the second before the start (this script runs nothing then, so that is other work):"
  printf '  %s\n' "${LOAD_LINES[@]}"
  echo
  if ((${#MARKED_RUNS[@]} == 0)); then
    echo "Quiet machine: every server start saw one."
    return 0
  fi
  box "!!! ${#MARKED_RUNS[@]} SERVER RUN(S) STARTED ON A BUSY MACHINE (marked '!' above) !!!" \
    "${MARKED_RUNS[@]/#/  }" \
    "Other work shared the CPUs: the marked figures are not the servers'."
}

# ---------------------------------------------------------------------------------------------
# Peer baselines (every harness). Weft's figures are what a run measures; the peers' (Tomcat, Jetty,
# Reactor Netty, robaho, ...) do not depend on this repository's code, so a peer far below its own
# earlier medians means the machine was disturbed, and the run's ratios are not comparable.
# BASELINES_FILE (default bench/baselines.tsv, explained in its header) holds those medians, one row
# per documented run: script, peer, mode, cpus (the CPU placement), median, unit, date, jdk, source.
# The harness registers every peer's median of its run with peer_figure, then calls check_baselines
# (before its report), puts report_disturbed at the top of its report and report_baselines in it,
# and calls exit_if_disturbed last. Knobs:
#   PEER_DROP         a peer below PEER_DROP x its baseline makes the run not comparable (default 0.7)
#   ACCEPT_DISTURBED  1 = report such a run but exit 0 (default 0: exit status 3 after the report);
#                     also lets UPDATE_BASELINES write figures of runs marked busy
#   UPDATE_BASELINES  1 = replace the rows of the peers measured in this run with this run's medians
#                     (when the machine or the JDK changed), except those of runs marked busy (default 0)
#   BASELINES_FILE    the baselines file (default bench/baselines.tsv)
# ---------------------------------------------------------------------------------------------
PEER_DROP="${PEER_DROP:-0.7}"
ACCEPT_DISTURBED="${ACCEPT_DISTURBED:-0}"
UPDATE_BASELINES="${UPDATE_BASELINES:-0}"
BASELINES_FILE="${BASELINES_FILE:-${BENCH_DIR:-.}/baselines.tsv}"
BENCH_SCRIPT=$(basename "$0")
EXIT_DISTURBED=3

check_quiet_knobs() {
  [[ $QUIET_WAIT =~ ^[0-9]+$ ]] || die "QUIET_WAIT must be a number of seconds (got '$QUIET_WAIT')"
  [[ $QUIET_LOAD =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "QUIET_LOAD must be a number such as 0.5 (got '$QUIET_LOAD')"
  [[ $QUIET_BUSY =~ ^[0-9]+$ && $QUIET_BUSY -le 100 ]] || die "QUIET_BUSY must be a percentage such as 10 (got '$QUIET_BUSY')"
  if [[ ! $PEER_DROP =~ ^[0-9]+(\.[0-9]+)?$ ]] || ! above "$PEER_DROP" 0; then
    die "PEER_DROP must be a positive number such as 0.7 (got '$PEER_DROP')"
  fi
  [[ $ACCEPT_DISTURBED == 0 || $ACCEPT_DISTURBED == 1 ]] || die "ACCEPT_DISTURBED must be 0 or 1 (got '$ACCEPT_DISTURBED')"
  [[ $UPDATE_BASELINES == 0 || $UPDATE_BASELINES == 1 ]] || die "UPDATE_BASELINES must be 0 or 1 (got '$UPDATE_BASELINES')"
  if [[ $UPDATE_BASELINES == 1 ]]; then
    [[ -w $(dirname "$BASELINES_FILE") ]] || die "UPDATE_BASELINES=1, but $(dirname "$BASELINES_FILE") is not writable"
  elif [[ ! -f $BASELINES_FILE ]]; then
    warn "no baselines file $BASELINES_FILE: the peers' figures will not be checked"
  fi
}

# The CPU placement as the baselines file's cpus column names it: "-" (not pinned) or
# "server=1 load=0".
cpus_label() {
  if [[ -z $SERVER_CPUS && -z $LOAD_CPUS ]]; then echo "-"; else echo "server=${SERVER_CPUS:-all} load=${LOAD_CPUS:-all}"; fi
}
# A JDK as the baselines file's jdk column names it: "<vendor> <version>", e.g. "Temurin 25.0.3".
jdk_label() { # jdk-home
  local v vendor
  v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release" 2>/dev/null | head -n 1)
  vendor=$(sed -n 's/^IMPLEMENTOR_VERSION="\([^"-]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1)
  [[ -n $vendor ]] || vendor=$(sed -n 's/^IMPLEMENTOR="\([^" ]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1)
  echo "${vendor:-OpenJDK} ${v:-?}"
}

# Registers a peer's median of this run (NA if it has none) for check_baselines.
PEER_FIGURES=()
peer_figure() { # peer mode median unit marked(0/1)
  PEER_FIGURES+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"$5")
}

# peer_figure for every name but weft and every mode in MODES, from MEDIAN["name mode"] (the
# harnesses that use compute_medians).
register_peers() { # unit names...
  local unit=$1 name mode
  shift
  for name in "$@"; do
    [[ $name == weft ]] && continue
    for mode in "${MODES[@]}"; do
      peer_figure "$name" "$mode" "${MEDIAN["$name $mode"]:-NA}" "$unit" "$(marked_01 "$name")"
    done
  done
}

# Compares every registered peer figure with the median of its baseline rows (same script, peer, mode
# and CPU placement); with UPDATE_BASELINES=1 then rewrites those rows. Fills BASELINE_LINES (the
# report's table), PEER_DROPS (the peers below PEER_DROP x their baseline that count against the run)
# and BASELINE_NOTES. BASELINE_SETTINGS (set by the harness: its knobs that shape the figures) goes
# into the source column of rows it writes.
BASELINE_LINES=()
PEER_DROPS=()
BASELINE_NOTES=()
check_baselines() {
  local fig peer mode value unit marked cpus cur_jdk rows base n dates jdks r status note key
  local vals=() keys="" new_rows=() today other_jdk=0
  cpus=$(cpus_label)
  cur_jdk=$(jdk_label "$JDK")
  today=$(date -u '+%Y-%m-%d')
  for fig in "${PEER_FIGURES[@]}"; do
    IFS=$'\t' read -r peer mode value unit marked <<<"$fig"
    rows=""
    if [[ -f $BASELINES_FILE ]]; then
      rows=$(awk -F'\t' -v s="$BENCH_SCRIPT" -v p="$peer" -v m="$mode" -v c="$cpus" \
        '$1 !~ /^#/ && $1 == s && $2 == p && $3 == m && $4 == c { print $5 "\t" $7 "\t" $8 }' "$BASELINES_FILE")
    fi
    base=NA n=0 dates="" jdks="" note=""
    if [[ -n $rows ]]; then
      mapfile -t vals < <(cut -f1 <<<"$rows")
      base=$(median "${vals[@]}")
      n=$(wc -l <<<"$rows")
      dates=$(cut -f2 <<<"$rows" | sort -u | paste -sd, - | sed 's/,/, /g')
      jdks=$(cut -f3 <<<"$rows" | sort -u | paste -sd, - | sed 's/,/, /g')
      # The JDK version (the label's last word) of the baseline rows against this run's.
      if ! cut -f3 <<<"$rows" | awk -v v="${cur_jdk##* }" '$NF == v { found = 1 } END { exit !found }'; then
        note=" [other JDK]"
        other_jdk=1
      fi
    fi
    r=$(ratio "$value" "$base")
    if [[ ! $value =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
      status="no figure"
    elif [[ $base == NA ]]; then
      status="no baseline"
    elif above "$PEER_DROP" "$r"; then
      status="BELOW"
    else
      status="ok"
    fi
    if [[ $UPDATE_BASELINES == 1 && $value =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
      if [[ $marked == 1 && $ACCEPT_DISTURBED != 1 ]]; then
        BASELINE_NOTES+=("NOT updated: $peer $mode (its run started on a busy machine; ACCEPT_DISTURBED=1 writes it anyway)")
      else
        key="$BENCH_SCRIPT"$'\t'"$peer"$'\t'"$mode"$'\t'"$cpus"
        keys+="$key"$'\n'
        new_rows+=("$key"$'\t'"$(printf '%.0f' "$value")"$'\t'"$unit"$'\t'"$today"$'\t'"$cur_jdk"$'\t'"UPDATE_BASELINES=1 run: $BENCH_SCRIPT ${BASELINE_SETTINGS:-}")
        if ((n > 0)); then
          BASELINE_NOTES+=("updated: $peer $mode: $n row(s) (median $base) replaced by this run's $(printf '%.0f' "$value") $unit")
          status+=", replaced"
        else
          BASELINE_NOTES+=("updated: $peer $mode: this run's $(printf '%.0f' "$value") $unit added as its baseline")
          status+=", added"
        fi
      fi
    fi
    if [[ $status == BELOW ]]; then
      PEER_DROPS+=("$peer $mode: $value $unit against a baseline of $base ($r x)$note")
    fi
    BASELINE_LINES+=("$(printf '%-18s %-28s %12s %12s %6s  %-18s %s' "$peer" "$mode" "$value" "$base" "$r" "$status" \
      "$(if ((n > 0)); then echo "$n run(s): $dates; $jdks$note"; else echo "-"; fi)")")
  done
  if ((other_jdk)); then
    BASELINE_NOTES+=("[other JDK]: the baseline runs used another JDK version than this run ($cur_jdk), which can move a" \
      "  peer's figure too; after a run on a quiet machine, UPDATE_BASELINES=1 makes this JDK's figures the baselines")
  fi
  if ((${#new_rows[@]} > 0)); then
    local tmp
    tmp=$(mktemp "$BASELINES_FILE.XXXXXX")
    if [[ -f $BASELINES_FILE ]]; then
      DROP_KEYS=$keys awk -F'\t' 'BEGIN { n = split(ENVIRON["DROP_KEYS"], k, "\n"); for (i = 1; i <= n; i++) drop[k[i]] = 1 }
        /^#/ || NF < 4 { print; next }
        !(($1 "\t" $2 "\t" $3 "\t" $4) in drop) { print }' "$BASELINES_FILE" >"$tmp"
    else
      printf '# script\tpeer\tmode\tcpus\tmedian\tunit\tdate\tjdk\tsource (see bench/README.md)\n' >"$tmp"
    fi
    printf '%s\n' "${new_rows[@]}" >>"$tmp"
    mv "$tmp" "$BASELINES_FILE"
    BASELINE_NOTES+=("UPDATE_BASELINES=1: wrote ${#new_rows[@]} row(s) to $BASELINES_FILE (commit it if this machine is the reference)")
    log "UPDATE_BASELINES=1: wrote ${#new_rows[@]} row(s) to $BASELINES_FILE"
  fi
}

# The report's table of the peers against their baselines.
report_baselines() {
  echo "Peers against their baselines ($BASELINES_FILE, CPU placement '$(cpus_label)'; a peer below"
  echo "PEER_DROP=$PEER_DROP x the median of its baseline runs makes this run not comparable):"
  if ((${#BASELINE_LINES[@]} == 0)); then
    echo "  (no peer in this run)"
  else
    printf '  %-18s %-28s %12s %12s %6s  %-18s %s\n' peer mode "this run" baseline ratio status "baseline runs (dates; JDK)"
    printf '  %s\n' "${BASELINE_LINES[@]}"
  fi
  if ((${#BASELINE_NOTES[@]} > 0)); then
    printf '  %s\n' "${BASELINE_NOTES[@]}"
  fi
  echo "  (baselines come from runs with the script's default settings; a much shorter run can fall below them"
  echo "   on a quiet machine too: then ACCEPT_DISTURBED=1)"
}

# The box at the top of a report whose peers fell below their baselines (nothing otherwise).
report_disturbed() {
  ((${#PEER_DROPS[@]} > 0)) || return 0
  local last="Exit status $EXIT_DISTURBED after this report (ACCEPT_DISTURBED=1: 0)."
  [[ $ACCEPT_DISTURBED == 1 ]] && last="ACCEPT_DISTURBED=1: reported anyway, exit status 0."
  box "THIS RUN IS NOT COMPARABLE: THE MACHINE WAS PROBABLY DISTURBED." \
    "" \
    "${#PEER_DROPS[@]} peer figure(s) fell below PEER_DROP=$PEER_DROP x their baseline ($BASELINES_FILE):" \
    "${PEER_DROPS[@]/#/  }" \
    "" \
    "A peer's speed does not depend on Weft's code: when it falls this far, something else took the CPU" \
    "(see the load lines at the end), and every ratio of this run is suspect. Do not publish these figures;" \
    "rerun on a quiet machine. If the machine or the JDK changed, refresh the baselines with UPDATE_BASELINES=1." \
    "$last"
}

# Last thing a harness does: repeats the box and exits with status 3 if a peer fell below its baseline
# (unless ACCEPT_DISTURBED=1).
exit_if_disturbed() {
  ((${#PEER_DROPS[@]} > 0)) || return 0
  echo
  report_disturbed
  if [[ $ACCEPT_DISTURBED == 1 ]]; then
    warn "${#PEER_DROPS[@]} peer figure(s) below their baselines; ACCEPT_DISTURBED=1, so exit status 0"
    return 0
  fi
  warn "${#PEER_DROPS[@]} peer figure(s) below PEER_DROP=$PEER_DROP x their baselines: the run is not comparable (exit status $EXIT_DISTURBED)"
  exit "$EXIT_DISTURBED"
}
