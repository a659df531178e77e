#!/usr/bin/env bash
#
# Latency under saturation: Weft against peer servers, each driven by wrk with a fixed number of
# connections (one request in flight per connection, as fast as the server answers), reporting the
# latency distribution (p50, p99, p99.9, max), the number of requests slower than 1 s, errors and
# timeouts as well as requests per second. A server that keeps its throughput by letting some
# connections starve shows up here, where a req/s benchmark hides it.
#
# Suites (SUITES), each comparing the same work on several servers:
#   engine  : bench/engine, small programs of our own, one per server, with GET /plaintext and
#             GET /api/report (a CPU-bound JSON report, about 1.3 ms of CPU, identical code in every
#             server): weft (the JDK HttpServer API on this tree's engine jar, no executor), helidon
#             (Helidon SE 4.5 WebServer), netty (Netty 4.2, NIO, handler on the event loop), vertx
#             (Vert.x 5 core HttpServer, one verticle per CPU, handler on the event loop).
#   mvc     : the Spring MVC "clinic" app (MVC_APP_DIR, default bench/clinic; its variants weft, tomcat,
#             jetty build into <dir>/<server>/target/app.jar), on /api/report, /owners?lastName=Da and
#             /css/clinic.css, each server in each THREAD_MODE: "default" passes
#             --spring.threads.virtual.enabled=false (Boot's default, stated so that the app's own
#             properties cannot change it), "virtual" passes --spring.threads.virtual.enabled=true. Weft, like
#             Tomcat and Jetty, runs handlers on platform threads in the first mode and on virtual threads in
#             the second.
#   webflux : the Spring WebFlux app of bench/spring (weft and netty variants, built as run-spring.sh
#             does), on /api/report.
#
# Per suite, round and server (the first server moves by one each round; each round starts every
# server afresh):
#   1. wait for the machine to be quiet (quiet_wait, lib/common.sh): up to QUIET_WAIT seconds for a
#      1-minute load average <= QUIET_LOAD (first start) or CPUs busy <= QUIET_BUSY % (later starts); if
#      it does not come, warn loudly and mark the run
#      ("!") in the report, which lists the marked runs at its end;
#   2. start the server (java $JVM_OPTS ...), wait for its "ready <class> <port>" line, check the class,
#      check that every endpoint answers 200 (one that does not is reported as failed and skipped;
#      the script then exits with status 1 after its report);
#   3. JIT warm-up: wrk on every endpoint for JIT_WARMUP with WARMUP_CONNECTIONS connections;
#   4. for every endpoint (after checking that it answers 200) and every concurrency in CONCURRENCY:
#      a WARMUP run, then the measured run
#        wrk -t$WRK_THREADS -c$C -d$DURATION --timeout 30s --latency -s bench/latency.lua URL
#      (--timeout 30s: slow requests are measured, not dropped as timeouts; latency.lua prints req/s,
#      the percentiles, max, the requests over 1 s, errors and timeouts);
#   5. stop the server.
#
# Report (stdout and bench/target/results-latency.txt): per suite, endpoint and concurrency, one row
# per server (and thread mode) with req/s, p50, p99 and p99.9 (medians over the rounds), max (the
# maximum), requests over 1 s, errors and timeouts (sums over the rounds); then Weft against each peer:
# p99 ratio (Weft p99 / peer p99; < 1 is better), req/s ratio (Weft / peer; > 1 is better) and a
# verdict: "yes" when Weft's p99 <= the peer's, its req/s >= the peer's, and Weft had no request over
# 1 s unless the peer had some too. Also the exact commands, JDK, CPU placement, load average and
# CPU use before each server start, and the raw figures of every run. Every peer's req/s median (each
# suite, server, thread mode, endpoint and concurrency; never Weft's) is compared with its rows in
# bench/baselines.tsv (from its first documented run on a quiet machine, docs/benchmarks.md): one below
# PEER_DROP x its baseline puts a "NOT COMPARABLE" box at the top of the report and, after the report is
# written, makes the script exit with status 3 (unless ACCEPT_DISTURBED=1; a failed run's status 1
# comes first). UPDATE_BASELINES=1 writes them.
#
# Knobs (environment variables):
#   SUITES            suites to run, in this order             (default "engine mvc webflux")
#   ROUNDS            rounds; each runs every server once       (default 3)
#   CONCURRENCY       wrk connections of the measured runs      (default "8 32 256")
#   WRK_THREADS       wrk threads                               (default 2)
#   DURATION          each measured run                         (default 10s)
#   WARMUP            wrk run before each measured run          (default 2s; 0 = none)
#   JIT_WARMUP        wrk on each endpoint after start-up       (default 15s; 0 = none)
#   WARMUP_CONNECTIONS connections of the JIT warm-up           (default 32)
#   THREAD_MODES      thread modes of the mvc suite             (default "default virtual")
#   ENGINE_SERVERS    (default "weft helidon netty vertx")      ENGINE_ENDPOINTS  (default "/api/report /plaintext")
#   MVC_SERVERS       (default "weft tomcat jetty")             MVC_ENDPOINTS     (default "/api/report /owners?lastName=Da /css/clinic.css")
#   WEBFLUX_SERVERS   (default "weft netty")                    WEBFLUX_ENDPOINTS (default "/api/report")
#   MVC_APP_DIR       the mvc suite's app, relative to the repository root or absolute (default bench/clinic;
#                     MVC_APP_DIR=bench/mvc MVC_ENDPOINTS="/json /plaintext" runs the older bench/mvc app)
#   JVM_OPTS          JVM flags, identical for every server     (default "-Xms1g -Xmx1g -XX:+UseG1GC")
#   QUIET_WAIT        seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD        1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY        % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP         a peer below PEER_DROP x its baseline makes the run not comparable (default 0.7)
#   ACCEPT_DISTURBED  1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES  1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE    the peers' baselines                      (default bench/baselines.tsv)
#   STARTUP_TIMEOUT   seconds to wait for a server to be ready  (default 60)
#   SKIP_BUILD        1 = build nothing, use the existing jars and classes (default 0)
#   WEFT_INSTALL      0 = webflux suite: do not install the Weft starter into ~/.m2 first (default 1)
#   WEFT_JAR          engine suite: this Weft engine jar instead of building httpserver-engine
#   BENCH_JDK         use this JDK (>= 21) instead of the newest one under /usr/lib/jvm
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) of the server and wrk (default: not pinned; see lib/common.sh)
#
# The default JVM_OPTS name the collector: with SERVER_CPUS=1 the JVM would otherwise pick the Serial
# collector (one CPU is not a "server-class machine"), and G1 is what the servers run with by default.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
LOG_DIR="$TARGET_DIR/logs-latency"
RESULTS_FILE="$TARGET_DIR/results-latency.txt"
LATENCY_LUA="$BENCH_DIR/latency.lua"
SPRING_DIR="$BENCH_DIR/spring"
WRK_TIMEOUT=30s # always: a slow request is measured, not dropped

