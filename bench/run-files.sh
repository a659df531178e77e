#!/usr/bin/env bash
#
# Large static file benchmark: one file of random bytes (FILE_SIZE, 100 MiB) downloaded again and again over
# keep-alive connections from Weft's engine (FileHandler), Weft's servlet container (its default servlet),
# WebFlux on Weft (a static resource location), Netty (DefaultFileRegion) and Tomcat (its DefaultServlet with
# sendfile): throughput and the server's CPU time per GB sent, side by side.
#
# Servers (every one sends the file's bytes zero-copy, FileChannel.transferTo or sendfile(2), over cleartext HTTP/1.1):
#   weft-engine  bench/files/weft: WeftFileServer, FileHandler.builder(DIR).build() on a context at / (the engine's
#                defaults)
#   weft-servlet bench/files/weft: WeftServletFileServer, Weft's ServletContainer with DIR as its document root and
#                the container's default servlet, no servlet of its own
#   weft-webflux bench/spring/weft: the WebFlux app of run-spring.sh on Weft (weft-spring-boot-starter), started
#                with --spring.web.resources.static-locations=file:DIR/ (Boot's static resource handler; its
#                ResourceHttpMessageWriter uses Weft's ZeroCopyHttpOutputMessage for a file)
#   netty        bench/files/netty: NettyFileServer, Netty 4.2 NIO, HttpServerCodec, a DefaultFileRegion per file
#                (no HttpChunkedInput), as Netty's static file server example does over cleartext
#   tomcat       bench/files/tomcat: TomcatFileServer, embedded Tomcat 11, DIR as the context's document base and
#                Tomcat's DefaultServlet (the NIO connector's useSendfile=true and the servlet's sendfileSize of
#                48 KiB are Tomcat's defaults)
# Every server but weft-webflux is a plain main in bench/files (mvn -f bench/files/pom.xml package); every one runs
# on the same JDK with the same JVM_OPTS and serves the file at /FILE_NAME.
#
# Load: wrk, CONNECTIONS keep-alive connections on WRK_THREADS threads, each downloading the file again and again
# for DURATION (wrk reads every body off the socket and discards it). Measured per run:
#   throughput   the bytes wrk read in the run (its "N requests in Ts, X read" line; wrk's units are binary, so
#                they are converted to bytes) divided by its duration, in GB/s (10^9 bytes)
#   CPU per GB   the server process's CPU time (utime + stime of /proc/PID/stat, every thread, user and kernel,
#                sendfile included) over the measured run, divided by the GB wrk read, in CPU seconds per GB
#   server CPU   that CPU time divided by the run's duration (cores busy on average)
# The load generator shares the machine (unless LOAD_CPUS says otherwise), and wrk reads into a 8 KiB buffer: when
# wrk's threads are the bottleneck, every server shows about the same throughput, and CPU per GB is the figure
# that tells them apart (more WRK_THREADS and CONNECTIONS push further).
#
# Knobs (environment variables):
#   SERVERS         servers to run                            (default "weft-engine weft-servlet weft-webflux netty tomcat")
#   ROUNDS          rounds; each round runs every server once, the first server moving by one each round (default 3)
#   DURATION        wrk duration of each measured run         (default 15s)
#   WARMUP          wrk warm-up before each measured run      (default 5s; 0 = no warm-up)
#   CONNECTIONS     wrk connections                           (default 4)
#   WRK_THREADS     wrk threads                               (default 2)
#   FILE_SIZE       size of the file, in bytes or with a K, M or G suffix (binary: 100M = 100 MiB) (default 100M)
#   JVM_OPTS        JVM flags, identical for every server     (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 60)
#   SKIP_BUILD      1 = build nothing; use bench/files/*/target and bench/spring/weft/target/app.jar as they are
#                   (default 0: install the Weft modules from this working tree into the local Maven repository,
#                   then build bench/files and, for weft-webflux, bench/spring/weft)
#   MVN_FLAGS       extra flags for every Maven command, e.g. "-Dmaven.repo.local=/tmp/m2" (default none)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and wrk (default: not pinned; see lib/common.sh)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD      1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY      % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP       a peer's (netty's, tomcat's) throughput below PEER_DROP x its baseline makes the run not
#                   comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians (MB/s) into the baselines file (default 0)
#   BASELINES_FILE  the peers' baselines                      (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start the script waits up to QUIET_WAIT seconds
# for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later ones: CPUs busy <= QUIET_BUSY %
# in a one-second sample, since the load average still counts the script's own previous run); a start that finds
# none is marked "!" in the tables and listed at the end of the report, which shows the load average (1, 5, 15 min)
# and CPU use before every start. The peers' (netty's and tomcat's, never Weft's) median throughput is compared
# with their rows in bench/baselines.tsv: below PEER_DROP x its baseline, a "NOT COMPARABLE" box opens the report
# and, after the report is written, the script exits with status 3 (unless ACCEPT_DISTURBED=1).
#
# Every server prints "ready <class> <port>" once it listens; the harness checks that class, and before measuring
# downloads the file once and checks its length (so a server answering 404 or a short body is never measured).
# The file is written once per run into a temporary directory (removed at exit) from /dev/urandom.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
LOG_DIR="$TARGET_DIR/logs-files"
RESULTS_FILE="$TARGET_DIR/results-files.txt"
FILES_DIR="$BENCH_DIR/files"
SPRING_DIR="$BENCH_DIR/spring"

