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

package org.apache.seatunnel.connectors.managed.kafka;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RowAccounting;
import org.apache.seatunnel.managed.testkit.engine.RowKeys;
import org.apache.seatunnel.managed.testkit.engine.RunResult;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ManagedKafka on a real embedded Zeta engine against a real Kafka broker (KRaft, child JVM), Lane
 * A, p=2, 8 partitions, with exact accounting in the testkit's exactly-once sink; and the stock
 * {@code Kafka} source on Lane B under the same offset-commit check.
 */
class ManagedKafkaOnEngineTest {
    private static final int PARTITIONS = 8;
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static KafkaTestBroker broker;
    private static LaneAHarness harness;

    @BeforeAll
    static void start() throws Exception {
        broker = KafkaTestBroker.start();
        harness = LaneAHarness.start("managed-kafka-engine", 22640);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (harness != null) {
                harness.close();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** Fills every partition of a new topic with {@code perPartition} values "t/p/i". */
    static List<String> fill(String topic, int partitions, int from, int perPartition)
            throws Exception {
        List<String> keys = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            List<String> values = new ArrayList<>();
            for (int i = from; i < from + perPartition; i++) {
                values.add(topic + "/" + p + "/" + i);
            }
            broker.produce(topic, p, values);
            for (String v : values) {
                keys.add(key(v));
            }
        }
        return keys;
    }

    /**
     * The sink's key of a value: without a {@code schema} the Kafka source (stock and managed)
     * produces one column {@code content} holding a row with the text.
     */
    static String key(String value) {
        return RowKeys.ofFields(new SeaTunnelRow(new Object[] {value}));
    }

    private static ManagedJob kafkaJob(String name, String topic) {
        return ManagedJob.source(ManagedKafkaSourceFactory.IDENTIFIER)
                .name(name)
                .option("bootstrap.servers", broker.bootstrap())
                .option("topic", topic)
                .option("start_mode", "earliest")
                .option("consumer.group", name)
                .option("poll.timeout", 200)
                .parallelism(2);
    }

    @Test
    void boundedJobReadsEveryPartitionToItsEndOffsetExactlyOnce() throws Exception {
        String topic = "bounded-8";
        broker.createTopic(topic, PARTITIONS);
        // The last partition stays empty: its split ends at once.
        List<String> expected = fill(topic, PARTITIONS - 1, 0, 250);
        RunResult run = harness.runBounded(kafkaJob("kafka-bounded", topic));
        assertEquals(JobStatus.FINISHED, run.status(), run.error());
        run.assertFinishedExactlyOnce(expected);
        assertTrue(run.laneAReadersOpened() >= 2, run.toString());
    }

    /**
     * A streaming job into {@code TestkitCollect} run {@code runId}: through the {@code Managed}
     * source when {@code connector} is a managed one (Lane A as allowed), else the stock source
     * block itself (Lane B).
     */
    static String streamingJob(
            String connector,
            String jobName,
            String topic,
            String group,
            long checkpointMillis,
            String extraOptions,
            String runId) {
        StringBuilder sb = new StringBuilder();
        sb.append("env {\n  job.mode = \"STREAMING\"\n  parallelism = 2\n")
                .append("  checkpoint.interval = ")
                .append(checkpointMillis)
                .append("\n}\nsource {\n");
        if (connector.equals("Kafka")) {
            sb.append("  Kafka {\n");
        } else {
            sb.append("  Managed {\n    connector = \"")
                    .append(connector)
                    .append("\"\n    job-name = \"")
                    .append(jobName)
                    .append("\"\n");
        }
        sb.append("    bootstrap.servers = \"")
                .append(broker.bootstrap())
                .append("\"\n    topic = \"")
                .append(topic)
                .append("\"\n    start_mode = \"earliest\"\n    consumer.group = \"")
                .append(group)
                .append("\"\n    poll.timeout = 200\n")
                .append(extraOptions)
                .append("  }\n}\nsink {\n  TestkitCollect {\n    run.id = \"")
                .append(runId)
                .append("\"\n    key.field = \"\"\n  }\n}\n");
        return sb.toString();
    }

    private static void allowLaneA(String jobName, String connector) {
        LaneASettings.install(true, Arrays.asList(jobName), Arrays.asList(connector));
    }

    @Test
    void theSameSourceRunsABoundedJobOnLaneBExactlyOnce() throws Exception {
        String topic = "bounded-lane-b";
        broker.createTopic(topic, PARTITIONS);
        List<String> expected = fill(topic, PARTITIONS, 0, 50);
        RunResult run = harness.runBounded(kafkaJob("kafka-bounded-b", topic), Lane.B);
        assertEquals(JobStatus.FINISHED, run.status(), run.error());
        run.assertFinishedExactlyOnce(expected);
    }

    @Test
    void readerFailureMidStreamRestoresFromLastCheckpointWithNoLossNoDuplicate() throws Exception {
        String topic = "stream-fail";
        String runId = "kafka-stream-fail";
        String faultId = "kafka-fault-" + System.nanoTime();
        broker.createTopic(topic, PARTITIONS);
        List<String> expected = fill(topic, PARTITIONS, 0, 200);
        allowLaneA("kafka-stream-fail", FaultyKafkaSourceFactory.IDENTIFIER);
        EmbeddedZeta zeta = harness.zeta();
        CollectedRows rows = CollectedRows.of(runId);
        long readersBefore = RuntimeStats.readersOpened();
        long jobId =
                zeta.submit(
                        streamingJob(
                                FaultyKafkaSourceFactory.IDENTIFIER,
                                "kafka-stream-fail",
                                topic,
                                "g-stream-fail",
                                1000,
                                "    fault.id = \"" + faultId + "\"\n    fail.once.at.row = 700\n",
                                runId));
        await().atMost(BOUND).until(() -> FaultyKafkaSourceFactory.fired(faultId));
        await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
        // More records while the restored job runs: read from the restored offsets on.
        expected.addAll(fill(topic, PARTITIONS, 200, 100));
        await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
        assertEquals(JobStatus.RUNNING, zeta.status(jobId));
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        RowAccounting.assertExactlyOnce(expected, rows.committed());
        assertTrue(
                RuntimeStats.readersOpened() - readersBefore >= 4,
                "two Lane A readers opened, then two restored ones");
        System.out.printf(
                "[ManagedKafkaOnEngineTest] reader failure: committed %d, written %d (replayed"
                        + " %d)%n",
                rows.committed().size(),
                rows.writtenCount(),
                rows.writtenCount() - rows.committed().size());
        CollectedRows.clear(runId);
    }

    @Test
    void partitionsAddedWhileRunningAreDiscoveredAndRead() throws Exception {
        String topic = "discovery";
        String runId = "kafka-discovery";
        broker.createTopic(topic, 4);
        List<String> expected = fill(topic, 4, 0, 50);
        allowLaneA("kafka-discovery", ManagedKafkaSourceFactory.IDENTIFIER);
        EmbeddedZeta zeta = harness.zeta();
        CollectedRows rows = CollectedRows.of(runId);
        long jobId =
                zeta.submit(
                        streamingJob(
                                ManagedKafkaSourceFactory.IDENTIFIER,
                                "kafka-discovery",
                                topic,
                                "g-discovery",
                                1000,
                                "    partition-discovery.interval-millis = 300\n",
                                runId));
        await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
        broker.addPartitions(topic, PARTITIONS);
        for (int p = 4; p < PARTITIONS; p++) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                values.add(topic + "/" + p + "/" + i);
                expected.add(key(topic + "/" + p + "/" + i));
            }
            broker.produce(topic, p, values);
        }
        await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        RowAccounting.assertExactlyOnce(expected, rows.committed());
        CollectedRows.clear(runId);
    }

    /**
     * The offset check on Lane A: while no checkpoint completes (the interval is 10 minutes) the
     * consumer group has no committed offset although every record was read and the consumer would
     * auto-commit every 100 ms; once the job restored from a savepoint checkpoints, the group's
     * offsets reach the end; the restored job resumed exactly at the savepoint's offsets.
     */
    @Test
    void committedOffsetsNeverRunAheadOfCompletedCheckpointsAndRestoreResumesThere()
            throws Exception {
        OffsetCheck check = offsetCheck(ManagedKafkaSourceFactory.IDENTIFIER, "lane-a");
        assertEquals(JobStatus.SAVEPOINT_DONE, check.savepointStatus, check.toString());
        assertTrue(check.committedBeforeAnyCheckpoint.isEmpty(), check.toString());
        // The savepoint's completion reaches the readers before they close: its offsets are
        // committed, as the stock connector does on Lane B.
        assertEquals(check.savepointOffsets(), check.committedAfterSavepoint, check.toString());
        assertEquals(check.endOffsets, check.committedAfterCheckpoints, check.toString());
        RowAccounting.assertExactlyOnce(check.expected, check.committedRows);
    }

    /** What one lane did in {@link #offsetCheck}. */
    static final class OffsetCheck {
        final Map<Integer, Long> committedBeforeAnyCheckpoint = new HashMap<>();

        /** Every partition held 100 records when the savepoint was taken, all read. */
        Map<Integer, Long> savepointOffsets() {
            Map<Integer, Long> m = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                m.put(p, 100L);
            }
            return m;
        }

        final Map<Integer, Long> endOffsets = new HashMap<>();
        final Map<Integer, Long> committedAfterSavepoint = new HashMap<>();
        final Map<Integer, Long> committedAfterCheckpoints = new HashMap<>();
        JobStatus savepointStatus;
        final List<String> expected = new ArrayList<>();
        final List<String> committedRows = new ArrayList<>();
        int rowsReadBeforeSavepoint;

        /** Expected rows never committed. */
        int missing() {
            Map<String, Integer> have = RowAccounting.multiset(committedRows);
            int missing = 0;
            for (String k : expected) {
                if (!have.containsKey(k)) {
                    missing++;
                }
            }
            return missing;
        }

        @Override
        public String toString() {
            return "rows read before the savepoint "
                    + rowsReadBeforeSavepoint
                    + ", group offsets while no checkpoint completed "
                    + committedBeforeAnyCheckpoint
                    + ", savepoint "
                    + savepointStatus
                    + ", group offsets after the savepoint "
                    + committedAfterSavepoint
                    + ", end offsets "
                    + endOffsets
                    + ", group offsets after the restored job checkpointed "
                    + committedAfterCheckpoints
                    + "; rows committed "
                    + committedRows.size()
                    + " for "
                    + expected.size()
                    + " expected: "
                    + RowAccounting.duplicates(committedRows).size()
                    + " keys duplicated, "
                    + missing()
                    + " missing";
        }
    }

    /**
     * Runs the offset check for {@code connector} ({@code Kafka}: the stock source on Lane B; a
     * {@code lane} ending in {@code -b}: Lane A off): 8 partitions × 100 records read by a
     * streaming job whose checkpoint interval is 10 minutes and whose consumer would auto-commit
     * every 100 ms; the group's offsets are sampled for 2 s after everything was read; then a
     * savepoint, 100 more records per partition, and a restore that checkpoints every 500 ms.
     * Records what happened; waits that time out are recorded, not thrown, so a lane that loses or
     * stalls is reported.
     */
    static OffsetCheck offsetCheck(String connector, String lane) throws Exception {
        String topic = "offsets-" + lane;
        String group = "g-offsets-" + lane;
        String jobName = "kafka-offsets-" + lane;
        String runId = "kafka-offsets-" + lane;
        broker.createTopic(topic, PARTITIONS);
        OffsetCheck check = new OffsetCheck();
        check.expected.addAll(fill(topic, PARTITIONS, 0, 100));
        if (connector.equals("Kafka") || lane.endsWith("-b")) {
            LaneASettings.install(false, Arrays.asList(jobName), Arrays.asList(connector));
        } else {
            allowLaneA(jobName, connector);
        }
        EmbeddedZeta zeta = harness.zeta();
        CollectedRows rows = CollectedRows.of(runId);
        String options =
                "    kafka.config = {\n      \"auto.commit.interval.ms\" = \"100\"\n    }\n";
        long jobId =
                zeta.submit(
                        streamingJob(connector, jobName, topic, group, 600_000, options, runId));
        // Sample the group from submission until 2 s after everything was read: an auto-commit
        // (every 100 ms) would show here.
        long[] readAt = {0};
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            check.committedBeforeAnyCheckpoint.putAll(
                                    broker.committed(group, topic));
                            if (readAt[0] == 0 && rows.writtenCount() >= check.expected.size()) {
                                readAt[0] = System.nanoTime();
                            }
                            return readAt[0] != 0
                                    && System.nanoTime() - readAt[0]
                                            >= Duration.ofSeconds(2).toNanos();
                        });
        check.rowsReadBeforeSavepoint = rows.writtenCount();
        zeta.savePoint(jobId, BOUND);
        check.savepointStatus = zeta.awaitTerminal(jobId, BOUND);
        awaitQuietly(
                () -> {
                    check.committedAfterSavepoint.putAll(broker.committed(group, topic));
                    return check.committedAfterSavepoint.size() == PARTITIONS
                            && check.committedAfterSavepoint.values().stream()
                                    .allMatch(o -> o == 100);
                },
                Duration.ofSeconds(3));
        check.expected.addAll(fill(topic, PARTITIONS, 100, 100));
        check.endOffsets.putAll(broker.endOffsets(topic, PARTITIONS));
        zeta.assumeRestorable(jobId);
        zeta.submit(
                jobId, streamingJob(connector, jobName, topic, group, 500, options, runId), true);
        boolean caughtUp =
                awaitQuietly(
                        () ->
                                rows.committed().size() >= check.expected.size()
                                        && check.endOffsets.equals(broker.committed(group, topic)));
        if (caughtUp) {
            // A duplicate would arrive with the other rows; give it 2 s to show.
            long settle = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() >= settle);
        }
        check.committedAfterCheckpoints.putAll(broker.committed(group, topic));
        zeta.cancel(jobId, BOUND);
        zeta.awaitTerminal(jobId, BOUND);
        check.committedRows.addAll(rows.committed());
        System.out.printf("[ManagedKafkaOnEngineTest] offset check %s: %s%n", lane, check);
        CollectedRows.clear(runId);
        return check;
    }

    private static boolean awaitQuietly(java.util.concurrent.Callable<Boolean> condition) {
        return awaitQuietly(condition, Duration.ofSeconds(30));
    }

    private static boolean awaitQuietly(
            java.util.concurrent.Callable<Boolean> condition, Duration bound) {
        try {
            await().atMost(bound).ignoreExceptions().until(condition);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /**
     * The same check on the stock {@code Kafka} source of connector-kafka 2.3.8 on Lane B: it is
     * not exactly once across a savepoint, in one of two ways. Usually, with {@code start_mode =
     * earliest}, a restored reader seeks to the beginning again instead of the checkpointed
     * offsets, so every record read before the savepoint is committed twice
     * (apache/seatunnel#10574). In some runs (once in CI) the restored job read nothing within the
     * 30 s wait, so the records produced after the savepoint are missing. Its auto-commit (on with
     * {@code commit_on_checkpoint = true}, #8899) shows in the group's offsets only if a tick falls
     * while partitions are still assigned, which in a 2.3.8 streaming job ends once the start-time
     * end offsets are reached (#7971): printed, not asserted.
     */
    @Test
    void stockKafkaSourceOnLaneBIsNotExactlyOnceAfterRestore() throws Exception {
        OffsetCheck check = offsetCheck("Kafka", "lane-b");
        assertEquals(JobStatus.SAVEPOINT_DONE, check.savepointStatus, check.toString());
        int before = 100 * PARTITIONS;
        int duplicated = RowAccounting.duplicates(check.committedRows).size();
        int missing = check.missing();
        boolean rereadEverything = duplicated == before && missing == 0;
        boolean readNothingAfterRestore =
                duplicated == 0 && missing == before && check.committedRows.size() == before;
        assertTrue(rereadEverything || readNothingAfterRestore, check.toString());
    }

    /**
     * ManagedKafka named through {@code Managed} with Lane A off runs on Lane B and passes the same
     * check; there the engine delivers the savepoint's completion before the reader closes, so the
     * group's offsets are the savepoint's right after it, as on Lane A.
     */
    @Test
    void onLaneBTheSameSourceCommitsOnlyCompletedCheckpointsIncludingTheSavepoint()
            throws Exception {
        OffsetCheck check = offsetCheck(ManagedKafkaSourceFactory.IDENTIFIER, "managed-b");
        assertEquals(JobStatus.SAVEPOINT_DONE, check.savepointStatus, check.toString());
        assertTrue(check.committedBeforeAnyCheckpoint.isEmpty(), check.toString());
        Map<Integer, Long> savepointOffsets = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            savepointOffsets.put(p, 100L);
        }
        assertEquals(savepointOffsets, check.committedAfterSavepoint, check.toString());
        assertEquals(check.endOffsets, check.committedAfterCheckpoints, check.toString());
        RowAccounting.assertExactlyOnce(check.expected, check.committedRows);
    }

    @Test
    void aMissingTopicFailsTheJobNamingTheTopic() throws Exception {
        RunResult run = harness.runBounded(kafkaJob("kafka-missing-topic", "no-such-topic"));
        assertEquals(JobStatus.FAILED, run.status());
        assertTrue(run.error().contains("no-such-topic"), run.error());
        assertTrue(run.error().contains("'topic'"), run.error());
    }

    @Test
    void anUnreachableBootstrapServerFailsTheJobNamingTheOption() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        RunResult run =
                harness.runBounded(
                        kafkaJob("kafka-bad-bootstrap", "bounded-8")
                                .option("bootstrap.servers", "127.0.0.1:" + closedPort)
                                .option("managed.discovery.timeout-ms", 1500));
        assertEquals(JobStatus.FAILED, run.status());
        assertTrue(run.error().contains("bootstrap.servers=127.0.0.1:" + closedPort), run.error());
        assertFalse(run.error().isEmpty());
    }
}
