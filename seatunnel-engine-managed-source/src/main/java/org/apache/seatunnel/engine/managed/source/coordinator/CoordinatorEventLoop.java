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

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;

/**
 * One coordinator as its host sees it: the typed commands of the engine callbacks and reader
 * messages (each queued on the {@link CoordinatorLoop} as one command over the {@link
 * CoordinatorCore}), the engine's snapshot demand, and views for hosts and tests. Built by {@link
 * CoordinatorLoopBuilder}; construction runs one way, the loop and its collaborators first.
 *
 * <p>Threading: every command method may be called from any thread, any number at once: it only
 * offers to the loop's bounded queue and returns ({@link OfferResult#QUEUE_FULL} when full, never
 * blocking). The views say which thread may read them. See {@link CoordinatorLoop} for how the loop
 * runs the commands.
 */
public final class CoordinatorEventLoop<SplitT extends SourceSplit, StateT> {
    /** The credit window of a registration that offers none: the default mailbox's. */
    public static final int DEFAULT_WINDOW_COMMANDS = 1024;

    public static final long DEFAULT_WINDOW_BYTES = 4L << 20;

    private final CoordinatorLoop<SplitT, StateT> loop;
    private final CoordinatorCore<SplitT, StateT> core;
    private final CoordinatorSchedulerImpl scheduler;
    private final CoordinatorEnumeratorContext<SplitT> context;

    CoordinatorEventLoop(
            CoordinatorLoop<SplitT, StateT> loop,
            CoordinatorCore<SplitT, StateT> core,
            CoordinatorSchedulerImpl scheduler,
            CoordinatorEnumeratorContext<SplitT> context) {
        this.loop = loop;
        this.core = core;
        this.scheduler = scheduler;
        this.context = context;
    }

    public static <S extends SourceSplit, T> CoordinatorLoopBuilder<S, T> builder() {
        return new CoordinatorLoopBuilder<>();
    }

    // ------------------------------------------------------------------ commands (any thread)

    /** Creates (or restores from the blob given to the builder), opens and runs the enumerator. */
    public OfferResult open() {
        return loop.offer(new CoordinatorLoop.Command(CoordinatorCommandType.OPEN, core::open));
    }

    /** Closes the enumerator; cancels async work; later commands are dropped and counted. */
    public OfferResult close() {
        return loop.offer(new CoordinatorLoop.Command(CoordinatorCommandType.CLOSE, core::close));
    }

    /**
     * A reader attempt registered without restored state of its own, offering the default mailbox's
     * credit window ({@link #DEFAULT_WINDOW_COMMANDS} commands, {@link #DEFAULT_WINDOW_BYTES}
     * bytes).
     */
    public OfferResult registerReader(int subtask, long attemptId) {
        return registerReader(subtask, attemptId, DEFAULT_WINDOW_COMMANDS, DEFAULT_WINDOW_BYTES);
    }

    /**
     * A reader attempt registered without restored state of its own, offering the credit window of
     * its mailbox: the coordinator keeps at most {@code windowCommands} sequenced commands and
     * {@code windowBytes} payload bytes sent to it and not yet applied.
     */
    public OfferResult registerReader(
            int subtask, long attemptId, int windowCommands, long windowBytes) {
        return registerReader(
                subtask,
                attemptId,
                windowCommands,
                windowBytes,
                RegistrationPayload.NO_SPLIT_WINDOW);
    }

