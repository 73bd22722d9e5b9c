#!/usr/bin/env bash
# Builds (if needed) and runs a real job on an embedded SeaTunnel Zeta 2.3.8 engine with Lane A
# enabled from config/seatunnel.yaml, then prints what the managed runtime did. Loopback only.
# Usage: ./run-demo.sh [job.conf]   (REBUILD=1 forces a rebuild)
set -euo pipefail
cd "$(dirname "$0")"
DEMO_CLASS=seatunnel-managed-e2e/target/test-classes/org/apache/seatunnel/engine/managed/e2e/demo/ManagedSourceDemo.class
if [ ! -f "$DEMO_CLASS" ] || [ "${REBUILD:-0}" = 1 ]; then
  ./mvnw -q -B -ntp install -DskipTests -Dspotless.check.skip
  ./mvnw -q -B -ntp -pl seatunnel-managed-e2e test-compile -Dspotless.check.skip
fi
exec ./mvnw -q -B -ntp -pl seatunnel-managed-e2e exec:exec \
  -Dexec.classpathScope=test \
  -Dexec.executable=java \
  "-Dexec.args=-Xmx1g --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED -cp %classpath org.apache.seatunnel.engine.managed.e2e.demo.ManagedSourceDemo ${1:-config/managed-demo.conf}"
