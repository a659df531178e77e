#!/usr/bin/env bash
#
# Jakarta WebSocket and STOMP benchmark: Weft against Tomcat 11 and Jetty 12.1 in one run, all three driven by the
# same Go client (bench/ws-load, built on github.com/gorilla/websocket) against 127.0.0.1, 1,000 connections by
# default. Two parts, each on a fresh server per run:
#
#   echo  : the same Jakarta WebSocket endpoint (bench/ws-jakarta/common: @ServerEndpoint("/echo"), every text
#           message sent back with session.getBasicRemote().sendText) in three plain Java mains, no Spring:
#             weft   : bench/ws-jakarta/weft   WeftServerContainer (weft-websocket-jakarta) on a Weft engine HttpServer
#             tomcat : bench/ws-jakarta/tomcat embedded Tomcat 11 (tomcat-embed-websocket, WsSci; its default servlet)
#             jetty  : bench/ws-jakarta/jetty  embedded Jetty 12.1 ee11 (jetty-ee11-websocket-jakarta-server)
#           each `java $JVM_OPTS -cp <module jar>:<module>/target/lib/* <main> PORT`, binding 127.0.0.1 with a listen
#           backlog of 1024, otherwise each server's defaults. Load:
#             ws-load echo -url ws://127.0.0.1:PORT/echo -c CONNECTIONS -size MESSAGE_SIZE -window WINDOW
#                          -warmup WARMUP -d DURATION -pid SERVER_PID
#           CONNECTIONS connections, each a closed loop (send a text message, wait for its echo; WINDOW messages in
#           flight per connection); messages/s = echoes received in the measured window, latency = round trip.
#   stomp : the same Spring MVC app with @EnableWebSocketMessageBroker (bench/stomp/src: STOMP over WebSocket at
#           /stomp, no SockJS; Spring's simple broker on /topic; a @MessageMapping("/broadcast") controller that
#           @SendTo("/topic/broadcast") every message it gets) in three Spring Boot 4.1.1 builds, like bench/mvc:
#             weft   : spring-boot-starter-websocket without Tomcat, plus weft-spring-boot-starter (Weft's servlet
#                      factory) and weft-websocket-jakarta, whose ServletContainerInitializer installs the Jakarta
#                      container (the starter's auto-configuration runs it, as Boot does for Tomcat's)
#             tomcat : spring-boot-starter-websocket as it comes (Tomcat 11)
#             jetty  : spring-boot-starter-websocket without Tomcat, plus spring-boot-starter-jetty (Jetty 12.1 ee11)
#           (spring-boot-websocket, the one Boot 4.1.1 artifact the repository lacks, comes from 4.1.2), each
#           `java $JVM_OPTS -jar bench/stomp/<server>/target/app.jar --server.port=PORT`. Load:
#             ws-load stomp -url ws://127.0.0.1:PORT/stomp -c CONNECTIONS -size MESSAGE_SIZE -rate STOMP_RATE
#                           -window STOMP_WINDOW -warmup WARMUP -d DURATION -pid SERVER_PID
#           CONNECTIONS subscribers CONNECT and SUBSCRIBE to /topic/broadcast; one more connection SENDs timestamped
#           messages to /app/broadcast: with STOMP_RATE=0 a closed loop (at most STOMP_WINDOW messages not yet
#           delivered to every subscriber), else STOMP_RATE messages/s. messages/s = messages delivered to all
#           subscribers together in the measured window; latency = from the SEND (or, with a rate, from the time it
#           was due) to its arrival at a subscriber. Every subscriber must get every message once (in any order:
#           Spring's simple broker does not keep the order unless the app asks it to).
#
# Both report p50, p99, p99.9 and max latency and the server's CPU time per message (from /proc, over the measured
# window). The report gives the medians over the rounds and the ratios Weft/Tomcat (target: >= 1.3 in messages/s)
# and Weft/Jetty, in messages/s and in p99 (the other server's p99 over Weft's: > 1 = Weft lower).
#
# Build (skipped with SKIP_BUILD=1): ws-load with Go; the Weft modules the Weft variants need
# (mvn -pl websocket-jakarta[,spring-boot-starter] -am install -DskipTests, into the local Maven repository: the bench
# modules are not in the root reactor); bench/ws-jakarta (mvn package) and bench/stomp/<server> (mvn package).
#
# Knobs (environment variables):
#   SERVERS         servers to run, each round in a rotating order (default "weft tomcat jetty")
#   PARTS           "echo stomp" (default), "echo" or "stomp"
#   ROUNDS          rounds; each runs every server in every part once, on a fresh server (default 3)
#   CONNECTIONS     echo connections; STOMP subscribers (the publisher is one more) (default 1000)
#   MESSAGE_SIZE    bytes per echo message and per STOMP message body (default 256; 48-65536)
#   WINDOW          echo: messages in flight per connection (default 1: strictly one at a time)
#   STOMP_RATE      STOMP messages the publisher sends per second; 0 = closed loop (default 0)
#   STOMP_WINDOW    STOMP closed loop: messages sent but not yet delivered to every subscriber (default 4)
#   WARMUP          seconds of load before the measured window, on the same connections (default 10)
#   DURATION        seconds measured (default 10)
#   JVM_OPTS        JVM flags, identical for every server (default "-Xms512m -Xmx512m -XX:+UseParallelGC")
#   BENCH_JDK       use this JDK (>= 21) instead of searching /usr/lib/jvm and JAVA_HOME
#   STARTUP_TIMEOUT seconds to wait for a server to become ready (default 60)
#   SKIP_BUILD      1 = use the existing ws-load, bench/ws-jakarta and bench/stomp builds (default 0)
#   MVN_FLAGS       extra flags for every Maven command, e.g. "-Dmaven.repo.local=/tmp/m2" (default none)
#   SERVER_CPUS, LOAD_CPUS  CPU lists (taskset -c) for the server and ws-load (default: not pinned; see lib/common.sh)
#   QUIET_WAIT      seconds to wait for a quiet machine before each server start (default 60; 0 = no wait)
#   QUIET_LOAD      1-minute load average counted as quiet before the first start (default 0.5)
#   QUIET_BUSY      % of the CPUs busy counted as quiet before later starts (default 10)
#   PEER_DROP       a peer's (tomcat's, jetty's) messages/s below PEER_DROP x its baseline makes the run not
#                   comparable (default 0.7)
#   ACCEPT_DISTURBED 1 = exit 0 even then (default 0: exit status 3 after the report)
#   UPDATE_BASELINES 1 = write this run's peer medians into the baselines file (default 0)
#   BASELINES_FILE  the peers' baselines (default bench/baselines.tsv)
#
# Quiet machine and baselines (lib/common.sh): before each server start the script waits up to QUIET_WAIT seconds
# for a quiet machine (the first start: a 1-minute load average <= QUIET_LOAD; later ones: CPUs busy <= QUIET_BUSY %
# in a one-second sample, since the load average still counts the script's own previous run); a start that finds
# none is marked "!" in the tables and listed at the end of the report, which shows the load average (1, 5, 15 min)
# and CPU use before every start. The peers' (tomcat's and jetty's, never Weft's) median messages/s of each part is
# compared with their rows in bench/baselines.tsv: below PEER_DROP x its baseline, a "NOT COMPARABLE" box opens the
# report and, after the report is written, the script exits with status 3 (unless ACCEPT_DISTURBED=1; a failed
# run's status 1 comes first).
#
# A run fails (and is left out of the medians) when its server does not pass the smoke test (one echo over one
# connection; one STOMP subscriber receiving a broadcast) -- later rounds of that server and part are then skipped
# --, when ws-load exits non-zero or is killed (every run is bounded by `timeout`), reports any error (a failed
# handshake, a missing, late, wrong or duplicated message, a close handshake that did not complete), or when the
# server died. The script prints ws-load's output and the end of the server log of every failed run, writes the
# report anyway, and exits with status 1.
#
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="$BENCH_DIR/target"
LOG_DIR="$TARGET_DIR/logs-ws-jakarta"
RESULTS_FILE="$TARGET_DIR/results-ws-jakarta.txt"
ECHO_DIR="$BENCH_DIR/ws-jakarta"
STOMP_DIR="$BENCH_DIR/stomp"
WS_LOAD="$TARGET_DIR/ws-load"

