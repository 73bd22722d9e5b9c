#!/usr/bin/env bash
# Runs the same managed FakeSource job on Lane A and Lane B in one embedded Zeta 2.3.8 engine and
# prints the comparison table (throughput, CPU per row, barrier wait and checkpoint duration with
# slow data of 0/200/1000 ms, idle-reader latency, CPU; a sink capped at 2,000 and 20,000 rows/s;
# p=1 slow data with every core kept busy; at p=16 and p=64 the engine's checkpoint
# trigger->completed next to the runtime's, with data always there and with both lanes at the same
# row rate (-Dscale.equal.rate, default 80,000 rows/s), after a warm-up until rates settle and one
# unmeasured window of each load per lane (-Dscale.load.warmup-seconds, default 10); and CPU with 16 idle / slow-data readers, with the
# checkpoints each window completed and slow data once more without checkpoints) and writes it with a plot to
# seatunnel-managed-e2e/target/side-by-side.json and .svg. Not a test; run it on a quiet machine.
# Usage: tools/run-side-by-side.sh [quick] [backpressure|throughput|latency|storm|discovery]   (throughput: only the p=1
# throughput pair, -Dtp.rows and -Dtp.reps through JAVA_TOOL_OPTIONS; backpressure: only the throttled-sink
# and busy-cores scenarios, written to side-by-side-backpressure.json and .svg; latency: only how late
# paced rows are emitted at 20, 200 and 2,000 rows/s (-Dlatency.rates, -Dlatency.seconds; -Dside-by-side.checkpoint-interval sets the p=1 jobs' checkpoint interval, 1000 ms); storm: bounded jobs of one-row splits per lane,
# -Dstorm.splits, -Dstorm.parallelism, -Dstorm.checkpoints=off,on, -Dstorm.heap=true, -Dstorm.trace=true, written to
# side-by-side-storm.json and .svg, see SplitStormScenarios; discovery: a streaming enumerator discovering
# 1,000 one-row splits/s for 30 min per lane (-Ddiscovery.minutes), heap, tracker and mailbox over time and
# checkpoint durations, written to side-by-side-discovery.json and .svg, see DiscoveryScenario; soak: one streaming
# Lane A job with discovery (-Dsoak.splits-per-second=100 of -Dsoak.rows-per-split=10 rows), slow data and a reader
# failure every 5 min for -Dsoak.minutes (60; 1440 = the STIP's 24 h), failing on monotonic growth of heap, threads, tracker, coordinator queue, mailbox bytes or checkpoint time,
# written to soak.json and soak.svg, see SoakScenario; -Dbench.option.<key>=<value> through
# JAVA_TOOL_OPTIONS runs Lane A with that managed-source setting, e.g. reader.poll-linger=20ms)
set -euo pipefail
cd "$(dirname "$0")/.."
# The soak injects its reader failures through the runtime's test-only fault seam.
case " $* " in
  *" soak "*) SOAK_FAULTS="-Dseatunnel.managed.fault-injection=org.apache.seatunnel.engine.managed.e2e.faults.ArmedFaults" ;;
esac
./mvnw -q -B -ntp install -DskipTests -Dspotless.check.skip
./mvnw -q -B -ntp -pl seatunnel-managed-e2e test-compile -Dspotless.check.skip
exec ./mvnw -q -B -ntp -pl seatunnel-managed-e2e exec:exec \
  -Dexec.classpathScope=test \
  -Dexec.executable=java \
  "-Dexec.args=-Xmx2g --add-opens java.base/java.lang=ALL-UNNAMED ${SOAK_FAULTS:-} -cp %classpath org.apache.seatunnel.engine.managed.e2e.bench.SideBySideRunner $*"
