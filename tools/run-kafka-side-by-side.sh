#!/usr/bin/env bash
# Runs the stock Kafka source (Lane B) and ManagedKafka (Lane A) side by side in one embedded Zeta
# 2.3.8 engine against one local Kafka broker (a child JVM): throughput and CPU per million rows
# of a pre-filled 8-partition topic; on a trickle topic produce->sink latency, barrier wait and
# checkpoint duration; idle CPU. Prints a table and writes connector-managed-kafka/target/
# kafka-side-by-side.json and .svg (both lanes' distributions). Not a test; run it on a quiet
# machine. Usage: tools/run-kafka-side-by-side.sh [quick]
set -euo pipefail
cd "$(dirname "$0")/.."
# One reactor run: sibling modules resolve to their target/classes; the broker module writes the
# broker's class path file on the way.
./mvnw -q -B -ntp ${MVN_OFFLINE:-} -pl connector-managed-kafka -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath -Dspotless.check.skip
ROOT=$(pwd)
CP="$ROOT/connector-managed-kafka/target/test-classes:$ROOT/connector-managed-kafka/target/classes"
CP="$CP:$(cat connector-managed-kafka/target/test.classpath)"
cd connector-managed-kafka
exec java -Xmx2g --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.management/sun.management=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  -Dkafka.broker.classpath.file="$ROOT/tools/kafka-test-broker/target/broker.classpath" \
  -Dkafka.broker.classes="$ROOT/tools/kafka-test-broker/target/classes" \
  -cp "$CP" \
  org.apache.seatunnel.connectors.managed.kafka.KafkaSideBySideRunner "${1:-}"
