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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
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
 * docs/en/architecture.md hazard 1, the coordinator-first cut, forced deterministically on a real
 * Zeta 2.3.8 member with {@link CutRaceSource} (streaming, p=1, checkpoint every 1.5 s, two
 * splits):
 *
 * <ol>
 *   <li>the enumerator's first snapshot N still has S1 pending; it returns only once the reader
 *       holds its checkpoint lock in a poll turn;
 *   <li>S1 is assigned right after the snapshot; the reader keeps its lock until the assignment
 *       reached it, so the engine's barrier N for the reader can only come after;
 *   <li>after N completed and the sink committed it, the reader fails once; the job restores from N
 *       and reads everything; the committed rows are counted per (split, seq).
 * </ol>
 *
 * The same connector and schedule run on the stock path (job not allowlisted → Lane B), which must
 * show the known duplicate (S1 in both the enumerator's and the reader's state of N → S1 read twice
 * after the restore), and on Lane A, whose reader defers the post-cut assignment past its own
 * barrier N, so every row is committed exactly once.
 *
 * <p>Threading: test thread only; the connector reports through {@link CutRaceProbe}.
 */
class CoordinatorFirstCutTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final long ROWS = 300;
    private static final String LANE_A_JOB = "cut-race-lane-a";
    private static final String LANE_B_JOB = "cut-race-lane-b";
    private static final String S1_ID = "fake-" + CutRaceSource.S1;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(LANE_A_JOB));
        cfg.put("allowed-connectors", Arrays.asList(CutRaceSource.IDENTIFIER));
        LaneASettings.install(cfg);
        zeta =
                EmbeddedZeta.builder("coordinator-first-cut", 22950)
                        .checkpointIntervalMillis(1500)
                        .start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String jobName, String runId) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 1\n"
                + "  checkpoint.interval = 1500\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + CutRaceSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "    rows.per.split = "
                + ROWS
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
        final CutRaceProbe probe;
        final long cut;
        final List<String> committed;
        final Map<String, Integer> counts;
        final long millis;

        Outcome(CutRaceProbe probe, long cut, List<String> committed, long millis) {
            this.probe = probe;
            this.cut = cut;
            this.committed = committed;
            this.counts = CollectedRows.multiset(committed);
            this.millis = millis;
        }

        List<String> readerStateAtCut() {
            return probe.readerSnapshot(cut);
        }

        boolean readerStateAtCutHasS1() {
            return readerStateAtCut().stream().anyMatch(s -> s.startsWith(S1_ID + "@"));
        }

        /** The first restored enumerator's pending splits: S1 there means it restored from N. */
        boolean restoredFromCut() {
            List<List<String>> restored = probe.restoredPending();
            return !restored.isEmpty() && restored.get(0).contains(S1_ID + "@0");
        }

        /** Every (split, seq) → how often it was committed; 0 for never. */
        Map<Integer, Map<Integer, Long>> histogram() {
            Map<Integer, Map<Integer, Long>> h = new TreeMap<>();
            for (int split = 0; split < CutRaceSource.SPLIT_COUNT; split++) {
                Map<Integer, Long> bySplit = new TreeMap<>();
                for (long seq = 0; seq < ROWS; seq++) {
                    int c = counts.getOrDefault(ManagedFakeRows.payload(split, seq), 0);
                    bySplit.merge(c, 1L, Long::sum);
                }
                h.put(split, bySplit);
            }
            return h;
        }

        String diagnostics() {
            return "\ncut checkpoint N = "
                    + cut
                    + "\nreader snapshots "
                    + probe.readerSnapshots()
                    + "\nrestored enumerator pending "
                    + probe.restoredPending()
                    + "\ncommit histogram {split={times committed=rows}} "
                    + histogram()
                    + "\ntimeline:\n"
                    + probe.timeline();
        }
    }

    private static boolean everyRowCommitted(CollectedRows rows) {
        Map<String, Integer> counts = CollectedRows.multiset(rows.committed());
        for (int split = 0; split < CutRaceSource.SPLIT_COUNT; split++) {
            for (long seq = 0; seq < ROWS; seq++) {
                if (!counts.containsKey(ManagedFakeRows.payload(split, seq))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Runs the forced schedule with one reader failure after checkpoint N; see the class comment.
     */
    private static Outcome runForcedCut(String jobName, String runId) throws Exception {
        CutRaceProbe probe = CutRaceProbe.of(runId);
        CollectedRows rows = CollectedRows.of(runId);
        long start = System.nanoTime();
        long jobId = zeta.submit(job(jobName, runId));
        try {
            // The cut: the enumerator snapshotted N with S1 pending and the reader took barrier N.
            await().atMost(BOUND)
                    .until(
                            () ->
                                    probe.cutCheckpoint() >= 0
                                            && probe.readerSnapshot(probe.cutCheckpoint()) != null);
            long cut = probe.cutCheckpoint();
            // N completed and the sink committed it (N is the job's first checkpoint).
            await().atMost(BOUND)
                    .until(
                            () ->
                                    zeta.latestCompletedCheckpointId(jobId, 1) >= cut
                                            && rows.commitCalls() >= 1);
            probe.armFault();
            await().atMost(BOUND).until(probe::faultFired);
            // The restored attempt read everything it was given and all of it reached the sink's
            // committed view; two more commits make sure nothing it emitted is still pending.
            await().atMost(BOUND)
                    .until(() -> probe.isExhaustedAfterFault() && everyRowCommitted(rows));
            int commits = rows.commitCalls();
            await().atMost(BOUND).until(() -> rows.commitCalls() >= commits + 2);
            assertEquals(JobStatus.RUNNING, zeta.status(jobId), "the job continued");
            zeta.cancel(jobId, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
            return new Outcome(
                    probe, cut, rows.committed(), (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException | AssertionError e) {
            System.out.println(
                    "[CoordinatorFirstCutTest] "
                            + runId
                            + " failed; timeline:\n"
                            + probe.timeline());
            throw e;
        } finally {
            CollectedRows.clear(runId);
            CutRaceProbe.clear(runId);
        }
    }

    @Test
    void stockPathReadsTheSplitTwiceAfterRestore() throws Exception {
        String runId = "cut-race-b-" + System.nanoTime();
        Outcome o = runForcedCut(LANE_B_JOB, runId);
        String why = o.diagnostics();
        System.out.println("[CoordinatorFirstCutTest] Lane B (stock path):" + why);

        assertTrue(o.probe.legacyPolls() > 0, "ran on Lane B" + why);
        assertEquals(0, o.probe.managedPolls(), "ran on Lane B" + why);
        assertNotNull(o.readerStateAtCut(), why);
        assertTrue(
                o.probe.landedDuringHold() && o.probe.s1AppliedBeforeBarrierN(),
                "the schedule was not forced: S1's assignment did not reach the reader while it"
                        + " held its checkpoint lock before barrier N"
                        + why);
        assertTrue(o.readerStateAtCutHasS1(), "reader's checkpoint N lacks S1" + why);
        assertTrue(o.restoredFromCut(), "the enumerator did not restore from N" + why);

        long s1Twice = 0;
        for (long seq = 0; seq < ROWS; seq++) {
            assertEquals(
                    1,
                    (int) o.counts.getOrDefault(ManagedFakeRows.payload(CutRaceSource.S0, seq), 0),
                    "S0 seq " + seq + why);
            int c = o.counts.getOrDefault(ManagedFakeRows.payload(CutRaceSource.S1, seq), 0);
            if (c == 2) {
                s1Twice++;
            }
        }
        if (s1Twice == 0) {
            fail(
                    "The stock path did NOT reproduce the coordinator-first-cut duplicate: the"
                            + " reader's checkpoint N held S1 while the enumerator's checkpoint N"
                            + " still had it pending, yet no S1 row was committed twice. The"
                            + " engine's behaviour differs from docs/en/architecture.md hazard 1."
                            + why);
        }
        assertEquals(
                ROWS,
                s1Twice,
                "every S1 row is committed exactly twice (read from the enumerator's pending"
                        + " copy and from the reader's copy)"
                        + why);
        System.out.printf(
                "[CoordinatorFirstCutTest] Lane B reproduced the duplicate: %d of %d S1 rows"
                        + " committed twice (cut N=%d, reader hold %d ms), %d ms%n",
                s1Twice, ROWS, o.cut, o.probe.holdMillis(), o.millis);
    }

    @Test
    void laneADefersThePostCutAssignmentAndCommitsEveryRowOnce() throws Exception {
        RuntimeStats.reset();
        String runId = "cut-race-a-" + System.nanoTime();
        Outcome o = runForcedCut(LANE_A_JOB, runId);
        String why = o.diagnostics();
        long deferrals = RuntimeStats.total(RuntimeStats.Counter.CUT_DEFERRALS);
        System.out.println("[CoordinatorFirstCutTest] Lane A: cut deferrals " + deferrals + why);

        assertTrue(o.probe.managedPolls() > 0, "ran on Lane A" + why);
        assertEquals(0, o.probe.legacyPolls(), "ran on Lane A" + why);
        assertTrue(RuntimeStats.readersOpened() >= 2, "a restored Lane A reader opened" + why);
        assertNotNull(o.readerStateAtCut(), why);
        assertTrue(
                o.probe.landedDuringHold(),
                "the schedule was not forced: S1's assignment was not admitted to the reader's"
                        + " mailbox while its turn held the checkpoint lock"
                        + why);
        assertFalse(o.probe.s1AppliedBeforeBarrierN(), "S1 was applied before barrier N" + why);
        assertFalse(o.readerStateAtCutHasS1(), "reader's checkpoint N holds S1" + why);
        assertTrue(o.restoredFromCut(), "the enumerator did not restore from N" + why);
        assertTrue(deferrals >= 1, "the Lane A reader deferred the post-cut command" + why);

        Map<Integer, Long> perSplit;
        try {
            perSplit = Accounting.assertContiguousExactlyOnce(o.committed, 2);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + why, e);
        }
        Map<Integer, Long> expected = new TreeMap<>();
        expected.put(CutRaceSource.S0, ROWS);
        expected.put(CutRaceSource.S1, ROWS);
        assertEquals(expected, perSplit, "per split seq 0..k-1 exactly once" + why);
        System.out.printf(
                "[CoordinatorFirstCutTest] Lane A: no duplicate, none missing (%s), cut"
                        + " deferrals %d (cut N=%d, reader turn held %d ms), %d ms%n",
                perSplit, deferrals, o.cut, o.probe.holdMillis(), o.millis);
    }
}
