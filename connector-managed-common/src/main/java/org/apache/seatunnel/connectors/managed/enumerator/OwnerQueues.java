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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The splits an enumerator holds for its readers: one queue per owner subtask, in arrival order,
 * and a hand-out that puts a batch back at the front of its queue when the delivery fails.
 *
 * <p>Splits given at construction (a fresh job's list, or a restored state's pending splits) are
 * spread over their owners only at first use, since the enumerator's owner mapping may be an
 * overridable method that must not run in its constructor.
 *
 * <p>Threading: not thread-safe; the owning enumerator calls it on the coordinator loop (Lane A) or
 * under its own monitor (Lane B). {@link #size()} alone may be read from any thread (a gauge).
 */
final class OwnerQueues<SplitT> {

    /** The owner subtask of a split at a parallelism. */
    interface OwnerMapping<SplitT> {
        int ownerOf(SplitT split, int parallelism);
    }

    private final OwnerMapping<SplitT> owners;
    private final IntSupplier parallelism;
    // not yet spread over owners; null once they are
    private List<SplitT> undistributed;
    private final Map<Integer, ArrayDeque<SplitT>> queues = new TreeMap<>();
    // written by the owning thread, read by gauges
    private volatile int size;

    OwnerQueues(Collection<SplitT> initial, OwnerMapping<SplitT> owners, IntSupplier parallelism) {
        this.owners = owners;
        this.parallelism = parallelism;
        this.undistributed = new ArrayList<>(initial);
        this.size = undistributed.size();
    }

    /** How many splits wait, over all owners. */
    int size() {
        return size;
    }

    boolean isEmpty(int subtask) {
        distribute();
        ArrayDeque<SplitT> q = queues.get(subtask);
        return q == null || q.isEmpty();
    }

    /** Queues {@code split} after its owner's others; returns the owner. */
    int addLast(SplitT split) {
        distribute();
        int owner = owners.ownerOf(split, parallelism.getAsInt());
        queueOf(owner).addLast(split);
        size++;
        return owner;
    }

    /** Queues {@code split} before its owner's others; returns the owner. */
    int addFirst(SplitT split) {
        distribute();
        int owner = owners.ownerOf(split, parallelism.getAsInt());
        queueOf(owner).addFirst(split);
        size++;
        return owner;
    }

    /**
     * Removes up to {@code max} of {@code subtask}'s splits, oldest first, and hands them to {@code
     * deliver}; if that throws, they go back to the front of the queue in their order and the
     * exception propagates. Returns how many were delivered.
     */
    int handOut(int subtask, int max, Consumer<List<SplitT>> deliver) {
        distribute();
        ArrayDeque<SplitT> q = queues.get(subtask);
        if (q == null || q.isEmpty() || max <= 0) {
            return 0;
        }
        List<SplitT> batch = new ArrayList<>(Math.min(max, q.size()));
        while (batch.size() < max && !q.isEmpty()) {
            batch.add(q.pollFirst());
        }
        size -= batch.size();
        try {
            deliver.accept(Collections.unmodifiableList(batch));
        } catch (RuntimeException e) {
            for (int i = batch.size() - 1; i >= 0; i--) {
                q.addFirst(batch.get(i));
            }
            size += batch.size();
            throw e;
        }
        return batch.size();
    }

    /** Every waiting split, owner by owner (or as constructed, before first use). */
    List<SplitT> snapshot() {
        if (undistributed != null) {
            return new ArrayList<>(undistributed);
        }
        List<SplitT> all = new ArrayList<>(size);
        for (ArrayDeque<SplitT> q : queues.values()) {
            all.addAll(q);
        }
        return all;
    }

    private void distribute() {
        if (undistributed == null) {
            return;
        }
        int p = parallelism.getAsInt();
        for (SplitT s : undistributed) {
            queueOf(owners.ownerOf(s, p)).addLast(s);
        }
        undistributed = null;
    }

    private ArrayDeque<SplitT> queueOf(int subtask) {
        return queues.computeIfAbsent(subtask, k -> new ArrayDeque<>());
    }
}
