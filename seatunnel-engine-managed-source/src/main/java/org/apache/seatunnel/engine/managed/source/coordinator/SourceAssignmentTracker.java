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
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;

/**
 * Tracks every split the enumerator handed out until ownership is proven durable (STIP-31 "Split
 * assignment ownership"). Keyed by the stable split id, never by subtask index, so rescale and
 * failover reason about splits, not slots.
 *
 * <p>Threading: owned by one {@link CoordinatorEventLoop}; every method must be called on that loop
 * (tests call it from their single thread). Not thread-safe.
 *
 * <p>Bounds: commands in flight (states {@code DISPATCHED .. CHECKPOINT_INCLUDED}) are limited by
 * entry count and estimated bytes. At the bound a new assignment stays {@code UNASSIGNED} in the
 * per-subtask pending queue (back-pressure, counted as {@code AssignmentBackpressured}) and is
 * dispatched when a completed checkpoint frees room; it is never dropped. Pending entries hold
 * splits the enumerator already produced, so they add no memory the connector had not allocated.
 */
public final class SourceAssignmentTracker {
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    /**
     * Per-entry overhead on a 64-bit JVM with compressed oops: the entry object (~104 B), the id
     * String header (~40 B), the byte[] header (16 B), map nodes in the split, command and subtask
     * indexes (~120 B), a boxed command id (16 B) and slack. Checked against a heap measurement by
     * the split-storm benchmark.
     */
    static final int ENTRY_OVERHEAD_BYTES = 352;

    private final int maxEntries;
    private final long maxBytes;
    private final boolean checkpointsEnabled;
    private final CoordinatorMetrics metrics;

    private final LinkedHashMap<String, AssignmentEntry> bySplit = new LinkedHashMap<>();
    private final HashMap<Long, AssignmentEntry> byCommand = new HashMap<>();
    private final HashMap<Integer, LinkedHashSet<AssignmentEntry>> inFlightBySubtask =
            new HashMap<>();
    private final TreeMap<Integer, ArrayDeque<AssignmentEntry>> pendingBySubtask = new TreeMap<>();
    private final TreeMap<Long, List<AssignmentEntry>> includedByCheckpoint = new TreeMap<>();
    private final TreeSet<Integer> noMoreSplits = new TreeSet<>();

    private int inFlight;
    private long inFlightBytes;
    private int pending;
    private long pendingBytes;
    private long lastCompletedCheckpoint = AssignmentEntry.NONE;

    public SourceAssignmentTracker(
            int maxEntries, long maxBytes, boolean checkpointsEnabled, CoordinatorMetrics metrics) {
        if (maxEntries <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("tracker bounds must be positive");
        }
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.checkpointsEnabled = checkpointsEnabled;
        this.metrics = metrics;
    }

    /** The byte estimate of one entry: overhead, the id's chars (UTF-16 worst case), the split. */
    public static long estimateBytes(String splitId, int splitBytes) {
        return ENTRY_OVERHEAD_BYTES + 2L * splitId.length() + splitBytes;
    }

    // ---------------------------------------------------------------- enumerator side (pending)

    /**
     * Records that the enumerator handed {@code splitId} to {@code subtask}. A split id already
     * tracked means the connector assigned one split twice: refused, since it would be read twice.
     */
    public AssignmentEntry addPending(String splitId, byte[] splitBytes, int subtask) {
        if (bySplit.containsKey(splitId)) {
            throw new IllegalStateException(
                    "Enumerator assigned a split that is still tracked (subtask "
                            + subtask
                            + "): a split must not be owned twice");
        }
        AssignmentEntry e =
                new AssignmentEntry(splitId, splitBytes, subtask, AssignmentState.UNASSIGNED);
        bySplit.put(splitId, e);
        pendingBySubtask.computeIfAbsent(subtask, k -> new ArrayDeque<>()).addLast(e);
        pending++;
        pendingBytes += e.estimatedBytes();
        metrics.increment(Counter.ASSIGNMENTS_CREATED);
        return e;
    }

    public AssignmentEntry peekPending(int subtask) {
        ArrayDeque<AssignmentEntry> q = pendingBySubtask.get(subtask);
        return q == null ? null : q.peekFirst();
    }

    public boolean hasPending(int subtask) {
        return pendingBySubtask.containsKey(subtask);
    }