    /**
     * As {@link #registerReader(int, long, int, long)}, with the reader's split window: the
     * coordinator keeps the splits the reader reports holding unread plus those on their way to it
     * within {@code windowSplits} ({@link RegistrationPayload#NO_SPLIT_WINDOW}: no such bound).
     */
    public OfferResult registerReader(
            int subtask, long attemptId, int windowCommands, long windowBytes, int windowSplits) {
        if (windowCommands < 1 || windowBytes < 1 || windowSplits < 0) {
            throw new IllegalArgumentException(
                    "a credit window must be positive: "
                            + windowCommands
                            + ", "
                            + windowBytes
                            + ", "
                            + windowSplits);
        }
        ReaderWindow window = new ReaderWindow(windowCommands, windowBytes, windowSplits);
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.REGISTER_READER,
                        () -> core.registerReader(subtask, attemptId, null, window)));
    }

    /**
     * A reader attempt registered. Attempt ids of one subtask must increase; a repeated id is a
     * duplicate. {@code restored} (kind RESTORED) is the metadata of the state it restored and
     * keeps, or null. A restored owner's metadata without an attempt comes with its state through
     * {@link #restoreReaderState}.
     */
    public OfferResult registerReader(int subtask, long attemptId, ReaderInclusionReport restored) {
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.REGISTER_READER,
                        () ->
                                core.registerReader(
                                        subtask, attemptId, restored, ReaderWindow.DEFAULT)));
    }

    public OfferResult handleSplitRequest(int subtask, long attemptId) {
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.SPLIT_REQUEST,
                        () -> core.splitRequest(subtask, attemptId)));
    }

    /** Splits handed back (reader states on restore, or a reader giving splits up). */
    public OfferResult addSplitsBack(List<SplitT> splits, int subtask) {
        List<SplitT> copy = new ArrayList<>(splits);
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.SPLITS_RETURNED,
                        () -> core.splitsReturned(subtask, copy)));
    }

    /**
     * A restored reader state handed back by the engine, as one command: the RESTORED metadata of
     * each old owner in it and its connector splits. A state delivered twice in one epoch is
     * dropped the second time (see {@code CoordinatorCore#restoredReaderState}).
     */
    public OfferResult restoreReaderState(
            int subtask, List<ReaderInclusionReport> owners, List<SplitT> splits) {
        List<ReaderInclusionReport> ownersCopy = new ArrayList<>(owners);
        List<SplitT> copy = new ArrayList<>(splits);
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.SPLITS_RETURNED,
                        () -> core.restoredReaderState(subtask, ownersCopy, copy)));
    }

    public OfferResult handleSourceEvent(int subtask, long attemptId, SourceEvent event) {
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.SOURCE_EVENT,
                        () -> core.readerEvent(subtask, attemptId, event)));
    }

    /**
     * A reader's source event in the bytes of the connector's event serializer, decoded on the
     * loop: the operation thread that receives it runs no connector code.
     */
    public OfferResult handleSourceEvent(int subtask, long attemptId, byte[] event) {
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.SOURCE_EVENT,
                        () -> core.readerEvent(subtask, attemptId, event)));
    }

    public OfferResult notifyCheckpointComplete(long checkpointId) {
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.CHECKPOINT_COMPLETE,
                        () -> core.checkpointComplete(checkpointId)));
    }

    public OfferResult notifyCheckpointAborted(long checkpointId) {
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.CHECKPOINT_ABORT,
                        () -> core.checkpointAborted(checkpointId)));
    }

    /** Reader checkpoint metadata (CHECKPOINT) or an owner's restored metadata (RESTORED). */
    public OfferResult reportInclusion(ReaderInclusionReport report) {
        Objects.requireNonNull(report, "report");
        return loop.offer(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.INCLUSION_REPORT, () -> core.inclusion(report)));
    }

    /**
     * The reader attempt applied every command of this epoch up to sequence {@code watermark} (its
     * cumulative apply acknowledgement): flow control, never durability. Queued apart from the
     * commands, so a snapshot demand never waits behind acknowledgements (see {@link
     * CoordinatorLoop}).
     */
    public OfferResult assignmentApplied(int subtask, long attemptId, long watermark) {
        return assignmentApplied(subtask, attemptId, watermark, AppliedAckPayload.UNKNOWN_BACKLOG);
    }

    /**
     * As {@link #assignmentApplied(int, long, long)}, with the split backlog the reader counted
     * after applying that far ({@link AppliedAckPayload#UNKNOWN_BACKLOG} if it does not count).
     */
    public OfferResult assignmentApplied(int subtask, long attemptId, long watermark, int backlog) {
        return assignmentApplied(
                subtask, attemptId, watermark, backlog, CoordinatorCore.NO_BARRIER_PROOF);
    }

    /**
     * As {@link #assignmentApplied(int, long, long, int)}, with the last barrier the reader had
     * taken when it took that state: what it applied is then in its state at any later barrier, and
     * the snapshots of later checkpoints leave it out.
     */
    public OfferResult assignmentApplied(
            int subtask, long attemptId, long watermark, int backlog, long lastBarrier) {
        return loop.offerFlowControl(
                new CoordinatorLoop.Command(
                        CoordinatorCommandType.ASSIGNMENT_APPLIED,
                        () -> core.applied(subtask, attemptId, watermark, backlog, lastBarrier)));
    }

    /**
     * Waits until the loop has run its close (the connector's enumerator {@code close()} has
     * returned or failed), at most {@code nanos}. Any thread but the loop's own.
     *
     * @return true if the loop is closed
     */
    public boolean awaitClosed(long nanos) throws InterruptedException {
        return loop.awaitClosed(nanos);
    }

    /** See {@link CoordinatorLoop#snapshot}. */
    public CompletableFuture<byte[]> snapshot(long checkpointId) {
        return loop.snapshot(checkpointId);
    }

    /** See {@link CoordinatorLoop#snapshotAndWait}. */
    public byte[] snapshotAndWait(long checkpointId) throws Exception {
        return loop.snapshotAndWait(checkpointId);
    }

    // ------------------------------------------------------------------ views

    public CoordinatorMetrics metrics() {
        return loop.metrics();
    }

    public long epoch() {
        return loop.epoch();
    }

    public LoopState state() {
        return loop.state();
    }

    /** Whether the loop is open and running commands. */
    public boolean isRunning() {
        return loop.isRunning();
    }

    /** Whether the calling thread is the one draining the loop now. */
    public boolean isOwnerThread() {
        return loop.isOwnerThread();
    }

    /** Loop only (enumerators get it from their context); exposed for hosts' own ticks. */
    public CoordinatorScheduler scheduler() {
        loop.checkOwnerThread("scheduler");
        return scheduler;
    }

    /** The context given to the enumerator. */
    public CoordinatorEnumeratorContext<SplitT> context() {
        return context;
    }

    /**
     * The tracker. Loop-owned: read it only from the loop, or when the loop is quiescent (tests,
     * benchmarks with a manual executor).
     */
    public SourceAssignmentTracker tracker() {
        return core.tracker();
    }
}
