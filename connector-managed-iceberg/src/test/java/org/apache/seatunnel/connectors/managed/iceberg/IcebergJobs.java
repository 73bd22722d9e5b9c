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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.util.Arrays;
import java.util.Map;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;

/**
 * The jobs the engine tests run over an {@link IcebergTestTable}: ManagedIceberg through the {@code
 * Managed} source (Lane A when allowed, else Lane B), or the stock {@code Iceberg} source block
 * itself, in {@code BATCH} or {@code STREAMING} mode, into the testkit's collecting sink.
 * Stateless.
 */
final class IcebergJobs {
    private IcebergJobs() {}

    /** ManagedIceberg reading {@code t} with {@code t}'s options and {@code extra}. */
    static ManagedJob managed(String name, IcebergTestTable t, int parallelism, Object... extra) {
        ManagedJob job =
                ManagedJob.source(ManagedIcebergSourceFactory.IDENTIFIER)
                        .name(name)
                        .parallelism(parallelism);
        for (Map.Entry<String, Object> e : t.options().entrySet()) {
            job.option(e.getKey(), e.getValue());
        }
        for (int i = 0; i + 1 < extra.length; i += 2) {
            job.option((String) extra[i], extra[i + 1]);
        }
        return job;
    }

    /** {@code job} as a streaming job checkpointing every {@code checkpointMs}. */
    static String streaming(ManagedJob job, String runId, long checkpointMs) {
        String hocon = job.env("checkpoint.interval", checkpointMs).toHocon(runId);
        return hocon.replace("job.mode = \"BATCH\"", "job.mode = \"STREAMING\"");
    }

    /** The same job as the stock {@code Iceberg} source block (always Lane B). */
    static String stock(ManagedJob job, String runId, long checkpointMs, boolean streaming) {
        String hocon = job.env("checkpoint.interval", checkpointMs).toHocon(runId);
        if (streaming) {
            hocon = hocon.replace("job.mode = \"BATCH\"", "job.mode = \"STREAMING\"");
        }
        StringBuilder out = new StringBuilder();
        for (String line : hocon.split("\n", -1)) {
            String l = line.trim();
            if (l.startsWith("connector = ") || l.startsWith("job-name = ")) {
                continue;
            }
            out.append(line.equals("  Managed {") ? "  Iceberg {" : line).append('\n');
        }
        return out.toString();
    }

    /** Lane A for {@code jobName} running ManagedIceberg (or {@code connector}). */
    static void allowLaneA(String jobName, String connector) {
        LaneASettings.install(true, Arrays.asList(jobName), Arrays.asList(connector));
    }

    /** Lane B for every job (Lane A not allowed: the kill switch is off). */
    static void laneBOnly(String jobName, String connector) {
        LaneASettings.installLane(false, Arrays.asList(jobName), Arrays.asList(connector));
    }
}
