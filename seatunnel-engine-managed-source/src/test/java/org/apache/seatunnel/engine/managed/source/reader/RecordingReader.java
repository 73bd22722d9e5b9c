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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;

/** A reader that records every call it receives, for ordering assertions. */
final class RecordingReader implements ManagedSourceReader<String, TestSplit> {
    final List<String> trace = new ArrayList<>();
    final List<TestSplit> owned = new ArrayList<>();
    final AtomicInteger wakeups = new AtomicInteger();
    boolean failOnEvent;
    CompletableFuture<Void> available = new CompletableFuture<>();

    /** Thrown by the next poll turns when set (checked exceptions included). */
    Exception pollFailure;

    /** What a poll turn does; default: emit nothing, report NOTHING_AVAILABLE. */
    BiFunction<Collector<String>, PollContext, PollStatus> onPoll =
            (out, ctx) -> PollStatus.NOTHING_AVAILABLE;

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public PollStatus pollNextManaged(Collector<String> output, PollContext context)
            throws Exception {
        trace.add("poll");
        if (pollFailure != null) {
            throw pollFailure;
        }
        return onPoll.apply(output, context);
    }

    @Override
    public void wakeup() {
        wakeups.incrementAndGet();
    }

    @Override
    public void open() {
        trace.add("open");
    }

    @Override
    public void close() {
        trace.add("close");
    }

    @Override
    public void pollNext(Collector<String> output) {
        throw new UnsupportedOperationException("Lane B entry point must not be used on Lane A");
    }

    /**
     * Read positions by split id, for tests whose state moves: when set, a snapshot reports each
     * owned split at its position here. Written by the test as a reader's turn or, to break the
     * contract, as a fetch thread would.
     */
    final Map<String, Long> positions = new HashMap<>();

    @Override
    public List<TestSplit> snapshotState(long checkpointId) {
        trace.add("snapshot:" + checkpointId + owned);
        if (positions.isEmpty()) {
            return new ArrayList<>(owned);
        }
        List<TestSplit> out = new ArrayList<>(owned.size());
        for (TestSplit s : owned) {
            out.add(new TestSplit(s.id, positions.getOrDefault(s.id, s.position)));
        }
        return out;
    }

    @Override
    public void addSplits(List<TestSplit> splits) {
        owned.addAll(splits);
        trace.add("addSplits:" + splits);
    }

    @Override
    public void handleNoMoreSplits() {
        trace.add("noMoreSplits");
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {
        if (failOnEvent) {
            throw new IllegalStateException("connector bug");
        }
        trace.add("event:" + sourceEvent);
    }

    /** What a completed checkpoint does besides tracing it; default: nothing. */
    Runnable onCheckpointComplete = () -> {};

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        trace.add("complete:" + checkpointId);
        onCheckpointComplete.run();
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        trace.add("aborted:" + checkpointId);
    }
}
