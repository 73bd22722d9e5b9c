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

package org.apache.seatunnel.engine.managed.source.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * What a coordinator snapshot leaves out: assignments whose reader attempt said, in an apply
 * acknowledgement, that it applied them before that checkpoint's barrier, so its own checkpointed
 * state holds them. Everything else stays in the snapshot, and the coordinator keeps every
 * assignment in memory until a completed checkpoint proves it, as before.
 */
class AppliedBeforeBarrierTest {

    /** One reader, three assignments of one split each, all admitted. */
    private static LoopFixture threeAssigned() {
        LoopFixture f =
                new LoopFixture(LoopFixture.config(1).build(), LoopFixture.splits(3), false, null);
        f.loop.open();
        f.loop.registerReader(0, 1);
        f.drain();
        for (int i = 0; i < 3; i++) {
            f.loop.handleSplitRequest(0, 1);
        }
        f.drain();
        f.dispatcher.acceptAll();
        f.drain();
        return f;
    }

    private static List<Long> sequences(LoopFixture f) {
        List<Long> out = new ArrayList<>();
        for (SourceCommandEnvelope e : f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT)) {
            out.add(e.senderSequence());
        }
        return out;
    }

    /** The split ids of the assignments snapshot {@code checkpointId} carries. */
    private static List<String> snapshotSplits(LoopFixture f, long checkpointId) throws Exception {
        CompletableFuture<byte[]> snapshot = f.loop.snapshot(checkpointId);
        f.drain();
        byte[] blob = snapshot.get(10, TimeUnit.SECONDS);
        byte[] tracker = CoordinatorSnapshotCodec.decode(blob).trackerState();
        List<String> ids = new ArrayList<>();
        for (AssignmentEntry e : AssignmentTrackerCodec.decode(tracker).entries()) {
            ids.add(e.splitId());
        }
        return ids;
    }

    @Test
    void aSnapshotLeavesOutWhatItsReaderAppliedBeforeItsBarrierOnly() throws Exception {
        LoopFixture f = threeAssigned();
        List<Long> seq = sequences(f);
        assertEquals(3, seq.size());
        // Applied after barrier 4, before any later one; two of the splits still unread.
        f.loop.assignmentApplied(0, 1, seq.get(2), 2, 4);
        f.drain();
        assertEquals(
                List.of("s0", "s1", "s2"),
                snapshotSplits(f, 4),
                "the reader may have taken barrier 4 before it applied them: checkpoint 4 keeps"
                        + " them");
        assertEquals(List.of(), snapshotSplits(f, 5), "applied before barrier 5: left out");
        assertEquals(3, f.count(Counter.SNAPSHOT_ASSIGNMENTS_LEFT_OUT));
        assertEquals(3, f.count(Counter.SNAPSHOT_SPLITS_LEFT_OUT));
        for (String id : List.of("s0", "s1", "s2")) {
            assertNotNull(
                    f.loop.tracker().bySplit(id), "still held until a checkpoint proves it: " + id);
        }
    }

    @Test
    void onlyADatedAcknowledgementOfTheCurrentAttemptProvesAnything() throws Exception {
        LoopFixture f = threeAssigned();
        List<Long> seq = sequences(f);
        f.loop.assignmentApplied(0, 1, seq.get(2), 0);
        f.drain();
        assertEquals(3, snapshotSplits(f, 2).size(), "no barrier given: no proof");
        f.loop.assignmentApplied(0, 9, seq.get(2), 0, 0);
        f.drain();
        assertEquals(3, snapshotSplits(f, 3).size(), "another attempt's: fenced");
        assertEquals(0, f.count(Counter.SNAPSHOT_ASSIGNMENTS_LEFT_OUT));
        f.loop.assignmentApplied(0, 1, seq.get(0), 0, 0);
        f.drain();
        assertEquals(
                List.of("s1", "s2"),
                snapshotSplits(f, 4),
                "applied through the first command only: the first is left out");
        // An older state arriving late does not take back the newer one.
        f.loop.assignmentApplied(0, 1, seq.get(2), 0, 3);
        f.loop.assignmentApplied(0, 1, seq.get(1), 0, 3);
        f.drain();
        assertEquals(List.of(), snapshotSplits(f, 5));
    }
}
