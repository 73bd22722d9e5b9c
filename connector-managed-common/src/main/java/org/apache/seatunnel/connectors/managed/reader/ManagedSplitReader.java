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

package org.apache.seatunnel.connectors.managed.reader;

import java.util.List;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * Reads records of the splits it was given: the one piece of I/O a connector on {@link
 * ManagedSourceReaderBase} writes. A fetcher thread of the base calls every method except {@link
 * #wakeUp()}, one at a time.
 *
 * <p>Threading: {@link #handleSplitsAdded}, {@link #fetch} and {@link #close} run on the fetcher
 * thread that owns this instance; {@link #wakeUp()} is called from other threads (the reader loop,
 * close) while {@code fetch} may be blocked, and must be thread-safe, idempotent and non-blocking.
 *
 * <p>The split reader keeps its own read positions (a cursor, a consumer) but never the
 * checkpoint-visible state: that is advanced by the {@link ManagedRecordEmitter} on the reader loop
 * when a record is emitted. The splits handed to it are the immutable descriptions the split was
 * assigned or restored with; it must not change them.
 */
public interface ManagedSplitReader<E, SplitT extends SourceSplit> extends AutoCloseable {

    /**
     * Fetches the next records of the splits added so far. May block waiting for data, but must
     * return soon after {@link #wakeUp()} (an empty batch is fine). Records of a split must follow
     * on from the previous batch; a split read to its end is reported through {@link
     * FetchedRecords.Builder#finish}. Throwing fails the reader (the job restores from its last
     * checkpoint).
     */
    FetchedRecords<E> fetch() throws Exception;

    /**
     * Takes over newly assigned or restored splits; reading starts at the position each split
     * describes. Non-blocking. A split id already added is never handed over twice.
     */
    void handleSplitsAdded(List<SplitT> splits);

    /** Makes a blocked or the next {@link #fetch()} return promptly. */
    void wakeUp();

    /** Releases the reader's resources; called once, on the fetcher thread, when it stops. */
    @Override
    void close() throws Exception;
}