SERVERS="${SERVERS:-weft tomcat jetty}"
PARTS="${PARTS:-echo stomp}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-1000}"
MESSAGE_SIZE="${MESSAGE_SIZE:-256}"
WINDOW="${WINDOW:-1}"
STOMP_RATE="${STOMP_RATE:-0}"
STOMP_WINDOW="${STOMP_WINDOW:-4}"
WARMUP="${WARMUP:-10}"
DURATION="${DURATION:-10}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-60}"
SKIP_BUILD="${SKIP_BUILD:-0}"
MVN_FLAGS="${MVN_FLAGS:-}"

LOAD_TOOL=ws-load

# Shared functions: logging, server lifecycle and the EXIT trap, JDK search, median/ratio, report_failure, the
# quiet-machine guard and the baselines.
# shellcheck source=lib/common.sh
source "$BENCH_DIR/lib/common.sh"
# build_ws_load, kv, load_problem, med, range.
# shellcheck source=lib/ws-load.sh
source "$BENCH_DIR/lib/ws-load.sh"

# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------
WARMUP=${WARMUP%s}
DURATION=${DURATION%s}
check_positive_ints ROUNDS CONNECTIONS MESSAGE_SIZE WINDOW STOMP_WINDOW DURATION STARTUP_TIMEOUT
check_cpu_lists
check_quiet_knobs
[[ $WARMUP =~ ^(0|[1-9][0-9]*)$ ]] || die "WARMUP must be a number of seconds (got '$WARMUP')"
[[ $STOMP_RATE =~ ^(0|[1-9][0-9]*)$ ]] || die "STOMP_RATE must be 0 or messages per second (got '$STOMP_RATE')"
[[ $SKIP_BUILD == 0 || $SKIP_BUILD == 1 ]] || die "SKIP_BUILD must be 0 or 1 (got '$SKIP_BUILD')"
((CONNECTIONS <= 20000)) || die "CONNECTIONS must be <= 20000"
((MESSAGE_SIZE >= 48 && MESSAGE_SIZE <= 65536)) || die "MESSAGE_SIZE must be 48-65536"
((WINDOW <= 1024 && STOMP_WINDOW <= 1024)) || die "WINDOW and STOMP_WINDOW must be <= 1024"

