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

package org.apache.seatunnel.engine.managed.source.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorConfig;
import org.apache.seatunnel.engine.managed.source.lane.LaneSelector;
import org.apache.seatunnel.engine.managed.source.zeta.member.MemberSettings;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every documented option changes what the runtime does: for each key declared in {@link
 * ManagedSourceOptions} (and listed in {@code docs/en/configuration.md}), a section with a value
 * other than the reference value yields a different value in the object the runtime builds from it
 * — the lane decision, the reader mailbox limits, the poll budget, the member's runtime settings or
 * the coordinator's config. A key declared without an entry here fails the build.
 */
class EveryOptionHasAnEffectTest {
    private static final ManagedSourceCapability CAPABLE =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    /** One key: the other value and what the runtime reads of it. */
    private static final class Effect {
        final Object value;
        final Function<ManagedSourceConfig, Object> probe;

        Effect(Object value, Function<ManagedSourceConfig, Object> probe) {
            this.value = value;
            this.probe = probe;
        }
    }

    private static final Map<String, Effect> EFFECTS = new LinkedHashMap<>();

    private static void effect(
            Option<?> option, Object value, Function<ManagedSourceConfig, Object> probe) {
        EFFECTS.put(option.key(), new Effect(value, probe));
    }

    private static Object lane(ManagedSourceConfig c, ManagedSourceCapability capability) {
        try {
            return LaneSelector.decide(c, "orders", "ManagedFake", capability).lane();
        } catch (IllegalArgumentException e) {
            return "refused at planning";
        }
    }

    private static MemberSettings member(ManagedSourceConfig c) {
        return MemberSettings.of(c);
    }

    private static CoordinatorConfig coordinator(ManagedSourceConfig c) {
        return c.coordinatorConfig().build();
    }

