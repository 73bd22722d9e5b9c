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

import java.nio.charset.StandardCharsets;
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
 * <p>Entries: a split the enumerator handed out waits as a {@link PendingSplit} ({@code
 * UNASSIGNED}) until its reader has room; then consecutive pending splits of one subtask leave in
 * one command and are tracked together as one assignment ({@link TrackedAssignment}, {@code
 * DISPATCHED .. CHECKPOINT_INCLUDED}): one sender sequence, so one admission answer, apply
 * watermark or inclusion proof covers all of them. The splits stay compact (the command payload and
 * their UTF-8 ids), and a {@link SplitIdIndex} finds the holder of a split id, so a split is never
 * tracked twice and a split handed back alone leaves its assignment.
 *
 * <p>Bounds, all enforced here:
 *
 * <ul>
 *   <li>in flight: {@code assignment-tracker.max-entries} assignments and {@code max-bytes}
 *       estimated bytes, with each reader subtask's share of the assignments at most an even part
 *       (so one reader cannot take every slot while the others wait for a checkpoint). At the bound
 *       a split stays {@code UNASSIGNED} (back-pressure, counted once as {@code
 *       AssignmentBackpressured}) and is dispatched when an apply or a completed checkpoint frees
 *       room; it is never dropped. An empty tracker always takes one assignment of one split;
 *   <li>waiting ({@code UNASSIGNED}): {@code assignment-tracker.max-unassigned-entries} splits and
 *       {@code max-unassigned-bytes}. An enumerator that hands out more than that at once is
 *       refused with {@link TrackerBoundException} (the coordinator fails, naming the option): an
 *       enumerator that implements {@code SupportSplitDemand} is asked for what readers can take
 *       instead.
 * </ul>
 */
public final class SourceAssignmentTracker {
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    private final int maxEntries;
    private final long maxBytes;
    private final int maxUnassignedEntries;
    private final long maxUnassignedBytes;
    private final boolean checkpointsEnabled;
    private final CoordinatorMetrics metrics;
    private int parallelism = 1;

    private final SplitIdIndex index = new SplitIdIndex();
    private final UnassignedSplits pending;
    private final LinkedHashMap<Long, TrackedAssignment> byCommand = new LinkedHashMap<>();
    private final HashMap<Integer, LinkedHashSet<TrackedAssignment>> inFlightBySubtask =
            new HashMap<>();
    private final HashMap<Integer, ArrayDeque<TrackedAssignment>> unappliedBySubtask =
            new HashMap<>();
    private final TreeMap<Long, List<TrackedAssignment>> includedByCheckpoint = new TreeMap<>();
    private final TreeSet<Integer> noMoreSplits = new TreeSet<>();

