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

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One fetch's worth of records, grouped by split, plus the splits the fetch read to their end: what
 * a {@link ManagedSplitReader} hands from its fetch thread to the reader loop. Immutable once
 * built.
 *
 * <p>Threading: built by one fetch thread with a {@link Builder}, then published through the fetch
 * queue (whose lock gives happens-before) and read only by the reader loop.
 *
 * <p>A split listed as finished must not appear in a later batch; its records in this batch are
 * emitted before it is finished. The byte count is the split reader's own estimate and bounds the
 * fetch queue in bytes; a batch without estimates counts {@link #DEFAULT_RECORD_BYTES} per record.
 */
public final class FetchedRecords<E> {
    /** The size counted for a record added without an estimate. */
    public static final int DEFAULT_RECORD_BYTES = 64;

    private static final FetchedRecords<Object> EMPTY =
            new FetchedRecords<>(
                    Collections.emptyList(), Collections.emptyList(), Collections.emptySet(), 0, 0);

    private final List<String> splitIds;
    private final List<List<E>> records;
    private final Set<String> finishedSplits;
    private final int recordCount;
    private final long estimatedBytes;

    private FetchedRecords(
            List<String> splitIds,
            List<List<E>> records,
            Set<String> finishedSplits,
            int recordCount,
            long estimatedBytes) {
        this.splitIds = splitIds;
        this.records = records;
        this.finishedSplits = finishedSplits;
        this.recordCount = recordCount;
        this.estimatedBytes = estimatedBytes;
    }

    /** A batch with no records and no finished split (a fetch that found nothing). */
    @SuppressWarnings("unchecked")
    public static <E> FetchedRecords<E> empty() {
        return (FetchedRecords<E>) EMPTY;
    }

    /** A batch that only reports {@code splitIds} as read to their end. */
    public static <E> FetchedRecords<E> finished(String... splitIds) {
        Builder<E> b = builder();
        for (String id : splitIds) {
            b.finish(id);
        }
        return b.build();
    }

    public static <E> Builder<E> builder() {
        return new Builder<>();
    }

    /** The splits that have records here, in the order they were first added. */
    public int splitCount() {
        return splitIds.size();
    }

    public String splitId(int index) {
        return splitIds.get(index);
    }

    /** The records of the {@code index}-th split, in fetch order. */
    public List<E> records(int index) {
        return records.get(index);
    }

    /** Splits read to their end by this fetch. */
    public Set<String> finishedSplits() {
        return finishedSplits;
    }

    public int recordCount() {
        return recordCount;
    }

    public long estimatedBytes() {
        return estimatedBytes;
    }

    /** True if emitting this batch would change nothing. */
    public boolean isEmpty() {
        return recordCount == 0 && finishedSplits.isEmpty();
    }

    @Override
    public String toString() {
        // Counts only: split ids and records may be confidential.
        return "FetchedRecords{splits="
                + splitIds.size()
                + ", records="
                + recordCount
                + ", bytes="
                + estimatedBytes
                + ", finished="
                + finishedSplits.size()
                + '}';
    }

    /**
     * Collects one batch. Threading: one thread (the fetch thread that builds it); not reusable
     * after {@link #build()}.
     */
    public static final class Builder<E> {
        private final Map<String, List<E>> bySplit = new LinkedHashMap<>();
        private final Set<String> finished = new LinkedHashSet<>();
        private int count;
        private long bytes;
        private boolean built;

        private Builder() {}

        /** Adds a record of {@code splitId} counted as {@link #DEFAULT_RECORD_BYTES}. */
        public Builder<E> add(String splitId, E record) {
            return add(splitId, record, DEFAULT_RECORD_BYTES);
        }

        /** Adds a record of {@code splitId} with the split reader's size estimate. */
        public Builder<E> add(String splitId, E record, long estimatedBytes) {
            checkOpen();
            if (finished.contains(splitId)) {
                throw new IllegalStateException("a record was added after its split was finished");
            }
            if (estimatedBytes < 0) {
                throw new IllegalArgumentException("estimatedBytes < 0: " + estimatedBytes);
            }
            bySplit.computeIfAbsent(splitId, k -> new ArrayList<>()).add(record);
            count++;
            bytes += estimatedBytes;
            return this;
        }

        /** Marks {@code splitId} as read to its end; its records added here come first. */
        public Builder<E> finish(String splitId) {
            checkOpen();
            finished.add(splitId);
            return this;
        }

        public int recordCount() {
            return count;
        }

        public long estimatedBytes() {
            return bytes;
        }

        public FetchedRecords<E> build() {
            checkOpen();
            built = true;
            if (count == 0 && finished.isEmpty()) {
                return empty();
            }
            List<String> ids = new ArrayList<>(bySplit.size());
            List<List<E>> lists = new ArrayList<>(bySplit.size());
            for (Map.Entry<String, List<E>> e : bySplit.entrySet()) {
                ids.add(e.getKey());
                lists.add(Collections.unmodifiableList(e.getValue()));
            }
            return new FetchedRecords<>(
                    Collections.unmodifiableList(ids),
                    Collections.unmodifiableList(lists),
                    Collections.unmodifiableSet(finished),
                    count,
                    bytes);
        }

        private void checkOpen() {
            if (built) {
                throw new IllegalStateException("FetchedRecords.Builder already built");
            }
        }
    }
}