    static {
        effect(ManagedSourceOptions.ENABLED, false, c -> lane(c, CAPABLE));
        effect(ManagedSourceOptions.ALLOWED_JOBS, Arrays.asList("other"), c -> lane(c, CAPABLE));
        effect(
                ManagedSourceOptions.ALLOWED_CONNECTORS,
                Arrays.asList("Other"),
                c -> lane(c, CAPABLE));
        effect(ManagedSourceOptions.INELIGIBLE_FALLBACK, "FAIL", c -> lane(c, null));
        effect(
                ManagedSourceOptions.MAILBOX_MAX_COMMANDS,
                100,
                c -> c.mailboxLimits().maxCommands());
        effect(ManagedSourceOptions.MAILBOX_MAX_BYTES, "2 MiB", c -> c.mailboxLimits().maxBytes());
        effect(
                ManagedSourceOptions.MAILBOX_RESERVED_COMMANDS,
                8,
                c -> c.mailboxLimits().reservedCommands());
        effect(
                ManagedSourceOptions.MAILBOX_RESERVED_BYTES,
                "128 KiB",
                c -> c.mailboxLimits().reservedBytes());
        effect(
                ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES,
                "64 MiB",
                c -> member(c).workerMailboxBytes());
        effect(
                ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES,
                "64 KiB",
                c -> member(c).maxPayloadBytes() + "/" + c.mailboxLimits().maxPayloadBytes());
        effect(ManagedSourceOptions.DEDUP_WINDOW, 64, c -> c.mailboxLimits().dedupWindow());
        effect(ManagedSourceOptions.POLL_MAX_RECORDS, 8, c -> c.pollBudget().maxRecords());
        effect(ManagedSourceOptions.POLL_MAX_BYTES, "1 MiB", c -> c.pollBudget().maxBytes());
        effect(ManagedSourceOptions.POLL_SOFT_DURATION, "2ms", c -> c.pollBudget().softNanos());
        effect(ManagedSourceOptions.POLL_HARD_DURATION, "2s", c -> c.pollBudget().hardNanos());
        effect(
                ManagedSourceOptions.POLL_CANCELLATION_TIMEOUT,
                "40s",
                c -> c.pollBudget().cancellationNanos());
        effect(
                ManagedSourceOptions.SCHEMA_CHANGE_TIMEOUT,
                "30s",
                ManagedSourceConfig::schemaChangeTimeoutNanos);
        effect(
                ManagedSourceOptions.READER_MAX_OUTSTANDING_REQUESTS,
                4,
                ManagedSourceConfig::maxOutstandingRequests);
        effect(ManagedSourceOptions.READER_SPLIT_WINDOW, 64, ManagedSourceConfig::splitWindow);
        effect(
                ManagedSourceOptions.READER_INTERRUPT_CHECK_INTERVAL,
                "50ms",
                ManagedSourceConfig::interruptCheckNanos);
        effect(
                ManagedSourceOptions.BARRIER_HANDOFF_TIMEOUT,
                "0ms",
                ManagedSourceConfig::barrierHandoffNanos);
        effect(
                ManagedSourceOptions.OUTPUT_IN_FLIGHT_TARGET,
                "200ms",
                ManagedSourceConfig::outputInFlightTargetNanos);
        effect(
                ManagedSourceOptions.COORDINATOR_SNAPSHOT_TIMEOUT,
                "3s",
                c -> coordinator(c).snapshotTimeout());
        effect(
                ManagedSourceOptions.COORDINATOR_SNAPSHOT_SLOW_THRESHOLD,
                "200ms",
                c -> coordinator(c).snapshotSlowThreshold());
        effect(
                ManagedSourceOptions.ADMISSION_P99_BUDGET,
                "2ms",
                c -> member(c).admissionBudgetNanos());
        effect(
                ManagedSourceOptions.REPORT_BATCH_WINDOW,
                "0ms",
                c -> member(c).reportBatchWindowMillis());
        effect(
                ManagedSourceOptions.REPORT_BATCH_MAX_REPORTS,
                16,
                c -> member(c).reportBatchMaxReports());
        effect(
                ManagedSourceOptions.RETRY_INITIAL_BACKOFF,
                "20ms",
                c ->
                        member(c).retryPolicy()
                                + " "
                                + coordinator(c).retryPolicy()
                                + " "
                                + c.mailboxLimits().retryAfterMillis());
        effect(
                ManagedSourceOptions.RETRY_MAX_BACKOFF,
                "2s",
                c -> member(c).retryPolicy() + " " + coordinator(c).retryPolicy());
        effect(
                ManagedSourceOptions.RETRY_MAX_ATTEMPTS,
                7,
                c -> member(c).retryPolicy() + " " + coordinator(c).retryPolicy());
        effect(
                ManagedSourceOptions.COORDINATOR_ASYNC_MAX_CONCURRENCY,
                2,
                c -> coordinator(c).asyncMaxConcurrency());
        effect(
                ManagedSourceOptions.COORDINATOR_ASYNC_QUEUE_CAPACITY,
                0,
                c -> coordinator(c).asyncQueueCapacity());
        effect(
                ManagedSourceOptions.ASYNC_DISCOVERY_THREADS,
                1,
                c -> member(c).asyncThreads(WorkerClass.DISCOVERY));
        effect(
                ManagedSourceOptions.ASYNC_DISCOVERY_QUEUE,
                3,
                c -> member(c).asyncQueueCapacity(WorkerClass.DISCOVERY));
        effect(
                ManagedSourceOptions.ASYNC_COMPUTE_THREADS,
                5,
                c -> member(c).asyncThreads(WorkerClass.COMPUTE));
        effect(
                ManagedSourceOptions.ASYNC_COMPUTE_QUEUE,
                3,
                c -> member(c).asyncQueueCapacity(WorkerClass.COMPUTE));
        effect(
                ManagedSourceOptions.TRACKER_MAX_ENTRIES,
                10,
                c -> coordinator(c).maxTrackerEntries());
        effect(
                ManagedSourceOptions.TRACKER_MAX_BYTES,
                "1 MiB",
                c -> coordinator(c).maxTrackerBytes());
        effect(
                ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_ENTRIES,
                10,
                c -> coordinator(c).maxUnassignedEntries());
        effect(
                ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_BYTES,
                "1 MiB",
                c -> coordinator(c).maxUnassignedBytes());
        effect(
                ManagedSourceOptions.COORDINATOR_MAX_SPLITS_PER_COMMAND,
                8,
                c -> coordinator(c).maxSplitsPerCommand());
        effect(
                ManagedSourceOptions.MAILBOX_MAX_SEQUENCE_GAPS,
                16,
                c -> c.mailboxLimits().maxSequenceGaps());
        effect(
                ManagedSourceOptions.COMMAND_BATCH_MAX_COMMANDS,
                8,
                c -> member(c).commandBatchMaxCommands());
        effect(ManagedSourceOptions.CUT_HOLD_TIMEOUT, "5s", c -> c.pollBudget().cutHoldNanos());
        effect(ManagedSourceOptions.IDLE_WAIT, "50ms", c -> c.pollBudget().idlePollNanos());
        effect(ManagedSourceOptions.POLL_LINGER, "20ms", c -> c.pollBudget().lingerNanos());
        // Four readers on the member: 16 ms at the default budget, 40 ms at 100 wake-ups/s.
        effect(ManagedSourceOptions.WAKE_BUDGET, 100, c -> c.pollLinger(() -> 4).nanos());
        effect(
                ManagedSourceOptions.OFF_LOOP_CHECK_ENABLED,
                true,
                ManagedSourceConfig::offLoopCheckEnabled);
        effect(
                ManagedSourceOptions.OFF_LOOP_CHECK_INTERVAL,
                1,
                ManagedSourceConfig::offLoopCheckInterval);
        effect(
                ManagedSourceOptions.READER_METRICS_LEVEL,
                "DETAILED",
                ManagedSourceConfig::readerMetricsLevel);
        effect(
                ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT,
                "3s",
                c -> member(c).closeTimeoutMillis());
    }

