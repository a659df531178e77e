# Sourced by ./run-tests and ./run-demo: makes Maven itself run on a JDK >= 21 found in /usr/lib/jvm, when
# the default `java` is older. The toolchains plugin already gives compiler, tests and spring-boot:run that
# JDK; Maven's own JVM matters for the jar plugin, which rewrites the engine's module-info.class with the
# `jar` tool of the JVM it runs in (a JDK 17 `jar` cannot read a Java 21 class file).
java_major() { # java_home -> major version, or 0
  local v
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)
  echo "${v:-0}"
}
current_home=${JAVA_HOME:-}
if [ -z "$current_home" ] && command -v java >/dev/null 2>&1; then
  current_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
fi
if [ "$(java_major "$current_home")" -lt 21 ]; then
  best=""
  best_v=0
  for d in /usr/lib/jvm/*; do
    [ -x "$d/bin/javac" ] || continue
    v=$(java_major "$d")
    if [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then best=$d; best_v=$v; fi
  done
  if [ -n "$best" ]; then
    export JAVA_HOME=$best
  else
    echo "no JDK >= 21 found in /usr/lib/jvm" >&2
    exit 1
  fi
fi
