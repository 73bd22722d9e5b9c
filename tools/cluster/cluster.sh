#!/usr/bin/env bash
#
# Licensed to the Apache Software Foundation (ASF) under one or more
# contributor license agreements.  See the NOTICE file distributed with
# this work for additional information regarding copyright ownership.
# The ASF licenses this file to You under the Apache License, Version 2.0
# (the "License"); you may not use this file except in compliance with
# the License.  You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# A local SeaTunnel 2.3.8 cluster of separate member processes with Lane A installed the way an
# operator installs it (unpack the plugin distribution over a stock home). Loopback only.
#
#   tools/cluster/cluster.sh home   [--home DIR]            assemble the home (builds if needed)
#   tools/cluster/cluster.sh start  [--home DIR] [--name C] [--members N] [--base-port P]
#                                   [--managed FILE]        start N members, wait for the cluster
#   tools/cluster/cluster.sh stop   [--home DIR] [--name C] stop them (TERM, then KILL after 30 s)
#   tools/cluster/cluster.sh restart I [--home DIR] [--name C] [--members N] [--base-port P]
#                                   start member I again (after it stopped or was killed) with its
#                                   config, wait until it is back in the cluster
#   tools/cluster/cluster.sh kill I [--home DIR] [--name C]  kill -9 member I
#   tools/cluster/cluster.sh status [--home DIR] [--name C]
#   tools/cluster/cluster.sh submit JOB.conf [--base-port P]  submit through REST, print the job id
#   tools/cluster/cluster.sh job ID [--base-port P]          REST job-info (status and metrics)
#
# --managed FILE: a YAML fragment indented for seatunnel.engine (see config/seatunnel.yaml) that
# becomes each member's managed-source section; default: Lane A for ManagedFake in the job named
# managed-cluster-demo. Each member gets its own config in HOME/clusters/C/mI/ (seatunnel.yaml,
# hazelcast.yaml, member.log, pid): edit a member's seatunnel.yaml to flip its kill switch. Logs
# survive: a member's previous log becomes member.log.1, .2, ... when it starts again, and a new
# start moves the previous cluster's logs to HOME/clusters/C.logs/<time>/.
# Environment: MEMBER_XMX (512m), MEMBER_JAVA_OPTS (more JVM options for every member, e.g. a
# flight recording), START_TIMEOUT / STOP_TIMEOUT seconds (90 / 30),
# MAX_NO_HEARTBEAT_SECONDS (10) and HEARTBEAT_INTERVAL_SECONDS (1): how soon a killed member is
# declared dead (Hazelcast's defaults are 60 and 5), REBUILD=1 (rebuild the home), MVN_OFFLINE=-o
# (offline build).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
ST_VERSION=2.3.8
CMD="${1:-}"
[ $# -gt 0 ] && shift
HOME_DIR="$REPO/tools/cluster/target/home"
NAME=managed-local
MEMBERS=2
BASE_PORT=5901
MANAGED=""
ARG=""
while [ $# -gt 0 ]; do
  case "$1" in
    --home) HOME_DIR="$2"; shift 2 ;;
    --name) NAME="$2"; shift 2 ;;
    --members) MEMBERS="$2"; shift 2 ;;
    --base-port) BASE_PORT="$2"; shift 2 ;;
    --managed) MANAGED="$2"; shift 2 ;;
    *) ARG="$1"; shift ;;
  esac
done
CLUSTER_DIR="$HOME_DIR/clusters/$NAME"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JVM_FLAGS=(--add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.management/sun.management=ALL-UNNAMED
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED)

die() { echo "cluster.sh: $*" >&2; exit 1; }

