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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
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
        List<String> written;
        List<String> applied;
        List<String> writers;
        int injected;
        int injectedAfter;
        long laneAReaders;

        @Override
        public String toString() {
            return "Run{"
                    + status
                    + ", committed "
                    + committed.size()
                    + ", schema changes applied "
                    + applied
                    + ", sink writers "
                    + writers
                    + ", injected failures "
                    + injected
                    + "/"
                    + injectedAfter
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

    private static Run run(boolean laneA, String runId, String sourceOptions) throws Exception {
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
                        + "    "
                        + sourceOptions
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
        r.written = new ArrayList<>(records.written);
        r.writers = new ArrayList<>(records.writersStarted);
        r.injected = SchemaChangeReader.injected(runId);
        r.injectedAfter = SchemaChangeReader.injected(runId + "/after");
        r.laneAReaders = RuntimeStats.readersOpened() - readersBefore;
        SchemaRecordingSink.Records.clear(runId);
        System.out.printf(
                "[LaneASchemaChangeTest] %s %s: %s%n", laneA ? "Lane A" : "Lane B", runId, r);
        return r;
    }

    /** Every row exactly once, each with the schema it was read with in force at the sink. */
    private static void assertEveryRowOnceWithItsSchema(Run r) {
        assertNothingInconsistentWritten(r);
        assertCommittedOnceWithItsSchema(r.committed);
    }

    /**
     * The sink was restored once, from the checkpoint cut right before the change (its schema is
     * the old one): the change was read, emitted and applied again after the restore, which is what
     * gives the rows after it their column.
     */
    private static void assertRestoredBeforeTheChange(Run r) {
        assertEquals(Arrays.asList("new:id,name", "restored:id,name"), r.writers, r.toString());
        assertFalse(r.applied.isEmpty(), r.toString());
    }

    /** Every row any writer attempt received had as many fields as the sink's schema then. */
    private static void assertNothingInconsistentWritten(Run r) {
        for (String e : r.written) {
            String[] parts = e.split("\\|");
            int schemaFields = parts[1].split(",").length;
            assertEquals(schemaFields, Integer.parseInt(parts[2]), "row vs sink schema: " + e);
        }
    }

    private static void assertCommittedOnceWithItsSchema(List<String> committed) {
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
        Run r = run(true, "schema-a-" + System.nanoTime(), "fail.in.change = true");
        assertEquals(JobStatus.FINISHED, r.status, r.toString());
        assertEquals(1, r.injected, "the job failed once, in the middle of the change");
        assertTrue(r.laneAReaders >= 2, "a second reader attempt restored the job: " + r);
        assertRestoredBeforeTheChange(r);
        assertEveryRowOnceWithItsSchema(r);
    }

    @Test
    void laneBTheSameJobToday() throws Exception {
        Run r = run(false, "schema-b-" + System.nanoTime(), "fail.in.change = true");
        assertEquals(0, r.laneAReaders, "the job ran on Lane B");
        assertEquals(JobStatus.FINISHED, r.status, r.toString());
        assertEquals(1, r.injected);
        assertRestoredBeforeTheChange(r);
        assertEveryRowOnceWithItsSchema(r);
    }

    /**
     * Zeta 2.3.8 sizes every row with the row type its source collector was planned with and keeps
     * schema changes only in memory: restored from a periodic checkpoint taken after the change, a
     * row read with the added column fails the task ({@code ArrayIndexOutOfBoundsException} in
     * {@code SeaTunnelRow.getBytesSize}), every restore again, until the job fails. The same on
     * both lanes: the engine's collector is the same.
     */
    @Test
    void aRestoreAfterTheChangeFailsOnBothLanesUnlessTheConnectorReemitsIt() throws Exception {
        for (boolean laneA : new boolean[] {true, false}) {
            Run r =
                    run(
                            laneA,
                            "schema-later-" + laneA + System.nanoTime(),
                            "fail.after.change = \"later-cut\"");
            assertEquals(1, r.injectedAfter, r.toString());
            assertEquals(JobStatus.FAILED, r.status, r.toString());
            assertTrue(
                    r.error.contains("ArrayIndexOutOfBoundsException"),
                    "the engine's collector cannot size the new rows: " + r.error);
            assertNothingInconsistentWritten(r);
        }
    }

    /**
     * The remedy a connector has on 2.3.8 (the connector guide describes it): a reader restored
     * after a change emits the change events again before any row; the engine's collector and a
     * sink that applies changes idempotently then carry the restored schema.
     */
    @Test
    void aConnectorThatReemitsItsSchemaOnRestoreSurvivesARestoreAfterTheChange() throws Exception {
        for (boolean laneA : new boolean[] {true, false}) {
            Run r =
                    run(
                            laneA,
                            "schema-reemit-" + laneA + System.nanoTime(),
                            "fail.after.change = \"later-cut\"\n    reemit.on.restore = true");
            assertEquals(1, r.injectedAfter, r.toString());
            assertEquals(JobStatus.FINISHED, r.status, r.toString());
            assertEquals(
                    Arrays.asList("new:id,name", "restored:id,name,extra"),
                    r.writers,
                    "restored from a cut after the change, with the changed schema");
            assertEveryRowOnceWithItsSchema(r);
        }
    }
}
