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

package org.apache.seatunnel.engine.managed.faults.world;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * A recording connector reader: emits the rows of its splits in order, at most {@code rowsPerTurn}
 * per poll turn and never past the turn's budget, and advances each split's position with the emit
 * (state and emit atomic within the turn, invariant 5). It asks for a split when it owns none, and
 * reports END_OF_INPUT once no-more-splits arrived and everything is read. It records which splits
 * it was given and flags a split given twice to one attempt.
 *
 * <p>Threading: every method on the reader loop's driving thread except {@link #wakeup()} (any
 * thread, a no-op here). Life cycle: one instance per reader attempt.
 */
public final class RowReader implements ManagedSourceReader<String, RowSplit> {
    private static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    private final Runnable splitRequester;
    private final int rowsPerTurn;
    private final LinkedHashMap<String, RowSplit> owned = new LinkedHashMap<>();
    private final Set<String> added = new HashSet<>();
    private final List<String> violations = new ArrayList<>();
    // Never completed: the loop re-polls on every applied command, which is how splits arrive.
    private final CompletableFuture<Void> idle = new CompletableFuture<>();
    private boolean noMoreSplits;
    private boolean requestOutstanding;

    /**
     * @param splitRequester the reader context's {@code sendSplitRequest}
     */
    public RowReader(Runnable splitRequester, int rowsPerTurn) {
        this.splitRequester = splitRequester;
        this.rowsPerTurn = rowsPerTurn;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return owned.isEmpty() ? idle : CompletableFuture.completedFuture(null);
    }

    @Override
    public PollStatus pollNextManaged(Collector<String> output, PollContext context) {
        int emitted = 0;
        Iterator<Map.Entry<String, RowSplit>> it = owned.entrySet().iterator();
        while (it.hasNext() && emitted < rowsPerTurn && context.remainingRecords() > 0) {
            Map.Entry<String, RowSplit> e = it.next();
            RowSplit s = e.getValue();
            while (!s.done() && emitted < rowsPerTurn && context.remainingRecords() > 0) {
                output.collect(s.row());
                s = s.advanced();
                emitted++;
            }
            if (s.done()) {
                it.remove();
            } else {
                e.setValue(s);
            }
            if (context.shouldYield()) {
                break;
            }
        }
        if (!owned.isEmpty()) {
            return PollStatus.MORE_AVAILABLE;
        }
        if (noMoreSplits) {
            return PollStatus.END_OF_INPUT;
        }
        if (!requestOutstanding) {
            requestOutstanding = true;
            splitRequester.run();
        }
        return PollStatus.NOTHING_AVAILABLE;
    }

    @Override
    public void addSplits(List<RowSplit> splits) {
        for (RowSplit s : splits) {
            if (!added.add(s.splitId())) {
                violations.add("split " + s.splitId() + " added twice to one reader attempt");
            }
            if (!s.done()) {
                owned.put(s.splitId(), s);
            }
        }
        requestOutstanding = false;
    }

    @Override
    public void handleNoMoreSplits() {
        noMoreSplits = true;
        requestOutstanding = false;
    }

    @Override
    public List<RowSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(owned.values());
    }

    /** Every split of the world ends: the reader counts what it still owns. */
    @Override
    public int splitBacklog() {
        return owned.size();
    }

    @Override
    public void wakeup() {}

    @Override
    public void open() {}

    @Override
    public void close() {}

    @Override
    public void pollNext(Collector<String> output) {
        throw new UnsupportedOperationException("Lane A readers are polled through the loop");
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    /** Splits this attempt still reads, with their positions; a copy. */
    public List<RowSplit> owned() {
        return Collections.unmodifiableList(new ArrayList<>(owned.values()));
    }

    /** Whether the connector was given {@code splitId} in this attempt. */
    public boolean wasAdded(String splitId) {
        return added.contains(splitId);
    }

    public boolean noMoreSplits() {
        return noMoreSplits;
    }

    public List<String> violations() {
        return Collections.unmodifiableList(violations);
    }
}
