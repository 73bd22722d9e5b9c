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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * The tracker's {@code UNASSIGNED} splits: per reader subtask, in the order the enumerator handed
 * them out, with their count and estimated bytes against {@code
 * assignment-tracker.max-unassigned-entries} and {@code max-unassigned-bytes}. An enumerator that
 * hands out more at once is refused (the coordinator fails, naming the option); one that implements
 * {@code SupportSplitDemand} is asked for what readers can take instead.
 *
 * <p>Threading: owned by its {@link SourceAssignmentTracker}, so confined to the coordinator loop.
 * The split-id index stays the tracker's; these queues only order and count.
 */
final class UnassignedSplits {
    private final int maxEntries;
    private final long maxBytes;
    private final TreeMap<Integer, ArrayDeque<PendingSplit>> bySubtask = new TreeMap<>();
    private int count;
    private long bytes;

    UnassignedSplits(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** Whether one more split of {@code estimate} bytes stays within both bounds. */
    boolean fits(long estimate) {
        return count < maxEntries && bytes + estimate <= maxBytes;
    }

    /** Queues {@code p} last for its subtask (the caller checked the bounds, or restores). */
    void add(PendingSplit p) {
        bySubtask.computeIfAbsent(p.subtask(), k -> new ArrayDeque<>()).addLast(p);
        count++;
        bytes += p.estimatedBytes();
    }

    boolean has(int subtask) {
        return bySubtask.containsKey(subtask);
    }

    /** The queue of {@code subtask}, or null when it has none. Read-only for the caller. */
    ArrayDeque<PendingSplit> queue(int subtask) {
        return bySubtask.get(subtask);
    }

    /** Serialized bytes of the first split of {@code subtask}; -1 if it has none. */
    int firstLength(int subtask) {
        ArrayDeque<PendingSplit> q = bySubtask.get(subtask);
        return q == null ? -1 : q.peekFirst().splitBytes().length;
    }

    /** Marks the first split of {@code subtask} back-pressured; true only the first time. */
    boolean markFirstBackpressured(int subtask) {
        ArrayDeque<PendingSplit> q = bySubtask.get(subtask);
        return q != null && q.peekFirst().markBackpressureCounted();
    }

    int count(int subtask) {
        ArrayDeque<PendingSplit> q = bySubtask.get(subtask);
        return q == null ? 0 : q.size();
    }

    /** Subtasks with splits, ascending; a copy so the caller may dispatch while iterating. */
    int[] subtasks() {
        int[] out = new int[bySubtask.size()];
        int i = 0;
        for (Integer s : bySubtask.keySet()) {
            out[i++] = s;
        }
        return out;
    }

    /** Removes and returns the first {@code n} splits of {@code subtask}. */
    PendingSplit[] takeFirst(int subtask, int n) {
        ArrayDeque<PendingSplit> q = bySubtask.get(subtask);
        if (q == null || q.size() < n || n < 1) {
            throw new IllegalStateException(
                    "only pending entries of a subtask are dispatched, at least one");
        }
        PendingSplit[] taken = new PendingSplit[n];
        for (int i = 0; i < n; i++) {
            PendingSplit p = q.pollFirst();
            taken[i] = p;
            count--;
            bytes -= p.estimatedBytes();
        }
        if (q.isEmpty()) {
            bySubtask.remove(subtask);
        }
        return taken;
    }

    /** Removes {@code p}, a split of these queues. */
    void remove(PendingSplit p) {
        ArrayDeque<PendingSplit> q = bySubtask.get(p.subtask());
        q.remove(p);
        if (q.isEmpty()) {
            bySubtask.remove(p.subtask());
        }
        count--;
        bytes -= p.estimatedBytes();
    }

    /** Removes and returns every split, by subtask and in order. */
    List<PendingSplit> takeAll() {
        List<PendingSplit> out = new ArrayList<>(count);
        for (ArrayDeque<PendingSplit> q : bySubtask.values()) {
            out.addAll(q);
        }
        bySubtask.clear();
        count = 0;
        bytes = 0;
        return out;
    }

    /** Every queue, by subtask and in order (the codec writes them in this order). */
    Collection<ArrayDeque<PendingSplit>> queues() {
        return Collections.unmodifiableCollection(bySubtask.values());
    }

    int count() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    /** Splits that may still be added. */
    int room() {
        return Math.max(0, maxEntries - count);
    }
}
