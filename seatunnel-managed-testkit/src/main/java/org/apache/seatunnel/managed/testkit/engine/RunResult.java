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
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.lane.Lane;

/**
 * What one {@link LaneAHarness} run ended with: the job's end state and the row keys its sink saw.
 *
 * <p>Threading: immutable, any thread.
 */
public final class RunResult {
    private final long jobId;
    private final String runId;
    private final Lane lane;
    private final JobStatus status;
    private final String error;
    private final List<String> written;
    private final List<String> committed;
    private final long laneAReadersOpened;
    private final Duration elapsed;

    RunResult(
            long jobId,
            String runId,
            Lane lane,
            JobStatus status,
            String error,
            List<String> written,
            List<String> committed,
            long laneAReadersOpened,
            Duration elapsed) {
        this.jobId = jobId;
        this.runId = runId;
        this.lane = lane;
        this.status = status;
        this.error = error;
        this.written = Collections.unmodifiableList(written);
        this.committed = Collections.unmodifiableList(committed);
        this.laneAReadersOpened = laneAReadersOpened;
        this.elapsed = elapsed;
    }

    public long jobId() {
        return jobId;
    }

    /** The {@link CollectedRows} entry the sink filled (cleared once this result was taken). */
    public String runId() {
        return runId;
    }

    /**
     * The lane the run asked for; {@link LaneAHarness} fails a run whose job ran on the other lane,
     * so a returned result ran on this one.
     */
    public Lane lane() {
        return lane;
    }

    /** The job's end state: {@code FINISHED} for a bounded job that read everything. */
    public JobStatus status() {
        return status;
    }

    /** The engine's error text of a failed job, or null. */
    public String error() {
        return error;
    }

    /** Keys of the rows whose checkpoint completed, in commit order: the exactly-once view. */
    public List<String> committedRows() {
        return committed;
    }

    /** Keys of every row any sink writer received, replays after a restore included. */
    public List<String> writtenRows() {
        return written;
    }

    /** Lane A readers the runtime opened during the run (0 on Lane B). */
    public long laneAReadersOpened() {
        return laneAReadersOpened;
    }

    /** From submission to the end state. */
    public Duration elapsed() {
        return elapsed;
    }

    /**
     * Asserts that the job finished and committed every key of {@code expectedKeys} exactly once
     * and nothing else ({@link RowAccounting#assertExactlyOnce}).
     */
    public RunResult assertFinishedExactlyOnce(Collection<String> expectedKeys) {
        if (status != JobStatus.FINISHED) {
            throw new AssertionError("job " + jobId + " ended " + status + ": " + error);
        }
        RowAccounting.assertExactlyOnce(expectedKeys, committed);
        return this;
    }

    @Override
    public String toString() {
        return "RunResult{job "
                + jobId
                + " for Lane "
                + lane
                + ", "
                + status
                + ", committed "
                + committed.size()
                + ", written "
                + written.size()
                + ", Lane A readers "
                + laneAReadersOpened
                + ", "
                + elapsed.toMillis()
                + " ms}";
    }
}
