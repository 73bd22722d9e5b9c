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

package org.apache.seatunnel.connectors.managed.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.junit.jupiter.api.Test;

class ManagedFakeEnumeratorTest {
    /**
     * Splits 0 (offset 1) and 9 (offset 2) as the list of version 2: u8 2 | i32 count | per split
     * (varint shared prefix, varint shared suffix, varint middle length, middle) against the split
     * before it.
     */
    private static final String PENDING_LIST_V2 =
            "02"
                    + "00000002"
                    + "00000d"
                    + "01"
                    + "00000000"
                    + "0000000000000001"
                    + "040009"
                    + "09"
                    + "0000000000000002";

    /** Threading: single test thread. */
    private static final class RecordingContext
            implements SourceSplitEnumerator.Context<ManagedFakeSplit> {
        final int parallelism;
        final Set<Integer> registered = new HashSet<>();
        final Map<Integer, List<ManagedFakeSplit>> assigned = new TreeMap<>();
        final List<Integer> noMoreSplits = new ArrayList<>();

        RecordingContext(int parallelism) {
            this.parallelism = parallelism;
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Set<Integer> registeredReaders() {
            return new HashSet<>(registered);
        }

        @Override
        public void assignSplit(int subtaskId, List<ManagedFakeSplit> splits) {
            assigned.computeIfAbsent(subtaskId, k -> new ArrayList<>()).addAll(splits);
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            noMoreSplits.add(subtask);
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

        @Override
        public MetricsContext getMetricsContext() {
            return null;
        }

        @Override
        public EventListener getEventListener() {
            return event -> {};
        }
    }

    @Test
    void assignsSplitNToSubtaskNModParallelismOnRegistration() throws Exception {
        RecordingContext ctx = new RecordingContext(2);
        ManagedFakeEnumerator enumerator =
                fresh(ctx, ManagedFakeConfig.builder().splitCount(5).build());

        assertEquals(5, enumerator.snapshotState(1).remaining());
        ctx.registered.add(1);
        enumerator.registerReader(1);

        assertEquals(
                Arrays.asList(new ManagedFakeSplit(1, 0), new ManagedFakeSplit(3, 0)),
                ctx.assigned.get(1));
        assertEquals(Arrays.asList(1), ctx.noMoreSplits, "bounded: no more splits after assign");
        NumberedSplitState<ManagedFakeSplit> state = enumerator.snapshotState(2);
        assertEquals(3, state.remaining(), "the unregistered reader's splits stay in the state");
        RecordingContext again = new RecordingContext(2);
        again.registered.add(0);
        new ManagedFakeEnumerator(
                        again,
                        ManagedFakeConfig.builder().splitCount(5).build(),
                        ManagedFakeHooks.NONE,
                        state)
                .registerReader(0);
        assertEquals(
                Arrays.asList(
                        new ManagedFakeSplit(0, 0),
                        new ManagedFakeSplit(2, 0),
                        new ManagedFakeSplit(4, 0)),
                again.assigned.get(0),
                "a restore from that state hands them out");

        ctx.registered.add(0);
        enumerator.registerReader(0);
        enumerator.run();
        assertEquals(3, ctx.assigned.get(0).size());
        assertEquals(0, enumerator.snapshotState(3).remaining());
    }

    @Test
    void restoredSplitsComeBackBeforeRegistrationAndGoToTheirOwner() {
        RecordingContext ctx = new RecordingContext(2);
        ManagedFakeConfig config = ManagedFakeConfig.builder().splitCount(4).bounded(false).build();
        ManagedFakeEnumerator enumerator =
                new ManagedFakeEnumerator(
                        ctx,
                        config,
                        ManagedFakeHooks.NONE,
                        // Splits 0 and 1 were handed out, 3 not yet; 2 came back and waits.
                        new NumberedSplitState<>(
                                4, new long[] {4, 3}, Arrays.asList(new ManagedFakeSplit(2, 0))));

        enumerator.addSplitsBack(Arrays.asList(new ManagedFakeSplit(0, 7)), 0);
        assertTrue(ctx.assigned.isEmpty(), "nothing is sent to an unregistered reader");

        ctx.registered.add(0);
        enumerator.registerReader(0);

        assertEquals(
                Arrays.asList(new ManagedFakeSplit(2, 0), new ManagedFakeSplit(0, 7)),
                ctx.assigned.get(0),
                "what came back, in the order it came back");
        assertTrue(ctx.noMoreSplits.isEmpty(), "unbounded: readers are never told no more");
    }

    @Test
    void serializersRoundTripAndKeepTheirGoldenBytes() throws Exception {
        ManagedFakeSplitSerializer splits = new ManagedFakeSplitSerializer();
        ManagedFakeSplit split = new ManagedFakeSplit(3, 1234567890123L);
        assertEquals(split, splits.deserialize(splits.serialize(split)));
        // Version 1: u8 1 | i32 splitNumber | i64 offset (unchanged since the first release).
        assertEquals(
                "01" + "00000003" + "0000011f71fb04cb",
                java.util.HexFormat.of().formatHex(splits.serialize(split)));

        SplitListSerializer<ManagedFakeSplit> states = new SplitListSerializer<>(splits);
        ArrayList<ManagedFakeSplit> state =
                new ArrayList<>(
                        Arrays.asList(new ManagedFakeSplit(0, 1), new ManagedFakeSplit(9, 2)));
        assertEquals(state, states.deserialize(states.serialize(state)));
        // Version 2: u8 2 | i32 count | per split (varint shared prefix, varint shared suffix,
        // varint middle length, middle) against the split before it.
        assertEquals(PENDING_LIST_V2, java.util.HexFormat.of().formatHex(states.serialize(state)));
        // Version 1 (the first release's): u8 1 | i32 count | (i32 length | split bytes).
        assertEquals(
                state,
                states.deserialize(
                        java.util.HexFormat.of()
                                .parseHex(
                                        "01"
                                                + "00000002"
                                                + "0000000d"
                                                + "01"
                                                + "00000000"
                                                + "0000000000000001"
                                                + "0000000d"
                                                + "01"
                                                + "00000009"
                                                + "0000000000000002")));
    }

    @Test
    void theStateIsCursorsAndReadsTheOlderListOfPendingSplits() throws Exception {
        ManagedFakeEnumeratorStateSerializer states = new ManagedFakeEnumeratorStateSerializer();
        NumberedSplitState<ManagedFakeSplit> state =
                new NumberedSplitState<>(5, new long[] {2, 3}, Arrays.asList());
        // Version 3: u8 3 | the numbered state (u8 1 | i64 count | i32 owners | i64 per owner |
        // i32 length | an empty split list).
        assertEquals(
                "03"
                        + "01"
                        + "0000000000000005"
                        + "00000002"
                        + "0000000000000002"
                        + "0000000000000003"
                        + "00000005"
                        + "0200000000",
                java.util.HexFormat.of().formatHex(states.serialize(state)));
        NumberedSplitState<ManagedFakeSplit> back = states.deserialize(states.serialize(state));
        assertEquals(5, back.count());
        assertEquals(3, back.next(1));

        // An older list of pending splits (version 2, the golden bytes above): they wait.
        NumberedSplitState<ManagedFakeSplit> older =
                states.deserialize(java.util.HexFormat.of().parseHex(PENDING_LIST_V2));
        assertEquals(
                Arrays.asList(new ManagedFakeSplit(0, 1), new ManagedFakeSplit(9, 2)),
                older.waiting());
        assertEquals(2, older.remaining(), "no split beyond the list");

        // A discovering job's older list: its marker's offset is the split count.
        SplitListSerializer<ManagedFakeSplit> list =
                new SplitListSerializer<>(new ManagedFakeSplitSerializer());
        NumberedSplitState<ManagedFakeSplit> discovering =
                states.deserialize(
                        list.serialize(
                                new ArrayList<>(
                                        Arrays.asList(
                                                new ManagedFakeSplit(4, 0),
                                                new ManagedFakeSplit(
                                                        ManagedFakeEnumerator.CURSOR_SPLIT, 7)))));
        assertEquals(7, discovering.count());
        assertEquals(Arrays.asList(new ManagedFakeSplit(4, 0)), discovering.waiting());
        RecordingContext ctx = new RecordingContext(2);
        ctx.registered.add(0);
        new ManagedFakeEnumerator(
                        ctx,
                        ManagedFakeConfig.builder().splitCount(3).bounded(false).build(),
                        ManagedFakeHooks.NONE,
                        discovering)
                .registerReader(0);
        assertEquals(
                Arrays.asList(new ManagedFakeSplit(4, 0)),
                ctx.assigned.get(0),
                "only what waited: every split below the count was handed out before");
    }

    private static ManagedFakeEnumerator fresh(RecordingContext ctx, ManagedFakeConfig config) {
        return new ManagedFakeEnumerator(ctx, config, ManagedFakeHooks.NONE);
    }
}
