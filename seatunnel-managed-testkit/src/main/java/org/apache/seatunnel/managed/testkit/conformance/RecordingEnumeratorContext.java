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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * An enumerator context that records what the enumerator asked for, for the serializer rule.
 *
 * <p>Threading: synchronized; any thread.
 */
final class RecordingEnumeratorContext<SplitT extends SourceSplit>
        implements SourceSplitEnumerator.Context<SplitT> {
    private final int parallelism;
    private final List<SplitT> assigned = new ArrayList<>();

    RecordingEnumeratorContext(int parallelism) {
        this.parallelism = parallelism;
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public synchronized Set<Integer> registeredReaders() {
        return new TreeSet<>();
    }

    @Override
    public synchronized void assignSplit(int subtaskIndex, List<SplitT> splits) {
        assigned.addAll(splits);
    }

    @Override
    public void signalNoMoreSplits(int subtask) {}

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

    @Override
    public MetricsContext getMetricsContext() {
        return new DriverContext().getMetricsContext();
    }

    @Override
    public EventListener getEventListener() {
        return event -> {};
    }

    synchronized List<SplitT> assigned() {
        return Collections.unmodifiableList(new ArrayList<>(assigned));
    }
}
