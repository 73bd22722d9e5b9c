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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command handlers of one coordinator epoch. Recovery rules:
 *
 * <p>Threading: loop-owned; every method runs on the coordinator loop. It is the only code that
 * calls the enumerator and mutates the tracker (invariant 1, single owner).
 *
 * <ul>
 *   <li>Reader failover: a new attempt id on registration reconciles every entry addressed to an
 *       older attempt; entries the restored metadata does not prove go back through {@code
 *       addSplitsBack} before {@code registerReader}, so the enumerator can hand them out again.
 *   <li>Coordinator failover: enumerator and tracker come from one blob; restored pending entries
 *       go back to the enumerator at open; assignment is held until every owner of a restored
 *       in-flight entry was reported (a RESTORED report built from that owner's state in the
 *       restored checkpoint, which the host forwards with the returned splits). Registration alone
 *       cannot reconcile a restored owner: only the metadata proves splits the reader finished
 *       before the barrier, and returning those would read them twice. So the reader host must
 *       checkpoint its metadata even when it owns no split.
 *   <li>Returned splits ({@code addSplitsBack}, e.g. reader states on restore) supersede whatever
 *       the tracker knew about those split ids, whatever subtask they come back through.
 * </ul>
 */
final class CoordinatorCore<SplitT extends SourceSplit, StateT> {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorCore.class);

    /** The barrier of an apply acknowledgement that did not say when it was taken. */
    static final long NO_BARRIER_PROOF = -1;

    /** Splits of one assignment call the tracker records in one batch. */
    static final int ASSIGN_BATCH = 512;

    private final CoordinatorConfig config;
    private final EnumeratorFactory<SplitT, StateT> factory;
    private final SplitBytes<SplitT> splitBytes;
    private final Serializer<StateT> stateSerializer;
    private final Serializer<SourceEvent> eventSerializer;
    private final CoordinatorMetrics metrics;
    private final SourceAssignmentTracker tracker;
    private final ReaderRegistry readers;
    private final EnvelopeFactory envelopes;
    private final CoordinatorSchedulerImpl scheduler;
    private final TrackerGauges gauges;
    private final RestoredReaderStates<SplitT> restoredStates;
    private final AppliedBeforeBarrier appliedBefore = new AppliedBeforeBarrier();
    private final byte[] restoreBlob;
    private OutboundCommands outbound;
    private LoopPort loop;
    private CoordinatorEnumeratorContext<SplitT> context;

    private SourceSplitEnumerator<SplitT, StateT> enumerator;
    private long lastNotifiedComplete = AssignmentEntry.NONE;
    private long restoredCheckpointId = AssignmentEntry.NONE;

    CoordinatorCore(
            CoordinatorConfig config,
            EnumeratorFactory<SplitT, StateT> factory,
            Serializer<SplitT> splitSerializer,
            Serializer<StateT> stateSerializer,
            Serializer<SourceEvent> eventSerializer,
            CoordinatorMetrics metrics,
            SourceAssignmentTracker tracker,
            ReaderRegistry readers,
            EnvelopeFactory envelopes,
            CoordinatorSchedulerImpl scheduler,
            TrackerGauges gauges,
            byte[] restoreBlob) {
        this.config = config;
        this.factory = Objects.requireNonNull(factory, "enumeratorFactory");
        this.splitBytes =
                new SplitBytes<>(
                        Objects.requireNonNull(splitSerializer, "splitSerializer"),
                        config.maxPayloadBytes());
        this.stateSerializer = Objects.requireNonNull(stateSerializer, "stateSerializer");
        this.eventSerializer = eventSerializer;
        this.metrics = metrics;
        this.tracker = tracker;
        this.readers = readers;
        this.envelopes = envelopes;
        this.scheduler = scheduler;
        this.gauges = gauges;
        this.restoreBlob = restoreBlob;
        this.restoredStates =
                new RestoredReaderStates<>(
                        config.epoch(),
                        tracker,
                        readers,
                        metrics,
                        this::returnToEnumerator,
                        this::splitsReturned);
    }

    void bind(
            OutboundCommands outbound,
            CoordinatorEnumeratorContext<SplitT> context,
            LoopPort loop) {
        this.outbound = outbound;
        this.context = context;
        this.loop = loop;
        outbound.bindDemand(
                new OutboundCommands.SplitDemand() {
                    @Override
                    public boolean supported() {
                        return enumerator instanceof SupportSplitDemand;
                    }

                    @Override
                    public void demand(int subtask, int maxSplits) {
                        ((SupportSplitDemand) enumerator).handleSplitDemand(subtask, maxSplits);
                    }
                });
    }

    // ------------------------------------------------------------------ life cycle

    /** Creates or restores the enumerator, opens it and runs {@code run()} once (must return). */
    void open() throws Exception {
        if (restoreBlob == null) {
            enumerator = factory.create(context);
            enumerator.open();
        } else {
            CoordinatorSnapshotCodec.Decoded snap =
                    CheckpointRestore.apply(restoreBlob, config, tracker, readers);
            restoredCheckpointId = snap.checkpointId();
            enumerator =
                    factory.restore(context, stateSerializer.deserialize(snap.enumeratorState()));
            enumerator.open();
            returnToEnumerator(tracker.takeAllPending());
            LOG.info(
                    "Coordinator epoch {} restored checkpoint {}: {} in-flight assignments, {} owners to reconcile",
                    config.epoch(),
                    restoredCheckpointId,
                    tracker.inFlightCount(),
                    readers.awaitingOwners().size());
        }
        // Hazard 6: run() is called once and must return; the loop is not inside it.
        enumerator.run();
        for (int s : tracker.noMoreSplitsSubtasks()) {
            outbound.noMoreSplitsChanged(s);
        }
    }

    void close() throws Exception {
        scheduler.close();
        if (enumerator != null) {
            enumerator.close();
        }
    }

    // ------------------------------------------------------------------ reader → coordinator

    void registerReader(
            int subtask, long attempt, ReaderInclusionReport restored, ReaderWindow window) {
        if (attempt == ReaderInclusionReport.NO_ATTEMPT) {
            // Restored owners' metadata comes with their state (restoredReaderState).
            throw new IllegalArgumentException("registration without an attempt id");
        }
        checkSubtask(subtask);
        Long current = readers.current(subtask);
        if (current != null && attempt <= current) {
            metrics.increment(
                    attempt == current
                            ? Counter.DUPLICATE_REGISTRATIONS
                            : Counter.STALE_READER_COMMANDS);
            return;
        }
        if (restored != null
                && (restored.kind() != ReaderInclusionReport.Kind.RESTORED
                        || restored.subtask() != subtask)) {
            throw new IllegalArgumentException("registration carries a foreign report");
        }
        List<AssignmentEntry> back =
                tracker.reconcileAttempt(subtask, envelopes.epoch(), attempt, restored);
        metrics.increment(Counter.RECONCILIATIONS);
        returnToEnumerator(back);
        int returned = back.size();
        readers.register(subtask, attempt);
        envelopes.resumeSequence(
                subtask, restored == null ? 0 : restored.watermark(envelopes.epoch()));
        outbound.registered(subtask, attempt, window);
        LOG.info(
                "Reader subtask {} registered attempt {} (previous {}): {} assignments returned to the enumerator",
                subtask,
                attempt,
                current,
                returned);
        enumerator.registerReader(subtask);
        outbound.noMoreSplitsChanged(subtask);
    }

    void splitRequest(int subtask, long attempt) {
        if (!readers.isCurrent(subtask, attempt)) {
            metrics.increment(Counter.STALE_READER_COMMANDS);
            return;
        }
        if (tracker.isNoMoreSplits(subtask)) {
            // A request that crossed no-more-splits: answering it with a split would reach a
            // reader that may already have finished. The enumerator already answered it.
            metrics.increment(Counter.SPLIT_REQUESTS_AFTER_NO_MORE_SPLITS);
            return;
        }
        outbound.rearmDemand(subtask);
        enumerator.handleSplitRequest(subtask);
    }

    void splitsReturned(int subtask, List<SplitT> splits) {
        checkSubtask(subtask);
        for (SplitT s : splits) {
            tracker.removeReturned(s.splitId());
        }
        if (!splits.isEmpty()) {
            clearNoMoreSplits(subtask);
            metrics.add(Counter.ASSIGNMENTS_RETURNED, splits.size());
        }
        enumerator.addSplitsBack(splits, subtask);
        outbound.rearmDemandForAll();
    }

    /** A restored reader state the engine handed back (see {@link RestoredReaderStates}). */
    void restoredReaderState(int subtask, List<ReaderInclusionReport> owners, List<SplitT> splits) {
        restoredStates.deliver(subtask, owners, splits);
    }

    void readerEvent(int subtask, long attempt, SourceEvent event) {
        if (!readers.isCurrent(subtask, attempt)) {
            metrics.increment(Counter.STALE_READER_COMMANDS);
            return;
        }
        enumerator.handleSourceEvent(subtask, event);
    }

    void readerEvent(int subtask, long attempt, byte[] bytes) throws IOException {
        if (!readers.isCurrent(subtask, attempt)) {
            metrics.increment(Counter.STALE_READER_COMMANDS);
            return;
        }
        if (eventSerializer == null) {
            // The reader side refuses to send without one; a frame without it is not ours.
            throw new UnsupportedOperationException(
                    "a reader sent a source event but this source declared no event serializer");
        }
        enumerator.handleSourceEvent(subtask, eventSerializer.deserialize(bytes));
    }

    void inclusion(ReaderInclusionReport r) {
        if (r.kind() == ReaderInclusionReport.Kind.RESTORED) {
            restoredStates.reconcile(r);
            return;
        }
        if (!readers.isCurrent(r.subtask(), r.attemptId())) {
            metrics.increment(Counter.INCLUSION_REPORTS_FENCED);
            return;
        }
        // A report proves what its reader applied, whatever happened to its apply acks.
        // A report says nothing of the reader's backlog now: the last acknowledgement's stands.
        appliedThrough(
                r.subtask(),
                r.attemptId(),
                r.contiguousWatermark(envelopes.epoch()),
                AppliedAckPayload.UNKNOWN_BACKLOG);
        tracker.include(r);
        outbound.noMoreSplitsChanged(r.subtask());
    }

    /**
     * The reader attempt applied every command of this epoch up to {@code watermark}: flow control
     * (credit returns; without checkpoints its splits are collected), never durability.
     */
    void applied(int subtask, long attempt, long watermark, int backlog) {
        applied(subtask, attempt, watermark, backlog, NO_BARRIER_PROOF);
    }

    /**
     * As {@link #applied(int, long, long, int)}, taken by the reader after barrier {@code
     * lastBarrier} and before any later one ({@link #NO_BARRIER_PROOF} if unknown): the snapshots
     * of later checkpoints leave what it applied out ({@link AppliedBeforeBarrier}).
     */
    void applied(int subtask, long attempt, long watermark, int backlog, long lastBarrier) {
        if (!readers.isCurrent(subtask, attempt)) {
            metrics.increment(Counter.ASSIGNMENT_FENCED_ACKS);
            return;
        }
        appliedThrough(subtask, attempt, watermark, backlog);
        if (lastBarrier >= 0) {
            appliedBefore.record(subtask, attempt, envelopes.epoch(), watermark, lastBarrier);
        }
    }

    private void appliedThrough(int subtask, long attempt, long watermark, int backlog) {
        tracker.appliedThrough(subtask, attempt, envelopes.epoch(), watermark);
        outbound.applied(subtask, attempt, watermark, backlog);
    }

    // ------------------------------------------------------------------ checkpoints

    /** Enumerator and tracker in one cut; every later command carries this cut id. */
    byte[] snapshot(long checkpointId) throws Exception {
        StateT snapshot = enumerator.snapshotState(checkpointId);
        // Calls the enumerator's own threads made before its snapshot returned may already show
        // in that snapshot (a split it no longer holds): they belong to this cut, or the split
        // would be in neither half of it. Read the ticket first, so later calls stay out.
        loop.applyEnumeratorCallsBefore(loop.enumeratorCallTicket());
        byte[] state = stateSerializer.serialize(snapshot);
        AssignmentTrackerCodec.Encoded trackerState =
                AssignmentTrackerCodec.encode(
                        tracker,
                        envelopes.epoch(),
                        // A registration drops the old attempt's assignments today; the check keeps
                        // a proof from outliving its attempt should an entry ever stay behind.
                        a ->
                                readers.isCurrent(a.subtask(), a.attempt())
                                        && appliedBefore.appliedBefore(a, checkpointId));
        envelopes.cutTaken(checkpointId);
        metrics.increment(Counter.SNAPSHOTS);
        metrics.add(Counter.SNAPSHOT_ASSIGNMENTS_LEFT_OUT, trackerState.assignmentsLeftOut);
        metrics.add(Counter.SNAPSHOT_SPLITS_LEFT_OUT, trackerState.splitsLeftOut);
        return CoordinatorSnapshotCodec.encode(
                checkpointId, envelopes.epoch(), config.parallelism(), state, trackerState.bytes);
    }

    void checkpointComplete(long checkpointId) throws Exception {
        // Collect first: capacity is freed even if the connector's callback throws.
        tracker.onCheckpointComplete(checkpointId);
        if (checkpointId <= lastNotifiedComplete || checkpointId <= restoredCheckpointId) {
            // Hazard 5: repeated after restore or retried; one business effect per epoch.
            metrics.increment(Counter.DUPLICATE_CHECKPOINT_CALLBACKS);
            return;
        }
        lastNotifiedComplete = checkpointId;
        enumerator.notifyCheckpointComplete(checkpointId);
    }

    void checkpointAborted(long checkpointId) throws Exception {
        if (checkpointId <= tracker.lastCompletedCheckpoint()) {
            metrics.increment(Counter.DUPLICATE_CHECKPOINT_CALLBACKS);
            return;
        }
        if (checkpointId == envelopes.cutId()) {
            outbound.releaseCut(checkpointId);
        }
        enumerator.notifyCheckpointAborted(checkpointId);
    }

    void afterCommand() throws Exception {
        outbound.pump();
        gauges.maybePublish(tracker);
    }

    // ------------------------------------------------------------------ enumerator context

    Set<Integer> registeredReaders() {
        return readers.registered();
    }

    /** Any thread: the registrations as of the last one the loop applied. */
    Set<Integer> registeredReadersSnapshot() {
        return readers.registeredSnapshot();
    }

    CoordinatorSchedulerImpl scheduler() {
        return scheduler;
    }

    void assign(int subtask, List<SplitT> splits) {
        checkSubtask(subtask);
        Long attempt = readers.current(subtask);
        if (!splits.isEmpty() && attempt != null && readers.noMoreSplitsSentTo(subtask, attempt)) {
            // The reader may already have finished: refusing loudly beats losing the split.
            throw new IllegalStateException(
                    "enumerator assigned splits to subtask "
                            + subtask
                            + " after no-more-splits was sent to its current attempt");
        }
        // In batches of half a default reader window: one batch per demand as enumerators answer
        // them, and an enumerator that assigns everything at once has at most one batch encoded
        // ahead of the tracker's refusal at its unassigned bound.
        for (int from = 0; from < splits.size(); from += ASSIGN_BATCH) {
            int to = Math.min(splits.size(), from + ASSIGN_BATCH);
            List<String> ids = new ArrayList<>(to - from);
            List<byte[]> bytes = new ArrayList<>(to - from);
            for (SplitT split : splits.subList(from, to)) {
                ids.add(split.splitId());
                bytes.add(splitBytes.encode(split));
            }
            tracker.addPending(ids, bytes, subtask);
        }
        if (!splits.isEmpty()) {
            outbound.pendingAdded(subtask);
        }
        if (tracker.isNoMoreSplits(subtask) && !splits.isEmpty()) {
            // An assignment after no-more-splits voids it: the enumerator must signal again.
            clearNoMoreSplits(subtask);
        }
        if (readers.holdActive() && !splits.isEmpty()) {
            metrics.add(Counter.ASSIGNMENT_HELD_FOR_RECONCILIATION, splits.size());
        }
    }

    /** The enumerator has splits for {@code subtask} again: its next demand is made. */
    void splitsAvailable(int subtask) {
        checkSubtask(subtask);
        outbound.rearmDemand(subtask);
    }

    void signalNoMoreSplits(int subtask) {
        checkSubtask(subtask);
        tracker.markNoMoreSplits(subtask);
        outbound.noMoreSplitsChanged(subtask);
    }

    void sendEvent(int subtask, SourceEvent event) {
        checkSubtask(subtask);
        if (eventSerializer == null) {
            throw new UnsupportedOperationException(
                    "this source declared no source-event serializer");
        }
        try {
            outbound.sendEvent(subtask, eventSerializer.serialize(event));
        } catch (IOException e) {
            throw new UncheckedIOException("source event serializer failed", e);
        }
    }

    SourceAssignmentTracker tracker() {
        return tracker;
    }

    // ------------------------------------------------------------------ internals

    /** Gives unproven entries back to the enumerator, grouped by (valid) subtask. */
    private void returnToEnumerator(List<AssignmentEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, List<SplitT>> m :
                splitBytes.bySubtask(entries, config.parallelism()).entrySet()) {
            clearNoMoreSplits(m.getKey());
            enumerator.addSplitsBack(m.getValue(), m.getKey());
        }
        outbound.rearmDemandForAll();
    }

    private void clearNoMoreSplits(int subtask) {
        tracker.clearNoMoreSplits(subtask);
        readers.clearNoMoreSplitsSent(subtask);
    }

    private void checkSubtask(int subtask) {
        if (subtask < 0 || subtask >= config.parallelism()) {
            throw new IllegalArgumentException(
                    "subtask " + subtask + " outside parallelism " + config.parallelism());
        }
    }
}