KNOBS=(SUITES ROUNDS CONCURRENCY WRK_THREADS DURATION WARMUP JIT_WARMUP WARMUP_CONNECTIONS THREAD_MODES
  ENGINE_SERVERS MVC_SERVERS WEBFLUX_SERVERS ENGINE_ENDPOINTS MVC_ENDPOINTS WEBFLUX_ENDPOINTS MVC_APP_DIR
  JVM_OPTS QUIET_WAIT QUIET_LOAD QUIET_BUSY PEER_DROP ACCEPT_DISTURBED UPDATE_BASELINES BASELINES_FILE STARTUP_TIMEOUT SKIP_BUILD WEFT_INSTALL WEFT_JAR BENCH_JDK SERVER_CPUS LOAD_CPUS)
COMMAND_LINE="" # the knobs given in the environment and the script, for the report
for knob in "${KNOBS[@]}"; do
  if [[ -n ${!knob+x} ]]; then COMMAND_LINE+="$knob=$(printf '%q' "${!knob}") "; fi
done
COMMAND_LINE+="bench/run-latency.sh"

SUITES="${SUITES:-engine mvc webflux}"
ROUNDS="${ROUNDS:-3}"
CONCURRENCY="${CONCURRENCY:-8 32 256}"
WRK_THREADS="${WRK_THREADS:-2}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-2s}"
JIT_WARMUP="${JIT_WARMUP:-15s}"
WARMUP_CONNECTIONS="${WARMUP_CONNECTIONS:-32}"
THREAD_MODES="${THREAD_MODES:-default virtual}"
ENGINE_SERVERS="${ENGINE_SERVERS:-weft helidon netty vertx}"
MVC_SERVERS="${MVC_SERVERS:-weft tomcat jetty}"
WEBFLUX_SERVERS="${WEBFLUX_SERVERS:-weft netty}"
ENGINE_ENDPOINTS="${ENGINE_ENDPOINTS:-/api/report /plaintext}"
MVC_ENDPOINTS="${MVC_ENDPOINTS:-/api/report /owners?lastName=Da /css/clinic.css}"
WEBFLUX_ENDPOINTS="${WEBFLUX_ENDPOINTS:-/api/report}"
MVC_APP_DIR="${MVC_APP_DIR:-bench/clinic}"
JVM_OPTS="${JVM_OPTS:--Xms1g -Xmx1g -XX:+UseG1GC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-60}"
SKIP_BUILD="${SKIP_BUILD:-0}"
WEFT_INSTALL="${WEFT_INSTALL:-1}"