SERVERS="${SERVERS:-weft-engine weft-servlet weft-webflux netty tomcat}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-15s}"
WARMUP="${WARMUP:-5s}"
CONNECTIONS="${CONNECTIONS:-4}"
WRK_THREADS="${WRK_THREADS:-2}"
FILE_SIZE="${FILE_SIZE:-100M}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-60}"
SKIP_BUILD="${SKIP_BUILD:-0}"
MVN_FLAGS="${MVN_FLAGS:-}"
PIPELINE_DEPTH=1 # not used: no pipelining here (check_common_knobs checks it)
FILE_NAME=file.bin

MODES=(download)

# Shared functions: logging, server lifecycle and the EXIT trap, JDK search, measure/median/ratio, the
# quiet-machine guard and the baselines.
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
check_common_knobs
parse_server_list weft-engine weft-servlet weft-webflux netty tomcat
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"
FILE_BYTES=$(awk -v s="$FILE_SIZE" 'BEGIN {
  if (s !~ /^[1-9][0-9]*[KMG]?$/) exit 1
  m = 1; u = substr(s, length(s)); if (u == "K") m = 1024; else if (u == "M") m = 1048576; else if (u == "G") m = 1073741824
  printf "%d\n", (m == 1 ? s : substr(s, 1, length(s) - 1)) * m }') ||
  die "FILE_SIZE must be a number of bytes, optionally with K, M or G (got '$FILE_SIZE')"

read -r -a JVM_FLAGS <<<"$JVM_OPTS"
read -r -a MVN_EXTRA <<<"$MVN_FLAGS"

install_cleanup_traps
FILE_DIR=""
# The EXIT trap of lib/common.sh (cleanup) stops the server; the file goes too.
files_cleanup() {
  local rc=$?
  [[ -z $FILE_DIR ]] || rm -rf "$FILE_DIR"
  (exit "$rc")
  cleanup
}
trap files_cleanup EXIT

ensure_tool wrk wrk
ensure_tool curl curl

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
CLK_TCK=$(getconf CLK_TCK)

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
files_jar() { echo "$FILES_DIR/$1/target/weft-bench-files-$1.jar"; }
webflux_jar() { echo "$SPRING_DIR/weft/target/app.jar"; }
module_of() { # server -> its module of bench/files
  case $1 in
    weft-engine | weft-servlet) echo weft ;;
    *) echo "$1" ;;
  esac
}

maven_env "$JDK"
mvn_run() { run "${MVN_ENV[@]}" mvn -B -q "${MVN_EXTRA[@]}" "$@" >&2; }

if [[ $SKIP_BUILD == 1 ]]; then
  log "SKIP_BUILD=1: using the existing builds"