assemble_home() {
  local stock="$REPO/tools/cluster/target/seatunnel-$ST_VERSION"
  local dist
  dist="$(ls "$REPO"/seatunnel-managed-dist/target/seatunnel-managed-source-*.tar.gz 2>/dev/null | head -1 || true)"
  if [ ! -d "$stock/lib" ] || [ -z "$dist" ] || [ "${REBUILD:-0}" = 1 ]; then
    (cd "$REPO" && ./mvnw -q -B -ntp ${MVN_OFFLINE:-} package -pl tools/cluster -am -DskipTests \
      -Dspotless.check.skip=true)
    dist="$(ls "$REPO"/seatunnel-managed-dist/target/seatunnel-managed-source-*.tar.gz | head -1)"
  fi
  rm -rf "$HOME_DIR.tmp" && mkdir -p "$HOME_DIR.tmp/config"
  # 1. A stock home: the engine's jars from Maven Central, two stock sinks (Console, LocalFile) and
  # the stock Kafka and Iceberg connectors, with their lines of the stock plugin-mapping.properties.
  cp -r "$stock/lib" "$stock/connectors" "$HOME_DIR.tmp/"
  printf '%s\n' 'seatunnel.sink.Console = connector-console' \
    'seatunnel.sink.LocalFile = connector-file-local' \
    'seatunnel.source.Kafka = connector-kafka' 'seatunnel.sink.Kafka = connector-kafka' \
    'seatunnel.source.Iceberg = connector-iceberg' \
    > "$HOME_DIR.tmp/connectors/plugin-mapping.properties"
  cat > "$HOME_DIR.tmp/config/log4j2.properties" <<'EOF'
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = out
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1} - %m%n
logger.hz.name = com.hazelcast
logger.hz.level = WARN
logger.members.name = com.hazelcast.internal.cluster.ClusterService
logger.members.level = INFO
EOF
  # 2. The operator's install steps (docs/en/install.md), verbatim.
  tar -xzf "$dist" --strip-components=1 -C "$HOME_DIR.tmp"
  grep '^seatunnel\.' "$HOME_DIR.tmp/connectors/plugin-mapping-managed.properties" \
    >> "$HOME_DIR.tmp/connectors/plugin-mapping.properties"
  rm -rf "$HOME_DIR" && mv "$HOME_DIR.tmp" "$HOME_DIR"
  echo "SeaTunnel $ST_VERSION home with Lane A: $HOME_DIR"
}

member_port() { echo $((BASE_PORT + $1 - 1)); }

write_member_config() {
  local i="$1" dir="$CLUSTER_DIR/m$1" port
  port="$(member_port "$i")"
  mkdir -p "$dir"
  {
    echo "hazelcast:"
    echo "  cluster-name: $NAME"
    echo "  network:"
    echo "    rest-api:"
    echo "      enabled: true"
    echo "      endpoint-groups:"
    echo "        CLUSTER_READ: { enabled: true }"
    echo "        CLUSTER_WRITE: { enabled: true }"
    echo "        DATA: { enabled: true }"
    echo "    interfaces: { enabled: true, interfaces: [ 127.0.0.1 ] }"
    echo "    join:"
    echo "      multicast: { enabled: false }"
    echo "      auto-detection: { enabled: false }"
    echo "      tcp-ip:"
    echo "        enabled: true"
    echo "        member-list:"
    for j in $(seq 1 "$MEMBERS"); do echo "          - 127.0.0.1:$(member_port "$j")"; done
    echo "    port: { auto-increment: false, port: $port }"
    echo "  properties:"
    echo "    hazelcast.socket.bind.any: false"
    echo "    hazelcast.phone.home.enabled: false"
    echo "    hazelcast.wait.seconds.before.join: 1"
    echo "    hazelcast.logging.type: log4j2"
    echo "    hazelcast.operation.generic.thread.count: 16"
    echo "    hazelcast.invocation.max.retry.count: 20"
    # A killed member is declared dead after 10 s without heartbeats (Hazelcast's default: 60 s).
    echo "    hazelcast.heartbeat.interval.seconds: ${HEARTBEAT_INTERVAL_SECONDS:-1}"
    echo "    hazelcast.max.no.heartbeat.seconds: ${MAX_NO_HEARTBEAT_SECONDS:-10}"
  } > "$dir/hazelcast.yaml"
  {
    echo "seatunnel:"
    echo "  engine:"
    echo "    backup-count: 1"
    echo "    queue-type: blockingqueue"
    echo "    classloader-cache-mode: true"
    echo "    print-execution-info-interval: 60"
    echo "    print-job-metrics-info-interval: 60"
    echo "    slot-service: { dynamic-slot: true }"
    echo "    checkpoint:"
    echo "      interval: 2000"
    echo "      timeout: 30000"
    echo "      storage:"
    echo "        type: localfile"
    echo "        max-retained: 3"
    echo "        plugin-config:"
    echo "          namespace: $CLUSTER_DIR/checkpoints/"
    echo "    telemetry:"
    echo "      metric:"
    echo "        enabled: true"
    if [ -n "$MANAGED" ]; then
      cat "$MANAGED"
    else
      echo "    managed-source:"
      echo "      enabled: true"
      echo "      allowed-jobs: [ managed-cluster-demo ]"
      echo "      allowed-connectors: [ ManagedFake ]"
    fi
  } > "$dir/seatunnel.yaml"
}