    /** The reference section: Lane A on for job {@code orders} and connector ManagedFake. */
    private static Map<String, Object> reference() {
        Map<String, Object> m = new HashMap<>();
        m.put("enabled", true);
        m.put("allowed-jobs", Arrays.asList("orders"));
        m.put("allowed-connectors", Arrays.asList("ManagedFake"));
        return m;
    }

    @Test
    void everyDeclaredKeyHasAnEntryAndNoEntryIsUndeclared() {
        TreeSet<String> declared = new TreeSet<>();
        for (Option<?> o : ManagedSourceOptions.all()) {
            declared.add(o.key());
        }
        assertEquals(declared, new TreeSet<>(EFFECTS.keySet()));
    }

    @Test
    void everyKeyInTheEnglishConfigurationPageIsDeclared() throws Exception {
        String doc =
                new String(
                        Files.readAllBytes(Paths.get("..", "docs", "en", "configuration.md")),
                        StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?m)^\\| `([a-z0-9.\\-]+)` \\|").matcher(doc);
        TreeSet<String> documented = new TreeSet<>();
        while (m.find()) {
            documented.add(m.group(1));
        }
        assertEquals(new TreeSet<>(EFFECTS.keySet()), documented);
    }

    @TestFactory
    Iterable<DynamicTest> eachKeyChangesWhatTheRuntimeBuilds() {
        ManagedSourceConfig reference = ManagedSourceConfig.fromMap(reference());
        java.util.List<DynamicTest> tests = new java.util.ArrayList<>();
        for (Map.Entry<String, Effect> e : EFFECTS.entrySet()) {
            tests.add(
                    DynamicTest.dynamicTest(
                            e.getKey(),
                            () -> {
                                Map<String, Object> m = reference();
                                m.put(e.getKey(), e.getValue().value);
                                ManagedSourceConfig changed = ManagedSourceConfig.fromMap(m);
                                assertNotEquals(
                                        e.getValue().probe.apply(reference),
                                        e.getValue().probe.apply(changed),
                                        e.getKey() + " = " + e.getValue().value);
                            }));
        }
        return tests;
    }
}
