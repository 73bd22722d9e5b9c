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

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.seatunnel.engine.checkpoint.storage.PipelineState;
import org.apache.seatunnel.engine.serializer.protobuf.ProtoStuffSerializer;
import org.apache.seatunnel.engine.server.checkpoint.ActionState;
import org.apache.seatunnel.engine.server.checkpoint.ActionStateKey;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.engine.server.master.JobMaster;
import org.junit.jupiter.api.Assumptions;

/**
 * What tests read of a job's checkpoints on an {@link EmbeddedZeta}: the ids stored in the
 * local-file checkpoint folder, the latest completed one of a pipeline, and a bounded wait for a
 * checkpoint completion under way.
 *
 * <p>Threading: stateless; any test thread.
 */
final class CheckpointInspection {
    private CheckpointInspection() {}

    /**
     * Waits, at most {@code bound}, for a checkpoint completion the job's coordinators are running.
     * Zeta 2.3.8 completes a checkpoint under its coordinator's monitor and notifies the tasks (so
     * the sink commits) before it removes the pending checkpoint; a cancel that clears the pending
     * checkpoints in between makes that removal throw, and the job ends FAILED instead of CANCELED.
     * A caller that cancels as soon as it saw rows committed is inside that window.
     */
    static void awaitCompletions(JobMaster master, long jobId, Duration bound)
            throws InterruptedException {
        if (master == null) {
            return;
        }
        List<CheckpointCoordinator> coordinators = new ArrayList<>();
        try {
            for (org.apache.seatunnel.engine.server.dag.physical.SubPlan p :
                    master.getPhysicalPlan().getPipelineList()) {
                coordinators.add(
                        master.getCheckpointManager()
                                .getCheckpointCoordinator(p.getPipelineLocation().getPipelineId()));
            }
        } catch (RuntimeException e) {
            // The job is ending or has no coordinator yet: nothing is completing.
            return;
        }
        // On a thread of its own, so that a completion stuck in the engine bounds the wait
        // instead of holding the caller.
        Thread waiter =
                new Thread(
                        () -> {
                            for (CheckpointCoordinator c : coordinators) {
                                synchronized (c) {
                                    // Entering the monitor is the wait: it is free once the
                                    // completion returned.
                                }
                            }
                        },
                        "embedded-zeta-cancel-" + jobId);
        waiter.setDaemon(true);
        waiter.start();
        waiter.join(Math.max(1, bound.toMillis()));
    }

    /**
     * Ids of the checkpoints of {@code jobId} whose state the engine stored, read from the
     * local-file checkpoint folder ({@code
     * <namespace>/<jobId>/<millis>-<rand>-<pipeline>-<id>.ser}). The engine writes a file only
     * after every task acknowledged, i.e. for completed checkpoints, and deletes the folder when
     * the job ends.
     */
    static Set<Long> storedIds(Path checkpointDir, long jobId) {
        return new TreeSet<>(storedFiles(checkpointDir, jobId).keySet());
    }

    /**
     * For the stored checkpoint {@code checkpointId} of {@code jobId}: each action's state key
     * name, mapped to whether the state holds its coordinator part (a source's enumerator state, a
     * sink's aggregated committer state). Empty when the engine did not store that checkpoint.
     */
    static Map<String, Boolean> coordinatorParts(Path checkpointDir, long jobId, long checkpointId)
            throws IOException {
        Path file = storedFiles(checkpointDir, jobId).get(checkpointId);
        Map<String, Boolean> parts = new TreeMap<>();
        if (file == null) {
            return parts;
        }
        // The local-file storage writes a PipelineState whose states are the CompletedCheckpoint,
        // both in the engine's protostuff form.
        ProtoStuffSerializer serializer = new ProtoStuffSerializer();
        PipelineState stored =
                serializer.deserialize(Files.readAllBytes(file), PipelineState.class);
        CompletedCheckpoint completed =
                serializer.deserialize(stored.getStates(), CompletedCheckpoint.class);
        for (Map.Entry<ActionStateKey, ActionState> e : completed.getTaskStates().entrySet()) {
            parts.put(keyName(e.getKey()), e.getValue().getCoordinatorState() != null);
        }
        return parts;
    }

    /**
     * The source state keys whose enumerator part is missing from the latest stored checkpoint of
     * {@code jobId}. A source's key names its action {@code Source[i]-…}; its coordinator part is
     * the enumerator's state, which every completed checkpoint of 2.3.8 must hold.
     */
    static List<String> sourcesWithoutEnumeratorState(Path checkpointDir, long jobId)
            throws IOException {
        List<String> lost = new ArrayList<>();
        TreeMap<Long, Path> stored = storedFiles(checkpointDir, jobId);
        if (stored.isEmpty()) {
            return lost;
        }
        long latest = stored.lastKey();
        for (Map.Entry<String, Boolean> e :
                coordinatorParts(checkpointDir, jobId, latest).entrySet()) {
            if (e.getKey().contains("[Source[") && !e.getValue()) {
                lost.add(e.getKey());
            }
        }
        return lost;
    }

    /** Aborts the calling test when {@link #sourcesWithoutEnumeratorState} is not empty. */
    static void assumeRestorable(Path checkpointDir, long jobId) throws IOException {
        List<String> lost = sourcesWithoutEnumeratorState(checkpointDir, jobId);
        if (!lost.isEmpty()) {
            Assumptions.abort(
                    "Zeta 2.3.8 stored the restore point of job "
                            + jobId
                            + " without the enumerator state of "
                            + lost
                            + " (its pending checkpoint completed between taking the enumerator's"
                            + " acknowledgement and recording its state); the engine cannot"
                            + " restore it on either lane");
        }
    }

    private static String keyName(ActionStateKey key) {
        // ActionStateKey has a name but no getter; its toString is Lombok's
        // "ActionStateKey(name=…)".
        String s = key.toString();
        int from = s.indexOf("name=");
        return from < 0 ? s : s.substring(from + 5, s.length() - 1);
    }

    private static TreeMap<Long, Path> storedFiles(Path checkpointDir, long jobId) {
        Path dir = checkpointDir.resolve(String.valueOf(jobId));
        TreeMap<Long, Path> files = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> list = Files.list(dir)) {
            list.forEach(f -> checkpointId(f).ifPresent(id -> files.put(id, f)));
        } catch (IOException e) {
            // The engine deletes the folder when the job ends; that race is not an error.
        }
        return files;
    }

    private static Optional<Long> checkpointId(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String[] parts = (dot < 0 ? name : name.substring(0, dot)).split("-");
        if (parts.length != 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(parts[3]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The id of the latest completed checkpoint of pipeline {@code pipelineId} of a running job, or
     * -1, read from the engine's {@code CheckpointCoordinator.latestCompletedCheckpoint} (private,
     * hence reflection).
     */
    static long latestCompletedId(JobMaster master, int pipelineId) {
        if (master == null) {
            return -1;
        }
        CheckpointCoordinator coordinator =
                master.getCheckpointManager().getCheckpointCoordinator(pipelineId);
        try {
            Field f = CheckpointCoordinator.class.getDeclaredField("latestCompletedCheckpoint");
            f.setAccessible(true);
            Object completed = f.get(coordinator);
            if (completed == null) {
                return -1;
            }
            return (long) completed.getClass().getMethod("getCheckpointId").invoke(completed);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("engine internals changed", e);
        }
    }
}
