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

import java.util.List;
import java.util.function.Supplier;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;

/**
 * All of a reader's splits on one fetch thread and one split reader that multiplexes them (a Kafka
 * consumer over its partitions, a file reader over its files in turn).
 *
 * <p>Threading: as {@link SplitFetcherManager}; the one fetcher is created with the first split.
 */
public final class SingleThreadFetcherManager<E, SplitT extends SourceSplit>
        extends SplitFetcherManager<E, SplitT> {

    // guarded by this
    private SplitFetcher<E, SplitT> fetcher;

    public SingleThreadFetcherManager(
            Supplier<ManagedSplitReader<E, SplitT>> splitReaders,
            FetchQueue<E> queue,
            ManagedReaderConfig config,
            String threadNamePrefix) {
        super(splitReaders, queue, config, threadNamePrefix);
    }

    @Override
    public synchronized void addSplits(List<SplitT> splits) {
        if (splits.isEmpty() || isClosed()) {
            return;
        }
        if (fetcher == null) {
            fetcher = startFetcher(false);
        }
        fetcher.addSplits(splits);
    }

    @Override
    protected void fetcherExited(SplitFetcher<E, SplitT> exited) {
        if (exited == fetcher) {
            // Only a failure ends it before close; the failure is reported, never restarted.
            fetcher = null;
        }
    }
}
