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
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.junit.jupiter.api.Test;

class ManagedFakeEnumeratorTest {

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

        assertEquals(5, enumerator.snapshotState(1).size());
        ctx.registered.add(1);
        enumerator.registerReader(1);

        assertEquals(
                Arrays.asList(new ManagedFakeSplit(1, 0), new ManagedFakeSplit(3, 0)),
                ctx.assigned.get(1));
        assertEquals(Arrays.asList(1), ctx.noMoreSplits, "bounded: no more splits after assign");
        assertEquals(
                Arrays.asList(
                        new ManagedFakeSplit(0, 0),
                        new ManagedFakeSplit(2, 0),
                        new ManagedFakeSplit(4, 0)),
                enumerator.snapshotState(2),
                "splits of the unregistered reader stay pending in the state");

        ctx.registered.add(0);
        enumerator.registerReader(0);
        enumerator.run();
        assertEquals(3, ctx.assigned.get(0).size());
        assertTrue(enumerator.snapshotState(3).isEmpty());
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
                        Arrays.asList(new ManagedFakeSplit(2, 0)));

        enumerator.addSplitsBack(Arrays.asList(new ManagedFakeSplit(0, 7)), 0);
        assertTrue(ctx.assigned.isEmpty(), "nothing is sent to an unregistered reader");

        ctx.registered.add(0);
        enumerator.registerReader(0);

        assertEquals(
                new HashSet<>(
                        Arrays.asList(new ManagedFakeSplit(0, 7), new ManagedFakeSplit(2, 0))),
                new HashSet<>(ctx.assigned.get(0)));
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
        assertEquals(
                "02"
                        + "00000002"
                        + "00000d"
                        + "01"
                        + "00000000"
                        + "0000000000000001"
                        + "040009"
                        + "09"
                        + "0000000000000002",
                java.util.HexFormat.of().formatHex(states.serialize(state)));
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

    private static ManagedFakeEnumerator fresh(RecordingContext ctx, ManagedFakeConfig config) {
        return new ManagedFakeEnumerator(
                ctx, config, ManagedFakeHooks.NONE, ManagedFakeEnumerator.initialSplits(config));
    }
}