    /**
     * True while {@code subtask} has a command whose admission is not proven. No-more-splits must
     * wait for it: a retried assignment admitted after no-more-splits could find its reader gone.
     */
    public boolean hasUnadmitted(int subtask) {
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(subtask);
        if (set != null) {
            for (AssignmentEntry e : set) {
                if (e.state() == AssignmentState.DISPATCHED) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Subtasks with pending entries, ascending; a copy so the caller may dispatch while iterating.
     */
    public int[] subtasksWithPending() {
        int[] out = new int[pendingBySubtask.size()];
        int i = 0;
        for (Integer s : pendingBySubtask.keySet()) {
            out[i++] = s;
        }
        return out;
    }

    /** True when one more command fits; an empty tracker always admits one (no size deadlock). */
    public boolean hasCapacityFor(AssignmentEntry e) {
        return inFlight == 0
                || (inFlight < maxEntries && inFlightBytes + e.estimatedBytes() <= maxBytes);
    }

    /** Counts a back-pressured entry once, however often the pump finds the tracker full. */
    void countBackpressure(AssignmentEntry e) {
        if (e.markBackpressureCounted()) {
            metrics.increment(Counter.ASSIGNMENT_BACKPRESSURED);
        }
    }

    /** Moves the head pending entry of its subtask to DISPATCHED with its command identity. */
    public void dispatched(
            AssignmentEntry e, long epoch, long attempt, long seq, long cmd, long cut, long now) {
        ArrayDeque<AssignmentEntry> q = pendingBySubtask.get(e.targetSubtask());
        if (q == null || q.peekFirst() != e) {
            throw new IllegalStateException(
                    "only the head pending entry of a subtask is dispatched");
        }
        e.moveTo(AssignmentState.DISPATCHED);
        q.pollFirst();
        if (q.isEmpty()) {
            pendingBySubtask.remove(e.targetSubtask());
        }
        pending--;
        pendingBytes -= e.estimatedBytes();
        e.stampCommand(epoch, attempt, seq, cmd, cut, now);
        indexInFlight(e);
        metrics.increment(Counter.ASSIGNMENTS_DISPATCHED);
    }

    // ---------------------------------------------------------------- acks (flow control only)

    public AssignmentEntry byCommand(long commandId) {
        return byCommand.get(commandId);
    }

    public AssignmentEntry bySplit(String splitId) {
        return bySplit.get(splitId);
    }

    /** Admission ack. Returns false for a duplicate (already admitted or further). */
    public boolean onAdmitted(AssignmentEntry e) {
        if (e.state() != AssignmentState.DISPATCHED) {
            metrics.increment(Counter.ASSIGNMENT_DUPLICATE_ACKS);
            return false;
        }
        e.moveTo(AssignmentState.ADMITTED);
        if (!checkpointsEnabled) {
            collect(e);
        }
        return true;
    }

    /**
     * Apply ack. Flow control only while checkpoints are enabled; without checkpoints (no cut to
     * reconcile against, a failure restarts from scratch) the entry is collected at admission or,
     * if that ack was lost, here.
     */
    public boolean onApplied(AssignmentEntry e) {
        AssignmentState s = e.state();
        if (s != AssignmentState.DISPATCHED && s != AssignmentState.ADMITTED) {
            metrics.increment(Counter.ASSIGNMENT_DUPLICATE_ACKS);
            return false;
        }
        e.moveTo(AssignmentState.APPLIED);
        if (!checkpointsEnabled) {
            collect(e);
        }
        return true;
    }

    // ---------------------------------------------------------------- durability

    /**
     * Applies a CHECKPOINT report of the current attempt: commands it proves become
     * CHECKPOINT_INCLUDED at its checkpoint, and are collected at once if that checkpoint already
     * completed. Returns how many entries became included.
     */
    public int include(ReaderInclusionReport r) {
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(r.subtask());
        if (set == null) {
            return 0;
        }
        List<AssignmentEntry> proven = new ArrayList<>();
        for (AssignmentEntry e : set) {
            AssignmentState s = e.state();
            if (e.attemptId() == r.attemptId()
                    && s != AssignmentState.CHECKPOINT_INCLUDED
                    && r.proves(e.epoch(), e.senderSequence())) {
                proven.add(e);
            }
        }
        for (AssignmentEntry e : proven) {
            markIncluded(e, r.checkpointId());
        }
        return proven.size();
    }

    /** Global checkpoint {@code id} completed: collects every entry included at or before it. */
    public int onCheckpointComplete(long id) {
        if (id > lastCompletedCheckpoint) {
            lastCompletedCheckpoint = id;
        }
        NavigableMap<Long, List<AssignmentEntry>> done = includedByCheckpoint.headMap(id, true);
        int n = 0;
        for (Iterator<Map.Entry<Long, List<AssignmentEntry>>> it = done.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<Long, List<AssignmentEntry>> m = it.next();
            for (AssignmentEntry e : m.getValue()) {
                // Lazily skip entries returned or re-included since they were listed.
                if (e.state() == AssignmentState.CHECKPOINT_INCLUDED
                        && e.includedCheckpointId() == m.getKey()
                        && bySplit.get(e.splitId()) == e) {
                    collect(e);
                    n++;
                }
            }
            it.remove();
        }
        return n;
    }

    public long lastCompletedCheckpoint() {
        return lastCompletedCheckpoint;
    }

    // ---------------------------------------------------------------- recovery

    /**
     * Reader failover: reconciles the entries of {@code subtask} sent in {@code epoch} to an
     * attempt other than {@code newAttempt}. Proven by {@code restored} (what the new attempt
     * restored and keeps, or null when it keeps nothing) → the reader owns it; otherwise it is
     * removed and returned, for the caller to give back to the enumerator.
     */
    public List<AssignmentEntry> reconcileAttempt(
            int subtask, long epoch, long newAttempt, ReaderInclusionReport restored) {
        List<AssignmentEntry> old = new ArrayList<>();
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(subtask);
        if (set != null) {
            for (AssignmentEntry e : set) {
                if (e.epoch() == epoch && e.attemptId() != newAttempt) {
                    old.add(e);
                }
            }
        }
        return reconcile(old, restored);
    }

    /**
     * Coordinator failover: reconciles the entries of owner {@code subtask} restored from an epoch
     * before {@code currentEpoch}, against the metadata of that owner's state in the restored
     * checkpoint (which proves even splits the reader finished before the barrier).
     */
    public List<AssignmentEntry> reconcileRestoredOwner(
            int subtask, long currentEpoch, ReaderInclusionReport restored) {
        List<AssignmentEntry> old = new ArrayList<>();
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(subtask);
        if (set != null) {
            for (AssignmentEntry e : set) {
                if (e.epoch() < currentEpoch) {
                    old.add(e);
                }
            }
        }
        return reconcile(old, restored);
    }

    private List<AssignmentEntry> reconcile(
            List<AssignmentEntry> old, ReaderInclusionReport restored) {
        List<AssignmentEntry> back = new ArrayList<>();
        for (AssignmentEntry e : old) {
            if (restored != null && restored.proves(e.epoch(), e.senderSequence())) {
                markIncluded(e, restored.checkpointId());
            } else {
                e.moveTo(AssignmentState.UNASSIGNED);
                removeIndexed(e);
                back.add(e);
            }
        }
        metrics.add(Counter.ASSIGNMENTS_RETURNED, back.size());
        return back;
    }

    /**
     * A split came back from a reader (its state, on restore or rescale): whatever the tracker knew
     * about it is superseded, since the enumerator owns it again. Returns the removed entry or
     * null.
     */
    public AssignmentEntry removeReturned(String splitId) {
        AssignmentEntry e = bySplit.get(splitId);
        if (e == null) {
            return null;
        }
        if (e.state() == AssignmentState.UNASSIGNED) {
            ArrayDeque<AssignmentEntry> q = pendingBySubtask.get(e.targetSubtask());
            q.remove(e);
            if (q.isEmpty()) {
                pendingBySubtask.remove(e.targetSubtask());
            }
            pending--;
            pendingBytes -= e.estimatedBytes();
            bySplit.remove(splitId);
        } else {
            e.moveTo(AssignmentState.UNASSIGNED);
            removeIndexed(e);
        }
        return e;
    }

    /** Removes and returns every pending entry (restore gives them back to the enumerator). */
    public List<AssignmentEntry> takeAllPending() {
        List<AssignmentEntry> out = new ArrayList<>(pending);
        for (ArrayDeque<AssignmentEntry> q : pendingBySubtask.values()) {
            for (AssignmentEntry e : q) {
                bySplit.remove(e.splitId());
                out.add(e);
            }
        }
        pendingBySubtask.clear();
        pending = 0;
        pendingBytes = 0;
        return out;
    }

    /** Subtasks that own in-flight entries (restore holds assignment until each reconciles). */
    public Set<Integer> inFlightOwners() {
        Set<Integer> owners = new TreeSet<>();
        for (Map.Entry<Integer, LinkedHashSet<AssignmentEntry>> m : inFlightBySubtask.entrySet()) {
            if (!m.getValue().isEmpty()) {
                owners.add(m.getKey());
            }
        }
        return owners;
    }

    /** Installs decoded entries; only an empty tracker may be restored. */
    void restore(List<AssignmentEntry> entries, long lastCompleted, Collection<Integer> nms) {
        if (!bySplit.isEmpty()) {
            throw new IllegalStateException("restore into a non-empty tracker");
        }
        lastCompletedCheckpoint = lastCompleted;
        noMoreSplits.addAll(nms);
        for (AssignmentEntry e : entries) {
            if (bySplit.put(e.splitId(), e) != null) {
                throw new IllegalStateException("snapshot holds a split id twice");
            }
            if (e.state() == AssignmentState.UNASSIGNED) {
                pendingBySubtask.computeIfAbsent(e.targetSubtask(), k -> new ArrayDeque<>()).add(e);
                pending++;
                pendingBytes += e.estimatedBytes();
            } else {
                indexInFlight(e);
                if (e.state() == AssignmentState.CHECKPOINT_INCLUDED) {
                    includedByCheckpoint
                            .computeIfAbsent(e.includedCheckpointId(), k -> new ArrayList<>())
                            .add(e);
                }
            }
        }
        // Inclusions whose checkpoint is now known complete are durable: collect them at once.
        onCheckpointComplete(lastCompleted);
    }

    // ---------------------------------------------------------------- no-more-splits

    public boolean markNoMoreSplits(int subtask) {
        return noMoreSplits.add(subtask);
    }

    public boolean clearNoMoreSplits(int subtask) {
        return noMoreSplits.remove(subtask);
    }

    public boolean isNoMoreSplits(int subtask) {
        return noMoreSplits.contains(subtask);
    }

    public Set<Integer> noMoreSplitsSubtasks() {
        return Collections.unmodifiableSet(noMoreSplits);
    }

    // ---------------------------------------------------------------- views

    /** All entries in insertion order (the codec writes them in this order). */
    public Collection<AssignmentEntry> entries() {
        return Collections.unmodifiableCollection(bySplit.values());
    }

    public int size() {
        return bySplit.size();
    }

    public int inFlightCount() {
        return inFlight;
    }

    public int pendingCount() {
        return pending;
    }

    public long inFlightBytes() {
        return inFlightBytes;
    }

    /** Estimated bytes of every entry, pending included. */
    public long estimatedBytes() {
        return inFlightBytes + pendingBytes;
    }

    public int maxEntries() {
        return maxEntries;
    }

    public long maxBytes() {
        return maxBytes;
    }

    // ---------------------------------------------------------------- internals

    private void markIncluded(AssignmentEntry e, long checkpointId) {
        if (e.state() != AssignmentState.CHECKPOINT_INCLUDED) {
            e.moveTo(AssignmentState.CHECKPOINT_INCLUDED);
            metrics.increment(Counter.ASSIGNMENTS_INCLUDED);
        } else if (e.includedCheckpointId() <= checkpointId) {
            return;
        }
        e.includedAt(checkpointId);
        if (checkpointId <= lastCompletedCheckpoint) {
            collect(e);
        } else {
            includedByCheckpoint.computeIfAbsent(checkpointId, k -> new ArrayList<>()).add(e);
        }
    }

    private void collect(AssignmentEntry e) {
        e.moveTo(AssignmentState.GC_ELIGIBLE);
        removeIndexed(e);
        metrics.increment(Counter.ASSIGNMENTS_GC);
    }

    private void indexInFlight(AssignmentEntry e) {
        byCommand.put(e.commandId(), e);
        inFlightBySubtask.computeIfAbsent(e.targetSubtask(), k -> new LinkedHashSet<>()).add(e);
        inFlight++;
        inFlightBytes += e.estimatedBytes();
    }

    /** Drops an entry that was in flight from every index. */
    private void removeIndexed(AssignmentEntry e) {
        bySplit.remove(e.splitId());
        byCommand.remove(e.commandId());
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(e.targetSubtask());
        if (set != null && set.remove(e)) {
            inFlight--;
            inFlightBytes -= e.estimatedBytes();
            if (set.isEmpty()) {
                inFlightBySubtask.remove(e.targetSubtask());
            }
        }
    }
}