parse_server_list weft tomcat jetty
read -r -a PART_LIST <<<"$PARTS"
((${#PART_LIST[@]} > 0)) || die "PARTS is empty"
for p in "${PART_LIST[@]}"; do
  [[ $p == echo || $p == stomp ]] || die "unknown part '$p' (known: echo stomp)"
done
has_part() { [[ " ${PART_LIST[*]} " == *" $1 "* ]]; }
MODES=()
for p in echo stomp; do has_part "$p" && MODES+=("$p"); done

read -r -a JVM_FLAGS <<<"$JVM_OPTS"
read -r -a MVN_EXTRA <<<"$MVN_FLAGS"

install_cleanup_traps

ensure_tool timeout coreutils

JDK="$(find_jdk)"
JAVA="$JDK/bin/java"
log "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1))"

# CONNECTIONS sockets in ws-load and in the server (each a process of its own), plus the JVM's own files.
raise_open_files $((CONNECTIONS + 1024)) "$CONNECTIONS connections"

rm -rf "$LOG_DIR" # logs of the previous run
mkdir -p "$LOG_DIR"

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
echo_main() { # server -> the main class of its echo server
  case $1 in
    weft) echo dev.weft.bench.wsjakarta.WeftJakartaEchoServer ;;
    tomcat) echo dev.weft.bench.wsjakarta.TomcatJakartaEchoServer ;;
    jetty) echo dev.weft.bench.wsjakarta.JettyJakartaEchoServer ;;
  esac
}
echo_jar() { echo "$ECHO_DIR/$1/target/weft-bench-ws-jakarta-$1.jar"; }
stomp_jar() { echo "$STOMP_DIR/$1/target/app.jar"; }

maven_env "$JDK"
mvn_run() { run "${MVN_ENV[@]}" mvn -B -q "${MVN_EXTRA[@]}" "$@" >&2; }

WS_LOAD_VERSION="(not rebuilt: SKIP_BUILD=1)"
if [[ $SKIP_BUILD == 1 ]]; then
  log "SKIP_BUILD=1: using the existing builds"
