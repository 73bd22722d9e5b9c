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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;

/**
 * A discovering enumerator written the way connectors write them: {@value #INITIAL} splits at the
 * start, {@value #PER_TICK} more found by an asynchronous call every 200 ms until {@value #TOTAL},
 * split {@code n} owned by reader {@code n % parallelism}, handed out at registration (Lane B) or
 * on demand (Lane A); its state is the queued splits and the discovery cursor. Correct unless told
 * to have one of the {@link Flaw}s the enumerator rules must catch.
 *
 * <p>Threading: every call on the test thread, which plays the coordinator loop.
 */
final class FixtureEnumerator
        implements SourceSplitEnumerator<FixtureSplit, FixtureEnumerator.State>,
                SupportSplitDemand {

    static final int INITIAL = 4;
    static final int PER_TICK = 2;
    static final int TOTAL = 10;
    static final long RECORDS = 10;

    private static final AsyncTaskKey TICK = AsyncTaskKey.of("discover-tick");
    private static final AsyncTaskKey LIST = AsyncTaskKey.of("discover-list");

    /** A realistic enumerator bug. */
    enum Flaw {
        /** The snapshot holds only the queues of readers that registered. */
        SNAPSHOT_SKIPS_UNREGISTERED_QUEUES,
        /** addSplitsBack drops the splits. */
        IGNORES_SPLITS_BACK,
        /**
         * When the last subtask registers it drops the queues of readers not registered ("they
         * registered before it, so they have theirs").
         */
        ASSUMES_REGISTRATION_ORDER,
        /** The checkpointed cursor counts the splits found since open, not the next number. */
        CURSOR_COUNTS_SINCE_OPEN,
        /** A split request re-sends the reader's last assignment ("in case it was lost"). */
        RESENDS_ON_REQUEST,
        /** No-more-splits as soon as a reader's queue is empty, while discovery still runs. */
        NO_MORE_BEFORE_DISCOVERY_ENDS
    }

    /** Queued splits and the number of the next split to discover. Immutable. */
    record State(List<FixtureSplit> pending, int cursor) implements java.io.Serializable {}

    private final SourceSplitEnumerator.Context<FixtureSplit> context;
    private final Set<Flaw> flaws;
    private final TreeMap<Integer, ArrayDeque<FixtureSplit>> queues = new TreeMap<>();
    private final TreeSet<Integer> registered = new TreeSet<>();
    private final Map<Integer, List<FixtureSplit>> lastAssigned = new HashMap<>();
    private int cursor;
    private int foundSinceOpen;
    private boolean listing;
    private ManagedEnumeratorContext<FixtureSplit> managed;
    private Cancellable tick;

    FixtureEnumerator(
            SourceSplitEnumerator.Context<FixtureSplit> context, State state, Set<Flaw> flaws) {
        this.context = context;
        this.flaws = flaws.isEmpty() ? EnumSet.noneOf(Flaw.class) : EnumSet.copyOf(flaws);
        if (state == null) {
            for (int n = 0; n < INITIAL; n++) {
                queue(new FixtureSplit(n, 0, RECORDS), false);
            }
            cursor = INITIAL;
        } else {
            for (FixtureSplit s : state.pending()) {
                queue(s, false);
            }
            cursor = state.cursor();
        }
    }

    static List<FixtureSplit> all() {
        List<FixtureSplit> out = new ArrayList<>();
        for (int n = 0; n < TOTAL; n++) {
            out.add(new FixtureSplit(n, 0, RECORDS));
        }
        return out;
    }

    private int owner(FixtureSplit s) {
        return s.number() % context.currentParallelism();
    }

    private void queue(FixtureSplit s, boolean front) {
        ArrayDeque<FixtureSplit> q = queues.computeIfAbsent(owner(s), k -> new ArrayDeque<>());
        if (front) {
            q.addFirst(s);
        } else {
            q.addLast(s);
        }
    }

    private boolean onDemand() {
        return managed != null && managed.splitDemand();
    }

    @Override
    public void open() {
        managed = ManagedEnumeratorContext.of(context);
        if (cursor < TOTAL) {
            tick =
                    managed.scheduler()
                            .scheduleInCoordinatorThread(
                                    TICK, Duration.ofMillis(200), this::discover);
        }
    }

    private void discover() {
        if (listing || cursor >= TOTAL) {
            return;
        }
        listing = true;
        int from = cursor;
        managed.scheduler()
                .callAsync(
                        LIST,
                        () -> {
                            List<FixtureSplit> found = new ArrayList<>();
                            for (int n = from; n < Math.min(TOTAL, from + PER_TICK); n++) {
                                found.add(new FixtureSplit(n, 0, RECORDS));
                            }
                            return found;
                        },
                        (found, error) -> {
                            listing = false;
                            if (error != null) {
                                return;
                            }
                            TreeSet<Integer> owners = new TreeSet<>();
                            for (FixtureSplit s : found) {
                                if (s.number() >= cursor) {
                                    queue(s, false);
                                    owners.add(owner(s));
                                    cursor = s.number() + 1;
                                    foundSinceOpen++;
                                }
                            }
                            if (cursor >= TOTAL && tick != null) {
                                tick.cancel();
                            }
                            for (int r = 0; r < context.currentParallelism(); r++) {
                                if (owners.contains(r)) {
                                    offer(r);
                                }
                                signalIfDone(r);
                            }
                        },
                        AsyncTaskOptions.defaults());
    }

    private void offer(int r) {
        if (onDemand()) {
            managed.splitsAvailable(r);
        } else if (registered.contains(r)) {
            assignAll(r);
        }
    }

    private void assignAll(int r) {
        ArrayDeque<FixtureSplit> q = queues.get(r);
        if (q == null || q.isEmpty()) {
            return;
        }
        List<FixtureSplit> batch = new ArrayList<>(q);
        q.clear();
        assign(r, batch);
    }

    private void assign(int r, List<FixtureSplit> batch) {
        lastAssigned.put(r, batch);
        context.assignSplit(r, batch);
    }

    private void signalIfDone(int r) {
        ArrayDeque<FixtureSplit> q = queues.get(r);
        boolean discovered = cursor >= TOTAL || flaws.contains(Flaw.NO_MORE_BEFORE_DISCOVERY_ENDS);
        if (registered.contains(r) && discovered && (q == null || q.isEmpty())) {
            context.signalNoMoreSplits(r);
        }
    }

    @Override
    public void run() {
        if (!onDemand()) {
            for (int r : registered) {
                assignAll(r);
            }
        }
    }

    @Override
    public void close() {
        if (tick != null) {
            tick.cancel();
        }
        if (managed != null) {
            managed.close();
        }
    }

    @Override
    public void addSplitsBack(List<FixtureSplit> splits, int subtaskId) {
        if (flaws.contains(Flaw.IGNORES_SPLITS_BACK)) {
            return;
        }
        TreeSet<Integer> owners = new TreeSet<>();
        for (int i = splits.size() - 1; i >= 0; i--) {
            queue(splits.get(i), true);
            owners.add(owner(splits.get(i)));
        }
        for (int r : owners) {
            offer(r);
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        int n = 0;
        for (ArrayDeque<FixtureSplit> q : queues.values()) {
            n += q.size();
        }
        return n;
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        if (flaws.contains(Flaw.RESENDS_ON_REQUEST) && lastAssigned.containsKey(subtaskId)) {
            context.assignSplit(subtaskId, lastAssigned.get(subtaskId));
            return;
        }
        if (!onDemand() && registered.contains(subtaskId)) {
            assignAll(subtaskId);
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        registered.add(subtaskId);
        if (flaws.contains(Flaw.ASSUMES_REGISTRATION_ORDER)
                && subtaskId == context.currentParallelism() - 1) {
            queues.keySet().removeIf(owner -> !registered.contains(owner));
        }
        if (!onDemand()) {
            assignAll(subtaskId);
        }
        signalIfDone(subtaskId);
    }

    @Override
    public void handleSplitDemand(int subtaskId, int maxSplits) {
        ArrayDeque<FixtureSplit> q = queues.get(subtaskId);
        if (q != null && !q.isEmpty()) {
            List<FixtureSplit> batch = new ArrayList<>();
            while (batch.size() < maxSplits && !q.isEmpty()) {
                batch.add(q.pollFirst());
            }
            assign(subtaskId, batch);
        }
        signalIfDone(subtaskId);
    }

    @Override
    public State snapshotState(long checkpointId) {
        List<FixtureSplit> pending = new ArrayList<>();
        for (Map.Entry<Integer, ArrayDeque<FixtureSplit>> e : queues.entrySet()) {
            if (flaws.contains(Flaw.SNAPSHOT_SKIPS_UNREGISTERED_QUEUES)
                    && !registered.contains(e.getKey())) {
                continue;
            }
            pending.addAll(e.getValue());
        }
        int c = flaws.contains(Flaw.CURSOR_COUNTS_SINCE_OPEN) ? INITIAL + foundSinceOpen : cursor;
        return new State(pending, c);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    /**
     * Version 1: u8 1 | i32 cursor | i32 count | count x 21 bytes of {@link FixtureSplit.Codec}.
     */
    static final class StateCodec implements Serializer<State> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(State state) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate(9 + 21 * state.pending().size());
            buf.put((byte) 1).putInt(state.cursor()).putInt(state.pending().size());
            for (FixtureSplit s : state.pending()) {
                buf.put(new FixtureSplit.Codec().serialize(s));
            }
            return buf.array();
        }

        @Override
        public State deserialize(byte[] b) throws IOException {
            if (b.length < 9 || b[0] != 1) {
                throw new IOException("bad header");
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            buf.get();
            int c = buf.getInt();
            int count = buf.getInt();
            if (count < 0 || b.length != 9 + 21L * count) {
                throw new IOException("length does not match count " + count);
            }
            List<FixtureSplit> pending = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                pending.add(
                        new FixtureSplit.Codec()
                                .deserialize(Arrays.copyOfRange(b, 9 + 21 * i, 30 + 21 * i)));
            }
            return new State(pending, c);
        }
    }
}
