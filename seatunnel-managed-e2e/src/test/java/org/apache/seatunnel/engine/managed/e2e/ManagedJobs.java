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

package org.apache.seatunnel.engine.managed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;

/** The job HOCON the end-to-end tests submit: a managed FakeSource into the collecting sink. */
final class ManagedJobs {
    private ManagedJobs() {}

    /**
     * A streaming job (p=2, checkpoint every second) whose source is {@code ManagedFake} named
     * through the Managed source under {@code jobName}, with extra source options (each line ending
     * in a newline), into {@code ManagedCollect} under {@code runId}.
     */
    static String streaming(String jobName, String sourceOptions, String runId) {
        return managedFake(
                "ManagedFake",
                "STREAMING",
                "  checkpoint.interval = 1000\n",
                jobName,
                sourceOptions,
                runId);
    }

    /**
     * The streaming job on {@code ManagedFakeTesting} (the test-jar's ManagedFake with fault
     * injection and probes), for sources options such as {@code fault.id}.
     */
    static String streamingTesting(String jobName, String sourceOptions, String runId) {
        return managedFake(
                ManagedFakeTestingSourceFactory.IDENTIFIER,
                "STREAMING",
                "  checkpoint.interval = 1000\n",
                jobName,
                sourceOptions,
                runId);
    }

    /**
     * The bounded 5 × 20 job on {@link SafetyNetSource} whose readers never signal availability:
     * rows arrive every 10 ms and only a poll that finds them moves the job on.
     */
    static String unsignalled5x20(String jobName, String runId) {
        return "env {\n  job.mode = \"BATCH\"\n  parallelism = 2\n}\n"
                + "source {\n  Managed {\n"
                + "    connector = \""
                + SafetyNetSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + "    split.count = 5\n    rows.per.split = 20\n    bounded = true\n"
                + "    behaviour = \"unsignalled\"\n    row.arrival.millis = 10\n"
                + "  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    /** The bounded job of the acceptance list: 5 splits × 20 rows, p=2, batch mode. */
    static String bounded5x20(String jobName, String runId) {
        return bounded5x20(jobName, runId, "");
    }

    /** The bounded 5 × 20 job with extra source options (each line ending in a newline). */
    static String bounded5x20(String jobName, String runId, String sourceOptions) {
        return managedFake(
                "ManagedFake",
                "BATCH",
                "",
                jobName,
                "    split.count = 5\n    rows.per.split = 20\n    bounded = true\n"
                        + sourceOptions,
                runId);
    }

    /** Every payload the 5 × 20 bounded job emits, once. */
    static List<String> expected5x20() {
        List<String> out = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            for (long seq = 0; seq < 20; seq++) {
                out.add(ManagedFakeRows.payload(n, seq));
            }
        }
        return out;
    }

    /**
     * Submits a bounded job of the 5 × 20 rows into {@code ManagedCollect} under {@code runId},
     * waits at most {@code bound} for its end, and asserts that it FINISHED with every row written
     * exactly once (then clears the run's rows). Returns the job id.
     */
    static long finish5x20ExactlyOnce(EmbeddedZeta zeta, String job, String runId, Duration bound)
            throws Exception {
        long jobId = zeta.submit(job);
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        JobResult result = zeta.awaitResult(jobId, done, bound);
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());
        CollectedRows rows = CollectedRows.of(runId);
        assertEquals(
                CollectedRows.multiset(expected5x20()),
                CollectedRows.multiset(rows.written()),
                "every row written exactly once");
        CollectedRows.clear(runId);
        return jobId;
    }

    private static String managedFake(
            String connector,
            String mode,
            String envExtra,
            String jobName,
            String sourceOptions,
            String runId) {
        return "env {\n"
                + "  job.mode = \""
                + mode
                + "\"\n"
                + "  parallelism = 2\n"
                + envExtra
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + connector
                + "\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + sourceOptions
                + "  }\n"
                + "}\n"
                + "sink {\n"
                + "  ManagedCollect {\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "  }\n"
                + "}\n";
    }
}