else
  build_ws_load

  if has_server weft; then
    weft_modules=websocket-jakarta
    has_part stomp && weft_modules+=,spring-boot-starter
    log "installing the Weft modules $weft_modules (and what they need) into the local Maven repository"
    mvn_run -f "$REPO_DIR/pom.xml" -pl "$weft_modules" -am -DskipTests install ||
      die "could not build and install $weft_modules (see above)"
  fi
  if has_part echo; then
    log "building bench/ws-jakarta (the echo servers)"
    mvn_run -f "$ECHO_DIR/pom.xml" -DskipTests clean package || die "could not build bench/ws-jakarta (see above)"
  fi
  if has_part stomp; then
    for s in "${SERVER_LIST[@]}"; do
      log "building bench/stomp/$s"
      mvn_run -f "$STOMP_DIR/$s/pom.xml" -DskipTests clean package || die "could not build bench/stomp/$s (see above)"
    done
  fi
fi
[[ -x $WS_LOAD ]] || die "$WS_LOAD is missing (run without SKIP_BUILD=1)"
for s in "${SERVER_LIST[@]}"; do
  if has_part echo; then
    [[ -s $(echo_jar "$s") && -d $ECHO_DIR/$s/target/lib ]] || die "$(echo_jar "$s") is missing (run without SKIP_BUILD=1)"
  fi
  if has_part stomp; then
    [[ -s $(stomp_jar "$s") ]] || die "$(stomp_jar "$s") is missing (run without SKIP_BUILD=1)"
  fi
done

# The versions of the servers, for the report (from the jars the echo servers and the STOMP apps carry).
lib_version() { # listing-of-jar-names name -> the version of the first jar named <name>-<version>.jar, or ?
  awk -v n="$2" 'index($0, n "-") == 1 && substr($0, length(n) + 2, 1) ~ /[0-9]/ && $0 ~ /\.jar$/ {
      v = substr($0, length(n) + 2); sub(/\.jar$/, "", v); print v; found = 1; exit }
    END { if (!found) print "?" }' <<<"$1"
}
declare -A VERSIONS=()
for s in "${SERVER_LIST[@]}"; do
  libs=""
  has_part echo && libs+=$(ls "$ECHO_DIR/$s/target/lib" 2>/dev/null)$'\n'
  if has_part stomp && command -v unzip >/dev/null 2>&1; then
    libs+=$(unzip -Z1 "$(stomp_jar "$s")" 'BOOT-INF/lib/*' 2>/dev/null | sed 's|^BOOT-INF/lib/||')$'\n'
  fi
  case $s in
    weft) VERSIONS[$s]="weft-websocket-jakarta $(lib_version "$libs" weft-websocket-jakarta)" ;;
    tomcat) VERSIONS[$s]="Tomcat $(lib_version "$libs" tomcat-embed-core) (tomcat-embed-websocket)" ;;
    jetty) VERSIONS[$s]="Jetty $(lib_version "$libs" jetty-server) (jetty-ee11-websocket-jakarta-server)" ;;
  esac
  if has_part stomp; then
    VERSIONS[$s]+="; STOMP app: Spring Boot $(lib_version "$libs" spring-boot), spring-websocket $(lib_version "$libs" spring-websocket)"
  fi
done

# ---------------------------------------------------------------------------------------------
# Server definitions (start_server in lib/common.sh calls server_cmd, provider_class_ok, server_smoke)
# ---------------------------------------------------------------------------------------------
PART="" # the part whose server start_server starts (echo or stomp)

