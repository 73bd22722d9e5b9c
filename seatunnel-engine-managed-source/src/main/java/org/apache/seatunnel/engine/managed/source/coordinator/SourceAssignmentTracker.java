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
import java.util.List;
import java.util.Set;
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
 * <p>A split waits as a {@link PendingSplit} ({@code UNASSIGNED}, in {@link UnassignedSplits},
 * bounded: beyond it the enumerator is refused with {@link TrackerBoundException}) until its reader
 * has room; then consecutive pending splits of one subtask leave in one command as one {@link
 * TrackedAssignment} ({@code DISPATCHED .. CHECKPOINT_INCLUDED}, in {@link InFlightAssignments},
 * whose bounds keep it waiting, never dropped): one sender sequence, so one admission answer, apply
 * watermark or inclusion proof ({@link CheckpointInclusions}) covers all of them. After a failover
 * {@link AssignmentReconciler} settles what was in flight. A {@link SplitIdIndex} finds the holder
 * of a split id, so a split is never tracked twice and a split handed back alone leaves its
 * assignment. This class is the one door to those parts, so every change keeps them in step.
 */
public final class SourceAssignmentTracker {
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    private final int maxUnassignedEntries;
    private final long maxUnassignedBytes;
    private final boolean checkpointsEnabled;
    private final CoordinatorMetrics metrics;

