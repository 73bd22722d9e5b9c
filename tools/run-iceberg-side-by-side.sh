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
# Runs SeaTunnel's stock Iceberg source (Lane B) and ManagedIceberg (Lane A) side by side in one
# embedded Zeta 2.3.8 over Hadoop-catalog tables on the local disk (IcebergSideBySideRunner): a
# large bounded scan (rows/s, CPU per row), append -> sink latency of a streaming job, checkpoint
# durations, and the same with a slow catalog (every table refresh 3 s longer), naming the threads
# that waited on it. Writes connector-managed-iceberg/target/iceberg-side-by-side.json and .svg.
# Not a test; run it on a quiet machine. Usage: tools/run-iceberg-side-by-side.sh [quick]
# (JAVA_TOOL_OPTIONS: -Diceberg.scan-only=true, -Diceberg.threads=true, -Diceberg.warmup-passes=N
# unmeasured scans per lane before the measured ones, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -ntp ${MVN_OFFLINE:-} -pl connector-managed-iceberg -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath -Dspotless.check.skip
ROOT=$(pwd)
CP="$ROOT/connector-managed-iceberg/target/test-classes:$ROOT/connector-managed-iceberg/target/classes"
CP="$CP:$(cat connector-managed-iceberg/target/test.classpath)"
cd connector-managed-iceberg
exec java -Xmx3g --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.management/sun.management=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  -cp "$CP" \
  org.apache.seatunnel.connectors.managed.iceberg.IcebergSideBySideRunner "${1:-}"
