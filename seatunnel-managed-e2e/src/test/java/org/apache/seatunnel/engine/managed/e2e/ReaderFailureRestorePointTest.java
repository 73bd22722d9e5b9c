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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a reader failure early in a job restores, on a real Zeta 2.3.8 member, on Lane A and on the
 * stock path (Lane B), with {@link RestoreProbeSource} (streaming, p=1, two splits, a checkpoint
 * every second, the reader failing once):
 *
 * <ul>
 *   <li>the engine restores the latest checkpoint that <em>completed</em> before the failure (its
 *       {@code CheckpointCoordinator.latestCompletedCheckpoint}, set before any task hears {@code
 *       notifyCheckpointComplete});
 *   <li>with one, the enumerator is restored from it and the restored reader receives exactly the
 *       splits the failed reader snapshotted in it, with their positions (Zeta hands the reader's
 *       state to the enumerator's {@code addSplitsBack}, which assigns them again). On Lane A the
 *       coordinator's part of that checkpoint still has the assignment in flight (it was
 *       snapshotted before the reader's barrier, docs/en/architecture.md hazard 1, so no completed
 *       checkpoint had proved it yet); the reader's runtime metadata in the same checkpoint proves
 *       it on restore, so the tracker re-delivers nothing and the reader's positions win;
 *   <li>without one (the reader failed inside its snapshot of checkpoint 1, so checkpoint 1 never
 *       completed), the source restarts from nothing: a fresh enumerator re-delivers the original
 *       splits at offset 0.
 * </ul>
 *
 * So a fail-once test exercises restoring reader state only if it fails after a checkpoint
 * completed; failing inside the first snapshot tests a restart from scratch. In every case the sink
 * commits each row exactly once. {@code broken.reset-returned} (an enumerator that re-delivers
 * original splits instead of the handed-back ones) makes the restoring cases fail.
 *
 * <p>Threading: test thread only; the connector reports through {@link RestoreProbe}.
 */
class ReaderFailureRestorePointTest {
    private static final Duration BOUND = Duration.ofSeconds(40);

    /**
     * Until the restored reader opens: both lanes fail over in 1 to 2 s here. Far below {@link
     * #CANCELLATION_TIMEOUT}, so a failover that waited for it could not pass.
     */
    private static final Duration RESTORE_BOUND = Duration.ofSeconds(40);

    private static final String CANCELLATION_TIMEOUT = "10min";