    private final SplitIdIndex index = new SplitIdIndex();
    private final UnassignedSplits pending;
    private final InFlightAssignments inFlight;
    private final CheckpointInclusions inclusions;
    private final AssignmentReconciler reconciler;
    private final TreeSet<Integer> noMoreSplits = new TreeSet<>();

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
        this.maxUnassignedEntries = maxUnassignedEntries;
        this.maxUnassignedBytes = maxUnassignedBytes;
        this.checkpointsEnabled = checkpointsEnabled;
        this.metrics = metrics;
        this.pending = new UnassignedSplits(maxUnassignedEntries, maxUnassignedBytes);
        this.inFlight = new InFlightAssignments(maxEntries, maxBytes, index, metrics);
        this.inclusions = new CheckpointInclusions(inFlight, metrics);
        this.reconciler = new AssignmentReconciler(inFlight, inclusions, metrics);
    }

    /** The estimate of an assignment of one split: what an empty tracker always takes. */
    public static long estimateBytes(String splitId, int splitBytes) {
        return TrackedAssignment.estimate(
                1, splitId.getBytes(StandardCharsets.UTF_8).length, splitBytes);
    }

    /** The reader parallelism the per-subtask share of the in-flight bound divides by. */
    void parallelism(int p) {
        inFlight.parallelism(p);
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
        addPending(id, SplitIdIndex.fingerprint(id), splitBytes, subtask);
    }

    /**
     * Records that the enumerator handed {@code splitIds} (serialized as {@code splitBytes}, same
     * order) to {@code subtask}: {@link #addPending(String, byte[], int)} for each, with the index
     * readied for all of them first, since an enumerator hands out a reader's window in one call.
     * Stops at the first split refused; those before it stay recorded, as one by one.
     *
     * @throws IllegalStateException if a split is still tracked
     * @throws TrackerBoundException if the unassigned bound is reached
     */
    public void addPending(List<String> splitIds, List<byte[]> splitBytes, int subtask) {
        int n = splitIds.size();
        if (splitBytes.size() != n) {
            throw new IllegalArgumentException(
                    n + " split ids for " + splitBytes.size() + " serialized splits");
        }
        byte[][] ids = new byte[n][];
        long[] fps = new long[n];
        for (int k = 0; k < n; k++) {
            ids[k] = splitIds.get(k).getBytes(StandardCharsets.UTF_8);
            fps[k] = SplitIdIndex.fingerprint(ids[k]);
        }
        // Past the unassigned bound the batch is refused anyway: the index never grows for it.
        index.prepare(fps, Math.min(n, pending.room()));
        for (int k = 0; k < n; k++) {
            addPending(ids[k], fps[k], splitBytes.get(k), subtask);
        }
    }

    private void addPending(byte[] id, long fp, byte[] splitBytes, int subtask) {
        PendingSplit p = new PendingSplit(id, fp, splitBytes, subtask);
        if (!pending.fits(p.estimatedBytes())) {
            metrics.increment(Counter.UNASSIGNED_BOUND_REFUSALS);
            throw TrackerBoundException.unassigned(
                    pending.count(), pending.bytes(), maxUnassignedEntries, maxUnassignedBytes);
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
        return pending.firstLength(subtask);
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
        return inFlight.room(subtask);
    }

    /**
     * How many of {@code subtask}'s first pending splits fit one command: at most {@code
     * maxSplits}, an assignment payload of at most {@code payloadRoom} bytes (the first split
     * always), and the room of the in-flight bounds and the subtask's share of them. 0 when not
     * even one assignment of the first split fits the tracker now.
     */
    public int dispatchable(int subtask, int maxSplits, long payloadRoom) {
        return inFlight.dispatchable(pending.queue(subtask), subtask, maxSplits, payloadRoom);
    }

    /** Unassigned splits the tracker may still take. */
    public int unassignedRoom() {
        return pending.room();
    }

    /**
     * Counts {@code subtask}'s first pending split as back-pressured, once however long it waits.
     */
    void countBackpressure(int subtask) {
        if (pending.markFirstBackpressured(subtask)) {
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
        TrackedAssignment a =
                TrackedAssignment.dispatch(taken, subtask, epoch, attempt, seq, cmd, cut, now);
        for (PendingSplit p : taken) {
            index.replace(p.fingerprint(), p, a);
        }
        inFlight.add(a, true);
        metrics.add(Counter.ASSIGNMENTS_DISPATCHED, count);
        metrics.increment(Counter.ASSIGNMENT_COMMANDS);
        return a;
    }

    // ---------------------------------------------------------------- acks (flow control only)

    /** Admission ack of command {@code commandId}. Returns false for a duplicate or a late one. */
    public boolean onAdmitted(long commandId) {
        TrackedAssignment a = inFlight.byCommand(commandId);
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
        return inFlight.appliedThrough(subtask, attempt, epoch, watermark, !checkpointsEnabled);
    }

    // ---------------------------------------------------------------- durability

    /**
     * Applies a CHECKPOINT report of the current attempt: assignments it proves become
     * CHECKPOINT_INCLUDED at its checkpoint, and are collected at once if that checkpoint already
     * completed. Returns how many assignments became included.
     */
    public int include(ReaderInclusionReport r) {
        return inclusions.include(r);
    }

    /**
     * Global checkpoint {@code id} completed: collects every assignment included at or before it.
     */
    public int onCheckpointComplete(long id) {
        return inclusions.complete(id);
    }

    public long lastCompletedCheckpoint() {
        return inclusions.lastCompleted();
    }

    // ---------------------------------------------------------------- recovery

    /**
     * Reader failover: reconciles the assignments of {@code subtask} sent in {@code epoch} to an
     * attempt other than {@code newAttempt} (see {@link AssignmentReconciler#reconcileAttempt}).
     */
    public List<AssignmentEntry> reconcileAttempt(
            int subtask, long epoch, long newAttempt, ReaderInclusionReport restored) {
        return reconciler.reconcileAttempt(subtask, epoch, newAttempt, restored);
    }

    /**
     * Coordinator failover: reconciles the assignments of owner {@code subtask} restored from an
     * epoch before {@code currentEpoch} (see {@link AssignmentReconciler#reconcileRestoredOwner}).
     */
    public List<AssignmentEntry> reconcileRestoredOwner(
            int subtask, long currentEpoch, ReaderInclusionReport restored) {
        return reconciler.reconcileRestoredOwner(subtask, currentEpoch, restored);
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
            return p.view();
        }
        if (!(h instanceof TrackedAssignment)) {
            return null;
        }
        TrackedAssignment a = (TrackedAssignment) h;
        int i = a.indexOf(id);
        AssignmentEntry was = a.entry(i, a.state());
        inFlight.release(a, i, fp);
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
        return inFlight.owners();
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
        if (pending.count() != 0 || inFlight.count() != 0) {
            throw new IllegalStateException("restore into a non-empty tracker");
        }
        inclusions.restoreLastCompleted(lastCompleted);
        noMoreSplits.addAll(nms);
        for (PendingSplit p : pendingSplits) {
            if (index.find(p.fingerprint(), p.idUtf8()) != null) {
                throw new IllegalStateException("snapshot holds a split id twice");
            }
            index.add(p.fingerprint(), p);
            pending.add(p);
        }
        for (TrackedAssignment a : assignments) {
            inFlight.restore(a);
            if (a.state() == AssignmentState.CHECKPOINT_INCLUDED) {
                inclusions.await(a);
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

    /** What the tracker knows of {@code splitId} now, or null if it does not track it. */
    public AssignmentEntry bySplit(String splitId) {
        byte[] id = splitId.getBytes(StandardCharsets.UTF_8);
        SplitIdIndex.Holder h = index.find(SplitIdIndex.fingerprint(id), id);
        if (h instanceof PendingSplit) {
            return ((PendingSplit) h).view();
        }
        if (h instanceof TrackedAssignment) {
            TrackedAssignment a = (TrackedAssignment) h;
            return a.entry(a.indexOf(id), a.state());
        }
        return null;
    }

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
        inFlight.addEntries(out);
        return out;
    }

    /** Unassigned splits, by subtask and in order (the codec writes them in this order). */
    Collection<ArrayDeque<PendingSplit>> pendingSplits() {
        return pending.queues();
    }

    /** Assignments in flight, in dispatch order (the codec writes them in this order). */
    Collection<TrackedAssignment> assignments() {
        return inFlight.all();
    }

    /** Splits tracked: unassigned and in flight. */
    public int size() {
        return pending.count() + inFlight.splits();
    }

    /** Assignments in flight: what {@code assignment-tracker.max-entries} bounds. */
    public int inFlightCount() {
        return inFlight.count();
    }

    /** In-flight assignments of {@code subtask}. */
    public int inFlightCount(int subtask) {
        return inFlight.count(subtask);
    }

    /** Unassigned splits. */
    public int pendingCount() {
        return pending.count();
    }

    /** Estimated bytes of everything tracked, pending included. */
    public long estimatedBytes() {
        return inFlight.bytes() + pending.bytes();
    }

    /** Slots of the split index, {@link SplitIdIndex#SLOT_BYTES} each. */
    int indexCapacity() {
        return index.capacity();
    }

    /**
     * Assignments that left the in-flight bound so far (collected or given back): a count that only
     * grows, so a caller can tell whether room was freed since it last looked.
     */
    public long entriesLeft() {
        return inFlight.left();
    }

    /** When the oldest assignment in flight was dispatched (loop clock); -1 when none. */
    public long oldestDispatchMillis() {
        return inFlight.oldestDispatchMillis();
    }

    public int maxUnassignedEntries() {
        return maxUnassignedEntries;
    }
}
