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
# Scrapes a running process cluster (tools/cluster/cluster.sh) with a real Prometheus on loopback:
# writes a prometheus.yml naming every member's REST port with metrics_path
# /hazelcast/rest/instance/metrics and the Lane A alert rules (docs/prometheus/lane-a-alerts.yml),
# starts Prometheus with its storage in a temporary folder, waits until every target is up, asks
# Prometheus's HTTP API for Lane A series and the rules' health, prints them, and stops Prometheus.
#
#   tools/cluster/prometheus.sh [--members N] [--base-port P] [--port PROM_PORT] [--query EXPR]
#                               [--show-openmetrics]
#
# --members/--base-port: as given to cluster.sh start (2, 5901); --port: Prometheus's own port
# (9390); --query: a further PromQL expression to print; --show-openmetrics: also scrape
# /hazelcast/rest/instance/openmetrics (job "openmetrics-path") to show Prometheus's error there.
# Environment: PROMETHEUS (the binary, default: prometheus on the PATH), UP_TIMEOUT seconds (60)
# for the targets to be up and scraped.
# Needs curl and jq. Loopback only: Prometheus listens on 127.0.0.1.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
MEMBERS=2
BASE_PORT=5901
PROM_PORT=9390
QUERY=""
SHOW_OPENMETRICS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --members) MEMBERS="$2"; shift 2 ;;
    --base-port) BASE_PORT="$2"; shift 2 ;;
    --port) PROM_PORT="$2"; shift 2 ;;
    --query) QUERY="$2"; shift 2 ;;
    --show-openmetrics) SHOW_OPENMETRICS=1; shift ;;
    *) sed -n '18,32p' "$0"; exit 2 ;;
  esac
done
PROMETHEUS="${PROMETHEUS:-$(command -v prometheus || true)}"
die() { echo "prometheus.sh: $*" >&2; exit 1; }
[ -x "$PROMETHEUS" ] || die "no prometheus binary (apt-get install prometheus, or set PROMETHEUS)"
command -v jq >/dev/null || die "jq is needed to read Prometheus's API answers"
RULES="$REPO/docs/prometheus/lane-a-alerts.yml"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/lane-a-prometheus.XXXXXX")"
PROM_PID=""
cleanup() {
  if [ -n "$PROM_PID" ] && kill -0 "$PROM_PID" 2>/dev/null; then
    kill -TERM "$PROM_PID"
    wait "$PROM_PID" 2>/dev/null || true
    echo "Prometheus stopped"
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

{
  echo "global:"
  echo "  scrape_interval: 2s"
  echo "  evaluation_interval: 2s"
  echo "rule_files:"
  echo "  - $RULES"
  echo "scrape_configs:"
  echo "  - job_name: seatunnel"
  # The 0.0.4 text path: /openmetrics is OpenMetrics text served as text/plain, which Prometheus
  # parses as 0.0.4 and rejects at the stock "# TYPE jvm info" (docs/en/prometheus.md).
  echo "    metrics_path: /hazelcast/rest/instance/metrics"
  echo "    static_configs:"
  echo "      - targets:"
  for i in $(seq 0 $((MEMBERS - 1))); do echo "          - 127.0.0.1:$((BASE_PORT + i))"; done
  if [ "$SHOW_OPENMETRICS" = 1 ]; then
    echo "  - job_name: openmetrics-path"
    echo "    metrics_path: /hazelcast/rest/instance/openmetrics"
    echo "    static_configs:"
    echo "      - targets:"
    for i in $(seq 0 $((MEMBERS - 1))); do echo "          - 127.0.0.1:$((BASE_PORT + i))"; done
  fi
} > "$WORK/prometheus.yml"
echo "== $WORK/prometheus.yml"
cat "$WORK/prometheus.yml"

"$PROMETHEUS" --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/data" \
  --web.listen-address="127.0.0.1:$PROM_PORT" > "$WORK/prometheus.log" 2>&1 &
PROM_PID=$!
API="http://127.0.0.1:$PROM_PORT/api/v1"

api() { curl -sS --max-time 10 -G "$API/$1" "${@:2}"; }
query() { api query --data-urlencode "query=$1"; }

# Up: every target healthy and scraped at least once with samples of ours, bounded.
deadline=$((SECONDS + ${UP_TIMEOUT:-60}))
while :; do
  kill -0 "$PROM_PID" 2>/dev/null || { cat "$WORK/prometheus.log" >&2; die "Prometheus exited"; }
  up="$(api targets 2>/dev/null | jq -r '[.data.activeTargets[] | select(.labels.job == "seatunnel" and .health == "up")] | length' 2>/dev/null || echo 0)"
  seen="$(query 'count(ManagedSourceCommandsSent_total)' 2>/dev/null | jq -r '.data.result[0].value[1] // 0' 2>/dev/null || echo 0)"
  # And every alert rule evaluated once (health "ok"; "unknown" before its first evaluation).
  unhealthy="$(api rules 2>/dev/null | jq -r '[.data.groups[].rules[] | select(.health != "ok")] | length' 2>/dev/null || echo 1)"
  # With --show-openmetrics: until those targets were scraped once (and failed) too.
  pending="$(api targets 2>/dev/null | jq -r '[.data.activeTargets[] | select(.health == "unknown")] | length' 2>/dev/null || echo 1)"
  [ "$up" = "$MEMBERS" ] && [ "$seen" = "$MEMBERS" ] && [ "$unhealthy" = 0 ] && [ "$pending" = 0 ] && break
  if [ $SECONDS -ge $deadline ]; then
    api targets | jq '.data.activeTargets[] | {scrapeUrl, health, lastError}' >&2 || true
    die "not every target up and scraped within ${UP_TIMEOUT:-60} s ($up of $MEMBERS up)"
  fi
  sleep 0.5
done

echo "== targets (Prometheus $("$PROMETHEUS" --version 2>&1 | head -1 | awk '{print $3}'))"
api targets | jq -r '.data.activeTargets[] | "\(.labels.job)  \(.scrapeUrl)  health=\(.health)  lastError=\(.lastError | if . == "" then "none" else . end)"'

print_query() {
  echo "== $1"
  query "$1" | jq -r 'if .status != "success" then "error: \(.error)" else
    (.data.result[] | "\(.metric | del(.job) | to_entries | map("\(.key)=\(.value)") | join(" "))  \(.value[1])") end'
}
print_query 'ManagedSourceCommandsSent_total'
print_query 'ManagedSourceTransportReaderDeliveries_total + ManagedSourceTransportCoordinatorDeliveries_total'
print_query 'ManagedSourceRestoresRefused_total'
print_query 'ManagedSourceMemberAssignmentTrackerAssignments'
print_query 'count by (instance) ({__name__=~"ManagedSource.+"})'
print_query 'count by (instance) ({__name__=~"jvm_.+|job_count|node_state|cluster_info"})'
print_query 'scrape_samples_scraped{job="seatunnel"}'
[ -n "$QUERY" ] && print_query "$QUERY"

echo "== rules ($RULES)"
api rules | jq -r '.data.groups[] | .rules[] | "\(.name)  health=\(.health)  state=\(.state)\(if .lastError then "  error=\(.lastError)" else "" end)"'
