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

package org.apache.seatunnel.engine.managed.faults;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * A connector reader whose {@code addSplits} fails at fault point 5 (before the connector takes the
 * splits) or 6 (after it took them, before the call returns). Everything else is passed through
 * unchanged.
 *
 * <p>Threading: as the wrapped reader — every call on the reader loop's driving thread, {@link
 * #wakeup()} from any thread. Holds no state of its own besides the injector's counters, which
 * belong to the run's thread.
 */
public final class FaultInjectingReader<T, SplitT extends SourceSplit>
        implements ManagedSourceReader<T, SplitT> {
    private final ManagedSourceReader<T, SplitT> reader;
    private final FaultInjector faults;
    private final String name;

    public FaultInjectingReader(
            ManagedSourceReader<T, SplitT> reader, FaultInjector faults, String name) {
        this.reader = reader;
        this.faults = faults;
        this.name = name;
    }

    @Override
    public void addSplits(List<SplitT> splits) {
        String where = name + " addSplits " + splits.size();
        FaultAction before = faults.at(FaultPoint.CONNECTOR_APPLY_BEFORE_RETURN, where);
        if (before == FaultAction.CRASH) {
            throw new InjectedFault(FaultPoint.CONNECTOR_APPLY_BEFORE_RETURN, before, where);
        }
        reader.addSplits(splits);
        FaultAction after = faults.at(FaultPoint.APPLY_COMPLETION, where);
        if (after == FaultAction.CRASH) {
            throw new InjectedFault(FaultPoint.APPLY_COMPLETION, after, where);
        }
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return reader.managedSourceCapability();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return reader.isAvailable();
    }

    @Override
    public int splitBacklog() {
        return reader.splitBacklog();
    }

    @Override
    public PollStatus pollNextManaged(Collector<T> output, PollContext context) throws Exception {
        return reader.pollNextManaged(output, context);
    }

    @Override
    public void wakeup() {
        reader.wakeup();
    }

    @Override
    public void open() throws Exception {
        reader.open();
    }

    @Override
    public void close() throws java.io.IOException {
        reader.close();
    }

    @Override
    public void pollNext(Collector<T> output) throws Exception {
        reader.pollNext(output);
    }

    @Override
    public List<SplitT> snapshotState(long checkpointId) throws Exception {
        return reader.snapshotState(checkpointId);
    }

    @Override
    public void handleNoMoreSplits() {
        reader.handleNoMoreSplits();
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {
        reader.handleSourceEvent(sourceEvent);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        reader.notifyCheckpointAborted(checkpointId);
    }
}
