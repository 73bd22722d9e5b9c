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

package org.apache.seatunnel.connectors.managed.reader.adapter;

import java.util.List;
import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordsWithSplitIds;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitReader;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitsAddition;

/**
 * Runs a split reader written for SeaTunnel's {@code connector-common} reader base (a {@link
 * SplitReader}, e.g. the stock Kafka partition reader) as a {@link ManagedSplitReader}: new splits
 * become a {@link SplitsAddition}, each fetched {@link RecordsWithSplitIds} is copied into a {@link
 * FetchedRecords} (sized by the given estimator) and recycled.
 *
 * <p>Threading: as {@link ManagedSplitReader}; the wrapped reader sees exactly the calls and
 * threads its own base would give it (one fetch thread, {@code wakeUp} from others).
 */
public final class ConnectorCommonSplitReader<E, SplitT extends SourceSplit>
        implements ManagedSplitReader<E, SplitT> {

    private final SplitReader<E, SplitT> delegate;
    private final ToLongFunction<E> sizer;

    /**
     * @param sizer the estimated bytes of one fetched element, for the fetch queue's byte bound
     */
    public ConnectorCommonSplitReader(SplitReader<E, SplitT> delegate, ToLongFunction<E> sizer) {
        this.delegate = delegate;
        this.sizer = sizer;
    }

    @Override
    public FetchedRecords<E> fetch() throws Exception {
        RecordsWithSplitIds<E> fetched = delegate.fetch();
        if (fetched == null) {
            return FetchedRecords.empty();
        }
        try {
            FetchedRecords.Builder<E> batch = FetchedRecords.builder();
            for (String split = fetched.nextSplit(); split != null; split = fetched.nextSplit()) {
                for (E e = fetched.nextRecordFromSplit();
                        e != null;
                        e = fetched.nextRecordFromSplit()) {
                    batch.add(split, e, sizer.applyAsLong(e));
                }
            }
            for (String finished : fetched.finishedSplits()) {
                batch.finish(finished);
            }
            return batch.build();
        } finally {
            fetched.recycle();
        }
    }

    @Override
    public void handleSplitsAdded(List<SplitT> splits) {
        delegate.handleSplitsChanges(new SplitsAddition<>(splits));
    }

    @Override
    public void wakeUp() {
        delegate.wakeUp();
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }
}