start_member() {
  local i="$1" dir="$CLUSTER_DIR/m$1"
  # Keep the log of a previous start of this member.
  if [ -f "$dir/member.log" ]; then
    local n=1
    while [ -f "$dir/member.log.$n" ]; do n=$((n + 1)); done
    mv "$dir/member.log" "$dir/member.log.$n"
  fi
  # The member's working directory is its own folder; $! is the JVM itself (nohup execs it).
  cd "$dir"
  SEATUNNEL_HOME="$HOME_DIR" nohup "$JAVA" -Xms128m -Xmx${MEMBER_XMX:-512m} \
    "${JVM_FLAGS[@]}" ${MEMBER_JAVA_OPTS:-} -DSEATUNNEL_HOME="$HOME_DIR" -Dseatunnel.home="$HOME_DIR" \
    -Dseatunnel.config="$dir/seatunnel.yaml" -Dhazelcast.config="$dir/hazelcast.yaml" \
    -Dlog4j2.configurationFile="$HOME_DIR/config/log4j2.properties" \
    -cp "$HOME_DIR/lib/*" org.apache.seatunnel.engine.server.SeaTunnelServerStarter \
    > "$dir/member.log" 2>&1 < /dev/null &
  echo $! > "$dir/pid"
  cd "$REPO"
}

alive() { [ -f "$1/pid" ] && kill -0 "$(cat "$1/pid")" 2>/dev/null; }

# A start that fails stops the members it did start, so no process outlives the command.
fail_start() {
  tail -30 "$1/member.log" >&2
  stop >&2
  die "$2"
}

start() {
  [ -d "$HOME_DIR/lib" ] || assemble_home
  [ -d "$CLUSTER_DIR" ] && for d in "$CLUSTER_DIR"/m*; do
    alive "$d" && die "member $(basename "$d") of $NAME is running; stop it first"
  done
  if [ -d "$CLUSTER_DIR" ]; then
    local logs
    logs="$CLUSTER_DIR.logs/$(date +%Y%m%d-%H%M%S)"
    mkdir -p "$logs"
    for d in "$CLUSTER_DIR"/m*; do
      for f in "$d"/member.log*; do [ -f "$f" ] && mv "$f" "$logs/$(basename "$d")-$(basename "$f")"; done
    done
    echo "Logs of the previous $NAME cluster: $logs"
  fi
  rm -rf "$CLUSTER_DIR" && mkdir -p "$CLUSTER_DIR"
  for i in $(seq 1 "$MEMBERS"); do write_member_config "$i"; start_member "$i"; done
  # Formed when every member's log shows the full member list; bounded by START_TIMEOUT seconds.
  local deadline=$((SECONDS + ${START_TIMEOUT:-90}))
  for i in $(seq 1 "$MEMBERS"); do
    local dir="$CLUSTER_DIR/m$i"
    until grep -q "Members {size:$MEMBERS," "$dir/member.log" 2>/dev/null; do
      alive "$dir" || fail_start "$dir" "member m$i exited"
      [ $SECONDS -lt $deadline ] || fail_start "$dir" "no cluster of $MEMBERS in ${START_TIMEOUT:-90} s"
      sleep 0.2
    done
  done
  echo "Cluster $NAME: $MEMBERS members on 127.0.0.1:$BASE_PORT..$(member_port "$MEMBERS") (REST on the same ports)"
}

