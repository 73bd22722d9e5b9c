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

import com.hazelcast.jet.datamodel.Tuple2;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.server.checkpoint.ActionStateKey;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointPlan;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.engine.server.checkpoint.SubtaskStatistics;
import org.apache.seatunnel.engine.server.checkpoint.TaskStatistics;
import org.apache.seatunnel.engine.server.master.JobMaster;

/**
 * For side-by-side runners: the engine's own checkpoint timing of a running job, the same on both
 * lanes. Each {@link #sample} reads the pipeline's latest {@link CompletedCheckpoint} (a private
 * field of the coordinator, hence reflection) and keeps each checkpoint once: trigger to completed,
 * and trigger to each reader subtask's acknowledgement, wall-clock milliseconds as the engine
 * records them. Sample more often than the checkpoint interval to see every checkpoint.
 *
 * <p>Threading: one runner thread.
 */
public final class EngineCheckpointSampler {
    private final long sinceMillis;
    private final Set<Long> seen = new HashSet<>();
    private final List<Long> durations = new ArrayList<>();
    private final List<Long> readerAcks = new ArrayList<>();

    /** Keeps the checkpoints triggered at or after {@code sinceMillis} (wall clock). */
    public EngineCheckpointSampler(long sinceMillis) {
        this.sinceMillis = sinceMillis;
    }

    /** Reads pipeline 1's latest completed checkpoint of {@code jobId}, if it is a new one. */
    public void sample(EmbeddedZeta zeta, long jobId) {
        JobMaster master = zeta.jobMaster(jobId);
        if (master == null) {
            return;
        }
        try {
            CheckpointCoordinator coordinator =
                    master.getCheckpointManager().getCheckpointCoordinator(1);
            Field f = CheckpointCoordinator.class.getDeclaredField("latestCompletedCheckpoint");
            f.setAccessible(true);
            CompletedCheckpoint c = (CompletedCheckpoint) f.get(coordinator);
            if (c == null
                    || c.getCheckpointTimestamp() < sinceMillis
                    || !seen.add(c.getCheckpointId())) {
                return;
            }
            long trigger = c.getCheckpointTimestamp();
            durations.add(TimeUnit.MILLISECONDS.toNanos(c.getCompletedTimestamp() - trigger));
            Set<Long> readers = readerVertices(coordinator);
            for (TaskStatistics task : c.getTaskStatistics().values()) {
                if (!readers.contains(task.getJobVertexId())) {
                    continue;
                }
                for (SubtaskStatistics sub : task.getSubtaskStats()) {
                    if (sub != null) {
                        readerAcks.add(
                                TimeUnit.MILLISECONDS.toNanos(sub.getAckTimestamp() - trigger));
                    }
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("engine internals changed", e);
        }
    }

    /** Trigger to completed of every checkpoint seen, nanoseconds, sorted. */
    public long[] durations() {
        return sorted(durations);
    }

    /** Trigger to each reader subtask's acknowledgement, nanoseconds, sorted. */
    public long[] readerAcks() {
        return sorted(readerAcks);
    }

    /**
     * The reader tasks' vertex ids: the tasks whose checkpoint actions include the source at a
     * subtask index (the enumerator holds it at the coordinator index; sink tasks have none).
     */
    private static Set<Long> readerVertices(CheckpointCoordinator coordinator)
            throws ReflectiveOperationException {
        Field f = CheckpointCoordinator.class.getDeclaredField("plan");
        f.setAccessible(true);
        CheckpointPlan plan = (CheckpointPlan) f.get(coordinator);
        Set<Long> out = new HashSet<>();
        plan.getSubtaskActions()
                .forEach(
                        (location, actions) -> {
                            for (Tuple2<ActionStateKey, Integer> a : actions) {
                                if (a.f0().toString().contains("Source")
                                        && !CheckpointPlan.COORDINATOR_INDEX.equals(a.f1())) {
                                    out.add(location.getTaskVertexId());
                                }
                            }
                        });
        if (out.isEmpty()) {
            throw new IllegalStateException("no reader task in " + plan);
        }
        return out;
    }

    private static long[] sorted(List<Long> values) {
        long[] out = new long[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        Arrays.sort(out);
        return out;
    }
}
