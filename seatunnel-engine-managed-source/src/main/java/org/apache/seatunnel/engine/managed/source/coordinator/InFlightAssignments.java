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
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;

/**
 * The tracker's assignments in flight ({@code DISPATCHED .. CHECKPOINT_INCLUDED}), from dispatch
 * until they are collected or handed back, and the in-flight bounds they are held to: {@code
 * assignment-tracker.max-entries} assignments, {@code max-bytes} estimated bytes, and each reader
 * subtask's even share of the entries (so one reader cannot take every slot while the others wait
 * for a checkpoint). At the bound a split stays {@code UNASSIGNED} (back-pressure) until an apply
 * or a completed checkpoint frees room; an empty tracker always takes one assignment of one split.
 *
 * <p>Threading: owned by its {@link SourceAssignmentTracker}, so confined to the coordinator loop.
 * The split-id index is the tracker's; this type removes an assignment's splits from it when the
 * assignment leaves, so an assignment and its index entries always leave together.
 */
final class InFlightAssignments {
    /**
     * {@link #collectAll} purges the index in one pass once the splits leaving are at least this
     * fraction of its slots: a pass costs a few nanoseconds a slot, a removal a probe and a shift
     * (about 100 ns a split measured in a storm).
     */
    static final int BULK_PURGE_FRACTION = 16;

    private final int maxEntries;
    private final long maxBytes;
    private final SplitIdIndex index;
    private final CoordinatorMetrics metrics;
    private int parallelism = 1;

    private final LinkedHashMap<Long, TrackedAssignment> byCommand = new LinkedHashMap<>();
    private final HashMap<Integer, LinkedHashSet<TrackedAssignment>> bySubtask = new HashMap<>();
    private final HashMap<Integer, ArrayDeque<TrackedAssignment>> unappliedBySubtask =
            new HashMap<>();

    private int count;
    private int splits;
    private long bytes;
    private long left;

