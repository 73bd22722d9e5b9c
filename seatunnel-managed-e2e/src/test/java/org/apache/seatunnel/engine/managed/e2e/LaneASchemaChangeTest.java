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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.zeta.RuntimeStats;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A source whose table gains a column mid-stream ({@link SchemaChangeSource}), into a sink that
 * applies schema changes and records the schema each row arrived with ({@link
 * SchemaRecordingSink}), on the real engine. The reader fails the first checkpoint after it emitted
 * the change, so the job restores in the middle of the change, from the checkpoint cut right before
 * it.
 */
class LaneASchemaChangeTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final String JOB = "schema-change";
    private static final int ROWS = 300;
    private static final int CHANGE_AT = 150;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta = EmbeddedZeta.builder("lane-a-schema-change", 24600).start();
    }

    @AfterAll
    static void stopEngine() {
        LaneASettings.clear();
        if (zeta != null) {
            zeta.close();
        }
    }

    /** What one run did. */
    static final class Run {
        JobStatus status;
        String error;
        List<String> committed;
        List<String> applied;
        int injected;
        long laneAReaders;

        @Override
        public String toString() {
            return "Run{"
                    + status
                    + ", committed "
                    + committed.size()
                    + ", schema changes applied "
                    + applied
                    + ", injected failures "
                    + injected
                    + ", Lane A readers "
                    + laneAReaders
                    + ", error "
                    + (error == null ? "none" : firstLine(error))
                    + '}';
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static Run run(boolean laneA, String runId, boolean failInChange) throws Exception {
        LaneASettings.install(
                laneA,
                Collections.singletonList(JOB),
                Collections.singletonList(SchemaChangeSource.IDENTIFIER));
        long readersBefore = RuntimeStats.readersOpened();
        String hocon =
                "env {\n  job.mode = \"BATCH\"\n  parallelism = 1\n  checkpoint.interval = 1000\n}\n"
                        + "source {\n  Managed {\n    connector = \"SchemaChangeProbe\"\n"
                        + "    job-name = \""
                        + JOB
                        + "\"\n    run.id = \""
                        + runId
                        + "\"\n"
                        + "    rows = "
                        + ROWS
                        + "\n    change.at = "
                        + CHANGE_AT
                        + "\n"
                        + "    fail.in.change = "
                        + failInChange
                        + "\n  }\n}\n"
                        + "sink {\n  SchemaRecordingSink {\n    run.id = \""
                        + runId
                        + "\"\n  }\n}\n";
        long jobId = zeta.submit(hocon);
        JobResult result;
        try {
            result = zeta.completion(jobId).get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            JobStatus status = zeta.status(jobId);
            zeta.cancel(jobId, Duration.ofSeconds(30));
            throw new AssertionError(
                    "job did not end within " + BOUND + " (status " + status + ")");
        }
        Run r = new Run();
        r.status = result.getStatus();
        r.error = result.getError();
        SchemaRecordingSink.Records records = SchemaRecordingSink.Records.of(runId);
        r.committed = records.committed();
        r.applied = new ArrayList<>(records.schemaChangesApplied);
        r.injected = SchemaChangeReader.injected(runId);
        r.laneAReaders = RuntimeStats.readersOpened() - readersBefore;
        SchemaRecordingSink.Records.clear(runId);
        System.out.printf(
                "[LaneASchemaChangeTest] %s %s: %s%n", laneA ? "Lane A" : "Lane B", runId, r);
        return r;
    }

    /** Every row exactly once, each with the schema it was read with in force at the sink. */
    private static void assertEveryRowOnceWithItsSchema(List<String> committed) {
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            expected.add(id < CHANGE_AT ? id + "|id,name|2" : id + "|id,name,extra|3");
        }
        List<String> sorted = new ArrayList<>(committed);
        sorted.sort(
                (a, b) ->
                        Long.compare(idOf(a), idOf(b)) != 0
                                ? Long.compare(idOf(a), idOf(b))
                                : a.compareTo(b));
        assertEquals(expected, sorted);
    }

    private static long idOf(String entry) {
        return Long.parseLong(entry.substring(0, entry.indexOf('|')));
    }

    @Test
    void laneAEveryRowArrivesWithItsSchemaAcrossARestoreInTheMiddleOfTheChange() throws Exception {
        Run r = run(true, "schema-a-" + System.nanoTime(), true);
        assertEquals(JobStatus.FINISHED, r.status, r.toString());
        assertEquals(1, r.injected, "the job failed once, in the middle of the change");
        assertTrue(r.laneAReaders >= 2, "a second reader attempt restored the job: " + r);
        assertEveryRowOnceWithItsSchema(r.committed);
    }

    @Test
    void laneBTheSameJobToday() throws Exception {
        Run r = run(false, "schema-b-" + System.nanoTime(), true);
        assertEquals(0, r.laneAReaders, "the job ran on Lane B");
        assertEquals(JobStatus.FINISHED, r.status, r.toString());
        assertEquals(1, r.injected);
        assertEveryRowOnceWithItsSchema(r.committed);
    }
}