    private static final String LANE_A_JOB = "restore-point-lane-a";
    private static final String LANE_B_JOB = "restore-point-lane-b";
    private static final long NONE = -1;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(LANE_A_JOB));
        cfg.put("allowed-connectors", Arrays.asList(RestoreProbeSource.IDENTIFIER));
        cfg.put("poll.cancellation-timeout", CANCELLATION_TIMEOUT);
        LaneASettings.install(cfg);
        zeta =
                EmbeddedZeta.builder("reader-failure-restore-point", 26400)
                        .checkpointIntervalMillis(1000)
                        .start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    // ---------------------------------------------------------------- Lane A

    /**
     * Before any checkpoint completed there is nothing to restore: the original splits come back.
     * And Lane A fails over from a connector exception inside {@code snapshotState} as the stock
     * path does, not after {@code poll.cancellation-timeout} (set to {@value #CANCELLATION_TIMEOUT}
     * here): the barrier thread holds the engine's checkpoint lock, so waiting there for the task
     * thread to close the reader would always time out. {@link #run} awaits the restored reader for
     * {@link #RESTORE_BOUND} only.
     */
    @Test
    void laneAFailureInsideFirstSnapshotRestartsFromOriginalSplitsWithoutWaitingForCancellation()
            throws Exception {
        assertRestartFromNothing(run(LANE_A_JOB, "snapshot", 1, false));
    }

    @Test
    void laneAFailureAfterFirstCheckpointCompletedRestoresItsReaderPositions() throws Exception {
        assertRestoredReaderState(run(LANE_A_JOB, "complete", 1, false), 1);
    }

    @Test
    void laneAPollFailureAfterFirstCheckpointCompletedRestoresItsReaderPositions()
            throws Exception {
        assertRestoredReaderState(run(LANE_A_JOB, "poll-after-complete", 1, false), 1);
    }

    @Test
    void laneAFailureInsideSecondSnapshotRestoresTheFirstCheckpoint() throws Exception {
        assertRestoredReaderState(run(LANE_A_JOB, "snapshot", 2, false), 1);
    }

    @Test
    void laneAFailureAfterSecondCheckpointCompletedRestoresTheSecond() throws Exception {
        assertRestoredReaderState(run(LANE_A_JOB, "complete", 2, false), 2);
    }

    // ---------------------------------------------------------------- Lane B (stock path)

    @Test
    void laneBFailureInsideFirstSnapshotRestartsFromOriginalSplits() throws Exception {
        assertRestartFromNothing(run(LANE_B_JOB, "snapshot", 1, false));
    }

    @Test
    void laneBFailureAfterFirstCheckpointCompletedRestoresItsReaderPositions() throws Exception {
        assertRestoredReaderState(run(LANE_B_JOB, "poll-after-complete", 1, false), 1);
    }

    @Test
    void laneBFailureInCheckpointCompleteRestoresItsReaderPositions() throws Exception {
        assertRestoredReaderState(run(LANE_B_JOB, "complete", 1, false), 1);
    }

    @Test
    void laneBFailureAfterSecondCheckpointCompletedRestoresTheSecond() throws Exception {
        assertRestoredReaderState(run(LANE_B_JOB, "poll-after-complete", 2, false), 2);
    }

    // ---------------------------------------------------------------- the run

    private static String job(
            String jobName, String runId, String failAt, long checkpoint, boolean broken) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 1\n"
                + "  checkpoint.interval = 1000\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + RestoreProbeSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "    fail.at = \""
                + failAt
                + "\"\n"
                + "    fail.checkpoint = "
                + checkpoint
                + "\n"
                + "    broken.reset-returned = "
                + broken
                + "\n"
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

    /** What one run left behind. */
    private static final class Outcome {
        final String name;
        final boolean laneA;
        final RestoreProbe probe;
        final List<String> committed;
        final long readersOpened;
        final long millisToRestore;

        Outcome(
                String name,
                boolean laneA,
                RestoreProbe probe,
                List<String> committed,
                long readersOpened) {
            this.name = name;
            this.laneA = laneA;
            this.probe = probe;
            this.committed = committed;
            this.readersOpened = readersOpened;
            this.millisToRestore = probe.millisFromFaultToRestoredReader();
        }

        String why() {
            return "\n"
                    + name
                    + "\nreader failed in "
                    + probe.firedWhere()
                    + ", engine's latest completed checkpoint then "
                    + probe.completedAtFault()
                    + "\nrestored reader created "
                    + millisToRestore
                    + " ms after the fault"
                    + "\nfirst attempt snapshots "
                    + probe.firstAttemptSnapshots()
                    + "\nfirst attempt completed "
                    + probe.firstAttemptCompleted()
                    + "\nenumerators "
                    + probe.enumerators()
                    + "\nhanded back "
                    + probe.handedBack()
                    + "\nreader attempts "
                    + probe.readerAttempts()
                    + ", the resumed one received "
                    + probe.resumedReceived()
                    + "\ntimeline:\n"
                    + probe.timeline();
        }
    }

    /**
     * Runs the job until the reader failed once, the restored attempt received its splits and the
     * sink committed rows past them, then cancels.
     */
    private static Outcome run(String jobName, String failAt, long checkpoint, boolean broken)
            throws Exception {
        boolean laneA = LANE_A_JOB.equals(jobName);
        String name =
                (laneA ? "Lane A" : "Lane B")
                        + ", fail.at "
                        + failAt
                        + " "
                        + checkpoint
                        + (broken ? ", broken enumerator" : "");
        String runId = "restore-point-" + System.nanoTime();
        RestoreProbe probe = RestoreProbe.of(runId);
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long start = System.nanoTime();
        long jobId = zeta.submit(job(jobName, runId, failAt, checkpoint, broken));
        probe.engineView(() -> zeta.latestCompletedCheckpointId(jobId, 1));
        try {
            await().atMost(BOUND).until(probe::faultFired);
            await().atMost(RESTORE_BOUND)
                    .until(
                            () ->
                                    probe.readerAttempts() >= 2
                                            && probe.resumedReceived().size()
                                                    >= RestoreProbeSource.SPLIT_COUNT);
            // The restored attempt's rows reached the committed view past where it started.
            Map<Integer, Long> startAt = offsets(probe.resumedReceived());
            await().atMost(BOUND).until(() -> committedPast(rows.committed(), startAt, 20));
            assertEquals(JobStatus.RUNNING, zeta.status(jobId), "the job continued");
            zeta.cancel(jobId, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
            Outcome o =
                    new Outcome(name, laneA, probe, rows.committed(), RuntimeStats.readersOpened());
            System.out.printf(
                    "[ReaderFailureRestorePointTest] %s: %d ms%s%n",
                    name, (System.nanoTime() - start) / 1_000_000, o.why());
            return o;
        } catch (RuntimeException | AssertionError e) {
            System.out.println(
                    "[ReaderFailureRestorePointTest] "
                            + name
                            + " failed; timeline:\n"
                            + probe.timeline());
            throw e;
        } finally {
            CollectedRows.clear(runId);
            RestoreProbe.clear(runId);
        }
    }

    /** split number → offset, from {@code fake-<n>@<offset>} entries. */
    private static Map<Integer, Long> offsets(List<String> splits) {
        Map<Integer, Long> out = new TreeMap<>();
        for (String s : splits) {
            String[] parts = s.substring("fake-".length()).split("@");
            out.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
        return out;
    }

    private static boolean committedPast(
            List<String> committed, Map<Integer, Long> startAt, long margin) {
        for (Map.Entry<Integer, Long> e : startAt.entrySet()) {
            String past = ManagedFakeRows.payload(e.getKey(), e.getValue() + margin);
            if (!committed.contains(past)) {
                return false;
            }
        }
        return true;
    }

    private static List<String> sorted(List<String> in) {
        List<String> out = new ArrayList<>(in);
        Collections.sort(out);
        return out;
    }

    private static void assertLaneAndExactlyOnce(Outcome o) {
        String why = o.why();
        if (o.laneA) {
            assertTrue(o.readersOpened >= 2, "ran on Lane A, a restored reader opened" + why);
        } else {
            assertEquals(0, o.readersOpened, "ran on Lane B" + why);
        }
        // Zeta 2.3.8 cancels the pipeline from two paths on a checkpoint error (the error report
        // and its trigger's failure), and a task failing at the same moment can make it restore
        // the pipeline once more: seen once in a CI run for a Lane A failure inside
        // snapshotState, whose task thread fails as its barrier call does (attempt 1 was created
        // and cancelled before it received a split). What the tests judge is the reader that
        // resumed; the count is printed.
        assertTrue(o.probe.readerAttempts() >= 2, "a restored reader" + why);
        if (o.probe.readerAttempts() > 2) {
            System.out.printf(
                    "[ReaderFailureRestorePointTest] %s: %d reader attempts for one fault%n",
                    o.name, o.probe.readerAttempts());
        }
        try {
            Accounting.assertContiguousExactlyOnce(o.committed, RestoreProbeSource.SPLIT_COUNT);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + why, e);
        }
    }

    /** No checkpoint had completed: a fresh enumerator re-delivers the original splits. */
    private static void assertRestartFromNothing(Outcome o) {
        String why = o.why();
        assertLaneAndExactlyOnce(o);
        assertEquals(
                NONE,
                o.probe.completedAtFault(),
                "no checkpoint had completed when the reader failed" + why);
        List<String> enumerators = o.probe.enumerators();
        assertTrue(
                enumerators.size() >= 2 && enumerators.stream().allMatch(e -> e.equals("fresh")),
                "the source restarted from nothing: only fresh enumerators, a second one" + why);
        assertEquals(
                Collections.emptyList(), o.probe.handedBack(), "no reader state came back" + why);
        assertEquals(
                Arrays.asList("fake-0@0", "fake-1@0"),
                sorted(o.probe.resumedReceived()),
                "the restored reader got the original splits" + why);
    }

    /**
     * Checkpoint {@code expected} had completed: it is restored, and the restored reader gets the
     * failed reader's state in it, positions included.
     */
    private static void assertRestoredReaderState(Outcome o, long expected) {
        String why = o.why();
        assertLaneAndExactlyOnce(o);
        assertEquals(
                expected,
                o.probe.completedAtFault(),
                "the engine's latest completed checkpoint when the reader failed" + why);
        List<String> state = o.probe.firstAttemptSnapshot(expected);
        assertNotNull(state, "the failed reader snapshotted checkpoint " + expected + why);
        for (long offset : offsets(state).values()) {
            assertTrue(offset > 0, "checkpoint " + expected + " holds read positions" + why);
        }
        assertEquals(
                Arrays.asList("fresh", "restored []"),
                o.probe.enumerators(),
                "the enumerator was restored from checkpoint " + expected + why);
        assertEquals(
                sorted(state),
                sorted(o.probe.handedBack()),
                "the engine handed the reader's state of checkpoint "
                        + expected
                        + " back to the enumerator"
                        + why);
        assertEquals(
                sorted(state),
                sorted(o.probe.resumedReceived()),
                "the restored reader got its state of checkpoint "
                        + expected
                        + ", positions included, not the original splits"
                        + why);
    }
}
