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

package org.apache.seatunnel.connectors.managed.reader.fetcher;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;

/**
 * Each split on a fetch thread and split reader of its own, for sources whose reads block per split
 * (a JDBC query, an HTTP stream). At most {@code maxThreads} run at once; further splits wait in
 * arrival order until a running split is read to its end.
 *
 * <p>Threading: as {@link SplitFetcherManager}.
 */
public final class SplitPerThreadFetcherManager<E, SplitT extends SourceSplit>
        extends SplitFetcherManager<E, SplitT> {

    private final int maxThreads;

    // guarded by this
    private final ArrayDeque<SplitT> waiting = new ArrayDeque<>();
    private int running;

    public SplitPerThreadFetcherManager(
            Supplier<ManagedSplitReader<E, SplitT>> splitReaders,
            FetchQueue<E> queue,
            ManagedReaderConfig config,
            String threadNamePrefix,
            int maxThreads) {
        super(splitReaders, queue, config, threadNamePrefix);
        if (maxThreads < 1) {
            throw new IllegalArgumentException("maxThreads must be >= 1: " + maxThreads);
        }
        this.maxThreads = maxThreads;
    }

    @Override
    public synchronized void addSplits(List<SplitT> splits) {
        if (isClosed()) {
            return;
        }
        waiting.addAll(splits);
        startWaiting();
    }

    @Override
    protected void fetcherExited(SplitFetcher<E, SplitT> exited) {
        running--;
        startWaiting();
    }

    private void startWaiting() {
        while (running < maxThreads && !waiting.isEmpty()) {
            SplitFetcher<E, SplitT> f = startFetcher(true);
            running++;
            f.addSplits(Collections.singletonList(waiting.pollFirst()));
        }
    }

    /** Splits waiting for a free fetch thread. */
    public synchronized int waitingSplits() {
        return waiting.size();
    }
}
