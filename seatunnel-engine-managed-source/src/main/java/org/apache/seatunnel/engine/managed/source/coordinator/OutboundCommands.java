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

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * Turns tracker entries and controls into envelopes and hands them to the {@link
 * CommandDispatcher}: dispatches pending assignments while the tracker has room (back-pressure
 * otherwise), holds everything while restored owners are unreconciled, sends no-more-splits behind
 * a subtask's last assignment, and resends what the transport could not deliver (same command id,
 * the reader deduplicates) with the {@code retry.*} backoff of {@link RetryPolicy}. This is the one
 * retry layer of a coordinator command: the dispatcher makes one attempt per call. A command still
 * not admitted after {@code retry.max-attempts} attempts fails the coordinator ({@code
 * ManagedSourceRetriesExhausted}): its split can no longer be placed by this epoch, and the
 * pipeline restores from the last checkpoint, where the tracker still owns it.
 *
 * <p>Threading: loop-owned except {@link AckHandler}'s callbacks, which run on any thread and only
 * post a completion to the loop.
 */
final class OutboundCommands {
    private static final byte[] EMPTY = new byte[0];

    private final LoopPort loop;
    private final CommandDispatcher dispatcher;
    private final SourceAssignmentTracker tracker;
    private final ReaderRegistry readers;
    private final EnvelopeFactory envelopes;
    private final DelayScheduler timer;
    private final Clock clock;
    private final RetryPolicy retryPolicy;
    private final CoordinatorMetrics metrics;

    /** Controls (no-more-splits, cut release) not yet admitted, by command id. */
    private final Map<Long, PendingControl> controls = new HashMap<>();

    /** Subtasks whose no-more-splits status may need a send. */
    private final TreeSet<Integer> noMoreSplitsDirty = new TreeSet<>();

    OutboundCommands(
            LoopPort loop,
            CommandDispatcher dispatcher,
            SourceAssignmentTracker tracker,
            ReaderRegistry readers,
            EnvelopeFactory envelopes,
            DelayScheduler timer,
            Clock clock,
            CoordinatorConfig config,
            CoordinatorMetrics metrics) {
        this.loop = loop;
        this.dispatcher = dispatcher;
        this.tracker = tracker;
        this.readers = readers;
        this.envelopes = envelopes;
        this.timer = timer;
        this.clock = clock;
        this.retryPolicy = config.retryPolicy();
        this.metrics = metrics;
    }

    void noMoreSplitsChanged(int subtask) {
        noMoreSplitsDirty.add(subtask);
    }

    /** Runs after every command: cheap when nothing is pending. */
    void pump() {
        if (readers.holdActive()) {
            return;
        }
        if (tracker.pendingCount() > 0) {
            dispatchPending();
        }
        if (!noMoreSplitsDirty.isEmpty()) {
            sendNoMoreSplits();
        }
    }

    private void dispatchPending() {
        for (int s : tracker.subtasksWithPending()) {
            Long attempt = readers.current(s);
            if (attempt == null) {
                continue;
            }
            AssignmentEntry e;
            while ((e = tracker.peekPending(s)) != null) {
                if (!tracker.hasCapacityFor(e)) {
                    // Tracker full: stays UNASSIGNED until a completed checkpoint frees room.
                    tracker.countBackpressure(e);
                    return;
                }
                tracker.dispatched(
                        e,
                        envelopes.epoch(),
                        attempt,
                        envelopes.nextSequence(s),
                        envelopes.nextCommandId(),
                        envelopes.cutId(),
                        clock.millis());
                send(envelopes.assignment(e), new AckHandler(this, false, e.commandId(), attempt));
            }
            if (tracker.isNoMoreSplits(s)) {
                noMoreSplitsDirty.add(s);
            }
        }
    }

    private void sendNoMoreSplits() {
        for (Iterator<Integer> it = noMoreSplitsDirty.iterator(); it.hasNext(); ) {
            int s = it.next();
            if (!tracker.isNoMoreSplits(s) || tracker.hasPending(s) || tracker.hasUnadmitted(s)) {
                // Not signalled, or assignments not yet admitted ahead of it (the reader's FIFO
                // only orders what it admitted): re-marked when they are.
                it.remove();
                continue;
            }
            Long attempt = readers.current(s);
            it.remove();
            if (attempt == null || readers.noMoreSplitsSentTo(s, attempt)) {
                continue;
            }
            readers.markNoMoreSplitsSent(s, attempt);
            // Same cut as the assignments before it, so a reader cannot apply it ahead of them.
            sendControl(CommandKind.NO_MORE_SPLITS, s, attempt, envelopes.cutId(), EMPTY);
            metrics.increment(Counter.NO_MORE_SPLITS_SENT);
        }
    }

    /**
     * Checkpoint {@code checkpointId} will never be taken: tells every current reader attempt to
     * stop deferring commands of that cut. Carries cut 0 so it is never deferred itself.
     */
    void releaseCut(long checkpointId) {
        byte[] payload = LongPayload.encode(checkpointId);
        for (int s : readers.registered()) {
            sendControl(CommandKind.CHECKPOINT_ABORTED, s, readers.current(s), 0, payload);
            metrics.increment(Counter.CUT_RELEASES_SENT);
        }
    }

