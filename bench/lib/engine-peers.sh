# The engine peers of bench/engine: small programs of our own, one per server, each serving GET /plaintext and
# GET /api/report (weft: the JDK HttpServer API on this tree's engine jar; helidon: Helidon SE 4.5 WebServer;
# netty: Netty 4.2, NIO; vertx: Vert.x 5), each built from its own pom into target/classes and target/lib.
#
# Source it after lib/common.sh; set SKIP_BUILD (0 or 1) and, for weft, WEFT_JAR (lib/weft-jar.sh) before calling.
# shellcheck shell=bash

ENGINE_DIR="$BENCH_DIR/engine"
declare -A ENGINE_MAIN=([weft]=WeftServer [helidon]=HelidonServer [netty]=NettyServer [vertx]=VertxServer)
# shellcheck disable=SC2034 # read by the harnesses
declare -A ENGINE_LIBS=() # server -> what the report says about its libraries

is_engine_peer() { [[ -n ${ENGINE_MAIN[$1]:-} ]]; }

engine_cp() { echo "$ENGINE_DIR/$1/target/classes:$ENGINE_DIR/$1/target/lib/*"; }

# Unless SKIP_BUILD=1, builds the server's program with Maven on JDK (maven_env must have filled MVN_ENV); checks
# that its classes and libraries are there and records their versions in ENGINE_LIBS.
build_engine_peer() { # server
  local s=$1 dir="$ENGINE_DIR/$1"
  if [[ $SKIP_BUILD == 0 ]]; then
    log "building the engine peer $s"
    run "${MVN_ENV[@]}" mvn -B -q -f "$dir/pom.xml" -DskipTests clean package >&2 ||
      die "could not build $dir (see above)"
  fi
  [[ -d $dir/target/classes && -d $dir/target/lib ]] ||
    die "$dir/target/{classes,lib} are missing (build them, or run without SKIP_BUILD=1)"
  case $s in
    weft) ENGINE_LIBS[$s]="$WEFT_JAR $(jar_versions "$dir/target/lib" jackson-databind)" ;;
    helidon) ENGINE_LIBS[$s]=$(jar_versions "$dir/target/lib" helidon-webserver helidon-webserver-http2 jackson-databind) ;;
    netty) ENGINE_LIBS[$s]=$(jar_versions "$dir/target/lib" netty-codec-http netty-codec-http2 netty-transport jackson-databind) ;;
    vertx) ENGINE_LIBS[$s]=$(jar_versions "$dir/target/lib" vertx-core netty-codec-http jackson-databind) ;;
  esac
}

engine_peer_cmd() { # server port -> fills SERVER_CMD (with $JAVA and the array JVM_FLAGS)
  local server=$1 port=$2 cp
  cp=$(engine_cp "$server")
  [[ $server == weft ]] && cp="$WEFT_JAR:$cp"
  # shellcheck disable=SC2034 # read by start_server (lib/common.sh)
  SERVER_CMD=("$JAVA" "${JVM_FLAGS[@]}" -cp "$cp" "dev.weft.bench.engine.${ENGINE_MAIN[$server]}" "$port")
}

# Succeeds if the class of the program's ready line is the implementation the name stands for.
engine_peer_class_ok() { # server class
  local server=$1 cls=$2
  case $server in
    weft) if [[ -n $WEFT_PROVIDER_CLASS ]]; then [[ $cls == "$WEFT_PROVIDER_CLASS" ]]; else [[ $cls == dev.weft.* ]]; fi ;;
    helidon) [[ $cls == io.helidon.webserver.* ]] ;;
    netty) [[ $cls == io.netty.channel.socket.nio.NioServerSocketChannel ]] ;;
    vertx) [[ $cls == io.vertx.core.http.* ]] ;;
    *) return 1 ;;
  esac
}
