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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.checkpoint.storage.PipelineState;
import org.apache.seatunnel.engine.core.checkpoint.CheckpointType;
import org.apache.seatunnel.engine.serializer.protobuf.ProtoStuffSerializer;
import org.apache.seatunnel.engine.server.checkpoint.ActionState;
import org.apache.seatunnel.engine.server.checkpoint.ActionStateKey;
import org.apache.seatunnel.engine.server.checkpoint.ActionSubtaskState;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stored-checkpoint reading of {@link CheckpointInspection} on files written as Zeta 2.3.8's
 * local-file storage writes them: it finds a source whose enumerator state the latest checkpoint
 * lacks, and only in the latest one.
 */
class CheckpointInspectionTest {
    private static final long JOB = 42L;
    private static final String SOURCE = "ActionStateKey - pipeline-1 [Source[0]-Managed]";
    private static final String SINK = "ActionStateKey - pipeline-1 [Sink[0]-Collect]";

    @TempDir Path dir;

    @Test
    void latestCheckpointWithoutEnumeratorStateNamesTheSource() throws IOException {
        store(1, true);
        store(2, false);

        assertEquals(
                Collections.singletonList(SOURCE),
                CheckpointInspection.sourcesWithoutEnumeratorState(dir, JOB));
        Map<String, Boolean> parts = CheckpointInspection.coordinatorParts(dir, JOB, 2);
        assertEquals(false, parts.get(SOURCE));
        assertEquals(false, parts.get(SINK));
    }

    @Test
    void onlyTheLatestCheckpointCountsAndASinkWithoutCommitterStateIsNoLoss() throws IOException {
        store(1, false);
        store(2, true);

        assertTrue(CheckpointInspection.sourcesWithoutEnumeratorState(dir, JOB).isEmpty());
        assertEquals(true, CheckpointInspection.coordinatorParts(dir, JOB, 2).get(SOURCE));
        assertEquals(Arrays.asList(1L, 2L), List.copyOf(CheckpointInspection.storedIds(dir, JOB)));
    }

    @Test
    void nothingStoredIsNothingLost() throws IOException {
        assertTrue(CheckpointInspection.sourcesWithoutEnumeratorState(dir, JOB).isEmpty());
        assertTrue(CheckpointInspection.coordinatorParts(dir, JOB, 1).isEmpty());
    }

    private void store(long checkpointId, boolean withEnumeratorState) throws IOException {
        ActionStateKey sourceKey = new ActionStateKey(SOURCE);
        ActionState source = new ActionState(sourceKey, 2);
        source.reportState(
                0, new ActionSubtaskState(sourceKey, 0, Collections.singletonList(new byte[] {1})));
        if (withEnumeratorState) {
            source.reportState(
                    -1,
                    new ActionSubtaskState(
                            sourceKey, -1, Collections.singletonList(new byte[] {2})));
        }
        ActionStateKey sinkKey = new ActionStateKey(SINK);
        Map<ActionStateKey, ActionState> states = new HashMap<>();
        states.put(sourceKey, source);
        states.put(sinkKey, new ActionState(sinkKey, 2));
        CompletedCheckpoint completed =
                new CompletedCheckpoint(
                        JOB,
                        1,
                        checkpointId,
                        1L,
                        CheckpointType.CHECKPOINT_TYPE,
                        2L,
                        states,
                        new HashMap<>());
        ProtoStuffSerializer serializer = new ProtoStuffSerializer();
        byte[] file =
                serializer.serialize(
                        PipelineState.builder()
                                .jobId(String.valueOf(JOB))
                                .pipelineId(1)
                                .checkpointId(checkpointId)
                                .states(serializer.serialize(completed))
                                .build());
        Path jobDir = Files.createDirectories(dir.resolve(String.valueOf(JOB)));
        Files.write(jobDir.resolve("1700000000000-7-1-" + checkpointId + ".ser"), file);
    }
}