    /** Ephemeral coordinator → reader event: unsequenced, never retried, dropped and counted. */
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
        send(env, new AckHandler(this, true, env.commandId(), attempt));
        metrics.increment(Counter.SOURCE_EVENTS_SENT);
    }

    private void sendControl(CommandKind kind, int s, long attempt, long cut, byte[] payload) {
        SourceCommandEnvelope env =
                envelopes.control(
                        kind,
                        s,
                        attempt,
                        envelopes.nextSequence(s),
                        envelopes.nextCommandId(),
                        cut,
                        payload);
        controls.put(env.commandId(), new PendingControl(env, s, attempt));
        send(env, new AckHandler(this, false, env.commandId(), attempt));
    }

    private void send(SourceCommandEnvelope env, AckHandler handler) {
        try {
            dispatcher.dispatch(env, handler);
        } catch (RuntimeException e) {
            handler.onTransportFailure(e);
        }
    }

    // ------------------------------------------------------------------ acks (loop)

    private void onOutcome(AckHandler h, AdmissionAck ack, Throwable failure) {
        if (h.ephemeral) {
            if (failure != null || !ack.status().isAdmitted()) {
                metrics.increment(Counter.SOURCE_EVENTS_DROPPED);
            }
            return;
        }
        PendingControl c = controls.get(h.commandId);
        if (c != null) {
            onControlOutcome(c, ack, failure);
            return;
        }
        AssignmentEntry e = tracker.byCommand(h.commandId);
        if (e == null || e.attemptId() != h.attempt) {
            // Returned, collected, or addressed to an attempt reconciliation already replaced.
            metrics.increment(Counter.ASSIGNMENT_FENCED_ACKS);
            return;
        }
        if (failure != null) {
            scheduleRetry(h.commandId, e.incrementRetries(), 0);
            return;
        }
        AdmissionStatus st = ack.status();
        if (st.isAdmitted()) {
            tracker.onAdmitted(e);
            noMoreSplitsChanged(e.targetSubtask());
        } else if (st == AdmissionStatus.RETRY_LATER) {
            scheduleRetry(h.commandId, e.incrementRetries(), ack.retryAfterMillis());
        } else if (st == AdmissionStatus.STALE_TARGET || st == AdmissionStatus.TERMINAL_REJECTED) {
            // The attempt is gone; reconciliation of its successor decides where the split goes.
            metrics.increment(Counter.ASSIGNMENT_STALE_TARGET);
        } else {
            throw new IllegalStateException(
                    "reader refused an assignment: " + st + " (" + ack.reasonCode() + ")");
        }
    }

    private void onControlOutcome(PendingControl c, AdmissionAck ack, Throwable failure) {
        if (!readers.isCurrent(c.subtask, c.attempt)) {
            controls.remove(c.envelope.commandId());
            return;
        }
        if (failure != null || ack.status() == AdmissionStatus.RETRY_LATER) {
            long after = failure == null ? ack.retryAfterMillis() : 0;
            scheduleRetry(c.envelope.commandId(), ++c.retries, after);
            return;
        }
        controls.remove(c.envelope.commandId());
        AdmissionStatus st = ack.status();
        if (!st.isAdmitted()
                && st != AdmissionStatus.STALE_TARGET
                && st != AdmissionStatus.TERMINAL_REJECTED) {
            throw new IllegalStateException(
                    "reader refused a control: " + st + " (" + ack.reasonCode() + ")");
        }
    }

    private void scheduleRetry(long commandId, int retries, long retryAfterMillis) {
        long delay = retryPolicy.delayBeforeRetry(retries, retryAfterMillis);
        if (delay == RetryPolicy.EXHAUSTED) {
            metrics.increment(Counter.RETRIES_EXHAUSTED);
            throw new IllegalStateException(
                    "command "
                            + commandId
                            + " not admitted after retry.max-attempts ("
                            + retryPolicy.maxAttempts()
                            + ") attempts");
        }
        metrics.increment(Counter.ASSIGNMENT_RETRIES);
        timer.schedule(
                Duration.ofMillis(delay),
                () ->
                        loop.postCompletion(
                                CoordinatorCommandType.REDISPATCH, () -> redispatch(commandId)));
    }

    private void redispatch(long commandId) {
        if (!loop.isRunning()) {
            return;
        }
        PendingControl c = controls.get(commandId);
        if (c != null) {
            if (readers.isCurrent(c.subtask, c.attempt)) {
                send(c.envelope, new AckHandler(this, false, commandId, c.attempt));
            } else {
                controls.remove(commandId);
            }
            return;
        }
        AssignmentEntry e = tracker.byCommand(commandId);
        if (e == null
                || e.state() != AssignmentState.DISPATCHED
                || !readers.isCurrent(e.targetSubtask(), e.attemptId())) {
            return;
        }
        send(envelopes.assignment(e), new AckHandler(this, false, commandId, e.attemptId()));
    }

    /** Loop-owned record of a control awaiting admission. */
    private static final class PendingControl {
        final SourceCommandEnvelope envelope;
        final int subtask;
        final long attempt;
        int retries;

        PendingControl(SourceCommandEnvelope envelope, int subtask, long attempt) {
            this.envelope = envelope;
            this.subtask = subtask;
            this.attempt = attempt;
        }
    }

    /**
     * The admission answer of one sent command, handed back to the coordinator loop.
     *
     * <p>Threading: the callbacks run on any transport thread and only post to the loop. Immutable.
     */
    static final class AckHandler implements CommandDispatcher.AckCallback {
        private final OutboundCommands owner;
        private final boolean ephemeral;
        final long commandId;
        final long attempt;

        AckHandler(OutboundCommands owner, boolean ephemeral, long commandId, long attempt) {
            this.owner = owner;
            this.ephemeral = ephemeral;
            this.commandId = commandId;
            this.attempt = attempt;
        }

        @Override
        public void onAdmission(AdmissionAck ack) {
            owner.loop.postCompletion(
                    CoordinatorCommandType.ADMISSION_RESULT,
                    () -> owner.onOutcome(this, ack, null));
        }

        @Override
        public void onTransportFailure(Throwable cause) {
            owner.loop.postCompletion(
                    CoordinatorCommandType.ADMISSION_RESULT,
                    () -> owner.onOutcome(this, null, cause));
        }
    }
}
