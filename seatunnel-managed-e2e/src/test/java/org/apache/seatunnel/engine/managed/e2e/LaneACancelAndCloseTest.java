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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cancel and close on a real engine. Zeta cancels a task by interrupting its thread; a Lane A
 * reader waiting inside a poll turn for {@code wakeup()} (ignoring interrupts, up to 30 s) is
 * reached through the attempt's terminal signal: the member's interrupt check sees the interrupted
 * task thread, cancels the attempt, the mailbox calls {@code wakeup()}, the turn returns and the
 * job ends CANCELED long before the wait would have. A savepoint (the engine's prepare-close)
 * closes every reader gracefully: each enters {@code DRAINING} through the runtime's graceful-close
 * command.
 */
class LaneACancelAndCloseTest {
    // Well inside the reader's 30 s wait: a job still running then was not reached by the cancel.
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static LaneAHarness harness;
    private static LogCapture logs;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("lane-a-cancel-close", 24520);
        CancelRun.installSettings();
        logs = LogCapture.attach("org.apache.seatunnel.engine.managed");
    }

    @AfterAll
    static void stop() {
        if (logs != null) {
            logs.close();
        }
        if (harness != null) {
            harness.close();
        }
        LaneASettings.clear();
    }

    private static List<String> lines(String text) {
        return logs.lines().stream().filter(l -> l.contains(text)).collect(Collectors.toList());
    }

    @Test
    void cancelWakesAReaderWaitingInsideATurnAndTheJobEndsCanceled() throws Exception {
        RuntimeStats.reset();
        CancelRun.Result r = CancelRun.run(harness.zeta(), BOUND);
        System.out.printf(
                "[LaneACancelAndCloseTest] %s in %d ms after the cancel (wakeups %d, waits woken"
                        + " %d, interrupts ignored %d)%n",
                r.status,
                r.cancelToEndNanos / 1_000_000,
                r.wakeups,
                r.waitsWoken,
                r.interruptsIgnored);
        assertEquals(JobStatus.CANCELED, r.status, "error: " + r.error);
        assertTrue(r.wakeups >= 1, "the reader's wakeup() was called");
        assertEquals(1, r.waitsWoken, "the wait ended through wakeup(), not its 30 s timeout");
        assertEquals(1, RuntimeStats.readersOpened(), "the job ran on Lane A");
        assertEquals(0, RuntimeStats.readersLive(), "the reader closed");
        assertTrue(
                !lines("task thread interrupted by the engine").isEmpty(),
                "the interrupt check turned the engine's interrupt into the cancel signal");
        assertTrue(!lines("terminated: TerminalSignal{CANCEL").isEmpty(), "CANCELLING path");
    }

    /**
     * The fallback: the reader's channel I/O took the runtime's interrupt listener off the task
     * thread and its wait leaves the interrupt flag set. The member's turn watchdog finds the turn
     * running, starts the interrupt check, and the check turns the flag into the cancel.
     */
    @Test
    void cancelReachesAReaderWhoseChannelIoDisplacedTheInterruptListener() throws Exception {
        RuntimeStats.reset();
        int before = lines("task thread interrupted by the engine").size();
        CancelRun.Result r = CancelRun.run(harness.zeta(), BOUND, true);
        System.out.printf(
                "[LaneACancelAndCloseTest] displaced listener: %s in %d ms after the cancel"
                        + " (cancel -> wakeup %d ms)%n",
                r.status, r.cancelToEndNanos / 1_000_000, r.cancelToWakeupNanos / 1_000_000);
        assertEquals(JobStatus.CANCELED, r.status, "error: " + r.error);
        assertEquals(1, r.interruptsIgnored, "the wait saw the interrupt flag and kept waiting");
        assertEquals(1, r.waitsWoken, "the wait ended through wakeup(), not its 30 s timeout");
        assertEquals(1, RuntimeStats.readersOpened(), "the job ran on Lane A");
        assertEquals(0, RuntimeStats.readersLive(), "the reader closed");
        assertTrue(
                lines("task thread interrupted by the engine").size() > before,
                "the interrupt check turned the engine's interrupt into the cancel signal");
    }

    @Test
    void aSavepointClosesEveryReaderGracefully() throws Exception {
        EmbeddedZeta zeta = harness.zeta();
        String runId = "graceful-close";
        CollectedRows rows = CollectedRows.of(runId);
        int before = lines("closes gracefully").size();
        RuntimeStats.reset();
        long jobId =
                zeta.submit(
                        ManagedJobs.streamingTesting(
                                CancelRun.JOB_NAME,
                                "    split.count = 4\n    bounded = false\n"
                                        + "    rows.per.second = 300\n",
                                runId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= 100);
        zeta.savePoint(jobId, BOUND);
        assertEquals(JobStatus.SAVEPOINT_DONE, zeta.awaitTerminal(jobId, BOUND));
        assertEquals(2, RuntimeStats.readersOpened(), "the job ran on Lane A");
        List<String> graceful = lines("closes gracefully");
        System.out.printf(
                "[LaneACancelAndCloseTest] savepoint: %d readers closed gracefully%n",
                graceful.size() - before);
        assertEquals(2, graceful.size() - before, "each reader entered DRAINING: " + graceful);
        Accounting.assertContiguousExactlyOnce(rows.committed(), 4);
        CollectedRows.clear(runId);
    }
}
