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
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;

/**
 * Tracks every split the enumerator handed out until ownership is proven durable (STIP-31 "Split
 * assignment ownership"). Keyed by the stable split id, never by subtask index, so rescale and
 * failover reason about splits, not slots.
 *
 * <p>Threading: owned by one {@link CoordinatorEventLoop}; every method must be called on that loop
 * (tests call it from their single thread). Not thread-safe.
 *
 * <p>Commands: the splits of one subtask leave in {@link AssignmentCommand}s, each one command with
 * one sender sequence for all its splits, so an apply acknowledgement or an inclusion proof covers
 * every split of the command at once; ownership stays per split.
 *
 * <p>Bounds, both enforced here:
 *
 * <ul>
 *   <li>in flight (states {@code DISPATCHED .. CHECKPOINT_INCLUDED}): {@code
 *       assignment-tracker.max-entries} and {@code max-bytes}, with each reader subtask's share at
 *       most an even part of them (so one reader cannot take every slot while the others wait for a
 *       checkpoint). At the bound a split stays {@code UNASSIGNED} (back-pressure, counted once as
 *       {@code AssignmentBackpressured}) and is dispatched when an apply or a completed checkpoint
 *       frees room; it is never dropped;
 *   <li>waiting ({@code UNASSIGNED}): {@code assignment-tracker.max-unassigned-entries} and {@code
 *       max-unassigned-bytes}. An enumerator that hands out more than that at once is refused with
 *       {@link TrackerBoundException} (the coordinator fails, naming the option): an enumerator
 *       that implements {@code SupportSplitDemand} is asked for what readers can take instead.
 * </ul>
 */
public final class SourceAssignmentTracker {
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    /**
     * Per-entry overhead on a 64-bit JVM with compressed oops: the entry object (~104 B), the id
     * String header (~40 B), the byte[] header (16 B), map nodes in the split and subtask indexes
     * (~120 B), its share of its command (~24 B) and slack. Checked against a heap measurement by
     * the split-storm benchmark.
     */
    static final int ENTRY_OVERHEAD_BYTES = 352;

    private final int maxEntries;
    private final long maxBytes;
    private final int maxUnassignedEntries;
    private final long maxUnassignedBytes;
    private final boolean checkpointsEnabled;
    private final CoordinatorMetrics metrics;
    private int parallelism = 1;

    private final LinkedHashMap<String, AssignmentEntry> bySplit = new LinkedHashMap<>();
    private final HashMap<Long, AssignmentCommand> byCommand = new HashMap<>();
    private final HashMap<Integer, LinkedHashSet<AssignmentEntry>> inFlightBySubtask =
            new HashMap<>();
    private final HashMap<Integer, ArrayDeque<AssignmentCommand>> unappliedBySubtask =
            new HashMap<>();
    private final TreeMap<Integer, ArrayDeque<AssignmentEntry>> pendingBySubtask = new TreeMap<>();
    private final TreeMap<Long, List<AssignmentEntry>> includedByCheckpoint = new TreeMap<>();
    private final TreeSet<Integer> noMoreSplits = new TreeSet<>();

    private int inFlight;
    private long inFlightBytes;
    private int pending;
    private long pendingBytes;
    private long lastCompletedCheckpoint = AssignmentEntry.NONE;
    private long entriesLeft;

    /** A tracker that bounds only what is in flight (tests, benchmarks). */
    public SourceAssignmentTracker(
            int maxEntries, long maxBytes, boolean checkpointsEnabled, CoordinatorMetrics metrics) {
        this(maxEntries, maxBytes, Integer.MAX_VALUE, Long.MAX_VALUE, checkpointsEnabled, metrics);
    }

    public SourceAssignmentTracker(
            int maxEntries,
            long maxBytes,
            int maxUnassignedEntries,
            long maxUnassignedBytes,
            boolean checkpointsEnabled,
            CoordinatorMetrics metrics) {
        if (maxEntries <= 0
                || maxBytes <= 0
                || maxUnassignedEntries <= 0
                || maxUnassignedBytes <= 0) {
            throw new IllegalArgumentException("tracker bounds must be positive");
        }
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.maxUnassignedEntries = maxUnassignedEntries;
        this.maxUnassignedBytes = maxUnassignedBytes;
        this.checkpointsEnabled = checkpointsEnabled;
        this.metrics = metrics;
    }

