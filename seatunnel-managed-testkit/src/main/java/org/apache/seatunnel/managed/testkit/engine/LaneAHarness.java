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

package org.apache.seatunnel.managed.testkit.engine;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a connector's bounded job on a real embedded Zeta 2.3.8 engine, on Lane A or on Lane B, and
 * hands back what the sink committed.
 *
 * <pre>{@code
 * try (LaneAHarness h = LaneAHarness.start("my-range-test", 5801)) {
 *     ManagedJob job = ManagedJob.source("MyRange").option("count", 100).parallelism(2);
 *     RunResult a = h.runBounded(job);             // Lane A
 *     RunResult b = h.runBoundedOnLaneB(job);      // the same job with the kill switch off
 *     a.assertFinishedExactlyOnce(expectedKeys);
 * }
 * }</pre>
 *
 * <p>Threading: one test thread. Runs are sequential; each installs the JVM-wide managed-source
 * settings ({@link LaneASettings}) for its job, and {@link #close()} clears them. The lane check
 * reads the runtime's JVM-wide counters ({@link RuntimeStats}), so no other job may open Lane A
 * readers in this JVM during a run.
 *
 * <p>Each run: installs the settings (Lane A: enabled, allowlisting exactly the job's name and
 * connector; Lane B: the same allowlists with the kill switch off; every other setting the test
 * installed with {@link LaneASettings#install(java.util.Map)} stays), submits {@link
 * ManagedJob#toHocon} under a fresh run id with the engine's {@code checkpoint.interval} unless the
 * job sets its own ({@link #jobDefaults()}), waits (bounded by {@link #timeout}) for the end state,
 * takes the sink's written and committed keys and checks that the job really ran on the lane asked
 * for: a connector that is not Lane A capable (no {@code SupportManagedSource}, or a capability the
 * runtime refuses) is planned on Lane B, and that must fail a test that asked for Lane A.
 */
public final class LaneAHarness implements AutoCloseable {
    /** Default bound of one run, submission to end state. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    private static final Logger LOG = LoggerFactory.getLogger(LaneAHarness.class);
    private static final AtomicLong RUNS = new AtomicLong();

    private final EmbeddedZeta zeta;
    private final boolean ownsZeta;
    private Duration timeout = DEFAULT_TIMEOUT;

    private LaneAHarness(EmbeddedZeta zeta, boolean ownsZeta) {
        this.zeta = zeta;
        this.ownsZeta = ownsZeta;
    }

    /**
     * Starts one member on {@code 127.0.0.1:basePort} (checkpoint every second) that the harness
     * closes.
     *
     * @param clusterName unique per test class, so concurrent test JVMs never join each other
     */
    public static LaneAHarness start(String clusterName, int basePort) {
        return start(EmbeddedZeta.builder(clusterName, basePort));
    }

    /** Starts the engine {@code builder} describes; the harness closes it. */
    public static LaneAHarness start(EmbeddedZeta.Builder builder) {
        return new LaneAHarness(builder.start(), true);
    }

    /** Runs jobs on an engine the caller owns (and closes). */
    public static LaneAHarness on(EmbeddedZeta zeta) {
        return new LaneAHarness(zeta, false);
    }

    /** The bound of each run from submission to end state; default {@link #DEFAULT_TIMEOUT}. */
    public LaneAHarness timeout(Duration bound) {
        this.timeout = bound;
        return this;
    }

    public EmbeddedZeta zeta() {
        return zeta;
    }

    /**
     * What each run adds to its job's {@code env} unless the job sets it: {@code
     * checkpoint.interval}, the engine's interval. Zeta 2.3.8 takes no periodic checkpoint of a
     * BATCH job without it, so a fail-after-checkpoint test would never fire and a savepoint would
     * fail ("CheckpointCoordinator shutdown").
     */
    public Map<String, Object> jobDefaults() {
        return Collections.singletonMap(
                "checkpoint.interval", (Object) zeta.checkpointIntervalMillis());
    }

    /** Runs {@code job} on Lane A and waits for its end state. */
    public RunResult runBounded(ManagedJob job) {
        return runBounded(job, Lane.A);
    }

    /**
     * Runs {@code job} on Lane B (the same job with the kill switch off) and waits for its end
     * state: what the stock engine does with the connector, without importing the runtime's {@link
     * Lane}.
     */
    public RunResult runBoundedOnLaneB(ManagedJob job) {
        return runBounded(job, Lane.B);
    }

    /**
     * Runs {@code job} on {@code lane} and waits for its end state.
     *
     * @throws AssertionError if the job does not end within the timeout (it is cancelled), or ran
     *     on the other lane
     */
    public RunResult runBounded(ManagedJob job, Lane lane) {
        LaneASettings.installLane(
                lane == Lane.A,
                Collections.singletonList(job.name()),
                Collections.singletonList(job.connector()));
        String runId = zeta.clusterName() + "-" + job.name() + "-" + RUNS.incrementAndGet();
        long readersBefore = RuntimeStats.readersOpened();
        long t0 = System.nanoTime();
        long jobId = zeta.submit(job.toHocon(runId, jobDefaults()));
        LOG.info("Job {} ({}) submitted for Lane {} as run {}", jobId, job.name(), lane, runId);
        RunResult run;
        try {
            JobResult result = awaitEnd(jobId);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
            long laneAReaders = RuntimeStats.readersOpened() - readersBefore;
            CollectedRows rows = CollectedRows.of(runId);
            run =
                    new RunResult(
                            jobId,
                            runId,
                            lane,
                            result.getStatus(),
                            result.getError(),
                            rows.written(),
                            rows.committed(),
                            laneAReaders,
                            elapsed);
        } finally {
            CollectedRows.clear(runId);
        }
        long laneAReaders = run.laneAReadersOpened();
        LOG.info("Job {} ended: {}", jobId, run);
        if (lane == Lane.A && laneAReaders == 0) {
            throw new AssertionError(
                    "job "
                            + job.name()
                            + " was asked to run on Lane A but no Lane A reader opened; the log"
                            + " line 'Source "
                            + job.connector()
                            + " of job "
                            + job.name()
                            + " planned on ...' says why ("
                            + run
                            + ", error: "
                            + run.error()
                            + ")");
        }
        if (lane == Lane.B && laneAReaders != 0) {
            throw new AssertionError(
                    "job "
                            + job.name()
                            + " was asked to run on Lane B but opened "
                            + laneAReaders
                            + " Lane A readers");
        }
        return run;
    }

    private JobResult awaitEnd(long jobId) {
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        try {
            return zeta.awaitResult(jobId, done, timeout);
        } catch (AssertionError e) {
            if (!done.isDone()) {
                try {
                    zeta.cancel(jobId, Duration.ofSeconds(30));
                } catch (Exception cancelFailed) {
                    LOG.warn("Cancelling job {} after its timeout failed", jobId, cancelFailed);
                }
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for job " + jobId, e);
        }
    }

    /** Clears the managed-source settings and closes the engine if the harness started it. */
    @Override
    public void close() {
        try {
            LaneASettings.clear();
        } finally {
            if (ownsZeta) {
                zeta.close();
            }
        }
    }
}