# Shared functions: logging, lifecycle and the EXIT trap, JDK search, tools, median, ratio, the quiet-machine
# gate (QUIET_WAIT, QUIET_LOAD, QUIET_BUSY) and the peer baselines (PEER_DROP, ACCEPT_DISTURBED, UPDATE_BASELINES).
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# prepare_weft_jar, WEFT_JAR, WEFT_DEFAULT_JAR, WEFT_PROVIDER_CLASS.
# shellcheck source=lib/weft-jar.sh
source "$BENCH_DIR/lib/weft-jar.sh"
# The engine suite's programs: ENGINE_DIR, build_engine_peer, engine_peer_cmd, engine_peer_class_ok.
# shellcheck source=lib/engine-peers.sh
source "$BENCH_DIR/lib/engine-peers.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
check_positive_ints ROUNDS WRK_THREADS WARMUP_CONNECTIONS STARTUP_TIMEOUT
check_cpu_lists
[[ $DURATION =~ ^[1-9][0-9]*[smh]?$ ]] || die "DURATION must look like 10s, 1m, ... (got '$DURATION')"
[[ $WARMUP =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "WARMUP must be 0 or look like 2s (got '$WARMUP')"
[[ $JIT_WARMUP =~ ^(0|[1-9][0-9]*[smh]?)$ ]] || die "JIT_WARMUP must be 0 or look like 15s (got '$JIT_WARMUP')"
check_quiet_knobs
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"
[[ $WEFT_INSTALL == 0 || $WEFT_INSTALL == 1 ]] || die "WEFT_INSTALL must be 0 or 1 (got '$WEFT_INSTALL')"
(( WRK_THREADS <= WARMUP_CONNECTIONS )) || die "WRK_THREADS must not exceed WARMUP_CONNECTIONS"

read -r -a CONCURRENCY_LIST <<<"$CONCURRENCY"
(( ${#CONCURRENCY_LIST[@]} > 0 )) || die "CONCURRENCY is empty"
MAX_CONNECTIONS=$WARMUP_CONNECTIONS
for c in "${CONCURRENCY_LIST[@]}"; do
  [[ $c =~ ^[1-9][0-9]*$ ]] || die "CONCURRENCY must list positive integers (got '$c')"
  (( WRK_THREADS <= c )) || die "WRK_THREADS ($WRK_THREADS) must not exceed any CONCURRENCY value (got $c)"
  if ((c > MAX_CONNECTIONS)); then MAX_CONNECTIONS=$c; fi
done
(( $(ulimit -n) > MAX_CONNECTIONS + 100 )) ||
  die "the open-files limit ($(ulimit -n)) is too low for $MAX_CONNECTIONS connections (ulimit -n)"

read -r -a SUITE_LIST <<<"$SUITES"
(( ${#SUITE_LIST[@]} > 0 )) || die "SUITES is empty"
for s in "${SUITE_LIST[@]}"; do
  case $s in engine | mvc | webflux) ;; *) die "unknown suite '$s' (known: engine mvc webflux)" ;; esac
done
has_suite() { [[ " ${SUITE_LIST[*]} " == *" $1 "* ]]; }

read -r -a MODE_LIST <<<"$THREAD_MODES"
(( ${#MODE_LIST[@]} > 0 )) || die "THREAD_MODES is empty"
for m in "${MODE_LIST[@]}"; do
  [[ $m == default || $m == virtual ]] || die "unknown thread mode '$m' (known: default virtual)"
done

# Fills ENGINE_LIST, MVC_LIST and WEBFLUX_LIST (parse_server_list checks names and duplicates).
SERVERS=$ENGINE_SERVERS
parse_server_list weft helidon netty vertx
ENGINE_LIST=("${SERVER_LIST[@]}")
SERVERS=$MVC_SERVERS
parse_server_list weft tomcat jetty
MVC_LIST=("${SERVER_LIST[@]}")
SERVERS=$WEBFLUX_SERVERS
parse_server_list weft netty
WEBFLUX_LIST=("${SERVER_LIST[@]}")
SERVER_LIST=()

for var in ENGINE_ENDPOINTS MVC_ENDPOINTS WEBFLUX_ENDPOINTS; do
  read -r -a eps <<<"${!var}"
  (( ${#eps[@]} > 0 )) || die "$var is empty"
  for ep in "${eps[@]}"; do
    [[ $ep =~ ^/[A-Za-z0-9._~/?=\&%+-]*$ ]] || die "$var: '$ep' is not a path such as /api/report?size=10"
  done
done

[[ $MVC_APP_DIR == /* ]] || MVC_APP_DIR="$REPO_DIR/$MVC_APP_DIR"
MVC_APP_DIR="${MVC_APP_DIR%/}"
# Checked before anything is built, so that a run does not fail after the other suites' builds.
if has_suite mvc && [[ ! -d $MVC_APP_DIR ]]; then
  die "the mvc suite's app is not here: $MVC_APP_DIR does not exist. The Spring MVC clinic" \
    "app (bench/clinic) is built on branch bench-apps; until it is on this branch, run the other suites" \
    "(SUITES=\"engine webflux\"), or point the suite at another app with the same layout" \
    "(MVC_APP_DIR=bench/mvc MVC_ENDPOINTS=\"/json /plaintext\")"
fi

read -r -a JVM_FLAGS <<<"$JVM_OPTS"

install_cleanup_traps

ensure_tool wrk wrk
ensure_tool curl curl

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$LOG_DIR"

maven_env "$JDK"

# ---------------------------------------------------------------------------------------------
# The suites' servers, endpoints and thread modes
# ---------------------------------------------------------------------------------------------
suite_servers() { # suite -> fills RUN_SERVERS
  case $1 in
    engine) RUN_SERVERS=("${ENGINE_LIST[@]}") ;;
    mvc) RUN_SERVERS=("${MVC_LIST[@]}") ;;
    webflux) RUN_SERVERS=("${WEBFLUX_LIST[@]}") ;;
  esac
}
suite_endpoints() { # suite -> fills RUN_ENDPOINTS
  case $1 in
    engine) read -r -a RUN_ENDPOINTS <<<"$ENGINE_ENDPOINTS" ;;
    mvc) read -r -a RUN_ENDPOINTS <<<"$MVC_ENDPOINTS" ;;
    webflux) read -r -a RUN_ENDPOINTS <<<"$WEBFLUX_ENDPOINTS" ;;
  esac
}
# Every server of a suite, in each thread mode: "name" ("-" mode) or "name/mode" for the mvc suite.
suite_rows() { # suite -> fills RUN_ROWS
  local s m
  suite_servers "$1"
  RUN_ROWS=()
  for s in "${RUN_SERVERS[@]}"; do
    if [[ $1 == mvc ]]; then
      for m in "${MODE_LIST[@]}"; do RUN_ROWS+=("$s/$m"); done
    else
      RUN_ROWS+=("$s")
    fi
  done
}

CUR_SUITE=""
CUR_MODE=""

app_jar() { # server -> the Spring Boot jar of the current suite (boot_server_cmd, collect_boot_jar_libs)
  case $CUR_SUITE in
    mvc) echo "$MVC_APP_DIR/$1/target/app.jar" ;;
    webflux) echo "$SPRING_DIR/$1/target/app.jar" ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
declare -A LIBS=() # "suite server" -> what the report says about the server's libraries

if has_suite engine; then
  if [[ " ${ENGINE_LIST[*]} " == *" weft "* ]]; then
    if [[ $SKIP_BUILD == 1 && -z ${WEFT_JAR:-} ]]; then WEFT_JAR=$WEFT_DEFAULT_JAR; fi
    prepare_weft_jar
  fi
  for s in "${ENGINE_LIST[@]}"; do
    build_engine_peer "$s"
    LIBS["engine $s"]=${ENGINE_LIBS[$s]}
  done
fi

if has_suite mvc; then
  CUR_SUITE=mvc
  mvc_rel=${MVC_APP_DIR#"$REPO_DIR"/}
  if [[ $SKIP_BUILD == 0 ]]; then
    for s in "${MVC_LIST[@]}"; do
      log "building the $s variant of $mvc_rel"
      if [[ $s == weft ]]; then
        # In the root reactor's bench profile, so the app packages the Weft modules of this working tree.
        run "${MVN_ENV[@]}" mvn -B -q -f "$REPO_DIR/pom.xml" -Pbench -pl "$mvc_rel/weft" -am \
          -Dmaven.test.skip=true clean package >&2 ||
          die "could not build $MVC_APP_DIR/weft (is $mvc_rel/weft a module of the root pom's bench profile? see above)"
      else
        run "${MVN_ENV[@]}" mvn -B -q -f "$MVC_APP_DIR/$s/pom.xml" -DskipTests clean package >&2 ||
          die "could not build $MVC_APP_DIR/$s (see above)"
      fi
    done
  fi
  for s in "${MVC_LIST[@]}"; do
    [[ -s $(app_jar "$s") ]] || die "the mvc suite needs $(app_jar "$s"), which is missing" \
      "(build it, run without SKIP_BUILD=1, or leave mvc out of SUITES)"
  done
  collect_boot_jar_libs '^(weft-|tomcat-embed-core-|jetty-server-|jetty-ee[0-9]*-servlet-[0-9]|spring-boot-[0-9]|spring-webmvc-)' \
    tomcat tomcat-embed-core- "${MVC_LIST[@]}"
  for s in "${MVC_LIST[@]}"; do LIBS["mvc $s"]=${SERVER_LIBS[$s]:-}; done
fi

if has_suite webflux; then
  CUR_SUITE=webflux
  if [[ $SKIP_BUILD == 0 ]]; then
    if [[ " ${WEBFLUX_LIST[*]} " == *" weft "* && $WEFT_INSTALL == 1 ]]; then
      log "installing weft-spring-boot-starter (and what it needs) into ~/.m2, as run-spring.sh does"
      (cd "$REPO_DIR" && run "${MVN_ENV[@]}" mvn -B -q -DskipTests install -pl spring-boot-starter -am >&2) ||
        die "could not install the Weft starter (mvn -DskipTests install -pl spring-boot-starter -am failed; see above)"
    fi
    for s in "${WEBFLUX_LIST[@]}"; do
      log "building the $s variant of bench/spring"
      run "${MVN_ENV[@]}" mvn -B -q -f "$SPRING_DIR/$s/pom.xml" -DskipTests clean package >&2 ||
        die "could not build $SPRING_DIR/$s (see above)"
    done
  fi
  collect_boot_jar_libs '^(weft-|reactor-netty-http-|netty-codec-http-[0-9]|spring-boot-[0-9]|spring-webflux-)' \
    netty reactor-netty-http- "${WEBFLUX_LIST[@]}"
  for s in "${WEBFLUX_LIST[@]}"; do LIBS["webflux $s"]=${SERVER_LIBS[$s]:-}; done
fi

# ---------------------------------------------------------------------------------------------
# Server definitions (start_server in lib/common.sh calls server_cmd, provider_class_ok, server_smoke)
# ---------------------------------------------------------------------------------------------
server_cmd() { # server port -> fills SERVER_CMD for CUR_SUITE and CUR_MODE
  local server=$1 port=$2
  case $CUR_SUITE in
    engine) engine_peer_cmd "$server" "$port" ;;
    mvc)
      boot_server_cmd "$server" "$port"
      if [[ $CUR_MODE == virtual ]]; then
        SERVER_CMD+=(--spring.threads.virtual.enabled=true)
      else
        SERVER_CMD+=(--spring.threads.virtual.enabled=false)
      fi
      ;;
    webflux) boot_server_cmd "$server" "$port" ;;
  esac
}

# Succeeds if the class of the server's ready line is the implementation the name stands for.
provider_class_ok() {
  local server=$1 cls=$2
  case "$CUR_SUITE $server" in
    "engine "*) engine_peer_class_ok "$server" "$cls" ;;
    "mvc weft" | "webflux weft") [[ $cls == dev.weft.* ]] ;;
    "mvc tomcat") [[ $cls == org.springframework.boot.tomcat.TomcatWebServer ]] ;;
    "mvc jetty") [[ $cls == org.springframework.boot.jetty.servlet.JettyServletWebServer ]] ;;
    "webflux netty") [[ $cls == org.springframework.boot.reactor.netty.NettyWebServer ]] ;;
    *) return 1 ;;
  esac
}

# The smoke test of start_server: the server answers HTTP on the suite's first endpoint (any status:
# bench_row then checks every endpoint for 200, and skips and reports one that fails, rather than
# stopping the whole run here).
SMOKE_PATH=/
server_smoke() { # port deadline
  local port=$1 deadline=$2 code=""
  while ((SECONDS < deadline)); do
    code=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$port$SMOKE_PATH" 2>/dev/null) || code=""
    [[ $code =~ ^[1-5][0-9][0-9]$ ]] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.2
  done
  SMOKE_PROBLEM="does not answer GET $SMOKE_PATH (curl status '${code:-none}')"
  return 1
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
declare -A RPS=() P50=() P99=() P999=() MAXLAT=() OVER=() ERRS=() TMOS=() MARK=() NRUNS=()
declare -A SERVER_CMDS_BY_ROW=()
RAW_LINES=()

latency_wrk_cmd() { # connections duration url -> fills WRK_CMD
  WRK_CMD=(wrk "-t$WRK_THREADS" "-c$1" "-d$2" --timeout "$WRK_TIMEOUT" --latency -s "$LATENCY_LUA" "$3")
}
slug() { printf '%s' "$1" | tr -c 'A-Za-z0-9.-' '_'; }
kv() { # file key -> the value of key=... on the LATENCY line, or NA
  awk -v k="$2" '/^LATENCY / { for (i = 2; i <= NF; i++) { split($i, f, "="); if (f[1] == k) { print f[2]; found = 1 } } }
    END { if (!found) print "NA" }' "$1"
}
add() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA") print "NA"; else print a + b }'; }

# One measured run (after its warm-up) of ROW on ENDPOINT with C connections; records the figures.
measure_latency() { # row endpoint connections round
  local row=$1 ep=$2 c=$3 round=$4 key="$CUR_SUITE|$1|$2|$3" url out base load
  url="http://127.0.0.1:$SERVER_PORT$ep"
  base="$LOG_DIR/wrk-$CUR_SUITE-$(slug "$row")-$(slug "$ep")-c$c-r$round"
  out="$base.txt"
  if [[ $WARMUP != 0 ]]; then
    latency_wrk_cmd "$c" "$WARMUP" "$url"
    printf '+ %s   # warm-up\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
    run_wrk "$base-warmup.txt" "${WRK_CMD[@]}" || warn "$row $ep -c$c warm-up: wrk exited with $?"
  fi
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) || load="?"
  latency_wrk_cmd "$c" "$DURATION" "$url"
  printf '+ %s\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
  run_wrk "$out" "${WRK_CMD[@]}" || warn "$row $ep -c$c: wrk exited with $?"

  local rps p50 p99 p999 max over errs tmo
  rps=$(kv "$out" rps)
  p50=$(kv "$out" p50_us)
  p99=$(kv "$out" p99_us)
  p999=$(kv "$out" p999_us)
  max=$(kv "$out" max_us)
  over=$(kv "$out" over_1s)
  errs=$(add "$(add "$(kv "$out" errors_connect)" "$(kv "$out" errors_read)")" \
    "$(add "$(kv "$out" errors_write)" "$(kv "$out" errors_status)")")
  tmo=$(kv "$out" errors_timeout)
  if [[ $rps == NA ]]; then
    report_failure "$CUR_SUITE $row $ep -c$c round $round" "$out" "no LATENCY line in wrk's output"
  elif ! kill -0 "$SERVER_PID" 2>/dev/null; then
    report_failure "$CUR_SUITE $row $ep -c$c round $round" "$out" "the server died during the run"
    rps=NA p50=NA p99=NA p999=NA
  fi
  [[ $errs == 0 || $errs == NA ]] || warn "$row $ep -c$c round $round: $errs errors (connect/read/write/status)"
  [[ $tmo == 0 || $tmo == NA ]] || warn "$row $ep -c$c round $round: $tmo timeouts"

  RPS[$key]+="$rps "
  P50[$key]+="$p50 "
  P99[$key]+="$p99 "
  P999[$key]+="$p999 "
  MAXLAT[$key]=$(awk -v a="${MAXLAT[$key]:-NA}" -v b="$max" 'BEGIN {
    if (a == "NA") print b; else if (b == "NA") print a; else print (b + 0 > a + 0 ? b : a) }')
  OVER[$key]=$(add "${OVER[$key]:-0}" "$over")
  ERRS[$key]=$(add "${ERRS[$key]:-0}" "$errs")
  TMOS[$key]=$(add "${TMOS[$key]:-0}" "$tmo")
  NRUNS[$key]=$((${NRUNS[$key]:-0} + 1))
  local mark=""
  if ((RUN_MARK)); then
    MARK[$key]=1
    mark="!"
  fi
  RAW_LINES+=("$(printf '%-3s %-8s %-16s %-20s %5s %6s %10s %9s %9s %9s %9s %6s %6s %6s %-16s %s' "$round" "$CUR_SUITE" \
    "$row" "$ep" "$c" "$SERVER_PORT" "$rps" "$p50" "$p99" "$p999" "$max" "$over" "$errs" "$tmo" "$load" "$mark")")
  log "$CUR_SUITE $row $ep -c$c round $round: $rps req/s, p50 $p50 us, p99 $p99 us, p99.9 $p999 us, max $max us," \
    "$over over 1 s, $errs errors, $tmo timeouts"
}

# Starts ROW's server, warms it up, measures every endpoint at every concurrency, stops it.
bench_row() { # row round
  local row=$1 round=$2 server=${1%%/*} ep c code check
  CUR_MODE=""
  [[ $row == */* ]] && CUR_MODE=${row#*/}
  quiet_wait "round $round: $CUR_SUITE $row"
  suite_endpoints "$CUR_SUITE"
  SMOKE_PATH=${RUN_ENDPOINTS[0]}
  start_server "$server" "$round" "$CUR_SUITE-$(slug "$row")"
  server_cmd "$server" PORT
  SERVER_CMDS_BY_ROW["$CUR_SUITE $row"]="$(quote_cmd "${SERVER_PIN[@]}" "${SERVER_CMD[@]}")"

  # Every endpoint must answer 200 before it is warmed up and measured; one that does not is reported
  # as a failure and skipped (the run goes on, the script exits with status 1).
  local endpoints=()
  for ep in "${RUN_ENDPOINTS[@]}"; do
    check="$LOG_DIR/check-$CUR_SUITE-$(slug "$row")-$(slug "$ep")-r$round.txt"
    code=$(curl -sS -o "$check" -w '%{http_code}' --max-time 30 "http://127.0.0.1:$SERVER_PORT$ep" 2>&1) || code="curl failed: $code"
    if [[ $code == 200 ]]; then
      endpoints+=("$ep")
    else
      report_failure "$CUR_SUITE $row GET $ep round $round" "$check" "answered '$code' instead of 200; endpoint skipped"
    fi
  done
  if [[ $JIT_WARMUP != 0 ]]; then
    for ep in "${endpoints[@]}"; do
      latency_wrk_cmd "$WARMUP_CONNECTIONS" "$JIT_WARMUP" "http://127.0.0.1:$SERVER_PORT$ep"
      printf '+ %s   # JIT warm-up\n' "$(quote_cmd "${WRK_CMD[@]}")" >&2
      run_wrk "$LOG_DIR/wrk-$CUR_SUITE-$(slug "$row")-$(slug "$ep")-jit-r$round.txt" "${WRK_CMD[@]}" ||
        warn "$row JIT warm-up of $ep: wrk exited with $?"
    done
  fi
  for ep in "${endpoints[@]}"; do
    for c in "${CONCURRENCY_LIST[@]}"; do
      measure_latency "$row" "$ep" "$c" "$round"
    done
  done
  stop_server
}

START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
log "suites: ${SUITE_LIST[*]}; rounds: $ROUNDS; concurrency: ${CONCURRENCY_LIST[*]}; duration: $DURATION;" \
  "warm-up: $WARMUP; JIT warm-up: $JIT_WARMUP x $WARMUP_CONNECTIONS connections per endpoint; wrk threads: $WRK_THREADS"

for suite in "${SUITE_LIST[@]}"; do
  CUR_SUITE=$suite
  suite_rows "$suite"
  count=${#RUN_ROWS[@]}
  for ((round = 1; round <= ROUNDS; round++)); do
    # The first server moves by one each round, so no server always runs first or last.
    for ((k = 0; k < count; k++)); do
      row=${RUN_ROWS[$(((round - 1 + k) % count))]}
      log "=== $suite, round $round/$ROUNDS: $row ==="
      bench_row "$row" "$round"
    done
  done
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
med() { local vals; read -r -a vals <<<"$1"; median "${vals[@]}"; }
ms() { awk -v u="$1" 'BEGIN { if (u !~ /^[0-9.]+$/) print "NA"; else printf "%.2f\n", u / 1000 }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

# The verdict of Weft (w) against a peer (p): keys of the two rows.
verdict() { # weft-key peer-key
  local w=$1 p=$2 wp99 pp99 wr pr wo po reasons=()
  wp99=$(med "${P99[$w]:-}") pp99=$(med "${P99[$p]:-}")
  wr=$(med "${RPS[$w]:-}") pr=$(med "${RPS[$p]:-}")
  wo=${OVER[$w]:-NA} po=${OVER[$p]:-NA}
  if [[ $wp99 == NA || $pp99 == NA || $wr == NA || $pr == NA || $wo == NA || $po == NA ]]; then
    echo "n/a (missing figures)"
    return
  fi
  le "$wp99" "$pp99" || reasons+=("p99 higher")
  ge "$wr" "$pr" || reasons+=("fewer req/s")
  if ((wo > 0 && po == 0)); then reasons+=("requests over 1 s (peer: none)"); fi
  local out
  if ((${#reasons[@]} == 0)); then
    out="yes"
  else
    out="no: $(printf '%s, ' "${reasons[@]}")"
    out=${out%, }
  fi
  if [[ ${ERRS[$w]:-0} != 0 || ${TMOS[$w]:-0} != 0 || ${ERRS[$p]:-0} != 0 || ${TMOS[$p]:-0} != 0 ]]; then
    out+=" (errors/timeouts: see the rows)"
  fi
  echo "$out"
}

report_table() { # suite endpoint connections
  local suite=$1 ep=$2 c=$3 row key label wkey peer mode
  suite_rows "$suite"
  echo "$suite: GET $ep, $c connections"
  printf '  %-18s %10s %9s %9s %9s %9s %6s %7s %8s\n' server "req/s" "p50 ms" "p99 ms" "p99.9 ms" "max ms" ">1s" errors timeouts
  for row in "${RUN_ROWS[@]}"; do
    key="$suite|$row|$ep|$c"
    label=$row
    [[ -n ${MARK[$key]:-} ]] && label+=" !"
    printf '  %-18s %10s %9s %9s %9s %9s %6s %7s %8s\n' "$label" "$(med "${RPS[$key]:-}")" \
      "$(ms "$(med "${P50[$key]:-}")")" "$(ms "$(med "${P99[$key]:-}")")" "$(ms "$(med "${P999[$key]:-}")")" \
      "$(ms "${MAXLAT[$key]:-NA}")" "${OVER[$key]:-NA}" "${ERRS[$key]:-NA}" "${TMOS[$key]:-NA}"
  done
  suite_servers "$suite"
  if [[ " ${RUN_SERVERS[*]} " == *" weft "* ]] && ((${#RUN_SERVERS[@]} > 1)); then
    printf '  %-18s %10s %10s  %s\n' "Weft vs" "p99 ratio" "req/s ratio" "verdict (Weft p99 <= peer, req/s >= peer, no request over 1 s where the peer had none)"
    for row in "${RUN_ROWS[@]}"; do
      [[ ${row%%/*} == weft ]] && continue
      mode=""
      [[ $row == */* ]] && mode="/${row#*/}"
      wkey="$suite|weft$mode|$ep|$c"
      peer="$suite|$row|$ep|$c"
      printf '  %-18s %10s %10s  %s\n' "$row" \
        "$(ratio "$(med "${P99[$wkey]:-}")" "$(med "${P99[$peer]:-}")")" \
        "$(ratio "$(med "${RPS[$wkey]:-}")" "$(med "${RPS[$peer]:-}")")" "$(verdict "$wkey" "$peer")"
    done
  fi
  echo
}

# Every peer's req/s median (not Weft's) against its baseline.
for suite in "${SUITE_LIST[@]}"; do
  suite_rows "$suite"
  suite_endpoints "$suite"
  for row in "${RUN_ROWS[@]}"; do
    [[ ${row%%/*} == weft ]] && continue
    for ep in "${RUN_ENDPOINTS[@]}"; do
      for c in "${CONCURRENCY_LIST[@]}"; do
        key="$suite|$row|$ep|$c"
        peer_figure "$suite/$row" "$ep c=$c" "$(med "${RPS[$key]:-}")" req/s "${MARK[$key]:-0}"
      done
    done
  done
done
BASELINE_SETTINGS="ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP JIT_WARMUP=$JIT_WARMUP WARMUP_CONNECTIONS=$WARMUP_CONNECTIONS WRK_THREADS=$WRK_THREADS JVM_OPTS=$JVM_OPTS"
check_baselines

report() {
  local suite ep c row s
  report_disturbed
  echo "Latency under saturation ($START_DATE)"
  echo "Command: $COMMAND_LINE"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"
  cpu_placement
  echo "wrk: $( (wrk -v 2>&1 || true) | head -n 1)"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); rounds: $ROUNDS; concurrency: ${CONCURRENCY_LIST[*]}; duration: $DURATION;" \
    "warm-up: $WARMUP before each run; JIT warm-up: $JIT_WARMUP per endpoint with $WARMUP_CONNECTIONS connections;" \
    "wrk threads: $WRK_THREADS; wrk --timeout $WRK_TIMEOUT"
  echo "JVM_OPTS: $JVM_OPTS"
  echo "req/s, p50, p99, p99.9: medians over the rounds; max: the largest; >1s, errors (connect/read/write/non-2xx)"
  echo "and timeouts (wrk counts a request still unanswered after $WRK_TIMEOUT at every 2 s check): sums over the rounds."
  echo "'!' after a server: at least one of its runs started on a machine that was not quiet (see the end)."
  echo "p99 ratio = Weft p99 / peer p99 (< 1: Weft's p99 is lower); req/s ratio = Weft / peer (> 1: Weft served more)."
  echo
  for suite in "${SUITE_LIST[@]}"; do
    CUR_SUITE=$suite
    echo "=== suite $suite"
    suite_servers "$suite"
    for s in "${RUN_SERVERS[@]}"; do
      echo "  $s: ${LIBS["$suite $s"]:-?}"
    done
    [[ $suite == mvc ]] && echo "  app: $MVC_APP_DIR; thread modes: ${MODE_LIST[*]}" \
      "(default = --spring.threads.virtual.enabled=false, virtual = ...=true; Weft ignores it)"
    echo
    suite_endpoints "$suite"
    for ep in "${RUN_ENDPOINTS[@]}"; do
      for c in "${CONCURRENCY_LIST[@]}"; do
        report_table "$suite" "$ep" "$c"
      done
    done
  done
  report_baselines
  echo
  if ((${#FAILURES[@]} > 0)); then
    echo "FAILED runs (details in $RESULTS_FILE):"
    printf '    %s\n' "${FAILURES[@]}"
    echo
  fi
  echo "Commands (PORT = a free port picked per run):"
  for suite in "${SUITE_LIST[@]}"; do
    suite_rows "$suite"
    for row in "${RUN_ROWS[@]}"; do
      echo "  $suite $row: ${SERVER_CMDS_BY_ROW["$suite $row"]:-(not started)}"
    done
  done
  latency_wrk_cmd N "$DURATION" "http://127.0.0.1:PORT/ENDPOINT"
  echo "  measured run (N = each value of CONCURRENCY): $(quote_cmd "${LOAD_PIN[@]}" "${WRK_CMD[@]}")"
  [[ $WARMUP == 0 ]] || echo "  before each: the same with -d$WARMUP"
  [[ $JIT_WARMUP == 0 ]] || echo "  after start-up, on each endpoint: the same with -c$WARMUP_CONNECTIONS -d$JIT_WARMUP"
  echo
  report_quiet
}

{
  report
  echo
  echo "Raw results (one line per measured run; latencies in microseconds; load = load average before the run):"
  printf '%-3s %-8s %-16s %-20s %5s %6s %10s %9s %9s %9s %9s %6s %6s %6s %-16s %s\n' r suite server endpoint conns port \
    "req/s" p50_us p99_us p999_us max_us over1s errors tmouts load mark
  printf '%s\n' "${RAW_LINES[@]}"
  if ((${#FAILURE_DETAILS[@]} > 0)); then
    echo
    echo "Failures:"
    printf '%s\n' "${FAILURE_DETAILS[@]}"
  fi
  echo
  echo "wrk outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

echo
report
echo
echo "Raw numbers: $RESULTS_FILE"

# Only this working tree's servers (other checkouts may run their own benchmarks on the same machine).
leftover="($ENGINE_DIR/[a-z]+/target/classes|$SPRING_DIR/[a-z]+/target/app\\.jar|$MVC_APP_DIR/[a-z]+/target/app\\.jar)"
if command -v pgrep >/dev/null 2>&1 && pgrep -f -- "$leftover" >/dev/null 2>&1; then
  warn "processes matching '$leftover' are still running:"
  pgrep -af -- "$leftover" >&2 || true
fi

((${#FAILURES[@]} == 0)) || exit 1

exit_if_disturbed
