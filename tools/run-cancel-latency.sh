#!/usr/bin/env bash
# Cancel -> CANCELED on one embedded Zeta 2.3.8 engine for a Lane A reader that waits inside a
# poll turn for up to 30 s and honours only wakeup(): 20 cancels (or $1) after 2 warm-ups, printed
# with p50, p99 and max (goal: p99 <= 100 ms). Not a test; run it on a quiet machine.
# Builds the modules it needs in the reactor (no install). Usage: tools/run-cancel-latency.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -ntp -pl seatunnel-managed-e2e -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test -Dspotless.check.skip
CP="seatunnel-managed-e2e/target/test-classes:$(cat seatunnel-managed-e2e/target/test-classpath.txt)"
exec java -Xmx1g -cp "$CP" org.apache.seatunnel.engine.managed.e2e.bench.CancelLatencyRunner "${1:-20}"