server_cmd() { # server port -> fills SERVER_CMD
  local s=$1 port=$2
  case $PART in
    echo) SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" -cp "$(echo_jar "$s"):$ECHO_DIR/$s/target/lib/*" "$(echo_main "$s")" "$port") ;;
    stomp) SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" -jar "$(stomp_jar "$s")" "--server.port=$port") ;;
  esac
}

provider_class_ok() { # server class (the first word of the ready line)
  case "$PART $1" in
    "echo weft" | "stomp weft") [[ $2 == dev.weft.* ]] ;;
    "echo tomcat") [[ $2 == org.apache.catalina.startup.Tomcat ]] ;;
    "echo jetty") [[ $2 == org.eclipse.jetty.server.Server ]] ;;
    "stomp tomcat") [[ $2 == org.springframework.boot.tomcat.TomcatWebServer ]] ;;
    "stomp jetty") [[ $2 == org.springframework.boot.jetty.servlet.JettyServletWebServer ]] ;;
    *) return 1 ;;
  esac
}

# The smoke test: one echo over one connection, or one STOMP subscriber that receives broadcasts. A server that
# fails it is not measured, but the run goes on: server_smoke records the problem in SMOKE_FAILED and lets
# start_server return (start_server would end the whole script), and bench_part reports the run as failed.
SMOKE_FAILED=""
server_smoke() { # port deadline
  local port=$1 deadline=$2 out="$LOG_DIR/smoke-$PART-$1.txt" cmd
  while :; do
    case $PART in
      echo) cmd=("$WS_LOAD" echo -url "ws://127.0.0.1:$port/echo" -c 1 -size "$MESSAGE_SIZE" -warmup 0 -d 200ms -timeout 3s) ;;
      stomp) cmd=("$WS_LOAD" stomp -url "ws://127.0.0.1:$port/stomp" -c 1 -size "$MESSAGE_SIZE" -warmup 0 -d 200ms
        -timeout 3s -settle 5s) ;;
    esac
    if "${cmd[@]}" >"$out" 2>&1 </dev/null; then
      SMOKE_FAILED=""
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || break
    ((SECONDS < deadline)) || break
    grep -q 'bad handshake (HTTP status' "$out" 2>/dev/null && break # the server answered, and said no
    sleep 0.5
  done
  SMOKE_FAILED="smoke test failed: $(quote_cmd "${cmd[@]}"): $(grep -m 1 '^error=' "$out" 2>/dev/null || tail -n 1 "$out")"
  local cause
  cause=$(first_exception "$SERVER_LOG")
  [[ -z $cause ]] || SMOKE_FAILED+="; server log: $cause"
  return 0
}

# The first exception message in a server log (Spring logs the cause chain; the innermost "Caused by" says most).
first_exception() { # log
  grep -E '^(Caused by: )?[a-zA-Z_.$]+(Exception|Error)(: |$)' "$1" 2>/dev/null | tail -n 1 | cut -c1-300 || true
}

# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------
load_cmd() { # part port pid -> fills LOAD_CMD
  case $1 in
    echo) LOAD_CMD=("$WS_LOAD" echo -url "ws://127.0.0.1:$2/echo" -c "$CONNECTIONS" -size "$MESSAGE_SIZE" -window "$WINDOW"
      -warmup "${WARMUP}s" -d "${DURATION}s" -pid "$3") ;;
    stomp) LOAD_CMD=("$WS_LOAD" stomp -url "ws://127.0.0.1:$2/stomp" -c "$CONNECTIONS" -size "$MESSAGE_SIZE"
      -rate "$STOMP_RATE" -window "$STOMP_WINDOW" -warmup "${WARMUP}s" -d "${DURATION}s" -pid "$3") ;;
  esac
}

declare -A RATE=() P50=() P99=() P999=() PMAX=() SERVER_US=() ROUND_RATE=() LOAD_CMDS=() CONTAINERS=() BROKEN=()
RUN_LINES=()
bench_part() { # server part round
  local server=$1 part=$2 round=$3 key="$1 $2" out problem="" rate=FAILED line
  out="$LOG_DIR/ws-load-$server-$part-r$round.txt"
  if [[ -n ${BROKEN[$key]:-} ]]; then
    log "$server $part round $round: skipped (${BROKEN[$key]})"
    RUN_LINES+=("$(printf '%-5s %-7s %-6s %-6s %12s %10s %10s %10s %10s %10s %6s %-4s %s' "$round" "$server" "$part" - \
      skipped - - - - - - "" "${BROKEN[$key]}")")
    ROUND_RATE["$round $key"]=FAILED
    return 0
  fi
  PART=$part
  start_server "$server" "$round" "$server-$part"
  server_cmd "$server" PORT
  SERVER_CMDS["$key"]="$(quote_cmd "${SERVER_CMD[@]}")"
  load_cmd "$part" PORT SERVER_PID
  LOAD_CMDS[$part]="$(quote_cmd "${LOAD_CMD[@]}")"
  line=$(grep -m 1 '^ready ' "$SERVER_LOG" 2>/dev/null) || line=""
  [[ $part == echo ]] && CONTAINERS[$server]=$(awk '{ print $4 }' <<<"$line")

  if [[ -n $SMOKE_FAILED ]]; then
    problem=$SMOKE_FAILED
    BROKEN[$key]="failed its smoke test in round $round"
    cp "$LOG_DIR/smoke-$part-$SERVER_PORT.txt" "$out" 2>/dev/null || : >"$out"
    report_failure "$server $part round $round" "$out" "$problem"
  else
    load_cmd "$part" "$SERVER_PORT" "$SERVER_PID"
    # Dialing and closing CONNECTIONS connections (and the STOMP settle phase) come on top of WARMUP + DURATION.
    measure_ws_load "$out" "$((WARMUP + DURATION + 180))" "$key" "$server $part round $round"
    rate=$WS_RATE problem=$WS_PROBLEM
    if [[ -z $problem ]]; then
      RATE[$key]+="$rate "
      PMAX[$key]+="$(kv "$out" latency_us_max) "
    fi
  fi
  ROUND_RATE["$round $key"]=$rate
  local mark=""
  if ((RUN_MARK)); then mark="!"; fi # its server start saw a busy machine (quiet_wait)
  RUN_LINES+=("$(printf '%-5s %-7s %-6s %-6s %12s %10s %10s %10s %10s %10s %6s %-4s %s' "$round" "$server" "$part" \
    "$SERVER_PORT" "$rate" "$(kv "$out" latency_us_p50)" "$(kv "$out" latency_us_p99)" "$(kv "$out" latency_us_p999)" \
    "$(kv "$out" latency_us_max)" "$(kv "$out" server_cpu_us_per_msg)" "$(kv "$out" other_cpu_pct)" "$mark" \
    "${problem:-ok}")")
  log "$server $part round $round: $rate messages/s"
  stop_server
}

# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------
START_DATE=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
count=${#SERVER_LIST[@]}
for ((round = 1; round <= ROUNDS; round++)); do
  # The first server moves by one each round (weft tomcat jetty, tomcat jetty weft, ...), so none always runs first.
  for part in "${MODES[@]}"; do
    for ((k = 0; k < count; k++)); do
      server=${SERVER_LIST[$(((round - 1 + k) % count))]}
      log "=== round $round/$ROUNDS: $server $part ==="
      [[ -n ${BROKEN["$server $part"]:-} ]] || quiet_wait "round $round: $server $part" "$server $part"
      bench_part "$server" "$part" "$round"
    done
  done
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
whole() { awk '/^[0-9.]+$/ { printf "%.0f", $1; next } { printf "%s", $1 }' <<<"$1"; }

register_rate_peers
BASELINE_SETTINGS="ROUNDS=$ROUNDS CONNECTIONS=$CONNECTIONS MESSAGE_SIZE=$MESSAGE_SIZE WINDOW=$WINDOW STOMP_RATE=$STOMP_RATE STOMP_WINDOW=$STOMP_WINDOW WARMUP=$WARMUP DURATION=$DURATION"
check_baselines

ratio_line() { # part peer target
  local part=$1 peer=$2 target=$3 a="weft $1" b="$2 $1" r=n/a per_round=n/a p99=n/a cpu=n/a verdict="" rr ratios=()
  if has_server weft && has_server "$peer"; then
    r=$(ratio "$(med "${RATE[$a]:-}")" "$(med "${RATE[$b]:-}")")
    for ((rr = 1; rr <= ROUNDS; rr++)); do
      ratios+=("$(ratio "${ROUND_RATE["$rr $a"]:-NA}" "${ROUND_RATE["$rr $b"]:-NA}")")
    done
    per_round=$(median "${ratios[@]}")
    [[ $per_round == NA ]] && per_round=n/a
    p99=$(ratio "$(med "${P99[$b]:-}")" "$(med "${P99[$a]:-}")")
    cpu=$(ratio "$(med "${SERVER_US[$b]:-}")" "$(med "${SERVER_US[$a]:-}")")
  fi
  if [[ $target != - && $r != n/a ]]; then
    verdict=$(awk -v r="$r" -v t="$target" 'BEGIN { print (r + 0 >= t + 0) ? "met" : "NOT met" }')
  fi
  printf '%-24s %8s %10s %9s %11s   %s\n' "Weft / ${peer^} ($part)" "$r" "$per_round" "$p99" "$cpu" \
    "$(if [[ $target != - ]]; then echo ">= $target $verdict"; else echo -; fi)"
}

report() {
  local s part key vals
  report_disturbed
  echo "Jakarta WebSocket and STOMP benchmark ($START_DATE)"
  echo "JDK: $JDK ($("$JAVA" -version 2>&1 | head -n 1)); JVM_OPTS: $JVM_OPTS"
  cpu_placement
  for s in "${SERVER_LIST[@]}"; do
    echo "$s: ${VERSIONS[$s]}${CONTAINERS[$s]:+; echo ServerContainer: ${CONTAINERS[$s]}}"
  done
  echo "ws-load: $WS_LOAD_VERSION"
  echo "CPUs: $(nproc 2>/dev/null || echo '?'); load average at the start of the report: $(cut -d' ' -f1-3 /proc/loadavg)"
  for part in "${MODES[@]}"; do
    echo
    if [[ $part == echo ]]; then
      echo "Jakarta echo: $CONNECTIONS connections, $MESSAGE_SIZE-byte text messages, $WINDOW in flight per connection," \
        "${WARMUP}s warm-up + ${DURATION}s measured, $ROUNDS round(s)"
    else
      echo "STOMP broadcast: $CONNECTIONS subscribers of /topic/broadcast, one publisher" \
        "($(if ((STOMP_RATE > 0)); then echo "$STOMP_RATE messages/s"; else echo "closed loop, $STOMP_WINDOW in flight"; fi)," \
        "$MESSAGE_SIZE-byte bodies), ${WARMUP}s warm-up + ${DURATION}s measured, $ROUNDS round(s)"
    fi
    printf '%-9s %24s %10s %10s %10s %10s %11s  %s\n' server "median msg/s (range)" "p50 us" "p99 us" "p999 us" "max us" \
      "server us" "good runs"
    printf '%-9s %24s %10s %10s %10s %10s %11s  %s\n' --------- ------------------------ ---------- ---------- ---------- \
      ---------- ----------- ---------
    for s in "${SERVER_LIST[@]}"; do
      key="$s $part"
      read -r -a vals <<<"${RATE[$key]:-}"
      printf '%-9s %24s %10s %10s %10s %10s %11s  %s\n' "$s$(mark_of "$key")" \
        "$(whole "$(med "${RATE[$key]:-}")") ($(range "${RATE[$key]:-}"))" "$(med "${P50[$key]:-}")" \
        "$(med "${P99[$key]:-}")" "$(med "${P999[$key]:-}")" "$(med "${PMAX[$key]:-}")" "$(med "${SERVER_US[$key]:-}")" \
        "${#vals[@]}/$ROUNDS"
    done
  done
  echo "(medians over the good runs; msg/s: echoes received, or STOMP messages delivered to all subscribers together,"
  echo " per second of the measured window; latency: echo round trip, or STOMP delivery from the SEND; server us: CPU"
  echo " time, user + system, of the server process in the measured window per message)"
  echo
  printf '%-24s %8s %10s %9s %11s   %s\n' ratio msg/s per-round p99 "server CPU" target
  printf '%-24s %8s %10s %9s %11s   %s\n' ------------------------ -------- ---------- --------- ----------- ------
  for part in "${MODES[@]}"; do
    has_server tomcat && ratio_line "$part" tomcat 1.3
    has_server jetty && ratio_line "$part" jetty -
  done
  echo "(msg/s: ratio of the medians, the figure the target applies to; per-round: median of the ratios within each"
  echo " round; p99: the other server's median p99 over Weft's; server CPU: messages per CPU-second of the server, the"
  echo " other's us/msg over Weft's; > 1.00 = Weft better)"
  mark_legend
  echo
  report_baselines
  echo
  report_failures_and_commands
  echo "  every ws-load run is wrapped in: timeout -k 5 $((WARMUP + DURATION + 180))"
  echo
  report_quiet
  return 0
}

{
  report
  echo
  echo "Raw results:"
  printf '%-5s %-7s %-6s %-6s %12s %10s %10s %10s %10s %10s %6s %-4s %s\n' round server part port "msg/s" p50_us p99_us \
    p999_us max_us server_us other% mark status
  printf '%s\n' "${RUN_LINES[@]}"
  echo "other%: CPU used by all other processes in the measured window, in % of one core (0-200 on 2 cores)"
  echo
  if ((${#FAILURE_DETAILS[@]} > 0)); then
    echo "Failed runs in detail:"
    printf '%s\n\n' "${FAILURE_DETAILS[@]}"
  fi
  echo "ws-load outputs and server logs: $LOG_DIR"
} >"$RESULTS_FILE"

finish_ws_run 'JakartaEchoServer|bench/stomp/[a-z]*/target/app.jar'
