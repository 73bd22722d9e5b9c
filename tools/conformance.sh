#!/usr/bin/env bash
# Runs the Lane A conformance suite (every reader rule and every enumerator rule) against a
# connector jar and prints one line per rule, PASS, SKIP or FAIL with the reason; exits 1 when a
# rule failed, 2 when the run could not start.
#
# Usage: tools/conformance.sh <connector-jar> <factory-identifier> <fixture.conf>
#   fixture.conf  HOCON: the source's options at the top level, as in a job's source block
#                 (split.count = 4), plus an optional block that is not passed on:
#                 conformance { parallelism = 2, seed = 20261201, record-key-fields = [1, 2] }
#                 The source must be bounded; see tools/conformance/managed-fake.conf.
# Environment:
#   CONFORMANCE_CLASSPATH          jars the connector needs that its jar does not shade (':'-separated)
#   CONFORMANCE_TESTKIT_CLASSPATH  the testkit and its dependencies; default: resolved with Maven
#   CONFORMANCE_TESTKIT_VERSION    the seatunnel-managed-testkit version to resolve (default 0.1.0-SNAPSHOT)
#   MAVEN_ARGS                     extra Maven arguments for that resolution (-o, -Dmaven.repo.local=...)
#   JAVA_OPTS                      JVM options (-Dconformance.seed=S replays the random rules)
# Outside this repository it needs `mvn` on the PATH and the testkit in a Maven repository it reads
# (./mvnw install here puts it into the local one).
set -euo pipefail
if [ "$#" -ne 3 ]; then
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
here="$(cd "$(dirname "$0")/.." && pwd)"
cp="${CONFORMANCE_TESTKIT_CLASSPATH:-}"
if [ -z "$cp" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>conformance</groupId><artifactId>classpath</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.seatunnel.managed</groupId>
      <artifactId>seatunnel-managed-testkit</artifactId>
      <version>${CONFORMANCE_TESTKIT_VERSION:-0.1.0-SNAPSHOT}</version>
    </dependency>
  </dependencies>
</project>
POM
  mvn="mvn"
  if [ -x "$here/mvnw" ]; then mvn="$here/mvnw"; fi
  # shellcheck disable=SC2086
  (cd "$work" && "$mvn" -B -q -ntp ${MAVEN_ARGS:-} \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
      -Dmdep.outputFile="$work/cp.txt" -Dmdep.includeScope=runtime) >&2
  cp="$(cat "$work/cp.txt")"
fi
if [ -n "${CONFORMANCE_CLASSPATH:-}" ]; then cp="$cp:$CONFORMANCE_CLASSPATH"; fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -cp "$cp" \
    org.apache.seatunnel.managed.testkit.conformance.ConformanceMain "$1" "$2" "$3"