    InFlightAssignments(
            int maxEntries, long maxBytes, SplitIdIndex index, CoordinatorMetrics metrics) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.index = index;
        this.metrics = metrics;
    }

    void parallelism(int p) {
        this.parallelism = Math.max(1, p);
    }

    // ---------------------------------------------------------------- bounds

    /**
     * Assignments {@code subtask} may still add: its share and the total, 0 when the byte bound is
     * reached; an empty tracker always takes one.
     */
    int room(int subtask) {
        if (count == 0) {
            return Math.max(1, Math.min(maxEntries, shareOfEntries()));
        }
        if (bytes >= maxBytes) {
            return 0;
        }
        LinkedHashSet<TrackedAssignment> mine = bySubtask.get(subtask);
        int own = mine == null ? 0 : mine.size();
        return Math.max(0, Math.min(maxEntries - count, shareOfEntries() - own));
    }

    /**
     * How many of the first splits of {@code queue} (pending for {@code subtask}) fit one command:
     * at most {@code maxSplits}, an assignment payload of at most {@code payloadRoom} bytes (the
     * first split always), and the room of the bounds. 0 when not even one assignment of the first
     * split fits now.
     */
    int dispatchable(ArrayDeque<PendingSplit> queue, int subtask, int maxSplits, long payloadRoom) {
        if (queue == null || room(subtask) == 0) {
            return 0;
        }
        boolean alwaysOne = count == 0;
        long bytesRoom = maxBytes - bytes;
        int n = 0;
        long idBytes = 0;
        long splitBytes = 0;
        for (PendingSplit p : queue) {
            if (n == maxSplits) {
                break;
            }
            long ids = idBytes + p.idUtf8().length;
            long all = splitBytes + p.splitBytes().length;
            if (n > 0 && AssignmentPayload.encodedSize(n + 1, all) > payloadRoom) {
                break;
            }
            if (TrackedAssignment.estimate(n + 1, ids, all) > bytesRoom && !(n == 0 && alwaysOne)) {
                break;
            }
            idBytes = ids;
            splitBytes = all;
            n++;
        }
        return n;
    }

    private int shareOfEntries() {
        return Math.max(1, maxEntries / parallelism);
    }

    // ---------------------------------------------------------------- membership

    /**
     * Takes {@code a} in flight; a dispatched one also waits for its apply watermark. Returns false
     * (and takes nothing) when its command is already in flight.
     */
    boolean add(TrackedAssignment a, boolean awaitsApply) {
        if (byCommand.putIfAbsent(a.commandId(), a) != null) {
            return false;
        }
        bySubtask.computeIfAbsent(a.subtask(), k -> new LinkedHashSet<>()).add(a);
        count++;
        splits += a.liveCount();
        bytes += a.estimatedBytes();
        if (awaitsApply) {
            unappliedBySubtask.computeIfAbsent(a.subtask(), k -> new ArrayDeque<>()).addLast(a);
        }
        return true;
    }

    /** Drops {@code a} and its live splits' index entries: it was collected or handed back. */
    void remove(TrackedAssignment a) {
        TrackedAssignment.Cursor c = a.cursor();
        while (c.next()) {
            if (!a.isReleased(c.index)) {
                index.remove(c.fingerprint(), a);
            }
        }
        forget(a);
    }

    /** Drops {@code a} from everything but the split-id index. */
    private void forget(TrackedAssignment a) {
        byCommand.remove(a.commandId());
        LinkedHashSet<TrackedAssignment> set = bySubtask.get(a.subtask());
        if (set != null && set.remove(a)) {
            count--;
            splits -= a.liveCount();
            bytes -= a.estimatedBytes();
            left++;
            // An empty set stays (one per subtask): a subtask's in-flight set empties after every
            // apply without checkpoints, and rebuilding it each time cost more than keeping it.
        }
    }

    /** Collects {@code a}: its ownership is durable, so the tracker forgets it. */
    void collect(TrackedAssignment a) {
        markCollected(a);
        remove(a);
    }

    private void markCollected(TrackedAssignment a) {
        metrics.add(Counter.ASSIGNMENTS_GC, a.liveCount());
        a.moveTo(AssignmentState.GC_ELIGIBLE);
    }

    /**
     * Collects every assignment of {@code durable} (a completed checkpoint's). When their splits
     * are a large part of the split-id index (a checkpoint of a split storm collects a million at
     * once), the index drops them in one pass instead of a probe per split: on the loop that also
     * sends the readers their next splits, the per-split way took over 100 ms per million.
     */
    void collectAll(List<TrackedAssignment> durable) {
        long splitsLeaving = 0;
        for (TrackedAssignment a : durable) {
            splitsLeaving += a.liveCount();
        }
        if (splitsLeaving < index.capacity() / BULK_PURGE_FRACTION) {
            for (TrackedAssignment a : durable) {
                collect(a);
            }
            return;
        }
        for (TrackedAssignment a : durable) {
            markCollected(a);
            forget(a);
        }
        // Only collected assignments are GC_ELIGIBLE while indexed: every other way out of the
        // tracker removes its entries first.
        index.purge(
                h ->
                        h instanceof TrackedAssignment
                                && ((TrackedAssignment) h).state() == AssignmentState.GC_ELIGIBLE);
    }

    /**
     * Split {@code i} (fingerprint {@code fp}) of {@code a} was handed back on its own; the
     * assignment leaves once none of its splits is left.
     */
    void release(TrackedAssignment a, int i, long fp) {
        index.remove(fp, a);
        splits--;
        if (a.release(i) == 0) {
            a.moveTo(AssignmentState.UNASSIGNED);
            remove(a);
        }
    }

    /**
     * Takes a restored assignment in flight and indexes its splits; a snapshot that holds a split
     * or a command twice is refused.
     */
    void restore(TrackedAssignment a) {
        TrackedAssignment.Cursor c = a.cursor();
        while (c.next()) {
            byte[] id = c.idUtf8();
            long fp = SplitIdIndex.fingerprint(id);
            if (index.find(fp, id) != null) {
                throw new IllegalStateException("snapshot holds a split id twice");
            }
            index.add(fp, a);
        }
        if (!add(a, false)) {
            throw new IllegalStateException("snapshot holds a command twice");
        }
    }

    TrackedAssignment byCommand(long commandId) {
        return byCommand.get(commandId);
    }

    /** {@code subtask}'s assignments that match {@code filter}, in dispatch order; a copy. */
    List<TrackedAssignment> select(int subtask, Predicate<TrackedAssignment> filter) {
        List<TrackedAssignment> out = new ArrayList<>();
        LinkedHashSet<TrackedAssignment> set = bySubtask.get(subtask);
        if (set != null) {
            for (TrackedAssignment a : set) {
                if (filter.test(a)) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- apply watermarks

    /**
     * {@code attempt} of {@code subtask} applied every command of {@code epoch} up to {@code
     * watermark}: those assignments leave the apply queue, and the ones not applied before are
     * APPLIED (and collected when {@code collectApplied}: without checkpoints nothing else will).
     * Returns the number of commands newly known applied.
     */
    int appliedThrough(
            int subtask, long attempt, long epoch, long watermark, boolean collectApplied) {
        ArrayDeque<TrackedAssignment> q = unappliedBySubtask.get(subtask);
        int n = 0;
        while (q != null && !q.isEmpty()) {
            TrackedAssignment a = q.peekFirst();
            if (a.attempt() != attempt || a.epoch() != epoch || a.sequence() > watermark) {
                break;
            }
            q.pollFirst();
            n++;
            AssignmentState s = a.state();
            if (s == AssignmentState.DISPATCHED || s == AssignmentState.ADMITTED) {
                a.moveTo(AssignmentState.APPLIED);
                if (collectApplied) {
                    collect(a);
                }
            }
        }
        return n;
    }

    /** Commands of a replaced attempt of {@code subtask} are never applied: stop waiting. */
    void forgetUnapplied(int subtask) {
        unappliedBySubtask.remove(subtask);
    }

    // ---------------------------------------------------------------- views

    /** Subtasks that own assignments in flight, ascending. */
    Set<Integer> owners() {
        Set<Integer> owners = new TreeSet<>();
        for (Map.Entry<Integer, LinkedHashSet<TrackedAssignment>> m : bySubtask.entrySet()) {
            if (!m.getValue().isEmpty()) {
                owners.add(m.getKey());
            }
        }
        return owners;
    }

    /**
     * Adds a copy of every live split in flight to {@code out}, by assignment in dispatch order.
     */
    void addEntries(List<AssignmentEntry> out) {
        for (TrackedAssignment a : byCommand.values()) {
            TrackedAssignment.Cursor c = a.cursor();
            while (c.next()) {
                if (!a.isReleased(c.index)) {
                    out.add(AssignmentEntry.of(a, c, a.state()));
                }
            }
        }
    }

    /** In dispatch order (the codec writes them in this order). */
    Collection<TrackedAssignment> all() {
        return Collections.unmodifiableCollection(byCommand.values());
    }

    int count() {
        return count;
    }

    int count(int subtask) {
        LinkedHashSet<TrackedAssignment> set = bySubtask.get(subtask);
        return set == null ? 0 : set.size();
    }

    int splits() {
        return splits;
    }

    long bytes() {
        return bytes;
    }

    /** Assignments that left so far: only grows. */
    long left() {
        return left;
    }

    /** When the oldest assignment in flight was dispatched (loop clock); -1 when none. */
    long oldestDispatchMillis() {
        long oldest = -1;
        for (LinkedHashSet<TrackedAssignment> set : bySubtask.values()) {
            // Sets keep dispatch order per subtask: the first is the oldest of its subtask.
            Iterator<TrackedAssignment> it = set.iterator();
            if (it.hasNext()) {
                long t = it.next().dispatchedAtMillis();
                // A version-1 restore did not record it (NONE): no age to tell.
                if (t >= 0) {
                    oldest = oldest < 0 ? t : Math.min(oldest, t);
                }
            }
        }
        return oldest;
    }
}