    private int inFlight;
    private int inFlightSplits;
    private long inFlightBytes;
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
        this.pending = new UnassignedSplits(maxUnassignedEntries, maxUnassignedBytes);
    }

    /** The estimate of an assignment of one split: what an empty tracker always takes. */
    public static long estimateBytes(String splitId, int splitBytes) {
        return TrackedAssignment.estimate(
                1, splitId.getBytes(StandardCharsets.UTF_8).length, splitBytes);
    }

    /** The reader parallelism the per-subtask share of the in-flight bound divides by. */
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
    public void addPending(String splitId, byte[] splitBytes, int subtask) {
        byte[] id = splitId.getBytes(StandardCharsets.UTF_8);
        long fp = SplitIdIndex.fingerprint(id);
        PendingSplit p = new PendingSplit(id, fp, splitBytes, subtask);
        long estimate = p.estimatedBytes();
        if (!pending.fits(estimate)) {
            metrics.increment(Counter.UNASSIGNED_BOUND_REFUSALS);
            throw new TrackerBoundException(
                    "the enumerator handed out more splits than the coordinator may hold before"
                            + " readers take them ("
                            + pending.count()
                            + " waiting, "
                            + pending.bytes()
                            + " estimated bytes; assignment-tracker.max-unassigned-entries "
                            + maxUnassignedEntries
                            + ", max-unassigned-bytes "
                            + maxUnassignedBytes
                            + "): hand splits out when asked (SupportSplitDemand) or raise the"
                            + " bound");
        }
        if (index.addIfAbsent(fp, id, p) != null) {
            throw new IllegalStateException(
                    "Enumerator assigned a split that is still tracked (subtask "
                            + subtask
                            + "): a split must not be owned twice");
        }
        pending.add(p);
        metrics.increment(Counter.ASSIGNMENTS_CREATED);
    }

    public boolean hasPending(int subtask) {
        return pending.has(subtask);
    }

    /** Unassigned splits of {@code subtask}. */
    public int pendingCount(int subtask) {
        return pending.count(subtask);
    }

    /** Serialized bytes of {@code subtask}'s first unassigned split; -1 if it has none. */
    int firstPendingLength(int subtask) {
        ArrayDeque<PendingSplit> q = pending.queue(subtask);
        return q == null ? -1 : q.peekFirst().splitBytes().length;
    }

    /**
     * Subtasks with pending entries, ascending; a copy so the caller may dispatch while iterating.
     */
    public int[] subtasksWithPending() {
        return pending.subtasks();
    }

    /**
     * Assignments {@code subtask} may still add to what is in flight: its share and the total, 0
     * when the byte bound is reached; an empty tracker always takes one.
     */
    public int assignmentRoom(int subtask) {
        if (inFlight == 0) {
            return Math.max(1, Math.min(maxEntries, shareOfEntries()));
        }
        if (inFlightBytes >= maxBytes) {
            return 0;
        }
        LinkedHashSet<TrackedAssignment> mine = inFlightBySubtask.get(subtask);
        int own = mine == null ? 0 : mine.size();
        return Math.max(0, Math.min(maxEntries - inFlight, shareOfEntries() - own));
    }

    /**
     * How many of {@code subtask}'s first pending splits fit one command: at most {@code
     * maxSplits}, an assignment payload of at most {@code payloadRoom} bytes (the first split
     * always), and the room of the in-flight bounds and the subtask's share of them. 0 when not
     * even one assignment of the first split fits the tracker now.
     */
    public int dispatchable(int subtask, int maxSplits, long payloadRoom) {
        ArrayDeque<PendingSplit> q = pending.queue(subtask);
        if (q == null || assignmentRoom(subtask) == 0) {
            return 0;
        }
        boolean alwaysOne = inFlight == 0;
        long bytesRoom = maxBytes - inFlightBytes;
        int n = 0;
        long idBytes = 0;
        long splitBytes = 0;
        for (PendingSplit p : q) {
            if (n == maxSplits) {
                break;
            }
            long ids = idBytes + p.idUtf8().length;
            long splits = splitBytes + p.splitBytes().length;
            if (n > 0 && AssignmentPayload.encodedSize(n + 1, splits) > payloadRoom) {
                break;
            }
            if (TrackedAssignment.estimate(n + 1, ids, splits) > bytesRoom
                    && !(n == 0 && alwaysOne)) {
                break;
            }
            idBytes = ids;
            splitBytes = splits;
            n++;
        }
        return n;
    }

    /** Unassigned splits the tracker may still take. */
    public int unassignedRoom() {
        return pending.room();
    }

    private int shareOfEntries() {
        return Math.max(1, maxEntries / parallelism);
    }

    /**
     * Counts {@code subtask}'s first pending split as back-pressured, once however long it waits.
     */
    void countBackpressure(int subtask) {
        ArrayDeque<PendingSplit> q = pending.queue(subtask);
        if (q != null && q.peekFirst().markBackpressureCounted()) {
            metrics.increment(Counter.ASSIGNMENT_BACKPRESSURED);
        }
    }

    /**
     * Moves the first {@code count} pending splits of {@code subtask} into one DISPATCHED
     * assignment with that command's identity; its payload is the command's.
     */
    public TrackedAssignment dispatched(
            int subtask,
            int count,
            long epoch,
            long attempt,
            long seq,
            long cmd,
            long cut,
            long now) {
        PendingSplit[] taken = pending.takeFirst(subtask, count);
        byte[][] splits = new byte[count][];
        byte[][] ids = new byte[count][];
        for (int i = 0; i < count; i++) {
            splits[i] = taken[i].splitBytes();
            ids[i] = taken[i].idUtf8();
        }
        TrackedAssignment a =
                new TrackedAssignment(
                        cmd,
                        subtask,
                        attempt,
                        epoch,
                        seq,
                        cut,
                        now,
                        AssignmentPayload.encode(splits, count),
                        TrackedAssignment.encodeIds(ids, count),
                        count,
                        AssignmentState.DISPATCHED);
        for (PendingSplit p : taken) {
            index.replace(p.fingerprint(), p, a);
        }
        byCommand.put(cmd, a);
        indexInFlight(a);
        unappliedBySubtask.computeIfAbsent(subtask, k -> new ArrayDeque<>()).addLast(a);
        metrics.add(Counter.ASSIGNMENTS_DISPATCHED, count);
        metrics.increment(Counter.ASSIGNMENT_COMMANDS);
        return a;
    }

    // ---------------------------------------------------------------- acks (flow control only)

    TrackedAssignment byCommand(long commandId) {
        return byCommand.get(commandId);
    }

    /** What the tracker knows of {@code splitId} now, or null if it does not track it. */
    public AssignmentEntry bySplit(String splitId) {
        byte[] id = splitId.getBytes(StandardCharsets.UTF_8);
        SplitIdIndex.Holder h = index.find(SplitIdIndex.fingerprint(id), id);
        if (h instanceof PendingSplit) {
            PendingSplit p = (PendingSplit) h;
            return AssignmentEntry.unassigned(splitId, p.splitBytes().clone(), p.subtask());
        }
        if (h instanceof TrackedAssignment) {
            TrackedAssignment a = (TrackedAssignment) h;
            int i = a.indexOf(id);
            TrackedAssignment.Cursor c = a.cursor();
            while (c.next() && c.index < i) {
                // walks to split i
            }
            return AssignmentEntry.of(a, c, a.state());
        }
        return null;
    }

    /** Admission ack of command {@code commandId}. Returns false for a duplicate or a late one. */
    public boolean onAdmitted(long commandId) {
        TrackedAssignment a = byCommand.get(commandId);
        if (a == null || a.state() != AssignmentState.DISPATCHED) {
            metrics.increment(Counter.ASSIGNMENT_DUPLICATE_ACKS);
            return false;
        }
        a.moveTo(AssignmentState.ADMITTED);
        return true;
    }

    /**
     * {@code attempt} of {@code subtask} applied every command of coordinator epoch {@code epoch}
     * up to sequence {@code watermark}: their assignments are APPLIED. Flow control only while
     * checkpoints are enabled; without checkpoints (no cut to reconcile against, a failure restarts
     * from scratch) they are collected here.
     *
     * @return the number of commands newly known applied
     */
    public int appliedThrough(int subtask, long attempt, long epoch, long watermark) {
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
                if (!checkpointsEnabled) {
                    collect(a);
                }
            }
        }
        return n;
    }

    // ---------------------------------------------------------------- durability

    /**
     * Applies a CHECKPOINT report of the current attempt: assignments it proves become
     * CHECKPOINT_INCLUDED at its checkpoint, and are collected at once if that checkpoint already
     * completed. Returns how many assignments became included.
     */
    public int include(ReaderInclusionReport r) {
        LinkedHashSet<TrackedAssignment> set = inFlightBySubtask.get(r.subtask());
        if (set == null) {
            return 0;
        }
        List<TrackedAssignment> proven = new ArrayList<>();
        for (TrackedAssignment a : set) {
            if (a.attempt() == r.attemptId()
                    && a.state() != AssignmentState.CHECKPOINT_INCLUDED
                    && r.proves(a.epoch(), a.sequence())) {
                proven.add(a);
            }
        }
        for (TrackedAssignment a : proven) {
            markIncluded(a, r.checkpointId());
        }
        return proven.size();
    }

    /**
     * Global checkpoint {@code id} completed: collects every assignment included at or before it.
     */
    public int onCheckpointComplete(long id) {
        if (id > lastCompletedCheckpoint) {
            lastCompletedCheckpoint = id;
        }
        NavigableMap<Long, List<TrackedAssignment>> done = includedByCheckpoint.headMap(id, true);
        int n = 0;
        for (Iterator<Map.Entry<Long, List<TrackedAssignment>>> it = done.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<Long, List<TrackedAssignment>> m = it.next();
            for (TrackedAssignment a : m.getValue()) {
                // Lazily skip assignments returned or re-included since they were listed.
                if (a.state() == AssignmentState.CHECKPOINT_INCLUDED
                        && a.includedCheckpointId() == m.getKey()) {
                    collect(a);
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
     * Reader failover: reconciles the assignments of {@code subtask} sent in {@code epoch} to an
     * attempt other than {@code newAttempt}. Proven by {@code restored} (what the new attempt
     * restored and keeps, or null when it keeps nothing) → the reader owns them; otherwise they are
     * removed and their splits returned, for the caller to give back to the enumerator.
     */
    public List<AssignmentEntry> reconcileAttempt(
            int subtask, long epoch, long newAttempt, ReaderInclusionReport restored) {
        List<TrackedAssignment> old = new ArrayList<>();
        LinkedHashSet<TrackedAssignment> set = inFlightBySubtask.get(subtask);
        if (set != null) {
            for (TrackedAssignment a : set) {
                if (a.epoch() == epoch && a.attempt() != newAttempt) {
                    old.add(a);
                }
            }
        }
        // Commands of a replaced attempt are never applied now: nothing waits for their acks.
        unappliedBySubtask.remove(subtask);
        return reconcile(old, restored);
    }

    /**
     * Coordinator failover: reconciles the assignments of owner {@code subtask} restored from an
     * epoch before {@code currentEpoch}, against the metadata of that owner's state in the restored
     * checkpoint (which proves even splits the reader finished before the barrier).
     */
    public List<AssignmentEntry> reconcileRestoredOwner(
            int subtask, long currentEpoch, ReaderInclusionReport restored) {
        List<TrackedAssignment> old = new ArrayList<>();
        LinkedHashSet<TrackedAssignment> set = inFlightBySubtask.get(subtask);
        if (set != null) {
            for (TrackedAssignment a : set) {
                if (a.epoch() < currentEpoch) {
                    old.add(a);
                }
            }
        }
        return reconcile(old, restored);
    }

    private List<AssignmentEntry> reconcile(
            List<TrackedAssignment> old, ReaderInclusionReport restored) {
        List<AssignmentEntry> back = new ArrayList<>();
        for (TrackedAssignment a : old) {
            if (restored != null && restored.proves(a.epoch(), a.sequence())) {
                markIncluded(a, restored.checkpointId());
            } else {
                TrackedAssignment.Cursor c = a.cursor();
                while (c.next()) {
                    if (!a.isReleased(c.index)) {
                        back.add(AssignmentEntry.of(a, c, AssignmentState.UNASSIGNED));
                    }
                }
                a.moveTo(AssignmentState.UNASSIGNED);
                removeIndexed(a);
            }
        }
        metrics.add(Counter.ASSIGNMENTS_RETURNED, back.size());
        return back;
    }

    /**
     * A split came back from a reader (its state, on restore or rescale): whatever the tracker knew
     * about it is superseded, since the enumerator owns it again. Returns what the tracker knew, or
     * null.
     */
    public AssignmentEntry removeReturned(String splitId) {
        byte[] id = splitId.getBytes(StandardCharsets.UTF_8);
        long fp = SplitIdIndex.fingerprint(id);
        SplitIdIndex.Holder h = index.find(fp, id);
        if (h instanceof PendingSplit) {
            PendingSplit p = (PendingSplit) h;
            pending.remove(p);
            index.remove(fp, p);
            return AssignmentEntry.unassigned(splitId, p.splitBytes(), p.subtask());
        }
        if (!(h instanceof TrackedAssignment)) {
            return null;
        }
        TrackedAssignment a = (TrackedAssignment) h;
        int i = a.indexOf(id);
        TrackedAssignment.Cursor c = a.cursor();
        while (c.next() && c.index < i) {
            // walks to split i
        }
        AssignmentEntry was = AssignmentEntry.of(a, c, a.state());
        index.remove(fp, a);
        inFlightSplits--;
        if (a.release(i) == 0) {
            a.moveTo(AssignmentState.UNASSIGNED);
            removeIndexed(a);
        }
        return was;
    }

    /** Removes and returns every pending split (restore gives them back to the enumerator). */
    public List<AssignmentEntry> takeAllPending() {
        List<PendingSplit> taken = pending.takeAll();
        List<AssignmentEntry> out = new ArrayList<>(taken.size());
        for (PendingSplit p : taken) {
            index.remove(p.fingerprint(), p);
            out.add(p.view());
        }
        return out;
    }

    /** Subtasks that own in-flight assignments (restore holds assignment until each reconciles). */
    public Set<Integer> inFlightOwners() {
        Set<Integer> owners = new TreeSet<>();
        for (Map.Entry<Integer, LinkedHashSet<TrackedAssignment>> m :
                inFlightBySubtask.entrySet()) {
            if (!m.getValue().isEmpty()) {
                owners.add(m.getKey());
            }
        }
        return owners;
    }

    /**
     * Installs decoded state; only an empty tracker may be restored. A restore may hold more
     * waiting splits than the unassigned bound (the checkpoint was taken under other settings):
     * they are all given back to the enumerator at open.
     */
    void restore(
            List<PendingSplit> pendingSplits,
            List<TrackedAssignment> assignments,
            long lastCompleted,
            Collection<Integer> nms) {
        if (pending.count() != 0 || inFlight != 0) {
            throw new IllegalStateException("restore into a non-empty tracker");
        }
        lastCompletedCheckpoint = lastCompleted;
        noMoreSplits.addAll(nms);
        for (PendingSplit p : pendingSplits) {
            if (index.find(p.fingerprint(), p.idUtf8()) != null) {
                throw new IllegalStateException("snapshot holds a split id twice");
            }
            index.add(p.fingerprint(), p);
            pending.add(p);
        }
        for (TrackedAssignment a : assignments) {
            TrackedAssignment.Cursor c = a.cursor();
            while (c.next()) {
                byte[] id = c.idUtf8();
                long fp = SplitIdIndex.fingerprint(id);
                if (index.find(fp, id) != null) {
                    throw new IllegalStateException("snapshot holds a split id twice");
                }
                index.add(fp, a);
            }
            if (byCommand.put(a.commandId(), a) != null) {
                throw new IllegalStateException("snapshot holds a command twice");
            }
            indexInFlight(a);
            if (a.state() == AssignmentState.CHECKPOINT_INCLUDED) {
                includedByCheckpoint
                        .computeIfAbsent(a.includedCheckpointId(), k -> new ArrayList<>())
                        .add(a);
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

    /**
     * Every tracked split, unassigned first (by subtask, in order), then those in flight by
     * assignment in dispatch order: copies, for recovery checks and tests; O(tracked splits).
     */
    public List<AssignmentEntry> entries() {
        List<AssignmentEntry> out = new ArrayList<>(size());
        for (ArrayDeque<PendingSplit> q : pending.queues()) {
            for (PendingSplit p : q) {
                out.add(p.view());
            }
        }
        for (TrackedAssignment a : byCommand.values()) {
            TrackedAssignment.Cursor c = a.cursor();
            while (c.next()) {
                if (!a.isReleased(c.index)) {
                    out.add(AssignmentEntry.of(a, c, a.state()));
                }
            }
        }
        return out;
    }

    /** Unassigned splits, by subtask and in order (the codec writes them in this order). */
    Collection<ArrayDeque<PendingSplit>> pendingSplits() {
        return pending.queues();
    }

    /** Assignments in flight, in dispatch order (the codec writes them in this order). */
    Collection<TrackedAssignment> assignments() {
        return Collections.unmodifiableCollection(byCommand.values());
    }

    /** Splits tracked: unassigned and in flight. */
    public int size() {
        return pending.count() + inFlightSplits;
    }

    /** Assignments in flight: what {@code assignment-tracker.max-entries} bounds. */
    public int inFlightCount() {
        return inFlight;
    }

    /** In-flight assignments of {@code subtask}. */
    public int inFlightCount(int subtask) {
        LinkedHashSet<TrackedAssignment> set = inFlightBySubtask.get(subtask);
        return set == null ? 0 : set.size();
    }

    /** Splits in those assignments, less those handed back on their own. */
    public int inFlightSplits() {
        return inFlightSplits;
    }

    /** Unassigned splits. */
    public int pendingCount() {
        return pending.count();
    }

    public long inFlightBytes() {
        return inFlightBytes;
    }

    /** Estimated bytes of everything tracked, pending included. */
    public long estimatedBytes() {
        return inFlightBytes + pending.bytes();
    }

    /** Estimated bytes of the unassigned splits. */
    public long pendingBytes() {
        return pending.bytes();
    }

    /**
     * Assignments that left the in-flight bound so far (collected or given back): a count that only
     * grows, so a caller can tell whether room was freed since it last looked.
     */
    public long entriesLeft() {
        return entriesLeft;
    }

    /** When the oldest assignment in flight was dispatched (loop clock); -1 when none. */
    public long oldestDispatchMillis() {
        long oldest = -1;
        for (LinkedHashSet<TrackedAssignment> set : inFlightBySubtask.values()) {
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

    private void markIncluded(TrackedAssignment a, long checkpointId) {
        if (a.state() != AssignmentState.CHECKPOINT_INCLUDED) {
            a.moveTo(AssignmentState.CHECKPOINT_INCLUDED);
            metrics.add(Counter.ASSIGNMENTS_INCLUDED, a.liveCount());
        } else if (a.includedCheckpointId() <= checkpointId) {
            return;
        }
        a.includedAt(checkpointId);
        if (checkpointId <= lastCompletedCheckpoint) {
            collect(a);
        } else {
            includedByCheckpoint.computeIfAbsent(checkpointId, k -> new ArrayList<>()).add(a);
        }
    }

    private void collect(TrackedAssignment a) {
        int splits = a.liveCount();
        a.moveTo(AssignmentState.GC_ELIGIBLE);
        removeIndexed(a);
        metrics.add(Counter.ASSIGNMENTS_GC, splits);
    }

    private void indexInFlight(TrackedAssignment a) {
        inFlightBySubtask.computeIfAbsent(a.subtask(), k -> new LinkedHashSet<>()).add(a);
        inFlight++;
        inFlightSplits += a.liveCount();
        inFlightBytes += a.estimatedBytes();
    }

    /** Drops an assignment that was in flight from every index, with its live splits. */
    private void removeIndexed(TrackedAssignment a) {
        byCommand.remove(a.commandId());
        TrackedAssignment.Cursor c = a.cursor();
        while (c.next()) {
            if (!a.isReleased(c.index)) {
                index.remove(c.fingerprint(), a);
            }
        }
        LinkedHashSet<TrackedAssignment> set = inFlightBySubtask.get(a.subtask());
        if (set != null && set.remove(a)) {
            inFlight--;
            inFlightSplits -= a.liveCount();
            inFlightBytes -= a.estimatedBytes();
            entriesLeft++;
            // An empty set stays (one per subtask): a subtask's in-flight set empties after every
            // apply without checkpoints, and rebuilding it each time cost more than keeping it.
        }
    }
}
