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

import java.util.BitSet;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Turns tracker entries and controls into commands and hands them to the {@link CommandDispatcher},
 * within each reader's {@link ReaderCredits credit window}: a reader is sent only what its mailbox
 * admits, so a split the enumerator handed out waits, bounded, in the tracker until the reader has
 * applied enough of what it got. It asks an enumerator that implements {@code SupportSplitDemand}
 * for exactly what readers can take, packs consecutive splits of one subtask into commands of up to
 * {@code coordinator.max-splits-per-command}, holds everything while restored owners are
 * unreconciled, and sends no-more-splits behind a subtask's last assignment.
 *
 * <p>Retries are the transport's: the command sender keeps each reader's commands in order and
 * resends them until admitted. A command it gives up on (retries exhausted, deadline) fails the
 * coordinator ({@code AssignmentSendFailures}): its split can no longer be placed in this epoch,
 * and the pipeline restores from the last checkpoint, where the tracker still owns it.
 *
 * <p>Threading: loop-owned, except the dispatcher callbacks ({@link CommandAckHandler}), which run
 * on any thread and only post the answer to the loop through {@link AdmissionOutcomes}.
 */
final class OutboundCommands {
    private static final byte[] EMPTY = new byte[0];

    /** The enumerator's side of split demand. Loop only. */
    interface SplitDemand {
        /** True if the enumerator implements {@code SupportSplitDemand}. */
        boolean supported();

        /** Asks the enumerator for up to {@code maxSplits} splits for {@code subtask}. */
        void demand(int subtask, int maxSplits) throws Exception;
    }

    private final LoopPort loop;
    private final CommandDispatcher dispatcher;
    private final SourceAssignmentTracker tracker;
    private final ReaderRegistry readers;
    private final ReaderCredits credits = new ReaderCredits();
    private final EnvelopeFactory envelopes;
    private final java.time.Clock clock;
    private final CoordinatorMetrics metrics;
    private final int maxSplitsPerCommand;
    private final int maxPayloadBytes;
    private final AdmissionOutcomes outcomes;
    private SplitDemand demand;

    /** Subtasks whose dispatch, demand or no-more-splits may have changed since the last pump. */
    private final BitSet dirty = new BitSet();

    /** Subtasks whose pending splits wait for tracker room: worth a look whenever room frees. */
    private final BitSet trackerBlocked = new BitSet();

    /** Subtasks whose enumerator may have splits for them: asked when they have room. */
    private final BitSet demandArmed = new BitSet();

    /** Subtasks waiting for their reader's split window: counted once per wait. */
    private final BitSet windowWaiting = new BitSet();

    /** {@link SourceAssignmentTracker#entriesLeft()} when this last looked. */
    private long entriesLeftSeen;

    /** Set by the first command this epoch could not deliver: one failure is enough to report. */
    private boolean sendFailed;

    OutboundCommands(
            LoopPort loop,
            CommandDispatcher dispatcher,
            SourceAssignmentTracker tracker,
            ReaderRegistry readers,
            EnvelopeFactory envelopes,
            java.time.Clock clock,
            CoordinatorConfig config,
            CoordinatorMetrics metrics) {
        this.loop = loop;
        this.dispatcher = dispatcher;
        this.tracker = tracker;
        this.readers = readers;
        this.envelopes = envelopes;
        this.clock = clock;
        this.metrics = metrics;
        this.maxSplitsPerCommand = config.maxSplitsPerCommand();
        this.maxPayloadBytes = config.maxPayloadBytes();
        this.outcomes = new AdmissionOutcomes(loop, this::onOutcome);
    }

    void bindDemand(SplitDemand d) {
        this.demand = d;
    }

    // ------------------------------------------------------------------ events (loop)

    /** A reader attempt registered with its credit and split windows. */
    void registered(int subtask, long attempt, ReaderWindow window) {
        credits.register(subtask, attempt, window);
        demandArmed.set(subtask);
        dirty.set(subtask);
    }

    /**
     * {@code attempt} of {@code subtask} applied every command up to {@code watermark} (its apply
     * acknowledgement or a checkpoint report): credit returns; with a {@code backlog} (an
     * acknowledgement's), the split window is measured again.
     */
    void applied(int subtask, long attempt, long watermark, int backlog) {
        if (credits.applied(subtask, attempt, watermark, backlog)) {
            dirty.set(subtask);
        }
    }

    /** The enumerator handed {@code subtask} splits: they go out when there is room. */
    void pendingAdded(int subtask) {
        demandArmed.set(subtask);
        dirty.set(subtask);
    }

    /** Something may have given the enumerator splits for {@code subtask}: ask it again. */
    void rearmDemand(int subtask) {
        demandArmed.set(subtask);
        dirty.set(subtask);
    }

    /** As {@link #rearmDemand} for every registered reader (splits handed back, a restore). */
    void rearmDemandForAll() {
        for (int s : readers.registered()) {
            rearmDemand(s);
        }
    }

