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

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;

/**
 * One cancel of a Lane A job whose reader waits inside a poll turn (a {@link WakeupWaitSource}
 * reader, waiting up to 30 s for {@code wakeup()} and ignoring interrupts): submit, wait until the
 * reader is inside its wait, ask the master to cancel, and time the master's own completion of the
 * job. Shared by {@link LaneACancelAndCloseTest} and the cancel-latency runner.
 *
 * <p>Threading: one caller thread per run; runs on one engine must not overlap.
 */
public final class CancelRun {
    /** The job name the settings allowlist. */
    public static final String JOB_NAME = "lane-a-cancel";

    /** What one run saw. */
    public static final class Result {
        public final JobStatus status;
        public final String error;

        /** Cancel asked → the master completed the job, in nanoseconds. */
        public final long cancelToEndNanos;

        /** Cancel asked → the reader's {@code wakeup()} was called (-1 if it never was). */
        public final long cancelToWakeupNanos;

        /** Cancel asked → the engine closed the reader (-1 if it did not). */
        public final long cancelToReaderClosedNanos;

        public final int wakeups;
        public final int waitsWoken;
        public final int interruptsIgnored;

        Result(JobResult r, long cancelAt, long endedAt, WakeupProbe probe) {
            this.status = r.getStatus();
            this.error = r.getError();
            this.cancelToEndNanos = endedAt - cancelAt;
            long woken = probe.firstWakeupNanos.get();
            this.cancelToWakeupNanos = woken == 0 ? -1 : woken - cancelAt;
            long closed = probe.closedNanos.get();
            this.cancelToReaderClosedNanos = closed == 0 ? -1 : closed - cancelAt;
            this.wakeups = probe.wakeups.get();
            this.waitsWoken = probe.waitsWoken.get();
            this.interruptsIgnored = probe.interruptsIgnored.get();
        }
    }

    private CancelRun() {}

    /**
     * Lane A for {@link #JOB_NAME} with {@link WakeupWaitSource} and the managed FakeSource, with
     * the poll watchdog's own wakeup (hard budget) and failure (cancellation timeout) past the
     * reader's 30 s wait, so nothing but the cancel ends that wait.
     */
    public static void installSettings() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put(
                "allowed-connectors",
                Arrays.asList(
                        WakeupWaitSource.IDENTIFIER,
                        ManagedFakeSource.IDENTIFIER,
                        ManagedFakeTestingSourceFactory.IDENTIFIER));
        cfg.put("poll.hard-duration", "60s");
        cfg.put("poll.cancellation-timeout", "120s");
        LaneASettings.install(cfg);
    }

    /** One run; {@code bound} bounds each wait (reader waiting, job ending). */
    public static Result run(EmbeddedZeta zeta, Duration bound) throws Exception {
        return run(zeta, bound, false);
    }

    /**
     * One run whose reader, with {@code displaceListener}, does channel I/O before each wait and
     * waits leaving the interrupt flag set (see {@link WakeupWaitReader}).
     */
    public static Result run(EmbeddedZeta zeta, Duration bound, boolean displaceListener)
            throws Exception {
        String probeName = "cancel-" + System.nanoTime();
        WakeupProbe probe = WakeupProbe.of(probeName);
        String runId = probeName;
        try {
            String hocon =
                    ManagedJob.source(WakeupWaitSource.IDENTIFIER)
                            .name(JOB_NAME)
                            .option("probe", probeName)
                            .option("wait-millis", 30_000)
                            .option("displace-interrupt-listener", displaceListener)
                            .parallelism(1)
                            .toHocon(runId);
            long jobId = zeta.submit(hocon);
            CompletableFuture<JobResult> done = zeta.completion(jobId);
            AtomicLong endedAt = new AtomicLong();
            done.whenComplete((r, e) -> endedAt.set(System.nanoTime()));
            await().atMost(bound).until(() -> probe.waiting() || done.isDone());
            if (done.isDone()) {
                JobResult early = done.get();
                throw new AssertionError(
                        "the job ended "
                                + early.getStatus()
                                + " before its reader waited: "
                                + early.getError());
            }
            long cancelAt = System.nanoTime();
            zeta.coordinator().cancelJob(jobId);
            JobResult result = zeta.awaitResult(jobId, done, bound);
            return new Result(result, cancelAt, endedAt.get(), probe);
        } finally {
            WakeupProbe.clear(probeName);
            CollectedRows.clear(runId);
        }
    }
}
