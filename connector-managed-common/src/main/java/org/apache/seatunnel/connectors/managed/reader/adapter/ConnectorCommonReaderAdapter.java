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

import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordEmitter;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitReader;

/**
 * The Lane A reader of a connector built on SeaTunnel 2.3.8's {@code connector-common} reader base
 * ({@code SourceReaderBase} / {@code SingleThreadMultiplexSourceReaderBase}): the connector's own
 * {@link SplitReader} and {@link RecordEmitter} run unchanged, on this base's fetch thread and
 * reader loop. The subclass supplies the two state conversions its stock reader already has ({@code
 * initializedState} and {@code toSplitType} there; {@link #initialState} and {@link #toSplit}
 * here).
 *
 * <p>Threading: as {@link ManagedSourceReaderBase}.
 */
public abstract class ConnectorCommonReaderAdapter<E, T, SplitT extends SourceSplit, SplitStateT>
        extends ManagedSourceReaderBase<E, T, SplitT, SplitStateT> {

    /**
     * @param splitReaders the stock reader's split reader supplier
     * @param emitter the stock reader's record emitter
     * @param sizer estimated bytes of one fetched element (e.g. key plus value length)
     */
    protected ConnectorCommonReaderAdapter(
            SourceReader.Context context,
            ManagedReaderConfig config,
            Supplier<SplitReader<E, SplitT>> splitReaders,
            RecordEmitter<E, T, SplitStateT> emitter,
            ToLongFunction<E> sizer) {
        super(
                context,
                config,
                () -> new ConnectorCommonSplitReader<>(splitReaders.get(), sizer),
                emitter::emitRecord);
    }

    /** As above, counting {@link FetchedRecords#DEFAULT_RECORD_BYTES} per element. */
    protected ConnectorCommonReaderAdapter(
            SourceReader.Context context,
            ManagedReaderConfig config,
            Supplier<SplitReader<E, SplitT>> splitReaders,
            RecordEmitter<E, T, SplitStateT> emitter) {
        this(context, config, splitReaders, emitter, e -> FetchedRecords.DEFAULT_RECORD_BYTES);
    }
}
