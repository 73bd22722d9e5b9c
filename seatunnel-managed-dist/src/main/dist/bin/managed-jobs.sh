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
# Lists the cluster's running jobs with the lane of each Managed source and why (ELIGIBLE,
# DISABLED, JOB_NOT_ALLOWED, CONNECTOR_NOT_ALLOWED, CONNECTOR_INELIGIBLE), through SeaTunnel's
# client API: the cluster is the one config/hazelcast-client.yaml names, as for seatunnel.sh.
#
#   bin/managed-jobs.sh          running jobs
#   bin/managed-jobs.sh --all    also the ended jobs the master still keeps
set -euo pipefail
HOME_DIR="${SEATUNNEL_HOME:-$(cd "$(dirname "$0")/.." && pwd)}"
export SEATUNNEL_HOME="$HOME_DIR"
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp "$HOME_DIR/starter/*:$HOME_DIR/lib/*" \
  -Dhazelcast.client.config="$HOME_DIR/config/hazelcast-client.yaml" \
  org.apache.seatunnel.engine.managed.source.zeta.ops.ManagedJobsCommand "$@"
