#!/usr/bin/env bash
# Builds and runs the JMH benchmarks of tools/benchmarks. Arguments go to JMH, e.g.
#   tools/run-jmh.sh AdmissionBenchmark.admit -t 16 -prof gc
#   tools/run-jmh.sh LoopOverheadBenchmark
#   tools/run-jmh.sh DrainBenchmark
#   tools/run-jmh.sh TrackerCycleBenchmark   (the coordinator tracker's cost per split in a storm)
#   tools/run-jmh.sh MailboxQueueBenchmark -tg 1,16   (consumer first: JMH orders a group by method name)
# the split storm runner (not JMH): tools/run-jmh.sh --split-storm [rounds]
# and the paired loop-overhead comparison: tools/run-jmh.sh --loop-overhead [pairs] [row|long...]
# or its interleaved form (both loops in each JVM, alternating every ~30 ms; LOOP_SIDES=bare,bare
# in the environment is the A/A calibration): tools/run-jmh.sh --loop-overhead-interleaved [forks] [record...]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -ntp install -DskipTests -Dspotless.check.skip -pl tools/benchmarks -am
CP_FILE=tools/benchmarks/target/classpath.txt
./mvnw -q -B -ntp -pl tools/benchmarks dependency:build-classpath -Dmdep.outputFile="$PWD/$CP_FILE" \
  -Dmdep.includeScope=compile
CP="tools/benchmarks/target/classes:$(cat "$CP_FILE")"
if [ "${1:-}" = "--split-storm" ]; then
  shift
  exec java -Xmx1g -cp "$CP" org.apache.seatunnel.engine.managed.bench.SplitStormBenchmark "$@"
fi
if [ "${1:-}" = "--loop-overhead-interleaved" ]; then
  shift
  exec java ${LOOP_SIDES:+-Dloop.sides=$LOOP_SIDES} -cp "$CP" org.apache.seatunnel.engine.managed.bench.LoopOverheadInterleaved "$@"
fi
if [ "${1:-}" = "--loop-overhead" ]; then
  shift
  exec java -cp "$CP" org.apache.seatunnel.engine.managed.bench.LoopOverheadComparison "$@"
fi
exec java -cp "$CP" org.openjdk.jmh.Main "$@"