    /** The estimate of one entry: overhead, the id's chars (UTF-16 worst case), the split. */
    public static long estimateBytes(String splitId, int splitBytes) {
        return ENTRY_OVERHEAD_BYTES + 2L * splitId.length() + splitBytes;
    }

    /** The reader parallelism the per-subtask share of the in-flight bounds divides by. */
    void parallelism(int p) {
        this.parallelism = Math.max(1, p);
    }

    // ---------------------------------------------------------------- enumerator side (pending)

    /**
     * Records that the enumerator handed {@code splitId} to {@code subtask}.
     *
     * @throws IllegalStateException if the split is still tracked: the connector assigned one split
     *     twice, which would read it twice
     * @throws TrackerBoundException if the unassigned bound is reached
     */
    public AssignmentEntry addPending(String splitId, byte[] splitBytes, int subtask) {
        if (bySplit.containsKey(splitId)) {
            throw new IllegalStateException(
                    "Enumerator assigned a split that is still tracked (subtask "
                            + subtask
                            + "): a split must not be owned twice");
        }
        long estimate = estimateBytes(splitId, splitBytes.length);
        if (pending >= maxUnassignedEntries || pendingBytes + estimate > maxUnassignedBytes) {
            metrics.increment(Counter.UNASSIGNED_BOUND_REFUSALS);
            throw new TrackerBoundException(
                    "the enumerator handed out more splits than the coordinator may hold before"
                            + " readers take them ("
                            + pending
                            + " waiting, "
                            + pendingBytes
                            + " estimated bytes; assignment-tracker.max-unassigned-entries "
                            + maxUnassignedEntries
                            + ", max-unassigned-bytes "
                            + maxUnassignedBytes
                            + "): hand splits out when asked (SupportSplitDemand) or raise the"
                            + " bound");
        }
        AssignmentEntry e =
                new AssignmentEntry(splitId, splitBytes, subtask, AssignmentState.UNASSIGNED);
        bySplit.put(splitId, e);
        e.tracked(true);
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

    /** Unassigned entries of {@code subtask}. */
    public int pendingCount(int subtask) {
        ArrayDeque<AssignmentEntry> q = pendingBySubtask.get(subtask);
        return q == null ? 0 : q.size();
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

    /**
     * True when one more entry fits the in-flight bounds and {@code e}'s subtask's share of them;
     * an empty tracker always takes one (no size deadlock).
     */
    public boolean hasCapacityFor(AssignmentEntry e) {
        if (inFlight == 0) {
            return true;
        }
        if (inFlight >= maxEntries || inFlightBytes + e.estimatedBytes() > maxBytes) {
            return false;
        }
        LinkedHashSet<AssignmentEntry> mine = inFlightBySubtask.get(e.targetSubtask());
        return mine == null || mine.size() < shareOfEntries();
    }

    /**
     * Entries {@code subtask} may still add to what is in flight (its share, the total); an empty
     * tracker always takes one.
     */
    public int capacityFor(int subtask) {
        LinkedHashSet<AssignmentEntry> mine = inFlightBySubtask.get(subtask);
        int own = mine == null ? 0 : mine.size();
        int room = Math.min(maxEntries - inFlight, shareOfEntries() - own);
        return Math.max(room, inFlight == 0 ? 1 : 0);
    }

    /**
     * How many of {@code subtask}'s first pending entries fit one command: at most {@code
     * maxSplits}, an assignment payload of at most {@code payloadRoom} bytes (the first entry
     * always), and the room of the in-flight bounds and the subtask's share of them. 0 when not
     * even the first fits the tracker now.
     */
    public int dispatchable(int subtask, int maxSplits, long payloadRoom) {
        ArrayDeque<AssignmentEntry> q = pendingBySubtask.get(subtask);
        if (q == null) {
            return 0;
        }
        int cap = capacityFor(subtask);
        boolean alwaysOne = inFlight == 0;
        long bytesRoom = maxBytes - inFlightBytes;
        int n = 0;
        long payload = AssignmentPayload.encodedSize(0, 0);
        long estimated = 0;
        for (AssignmentEntry e : q) {
            if (n == maxSplits || n >= cap) {
                break;
            }
            long p =
                    payload
                            + AssignmentPayload.encodedSize(1, e.splitLength())
                            - AssignmentPayload.encodedSize(0, 0);
            if (n > 0 && p > payloadRoom) {
                break;
            }
            if (estimated + e.estimatedBytes() > bytesRoom && !(n == 0 && alwaysOne)) {
                break;
            }
            payload = p;
            estimated += e.estimatedBytes();
            n++;
        }
        return n;
    }

    /** Unassigned entries the tracker may still take. */
    public int unassignedRoom() {
        return Math.max(0, maxUnassignedEntries - pending);
    }

    private int shareOfEntries() {
        return Math.max(1, maxEntries / parallelism);
    }

    /** Counts a back-pressured entry once, however often the pump finds the tracker full. */
    void countBackpressure(AssignmentEntry e) {
        if (e.markBackpressureCounted()) {
            metrics.increment(Counter.ASSIGNMENT_BACKPRESSURED);
        }
    }

    /**
     * Moves the first {@code count} pending entries of {@code subtask} into one DISPATCHED command
     * with that command's identity.
     */
    public AssignmentCommand dispatched(
            int subtask,
            int count,
            long epoch,
            long attempt,
            long seq,
            long cmd,
            long cut,
            long now) {
        ArrayDeque<AssignmentEntry> q = pendingBySubtask.get(subtask);
        if (q == null || q.size() < count || count < 1) {
            throw new IllegalStateException(
                    "only pending entries of a subtask are dispatched, at least one");
        }
        AssignmentEntry[] entries = new AssignmentEntry[count];
        for (int i = 0; i < count; i++) {
            AssignmentEntry e = q.pollFirst();
            e.moveTo(AssignmentState.DISPATCHED);
            pending--;
            pendingBytes -= e.estimatedBytes();
            e.stampCommand(epoch, attempt, seq, cmd, cut, now);
            entries[i] = e;
        }
        if (q.isEmpty()) {
            pendingBySubtask.remove(subtask);
        }
        AssignmentCommand c = new AssignmentCommand(cmd, subtask, attempt, epoch, seq, entries);
        byCommand.put(cmd, c);
        for (AssignmentEntry e : entries) {
            e.command(c);
            indexInFlight(e);
        }
        unappliedBySubtask.computeIfAbsent(subtask, k -> new ArrayDeque<>()).addLast(c);
        metrics.add(Counter.ASSIGNMENTS_DISPATCHED, count);
        metrics.increment(Counter.ASSIGNMENT_COMMANDS);
        return c;
    }

    // ---------------------------------------------------------------- acks (flow control only)

    public AssignmentCommand byCommand(long commandId) {
        return byCommand.get(commandId);
    }

    public AssignmentEntry bySplit(String splitId) {
        return bySplit.get(splitId);
    }

    /** Admission ack of command {@code commandId}. Returns false for a duplicate or a late one. */
    public boolean onAdmitted(long commandId) {
        AssignmentCommand c = byCommand.get(commandId);
        if (c == null) {
            return false;
        }
        boolean any = false;
        for (AssignmentEntry e : c.entries()) {
            if (isTracked(e) && e.state() == AssignmentState.DISPATCHED) {
                e.moveTo(AssignmentState.ADMITTED);
                any = true;
            }
        }
        if (!any) {
            metrics.increment(Counter.ASSIGNMENT_DUPLICATE_ACKS);
        }
        return any;
    }

    /**
     * {@code attempt} of {@code subtask} applied every command of coordinator epoch {@code epoch}
     * up to sequence {@code watermark}: their splits are APPLIED. Flow control only while
     * checkpoints are enabled; without checkpoints (no cut to reconcile against, a failure restarts
     * from scratch) they are collected here.
     *
     * @return the number of commands newly known applied
     */
    public int appliedThrough(int subtask, long attempt, long epoch, long watermark) {
        ArrayDeque<AssignmentCommand> q = unappliedBySubtask.get(subtask);
        int n = 0;
        while (q != null && !q.isEmpty()) {
            AssignmentCommand c = q.peekFirst();
            if (c.attempt() != attempt || c.epoch() != epoch || c.sequence() > watermark) {
                break;
            }
            q.pollFirst();
            n++;
            for (AssignmentEntry e : c.entries()) {
                AssignmentState s = e.state();
                if (isTracked(e)
                        && (s == AssignmentState.DISPATCHED || s == AssignmentState.ADMITTED)) {
                    e.moveTo(AssignmentState.APPLIED);
                    if (!checkpointsEnabled) {
                        collect(e);
                    }
                }
            }
        }
        return n;
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
                        && isTracked(e)) {
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
        // Commands of a replaced attempt are never applied now: nothing waits for their acks.
        unappliedBySubtask.remove(subtask);
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
            e.tracked(false);
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
                e.tracked(false);
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

    /**
     * Installs decoded entries; only an empty tracker may be restored. A restore may hold more
     * waiting entries than the unassigned bound (the checkpoint was taken under other settings):
     * they are all given back to the enumerator at open.
     */
    void restore(List<AssignmentEntry> entries, long lastCompleted, Collection<Integer> nms) {
        if (!bySplit.isEmpty()) {
            throw new IllegalStateException("restore into a non-empty tracker");
        }
        lastCompletedCheckpoint = lastCompleted;
        noMoreSplits.addAll(nms);
        Map<Long, List<AssignmentEntry>> commands = new LinkedHashMap<>();
        for (AssignmentEntry e : entries) {
            if (bySplit.put(e.splitId(), e) != null) {
                throw new IllegalStateException("snapshot holds a split id twice");
            }
            e.tracked(true);
            if (e.state() == AssignmentState.UNASSIGNED) {
                pendingBySubtask.computeIfAbsent(e.targetSubtask(), k -> new ArrayDeque<>()).add(e);
                pending++;
                pendingBytes += e.estimatedBytes();
            } else {
                commands.computeIfAbsent(e.commandId(), k -> new ArrayList<>()).add(e);
                if (e.state() == AssignmentState.CHECKPOINT_INCLUDED) {
                    includedByCheckpoint
                            .computeIfAbsent(e.includedCheckpointId(), k -> new ArrayList<>())
                            .add(e);
                }
            }
        }
        for (List<AssignmentEntry> es : commands.values()) {
            AssignmentEntry first = es.get(0);
            AssignmentCommand c =
                    new AssignmentCommand(
                            first.commandId(),
                            first.targetSubtask(),
                            first.attemptId(),
                            first.epoch(),
                            first.senderSequence(),
                            es.toArray(new AssignmentEntry[0]));
            byCommand.put(c.commandId(), c);
            for (AssignmentEntry e : es) {
                e.command(c);
                indexInFlight(e);
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

    /** In-flight entries of {@code subtask}. */
    public int inFlightCount(int subtask) {
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(subtask);
        return set == null ? 0 : set.size();
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

    /** Estimated bytes of the unassigned entries. */
    public long pendingBytes() {
        return pendingBytes;
    }

    /**
     * Entries that left the in-flight bounds so far (collected or given back): a count that only
     * grows, so a caller can tell whether room was freed since it last looked.
     */
    public long entriesLeft() {
        return entriesLeft;
    }

    /** Commands whose splits are tracked (a gauge). */
    public int commandCount() {
        return byCommand.size();
    }

    public int maxEntries() {
        return maxEntries;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public int maxUnassignedEntries() {
        return maxUnassignedEntries;
    }

    // ---------------------------------------------------------------- internals

    private boolean isTracked(AssignmentEntry e) {
        return e.tracked();
    }

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
        inFlightBySubtask.computeIfAbsent(e.targetSubtask(), k -> new LinkedHashSet<>()).add(e);
        inFlight++;
        inFlightBytes += e.estimatedBytes();
    }

    /** Drops an entry that was in flight from every index. */
    private void removeIndexed(AssignmentEntry e) {
        bySplit.remove(e.splitId());
        e.tracked(false);
        AssignmentCommand c = e.command();
        if (c != null && c.release() == 0) {
            byCommand.remove(c.commandId());
        }
        LinkedHashSet<AssignmentEntry> set = inFlightBySubtask.get(e.targetSubtask());
        if (set != null && set.remove(e)) {
            inFlight--;
            inFlightBytes -= e.estimatedBytes();
            entriesLeft++;
            // An empty set stays (one per subtask): a subtask's in-flight set empties after every
            // apply without checkpoints, and rebuilding it each time cost more than keeping it.
        }
    }
}
