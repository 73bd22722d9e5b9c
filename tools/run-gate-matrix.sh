#!/usr/bin/env bash
# STIP-31's exit criteria over the whole matrix this machine runs, as one gate table: runs the Fake
# side-by-side run (p = 1, 16, 64, 128, saturated and paced, slow data, idle, split storms, heap,
# admission and mailbox bounds; tools/run-side-by-side.sh), SeaTunnel's Kafka source against
# ManagedKafka (tools/run-kafka-side-by-side.sh) and SeaTunnel's Iceberg source against
# ManagedIceberg with split discovery (tools/run-iceberg-side-by-side.sh) one after another, then
# prints the gate rows of all three as one table and writes them to target/gate-matrix.json.
# Usage: tools/run-gate-matrix.sh [quick]   (about 25 minutes quick, 80 full, on two cores)
# Exit status: 0 when every judged row passes, 1 when one fails.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:-}"
tools/run-side-by-side.sh $MODE
tools/run-kafka-side-by-side.sh $MODE
tools/run-iceberg-side-by-side.sh $MODE
mkdir -p target
# The Kafka runner's test classpath holds the report classes and Jackson.
CP="$(cat connector-managed-kafka/target/test.classpath)"
exec java -cp "$CP" org.apache.seatunnel.managed.bench.report.GateRows --out target/gate-matrix.json \
  seatunnel-managed-e2e/target/side-by-side.json \
  connector-managed-kafka/target/kafka-side-by-side.json \
  connector-managed-iceberg/target/iceberg-side-by-side.json