else
  weft_modules=httpserver-engine,servlet
  has_server weft-webflux && weft_modules+=,spring-boot-starter
  log "installing the Weft modules $weft_modules (and what they need) into the local Maven repository"
  mvn_run -f "$REPO_DIR/pom.xml" -pl "$weft_modules" -am -DskipTests install ||
    die "could not build and install $weft_modules (see above)"
  log "building bench/files (the file servers)"
  mvn_run -f "$FILES_DIR/pom.xml" -DskipTests clean package || die "could not build bench/files (see above)"
  if has_server weft-webflux; then
    log "building bench/spring/weft (WebFlux on Weft)"
    mvn_run -f "$SPRING_DIR/weft/pom.xml" -DskipTests clean package || die "could not build bench/spring/weft (see above)"
  fi
fi
for s in "${SERVER_LIST[@]}"; do
  if [[ $s == weft-webflux ]]; then
    [[ -s $(webflux_jar) ]] || die "$(webflux_jar) is missing (run without SKIP_BUILD=1)"
  else
    [[ -s $(files_jar "$(module_of "$s")") && -d $FILES_DIR/$(module_of "$s")/target/lib ]] ||
      die "$(files_jar "$(module_of "$s")") is missing (run without SKIP_BUILD=1)"
  fi
done

# The versions of the servers, for the report.
declare -A SERVER_LIBS=()
for s in "${SERVER_LIST[@]}"; do
  case $s in
    weft-engine) SERVER_LIBS[$s]=$(jar_versions "$FILES_DIR/weft/target/lib" weft-httpserver) ;;
    weft-servlet) SERVER_LIBS[$s]=$(jar_versions "$FILES_DIR/weft/target/lib" weft-servlet weft-httpserver) ;;
    netty) SERVER_LIBS[$s]=$(jar_versions "$FILES_DIR/netty/target/lib" netty-codec-http netty-transport) ;;
    tomcat) SERVER_LIBS[$s]=$(jar_versions "$FILES_DIR/tomcat/target/lib" tomcat-embed-core) ;;
    weft-webflux)
      SERVER_LIBS[$s]=$( (unzip -Z1 "$(webflux_jar)" 'BOOT-INF/lib/*' 2>/dev/null || true) |
        sed -n -E 's#^BOOT-INF/lib/((weft-spring-boot-starter|weft-httpserver|spring-webflux)-[0-9].*)\.jar$#\1#p' |
        sort | paste -sd' ' -)
      ;;
  esac
done

# ---------------------------------------------------------------------------------------------
# The file
# ---------------------------------------------------------------------------------------------
FILE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/weft-bench-files.XXXXXX")
log "writing $FILE_BYTES random bytes to $FILE_DIR/$FILE_NAME"
head -c "$FILE_BYTES" /dev/urandom >"$FILE_DIR/$FILE_NAME"
[[ $(stat -c %s "$FILE_DIR/$FILE_NAME") == "$FILE_BYTES" ]] || die "could not write $FILE_DIR/$FILE_NAME"

