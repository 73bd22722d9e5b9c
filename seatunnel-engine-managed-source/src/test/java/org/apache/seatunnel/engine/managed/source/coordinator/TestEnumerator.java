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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;

/**
 * A simple, well-behaved enumerator used by the unit, hazard and model tests: pending splits are
 * discovered asynchronously (through the coordinator scheduler) or given up front; a split request
 * gets one pending split or, once discovery is done and nothing is pending, no-more-splits. Records
 * every callback, with the thread's context classloader, in {@link #log}.
 */
final class TestEnumerator implements SourceSplitEnumerator<TestSplit, TestEnumerator.State> {
    static final AsyncTaskKey DISCOVER = AsyncTaskKey.of("discover-splits");

    final SourceSplitEnumerator.Context<TestSplit> context;
    final List<String> log = new ArrayList<>();
    final List<TestSplit> pending = new ArrayList<>();
    final Set<Integer> waitingRequests = new LinkedHashSet<>();
    final List<ClassLoader> callbackLoaders = new ArrayList<>();
    private final List<TestSplit> toDiscover;
    boolean discovered;
    boolean useAsyncDiscovery;
    Consumer<String> onCallback = name -> {};

    TestEnumerator(
            SourceSplitEnumerator.Context<TestSplit> context,
            List<TestSplit> toDiscover,
            boolean asyncDiscovery,
            State restored) {
        this.context = context;
        this.toDiscover = Collections.unmodifiableList(new ArrayList<>(toDiscover));
        this.useAsyncDiscovery = asyncDiscovery;
        if (restored != null) {
            this.discovered = restored.discovered;
            this.pending.addAll(restored.pending);
        }
    }

    private void record(String s) {
        log.add(s);
        callbackLoaders.add(Thread.currentThread().getContextClassLoader());
        onCallback.accept(s);
    }

    @Override
    public void open() {
        record("open");
        if (discovered) {
            return;
        }
        if (!useAsyncDiscovery) {
            pending.addAll(toDiscover);
            discovered = true;
            return;
        }
        discover();
    }

    private void discover() {
        CoordinatorScheduler scheduler = ManagedEnumeratorContext.of(context).scheduler();
        List<TestSplit> input = toDiscover; // immutable input
        scheduler.callAsync(
                DISCOVER,
                () -> input,
                (result, error) -> {
                    if (error != null) {
                        discover();
                        return;
                    }
                    record("discovered");
                    pending.addAll(result);
                    discovered = true;
                    for (int s : new ArrayList<>(waitingRequests)) {
                        serve(s);
                    }
                    waitingRequests.clear();
                },
                AsyncTaskOptions.defaults());
    }

    @Override
    public void run() {
        record("run");
    }

    @Override
    public void close() {
        record("close");
    }

    @Override
    public void addSplitsBack(List<TestSplit> splits, int subtaskId) {
        record("addSplitsBack:" + subtaskId + ":" + splits.size());
        pending.addAll(splits);
    }

    @Override
    public int currentUnassignedSplitSize() {
        return pending.size();
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        record("handleSplitRequest:" + subtaskId);
        if (!discovered) {
            waitingRequests.add(subtaskId);
            return;
        }
        serve(subtaskId);
    }

    private void serve(int subtaskId) {
        if (!pending.isEmpty()) {
            context.assignSplit(subtaskId, pending.remove(0));
        } else {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        record("registerReader:" + subtaskId);
    }

    @Override
    public State snapshotState(long checkpointId) {
        record("snapshotState:" + checkpointId);
        return new State(discovered, new ArrayList<>(pending));
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        record("handleSourceEvent:" + subtaskId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        record("notifyCheckpointComplete:" + checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        record("notifyCheckpointAborted:" + checkpointId);
    }

    /** Enumerator state: discovered flag and pending splits. */
    static final class State {
        final boolean discovered;
        final List<TestSplit> pending;

        State(boolean discovered, List<TestSplit> pending) {
            this.discovered = discovered;
            this.pending = pending;
        }
    }

    /** Versioned-enough binary state serializer for tests. */
    static final class StateSer implements Serializer<State> {
        private final TestSplit.Ser splits = new TestSplit.Ser();

        @Override
        public byte[] serialize(State s) throws IOException {
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bo);
            out.writeBoolean(s.discovered);
            out.writeInt(s.pending.size());
            for (TestSplit p : s.pending) {
                byte[] b = splits.serialize(p);
                out.writeInt(b.length);
                out.write(b);
            }
            return bo.toByteArray();
        }

        @Override
        public State deserialize(byte[] b) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
            boolean d = in.readBoolean();
            int n = in.readInt();
            List<TestSplit> p = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] s = new byte[in.readInt()];
                in.readFully(s);
                p.add(splits.deserialize(s));
            }
            return new State(d, p);
        }
    }
}
