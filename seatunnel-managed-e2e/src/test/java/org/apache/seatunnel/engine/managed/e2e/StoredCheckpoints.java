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

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedEnumeratorState;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedEnumeratorStateSerializer;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSplit;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSplitSerializer;
import org.apache.seatunnel.engine.server.checkpoint.ActionState;
import org.apache.seatunnel.engine.server.checkpoint.ActionSubtaskState;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.engine.server.master.JobMaster;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;

/**
 * Reads what the engine really stored for a Lane A source: the latest {@link CompletedCheckpoint}
 * of a running pipeline (the coordinator's private {@code latestCompletedCheckpoint}, the same
 * object the engine restores from), decoded with this module's own serializers.
 *
 * <p>Threading: stateless; call from the test thread while the job runs.
 */
final class StoredCheckpoints {

    private StoredCheckpoints() {}

    /** The latest completed checkpoint of pipeline {@code pipelineId}, or null. */
    static CompletedCheckpoint latest(EmbeddedZeta zeta, long jobId, int pipelineId) {
        JobMaster master = zeta.jobMaster(jobId);
        if (master == null) {
            return null;
        }
        CheckpointCoordinator coordinator =
                master.getCheckpointManager().getCheckpointCoordinator(pipelineId);
        try {
            Field f = CheckpointCoordinator.class.getDeclaredField("latestCompletedCheckpoint");
            f.setAccessible(true);
            return (CompletedCheckpoint) f.get(coordinator);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("engine internals changed", e);
        }
    }

    /** Every Lane A split the readers stored, by reader subtask index. */
    static Map<Integer, List<ManagedSplit>> readerSplits(CompletedCheckpoint checkpoint)
            throws IOException {
        Map<Integer, List<ManagedSplit>> out = new TreeMap<>();
        ManagedSplitSerializer serializer = new ManagedSplitSerializer();
        for (ActionState action : checkpoint.getTaskStates().values()) {
            for (ActionSubtaskState subtask : action.getSubtaskStates()) {
                if (subtask == null || subtask.getState() == null) {
                    continue;
                }
                for (byte[] bytes : subtask.getState()) {
                    if (bytes != null && isManagedSplit(bytes)) {
                        out.computeIfAbsent(subtask.getIndex(), k -> new ArrayList<>())
                                .add(serializer.deserialize(bytes));
                    }
                }
            }
        }
        return out;
    }

    /** The runtime metadata each reader subtask stored (one per subtask), decoded. */
    static Map<Integer, SourceRuntimeCheckpointMetadata> readerMetadata(
            CompletedCheckpoint checkpoint) throws IOException {
        Map<Integer, SourceRuntimeCheckpointMetadata> out = new TreeMap<>();
        for (Map.Entry<Integer, List<ManagedSplit>> e : readerSplits(checkpoint).entrySet()) {
            for (ManagedSplit s : e.getValue()) {
                if (s.kind() == ManagedSplit.Kind.RUNTIME_METADATA) {
                    SourceRuntimeCheckpointMetadata previous =
                            out.put(
                                    e.getKey(),
                                    new SourceRuntimeCheckpointMetadataSerializer()
                                            .deserialize(s.copyBytes()));
                    if (previous != null) {
                        throw new IllegalStateException(
                                "two metadata entries for subtask " + e.getKey());
                    }
                }
            }
        }
        return out;
    }

    /** The Lane A enumerator states stored (one per managed source), decoded. */
    static List<ManagedEnumeratorState> enumeratorStates(CompletedCheckpoint checkpoint)
            throws IOException {
        List<ManagedEnumeratorState> out = new ArrayList<>();
        for (ActionState action : checkpoint.getTaskStates().values()) {
            ActionSubtaskState coordinator = action.getCoordinatorState();
            if (coordinator == null || coordinator.getState() == null) {
                continue;
            }
            for (byte[] bytes : coordinator.getState()) {
                if (bytes != null && bytes.length >= 4 && readInt(bytes) == 0x4D454E53) {
                    out.add(new ManagedEnumeratorStateSerializer().deserialize(bytes));
                }
            }
        }
        return out;
    }

    private static boolean isManagedSplit(byte[] bytes) {
        return bytes.length >= 4 && readInt(bytes) == 0x4D53504C;
    }

    private static int readInt(byte[] b) {
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }
}