# Member I again, with the config it had; back when its log shows a cluster of every member.
restart() {
  local i="$ARG" dir="$CLUSTER_DIR/m$ARG"
  [ -n "$i" ] && [ -f "$dir/seatunnel.yaml" ] || die "usage: cluster.sh restart I (a member of $NAME)"
  alive "$dir" && die "member m$i of $NAME is running"
  start_member "$i"
  local deadline=$((SECONDS + ${START_TIMEOUT:-90}))
  until grep -q "Members {size:$MEMBERS," "$dir/member.log" 2>/dev/null; do
    alive "$dir" || { tail -30 "$dir/member.log" >&2; die "member m$i exited"; }
    [ $SECONDS -lt $deadline ] || die "member m$i did not rejoin in ${START_TIMEOUT:-90} s"
    sleep 0.2
  done
  echo "Member m$i of $NAME is back (pid $(cat "$dir/pid"))"
}

kill9() {
  local dir="$CLUSTER_DIR/m$ARG"
  alive "$dir" || die "member m$ARG of $NAME is not running"
  kill -KILL "$(cat "$dir/pid")"
  # SIGKILL is asynchronous: a restart right after it would find the member still running.
  local waited=0
  while alive "$dir"; do
    [ "$waited" -lt 300 ] || die "member m$ARG of $NAME still runs 30 s after kill -9"
    sleep 0.1
    waited=$((waited + 1))
  done
  echo "Member m$ARG of $NAME killed"
}

stop() {
  [ -d "$CLUSTER_DIR" ] || return 0
  for d in "$CLUSTER_DIR"/m*; do alive "$d" && kill -TERM "$(cat "$d/pid")" || true; done
  local deadline=$((SECONDS + ${STOP_TIMEOUT:-30}))
  for d in "$CLUSTER_DIR"/m*; do
    while alive "$d"; do
      if [ $SECONDS -ge $deadline ]; then
        echo "member $(basename "$d") did not stop in time: KILL" >&2
        kill -KILL "$(cat "$d/pid")" || true
        break
      fi
      sleep 0.2
    done
  done
  echo "Cluster $NAME stopped"
}

status() {
  for d in "$CLUSTER_DIR"/m*; do
    if alive "$d"; then echo "$(basename "$d") pid $(cat "$d/pid") running"; else echo "$(basename "$d") stopped"; fi
  done
}

rest() { curl -sS --max-time 30 "$@"; }

case "$CMD" in
  home) assemble_home ;;
  start) start ;;
  stop) stop ;;
  restart) restart ;;
  kill) kill9 ;;
  status) status ;;
  submit)
    [ -f "$ARG" ] || die "usage: cluster.sh submit JOB.conf"
    # The REST API takes the job config as JSON; HOCON → JSON with the engine's own config library.
    json="$("$JAVA" -cp "$HOME_DIR/lib/*" "$REPO/tools/cluster/HoconToJson.java" "$ARG")"
    rest -H 'Content-Type: application/json' -X POST -d "$json" \
      "http://127.0.0.1:$BASE_PORT/hazelcast/rest/maps/submit-job"; echo ;;
  job) rest "http://127.0.0.1:$BASE_PORT/hazelcast/rest/maps/job-info/$ARG"; echo ;;
  *) sed -n '19,44p' "$0"; exit 2 ;;
esac