    /**
     * Subtasks waiting for tracker room get a look when entries left it (collected after an apply
     * or a completed checkpoint, proven by a report of a checkpoint already complete, or given back
     * by a reconciliation), whichever command it was.
     */
    private void lookAgainIfTrackerFreed() {
        long left = tracker.entriesLeft();
        if (left != entriesLeftSeen) {
            entriesLeftSeen = left;
            dirty.or(trackerBlocked);
            trackerBlocked.clear();
        }
    }

    void noMoreSplitsChanged(int subtask) {
        dirty.set(subtask);
    }

    /** Runs after every command: cheap when nothing changed. */
    void pump() throws Exception {
        outcomes.drainIfStranded();
        lookAgainIfTrackerFreed();
        if (readers.holdActive() || dirty.isEmpty()) {
            return;
        }
        for (int s = dirty.nextSetBit(0); s >= 0; s = dirty.nextSetBit(s + 1)) {
            dirty.clear(s);
            Long attempt = readers.current(s);
            if (attempt == null) {
                continue;
            }
            askForSplits(s);
            dispatchPending(s, attempt);
            sendNoMoreSplitsIfDue(s, attempt);
        }
    }

    /** Asks a demand-driven enumerator for what {@code s} can take now, once per change. */
    private void askForSplits(int s) throws Exception {
        if (demand == null
                || !demand.supported()
                || !demandArmed.get(s)
                || tracker.isNoMoreSplits(s)) {
            return;
        }
        long room = (long) credits.freeCommands(s) * maxSplitsPerCommand;
        long trackerRoom =
                Math.min(
                        (long) tracker.assignmentRoom(s) * maxSplitsPerCommand,
                        tracker.unassignedRoom());
        if (trackerRoom <= 0) {
            // Asked again when the tracker frees room (credit returns by itself: an apply).
            if (!trackerBlocked.get(s)) {
                metrics.increment(Counter.SPLIT_DEMANDS_HELD);
                trackerBlocked.set(s);
            }
            return;
        }
        long window = credits.splitRoom(s);
        room = Math.min(Math.min(room, trackerRoom), window) - tracker.pendingCount(s);
        if (room <= 0) {
            // Asked again when the reader reports room (an acknowledgement) or credit returns.
            if (window - tracker.pendingCount(s) <= 0) {
                countWindowWait(s);
            }
            return;
        }
        windowWaiting.clear(s);
        // Re-armed by whatever the enumerator assigns to s while it runs.
        demandArmed.clear(s);
        metrics.increment(Counter.SPLIT_DEMANDS);
        demand.demand(s, (int) room);
        if (!demandArmed.get(s)) {
            metrics.increment(Counter.SPLIT_DEMANDS_UNANSWERED);
        }
    }

    private void dispatchPending(int s, long attempt) {
        while (tracker.hasPending(s)) {
            long first = AssignmentPayload.encodedSize(1, tracker.firstPendingLength(s));
            if (!credits.canSend(s, first)) {
                metrics.increment(Counter.CREDIT_WAITS);
                return;
            }
            int window = credits.splitRoom(s);
            if (window <= 0) {
                countWindowWait(s);
                return;
            }
            int n =
                    tracker.dispatchable(
                            s,
                            Math.min(maxSplitsPerCommand, window),
                            Math.min(maxPayloadBytes, credits.freeBytes(s)));
            if (n == 0) {
                tracker.countBackpressure(s);
                trackerBlocked.set(s);
                return;
            }
            long seq = envelopes.nextSequence(s);
            TrackedAssignment c =
                    tracker.dispatched(
                            s,
                            n,
                            envelopes.epoch(),
                            attempt,
                            seq,
                            envelopes.nextCommandId(),
                            envelopes.cutId(),
                            clock.millis());
            SourceCommandEnvelope env = envelopes.assignment(c);
            credits.sent(s, seq, env.payloadLength(), n);
            send(env, new CommandAckHandler(outcomes, false, c.commandId(), s, attempt));
        }
    }

    private void sendNoMoreSplitsIfDue(int s, long attempt) {
        if (!tracker.isNoMoreSplits(s)
                || tracker.hasPending(s)
                || readers.noMoreSplitsSentTo(s, attempt)) {
            return;
        }
        if (!credits.canSend(s, 0)) {
            metrics.increment(Counter.CREDIT_WAITS);
            return;
        }
        readers.markNoMoreSplitsSent(s, attempt);
        // Behind the subtask's assignments in its ordered stream, with the same cut, so a reader
        // applies it after them: the transport never lets it overtake one.
        long seq = envelopes.nextSequence(s);
        SourceCommandEnvelope env =
                envelopes.control(
                        CommandKind.NO_MORE_SPLITS,
                        s,
                        attempt,
                        seq,
                        envelopes.nextCommandId(),
                        envelopes.cutId(),
                        EMPTY);
        credits.sent(s, seq, 0, 0);
        send(env, new CommandAckHandler(outcomes, false, env.commandId(), s, attempt));
        metrics.increment(Counter.NO_MORE_SPLITS_SENT);
    }