# ---------------------------------------------------------------------------------------------
# Server definitions (start_server in lib/common.sh calls these)
# ---------------------------------------------------------------------------------------------
server_cmd() { # server port -> fills SERVER_CMD
  local s=$1 port=$2 m
  if [[ $s == weft-webflux ]]; then
    SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" -jar "$(webflux_jar)" "--server.port=$port"
      "--spring.web.resources.static-locations=file:$FILE_DIR/")
    return 0
  fi
  m=$(module_of "$s")
  local main
  case $s in
    weft-engine) main=WeftFileServer ;;
    weft-servlet) main=WeftServletFileServer ;;
    netty) main=NettyFileServer ;;
    tomcat) main=TomcatFileServer ;;
  esac
  SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" -cp "$(files_jar "$m"):$FILES_DIR/$m/target/lib/*"
    "dev.weft.bench.files.$main" "$port" "$FILE_DIR")
}

provider_class_ok() { # server class
  case $1 in
    weft-engine) [[ $2 == dev.weft.httpserver.* ]] ;;
    weft-servlet) [[ $2 == dev.weft.servlet.ServletContainer ]] ;;
    weft-webflux) [[ $2 == dev.weft.spring.boot.* ]] ;;
    netty) [[ $2 == io.netty.channel.socket.nio.NioServerSocketChannel ]] ;;
    tomcat) [[ $2 == org.apache.catalina.startup.Tomcat ]] ;;
    *) return 1 ;;
  esac
}

# The smoke test: one GET of the file must answer 200 with all of its bytes.
server_smoke() { # port deadline
  smoke_until "$2" "200 $FILE_BYTES" -sS --max-time 60 -o /dev/null -w '%{http_code} %{size_download}' \
    "http://127.0.0.1:$1/$FILE_NAME" && return 0
  SMOKE_PROBLEM="does not answer GET /$FILE_NAME with 200 and $FILE_BYTES bytes (got status and length '$SMOKE_GOT')"
  return 1
}

wrk_cmd() { # mode duration port -> fills WRK_CMD
  WRK_CMD=(wrk "-t$WRK_THREADS" "-c$CONNECTIONS" "-d$2" --timeout 60s "http://127.0.0.1:$3/$FILE_NAME")
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
cpu_ticks() { # pid -> utime + stime of the process (all its threads), in clock ticks, or NA
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo NA
}

# wrk's "N requests in 15.00s, 12.34GB read" -> "seconds bytes" (wrk's units are binary), or "NA NA".
wrk_bytes() { # wrk output file
  awk '/ requests in .* read$/ {
      t = $4; sub(/,$/, "", t); u = t; sub(/^[0-9.]+/, "", u); secs = t; sub(/[a-z]+$/, "", secs)
      secs *= u == "us" ? 1e-6 : u == "ms" ? 1e-3 : u == "m" ? 60 : u == "h" ? 3600 : 1
      v = $5; u = v; sub(/[A-Za-z]+$/, "", v); sub(/^[0-9.]+/, "", u)
      m = u == "KB" ? 1024 : u == "MB" ? 1048576 : u == "GB" ? 1073741824 : u == "TB" ? 1099511627776 : 1
      printf "%s %.0f\n", secs, v * m; found = 1; exit }
    END { if (!found) print "NA NA" }' "$1"
}

declare -A GBPS=() CPU_PER_GB=() CORES=() # server -> space separated values
FILE_LINES=()

# Starts SERVER, warms it up, measures one wrk run with the server's CPU time around it, stops it.
bench_files_one() { # server round
  local s=$1 round=$2 t0 t1 secs bytes gbps cpugb cores out
  start_server "$s" "$round"
  if [[ $WARMUP != 0 ]]; then
    wrk_cmd download "$WARMUP" "$SERVER_PORT"
    printf '+ %s   # warm-up\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
    run_wrk "$LOG_DIR/wrk-$s-download-r$round-warmup.txt" "${WRK_CMD[@]}" || warn "$s warm-up: wrk exited with $?"
  fi
  t0=$(cpu_ticks "$SERVER_PID")
  WARMUP=0 measure "$s" download "$round" "$SERVER_PORT" # req/s, errors and the raw line (lib/common.sh)
  t1=$(cpu_ticks "$SERVER_PID")
  out="$LOG_DIR/wrk-$s-download-r$round.txt"
  read -r secs bytes < <(wrk_bytes "$out")
  read -r gbps cpugb cores < <(awk -v s="$secs" -v b="$bytes" -v t0="$t0" -v t1="$t1" -v hz="$CLK_TCK" 'BEGIN {
    if (s !~ /^[0-9.]+$/ || b !~ /^[0-9]+$/ || s + 0 == 0 || b + 0 == 0) { print "NA NA NA"; exit }
    gb = b / 1e9; printf "%.3f ", gb / s
    if (t0 !~ /^[0-9]+$/ || t1 !~ /^[0-9]+$/) { print "NA NA"; exit }
    cpu = (t1 - t0) / hz; printf "%.3f %.2f\n", cpu / gb, cpu / s }')
  if [[ $(awk '{ print $5 }' <<<"${RAW_LINES[-1]}") == NA ]]; then
    gbps=NA cpugb=NA cores=NA # measure() found no figure or a dead server
  fi
  GBPS[$s]+="$gbps "
  CPU_PER_GB[$s]+="$cpugb "
  CORES[$s]+="$cores "
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi
  FILE_LINES+=("$(printf '%-5s %-13s %8s %14s %10s %12s %8s %s' "$round" "$s" "$secs" "$bytes" "$gbps" "$cpugb" "$cores" "$mark")")
  log "$s round $round: $gbps GB/s, $cpugb CPU s/GB, $cores cores"
  server_cmd "$s" PORT
  SERVER_CMDS[$s]="$(quote_cmd "${SERVER_CMD[@]}")"
  wrk_cmd download "$DURATION" PORT
  WRK_CMDS[download]="$(quote_cmd "${WRK_CMD[@]}")"
  stop_server
}

START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "servers: ${SERVER_LIST[*]}; rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP; connections: $CONNECTIONS;" \
  "wrk threads: $WRK_THREADS; file: $FILE_BYTES bytes"
rotating_rounds bench_files_one

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MED_GBPS=() MED_CPU=() MED_CORES=()
for s in "${SERVER_LIST[@]}"; do
  read -r -a vals <<<"${GBPS[$s]:-}"
  MED_GBPS[$s]=$(median_dp 3 "${vals[@]}")
  read -r -a vals <<<"${CPU_PER_GB[$s]:-}"
  MED_CPU[$s]=$(median_dp 3 "${vals[@]}")
  MED_CORES[$s]=$(median_of "${CORES[$s]:-}")
done
for s in netty tomcat; do
  if has_server "$s"; then
    peer_figure "$s" download "$(awk -v g="${MED_GBPS[$s]}" 'BEGIN { if (g ~ /^[0-9.]+$/) printf "%.0f\n", g * 1000; else print "NA" }')" \
      MB/s "$(marked_01 "$s")"
  fi
done
BASELINE_SETTINGS="ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS FILE_SIZE=$FILE_SIZE"
check_baselines

report() {
  local s other
  report_disturbed
  echo "Large static file benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  cpu_placement
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; duration: $DURATION; warm-up: $WARMUP; connections:" \
    "$CONNECTIONS; wrk threads: $WRK_THREADS; file: $FILE_BYTES bytes of random data, GET /$FILE_NAME over keep-alive"
  echo
  printf '%-14s %10s %12s %12s %12s\n' server "GB/s" "CPU s/GB" "server CPU" "files/s"
  printf '%-14s %10s %12s %12s %12s\n' -------------- ---------- ------------ ------------ ------------
  for s in "${SERVER_LIST[@]}"; do
    printf '%-14s %10s %12s %12s %12s\n' "$s$(mark_of "$s")" "${MED_GBPS[$s]}" "${MED_CPU[$s]}" \
      "${MED_CORES[$s]}" "$(median_of "${SAMPLES["$s download"]:-}")"
  done
  echo "(medians over $ROUNDS round(s); GB = 10^9 bytes read by wrk; CPU s/GB: the server's CPU time (user + system,"
  echo " all threads) per GB; server CPU: cores busy on average; files/s: wrk's requests/s)"
  mark_legend
  echo
  printf '%-22s %12s %12s\n' ratio "throughput" "CPU per GB"
  printf '%-22s %12s %12s\n' ---------------------- ------------ ------------
  for s in weft-engine weft-servlet weft-webflux; do
    has_server "$s" || continue
    for other in netty tomcat; do
      has_server "$other" || continue
      printf '%-22s %12s %12s\n' "$s/$other" "$(ratio "${MED_GBPS[$s]}" "${MED_GBPS[$other]}")" \
        "$(ratio "${MED_CPU[$s]}" "${MED_CPU[$other]}")"
    done
  done
  echo "(throughput > 1.00: Weft sent more bytes per second; CPU per GB < 1.00: Weft spent less CPU per byte)"
  echo
  report_baselines
  echo
  for s in "${SERVER_LIST[@]}"; do echo "$s: ${SERVER_LIBS[$s]:-?}"; done
  report_commands "${SERVER_LIST[@]}"
  echo
  report_quiet
}

raw_results() {
  echo "Raw results:"
  printf '%-5s %-13s %8s %14s %10s %12s %8s %s\n' round server seconds bytes "GB/s" "CPU s/GB" cores mark
  printf '%s\n' "${FILE_LINES[@]}"
  echo
  printf '%-5s %-7s %-10s %-6s %14s %8s %-4s %s\n' round server mode port "req/s" non2xx mark socket_errors
  printf '%s\n' "${RAW_LINES[@]}"
  echo
  echo "wrk outputs and server logs: $LOG_DIR"
}
write_results raw_results

exit_if_disturbed
