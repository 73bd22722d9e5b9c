/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *    http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.seatunnel.engine.managed.source.zeta.ops;

import com.hazelcast.client.config.ClientConfig;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.engine.client.SeaTunnelClient;
import org.apache.seatunnel.engine.common.config.ConfigProvider;
import org.apache.seatunnel.engine.managed.source.lane.LaneReason;
import org.apache.seatunnel.shade.com.fasterxml.jackson.databind.JsonNode;
import org.apache.seatunnel.shade.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Lists a cluster's running jobs with the lane of their Managed sources and why, through
 * SeaTunnel's client API (job list, then each job's metrics {@code ManagedSourceLaneA} and {@code
 * ManagedSourceLaneReason}, which every Managed source's enumerator task reports).
 *
 * <p>Run with the client on the class path, e.g. {@code java -cp
 * "$SEATUNNEL_HOME/starter/*:$SEATUNNEL_HOME/lib/*"
 * org.apache.seatunnel.engine.managed.source.zeta.ops.ManagedJobsCommand [--all]}; the cluster is
 * the one {@code config/hazelcast-client.yaml} names, as for {@code seatunnel.sh}. {@code --all}
 * also lists ended jobs the master still keeps.
 *
 * <p>Threading: the calling thread only.
 */
public final class ManagedJobsCommand {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ManagedJobsCommand() {}

    /** One job: its lane is {@code "-"} when it has no Managed source (or reported none yet). */
    public static final class Row {
        public final long jobId;
        public final String name;
        public final String status;
        public final String lane;
        public final String reason;

        Row(long jobId, String name, String status, String lane, String reason) {
            this.jobId = jobId;
            this.name = name;
            this.status = status;
            this.lane = lane;
            this.reason = reason;
        }

        @Override
        public String toString() {
            return jobId + " " + name + " " + status + " " + lane + " " + reason;
        }
    }

    public static void main(String[] args) throws Exception {
        boolean all = args.length > 0 && "--all".equals(args[0]);
        print(list(ConfigProvider.locateAndGetClientConfig(), all), System.out);
    }

    /** The jobs of the cluster {@code config} reaches: running ones, or all the master keeps. */
    public static List<Row> list(ClientConfig config, boolean all) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (SeaTunnelClient client = new SeaTunnelClient(config)) {
            for (JsonNode job : JSON.readTree(client.listJobStatus())) {
                String status = job.path("jobStatus").asText();
                if (!all && !"RUNNING".equals(status)) {
                    continue;
                }
                long id = job.path("jobId").asLong();
                JsonNode metrics = JSON.readTree(client.getJobMetrics(id));
                rows.add(
                        new Row(
                                id,
                                job.path("jobName").asText(),
                                status,
                                lanes(metrics.path("ManagedSourceLaneA")),
                                reasons(metrics.path("ManagedSourceLaneReason"))));
            }
        }
        return rows;
    }

    /** A job with several Managed sources lists each one's lane, in the engine's order. */
    private static String lanes(JsonNode measurements) {
        List<String> lanes = new ArrayList<>();
        for (JsonNode m : measurements) {
            lanes.add(m.path("value").asLong() == 1 ? "A" : "B");
        }
        return lanes.isEmpty() ? "-" : String.join(",", lanes);
    }

    private static String reasons(JsonNode measurements) {
        List<String> reasons = new ArrayList<>();
        for (JsonNode m : measurements) {
            LaneReason r = LaneReason.ofCode(m.path("value").asLong());
            reasons.add(r == null ? "UNKNOWN(" + m.path("value").asText() + ")" : r.name());
        }
        return reasons.isEmpty() ? "-" : String.join(",", reasons);
    }

    static void print(List<Row> rows, PrintStream out) {
        String format = "%-20s %-30s %-12s %-5s %s%n";
        out.printf(format, "JOB ID", "NAME", "STATUS", "LANE", "REASON");
        for (Row r : rows) {
            out.printf(format, r.jobId, r.name, r.status, r.lane, r.reason);
        }
    }
}