    /**
     * Checkpoint {@code checkpointId} will never be taken: tells every current reader attempt to
     * stop deferring commands of that cut. Unsequenced and on its own lane (a release only raises a
     * watermark, so it needs no order with the assignments), with cut 0 so it is never deferred
     * itself, and in the mailbox's reserved capacity.
     */
    void releaseCut(long checkpointId) {
        byte[] payload = LongPayload.encode(checkpointId);
        for (int s : readers.registered()) {
            long attempt = readers.current(s);
            SourceCommandEnvelope env =
                    envelopes.control(
                            CommandKind.CHECKPOINT_ABORTED,
                            s,
                            attempt,
                            0,
                            envelopes.nextCommandId(),
                            0,
                            payload);
            send(env, new CommandAckHandler(outcomes, false, env.commandId(), s, attempt));
            metrics.increment(Counter.CUT_RELEASES_SENT);
        }
    }

    /**
     * Ephemeral coordinator → reader event: unsequenced, behind the assignments sent before it,
     * dropped and counted if it cannot be delivered.
     */
    void sendEvent(int subtask, byte[] payload) {
        Long attempt = readers.current(subtask);
        if (attempt == null) {
            metrics.increment(Counter.SOURCE_EVENTS_DROPPED);
            return;
        }
        SourceCommandEnvelope env =
                envelopes.control(
                        CommandKind.SOURCE_EVENT,
                        subtask,
                        attempt,
                        0,
                        envelopes.nextCommandId(),
                        envelopes.cutId(),
                        payload);
        send(env, new CommandAckHandler(outcomes, true, env.commandId(), subtask, attempt));
        metrics.increment(Counter.SOURCE_EVENTS_SENT);
    }

    private void send(SourceCommandEnvelope env, CommandAckHandler handler) {
        if (FaultSeam.INSTALLED != null && injectedAtCreation(env, handler)) {
            return;
        }
        try {
            dispatcher.dispatch(env, handler);
        } catch (RuntimeException e) {
            handler.onTransportFailure(e);
        }
    }

    /** Fault point 1; true if the command is not to be sent. Tests only. */
    private static boolean injectedAtCreation(
            SourceCommandEnvelope env, CommandAckHandler handler) {
        FaultAction f =
                FaultSeam.at(
                        FaultSite.COMMAND_CREATION,
                        env.jobId(),
                        env.targetSubtask(),
                        env.commandKind().name());
        if (f == FaultAction.CRASH) {
            throw new InjectedFaultException(FaultSite.COMMAND_CREATION, f);
        }
        if (f == FaultAction.LOSE) {
            handler.onTransportFailure(new InjectedFaultException(FaultSite.COMMAND_CREATION, f));
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ views (loop)

    /** Sequenced commands in flight to readers and not yet known applied. */
    long outstandingCommands() {
        return credits.outstandingCommands();
    }

    /** Their payload bytes. */
    long outstandingBytes() {
        return credits.outstandingBytes();
    }

    /**
     * {commands, bytes} in flight to {@code subtask}'s current attempt and {reported backlog,
     * splits sent since} of its split window.
     */
    long[] outstanding(int subtask) {
        return credits.used(subtask);
    }

    private void countWindowWait(int s) {
        if (!windowWaiting.get(s)) {
            windowWaiting.set(s);
            metrics.increment(Counter.SPLIT_WINDOW_WAITS);
        }
    }

    // ------------------------------------------------------------------ answers (loop)

    private void onOutcome(AdmissionOutcomes.Outcome o) {
        if (!loop.isRunning()) {
            return;
        }
        if (o.ephemeral) {
            if (o.failure != null || !o.ack.status().isAdmitted()) {
                metrics.increment(Counter.SOURCE_EVENTS_DROPPED);
            }
            return;
        }
        if (!readers.isCurrent(o.subtask, o.attempt)) {
            // Addressed to an attempt reconciliation already replaced.
            metrics.increment(Counter.ASSIGNMENT_FENCED_ACKS);
            return;
        }
        AdmissionStatus st = o.failure == null ? o.ack.status() : null;
        if (st != null && st.isAdmitted()) {
            tracker.onAdmitted(o.commandId);
            return;
        }
        if (st == AdmissionStatus.STALE_TARGET || st == AdmissionStatus.TERMINAL_REJECTED) {
            // The attempt is gone; reconciliation of its successor decides where the split goes.
            metrics.increment(Counter.ASSIGNMENT_STALE_TARGET);
            return;
        }
        metrics.increment(Counter.ASSIGNMENT_SEND_FAILURES);
        if (sendFailed) {
            return;
        }
        sendFailed = true;
        String what =
                o.failure != null ? o.failure.toString() : st + " (" + o.ack.reasonCode() + ")";
        throw new IllegalStateException(
                "command "
                        + o.commandId
                        + " to reader subtask "
                        + o.subtask
                        + " was not admitted: "
                        + what,
                o.failure);
    }
}
