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

package org.apache.seatunnel.engine.managed.source.reader;

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.util.List;
import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single owner of one Lane A reader attempt's checkpoint-visible state (invariant 1). It has no
 * thread of its own (invariant 14): a host calls {@link #runOnce()} from the task's thread and
 * {@link #runControls()} when the engine demands a barrier, and guarantees that never two calls
 * overlap (the Zeta host holds the engine's checkpoint lock around every call, so a barrier can
 * only fall between iterations — invariant 5).
 *
 * <p>Threading: {@link #runOnce()}, {@link #runControls()}, {@link #hasWork()}, {@link
 * #nanosUntilIdlePoll()}, {@link #start}, {@link #close()} — one driving thread at a time, mutually
 * excluded by the host. {@link #checkTurnBudget()} and the gauges — any thread (the watchdog;
 * checks are serialized). Turn budgets are watched by the attempt's {@link TurnWatch}, which a host
 * attaches to the member-wide {@link TurnWatchdog}.
 *
 * <p>One iteration, in order:
 *
 * <ol>
 *   <li>terminal signal: preempts everything; the mailbox already called {@code wakeup()};
 *   <li>ordered controls in strict mailbox-sequence order, barriers included; a command stamped
 *       with coordinator cut N is held by the {@link CheckpointCutGate} until this reader has taken
 *       its own barrier N (hazard 1), and counts against the mailbox bound while held;
 *   <li>coalesced availability completions;
 *   <li>at most one bounded poll turn;
 *   <li>observability is passive counters read by others.
 * </ol>
 *
 * <p>After a turn reports {@code NOTHING_AVAILABLE} the loop polls again when the reader's
 * availability future completes, after every applied command, and at the latest {@code
 * reader.idle-wait} later, so a reader whose future never completes is slow, not stalled. With
 * {@code reader.poll-linger} a completed future is acted on no sooner than the linger after that
 * turn (commands still at once), so data that trickles in leaves in fewer turns. A turn that then
 * produces records although the future is still incomplete (and no split, no-more-splits or source
 * event came in between, which may make data available without it) is counted and reported once per
 * attempt. Soft-budget overruns are reported at most once a minute, emitting past the record budget
 * once per attempt; warnings name the reader by its {@link ReaderIdentity}.
 *
 * <p>Failure policy: a connector exception fails the attempt with {@code CONNECTOR_FAILURE}, except
 * an interrupt (the engine interrupts task threads when it cancels or restarts a pipeline), which
 * ends it as a cancel and keeps the thread's interrupt flag; a failure signalled first (such as the
 * watchdog's {@code POLL_CANCELLATION_TIMEOUT}) is never replaced.
 *
 * <p>Schema change is a sub-state ({@link SchemaChangeGate}): when the connector marks a change
 * through its turn's collector the turn yields, the host is asked for a schema-change checkpoint,
 * the next barrier taken is bound to the change, and no poll turn runs until that checkpoint
 * completed. End of input reported meanwhile is latched and entered when the change completes.
 *
 * <p>At a barrier every command admitted before it and not held by the cut rule is applied first,
 * then the reader and the runtime cut are snapshotted, and only then does the host register,
 * acknowledge and forward (invariant 4). Coordinator commands are applied at most once per attempt
 * through the {@link AppliedCommandLedger} (invariant 6).
 *
 * <p>With {@code reader.off-loop-check} ({@link #setOffLoopCheck}) the state of a sampled barrier
 * is kept serialized and compared with the reader's state at the next call into the reader (a turn,
 * a command, a checkpoint callback: snapshotted first) or with the next barrier's state, whichever
 * comes first; then, for a few windows more, the state a call left with the state at the next call
 * (see {@link OffLoopStateCheck}). Nothing ran in the reader in between, so a difference means
 * another thread moved checkpoint-visible state; it is counted and reported once per attempt, and
 * the attempt goes on. With the check off, each of those call sites reads one field that stays
 * false.
 */
public final class ReaderEventLoop<T, SplitT extends SourceSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderEventLoop.class);
    private static final int MAX_CAUSE_DEPTH = 16;

    private final ReaderMailbox mailbox;
    private final ReaderIdentity identity;
    private final ManagedSourceReader<T, SplitT> reader;
    private final ReaderLoopHost<SplitT> host;
    private Collector<T> output;
    private final PollBudget budget;
    private final NanoClock clock;
    private final ReaderLoopMetrics metrics;
    private final ReaderContractReports reports;
    private final AppliedCommandLedger ledger;
    private final PollTurn<T> turn;
    private final CheckpointCutGate cutGate;
    private final CheckpointCutGate.Applier applyReleased;
    private final SchemaChangeGate schema;
    private final PollScheduler polls;

    private ReaderLifecycle lifecycle = ReaderLifecycle.CREATED;
    private long lastCompleteNotified;
    private long noMoreSplitsGeneration;
    private boolean noMoreSplitsApplied;
    private long lastProcessedBarrier;
    // How the last barrier runControls took ended; handed out (and cleared) by
    // runControlsUntilBarrier on the same thread and call.
    private BarrierResult lastBarrierResult;
    private boolean endOfInput;
    // END_OF_INPUT reported while a schema change was in progress: entered when it completes.
    private boolean endOfInputLatched;
    private TerminalSignal handledTerminal;

    // reader.off-loop-check: null while off. offLoopPending is true while a window of a sample is
    // open (from a sampled barrier or a call's return to the next call into the reader), so with
    // the check off every call site costs one read of a field that is always false.
    private OffLoopStateCheck<SplitT> offLoop;
    private boolean offLoopPending;

    // Times this attempt's turns for the watchdog (hard budget, cancellation timeout).
    private final TurnWatch watch;
    private volatile Runnable cancellationTimeoutHook = () -> {};

    /** A loop whose reader is named only by job id and subtask (test drivers, benchmarks). */
    public ReaderEventLoop(
            ReaderMailbox mailbox,
            ManagedSourceReader<T, SplitT> reader,
            ReaderLoopHost<SplitT> host,
            Collector<T> output,
            PollBudget budget,
            ToLongFunction<T> recordSizer,
            ReaderLoopMetrics metrics) {
        this(
                mailbox,
                ReaderIdentity.unnamed(mailbox.jobId(), mailbox.subtask()),
                reader,
                host,
                output,
                budget,
                recordSizer,
                metrics);
    }

    public ReaderEventLoop(
            ReaderMailbox mailbox,
            ReaderIdentity identity,
            ManagedSourceReader<T, SplitT> reader,
            ReaderLoopHost<SplitT> host,
            Collector<T> output,
            PollBudget budget,
            ToLongFunction<T> recordSizer,
            ReaderLoopMetrics metrics) {
        this.mailbox = mailbox;
        this.identity = identity;
        this.reader = reader;
        this.host = host;
        this.output = output;
        this.budget = budget;
        this.clock = mailbox.clock();
        this.metrics = metrics;
        this.reports = new ReaderContractReports(identity, mailbox.attemptId(), budget, metrics);
        this.ledger = new AppliedCommandLedger(mailbox.limits().maxSequenceGaps());
        this.schema =
                new SchemaChangeGate(
                        identity, clock, metrics, SchemaChangeGate.DEFAULT_TIMEOUT_NANOS);
        this.turn =
                new PollTurn<>(
                        budget,
                        clock,
                        mailbox,
                        recordSizer,
                        schema,
                        metrics,
                        metrics.unsizedRecords);
        this.polls = new PollScheduler(mailbox, clock, budget, metrics);
        this.cutGate = new CheckpointCutGate(clock, budget.cutHoldNanos());
        this.applyReleased = this::apply;
        this.watch = new TurnWatch(budget, clock, new WatchedOverrun());
        mailbox.setWakeupHook(reader::wakeup);
    }

    /**
     * The contiguous applied watermark of coordinator epoch {@code epoch}: every command of it up
     * to this sequence was applied by this attempt. Driving thread only (the loop's callbacks).
     */
    public long appliedWatermark(long epoch) {
        return ledger.watermark(epoch);
    }

    /** This attempt's turn watch; the host attaches it to the member's {@link TurnWatchdog}. */
    public TurnWatch turnWatch() {
        return watch;
    }

    /**
     * Binds the engine's collector; the engine passes it to every {@code pollNext}, so the host
     * binds it before each iteration (a field write).
     */
    public void bindOutput(Collector<T> output) {
        this.output = output;
    }

    /**
     * Sets the gate that tells poll turns how much room the output has (see {@link OutputGate});
     * driving thread, between iterations.
     */
    public void setOutputGate(OutputGate gate) {
        turn.setOutputGate(gate);
    }

    /** Called by the watchdog when a turn overruns the cancellation timeout (e.g. interrupt T). */
    public void setCancellationTimeoutHook(Runnable hook) {
        this.cancellationTimeoutHook = hook == null ? () -> {} : hook;
    }

    /**
     * Opens the reader. {@code restoredCheckpointId} is the checkpoint this attempt restores from
     * (0 for a fresh start): commands cut at or before it are not held.
     */
    public void start(long restoredCheckpointId) throws Exception {
        cutGate.start(restoredCheckpointId);
        lastCompleteNotified = restoredCheckpointId;
        reader.open();
        transition(ReaderLifecycle.RUNNING);
    }

    /** One iteration; see the class comment for its steps. */
    public LoopStatus runOnce() {
        LoopStatus s = runControls();
        if (s == LoopStatus.TERMINATED) {
            return s;
        }
        boolean due = polls.due();
        if (lifecycle == ReaderLifecycle.RUNNING && due && schema.phase().allowsPolling()) {
            pollTurn();
            if (mailbox.terminalSignal() != null) {
                return handleTerminal();
            }
            return endOfInput ? LoopStatus.FINISHED : LoopStatus.BUSY;
        }
        if (endOfInput) {
            return LoopStatus.FINISHED;
        }
        return polls.pendingWork() ? LoopStatus.BUSY : LoopStatus.IDLE;
    }

    /**
     * True if the next {@link #runOnce()} would poll the reader or apply a command: the last turn
     * reported more available, or a command or availability is waiting. False after a turn that
     * reported {@code NOTHING_AVAILABLE} with nothing come in since, so a host that has already
     * emitted rows in this call can leave instead of running an iteration that only finds the loop
     * idle. Driving thread only.
     */
    public boolean hasWork() {
        return polls.hasWork();
    }

    /**
     * Nanoseconds until the loop polls an idle reader again although nothing signalled it ({@code
     * reader.idle-wait} after its last {@code NOTHING_AVAILABLE}), 0 if due, {@code Long.MAX_VALUE}
     * if no such poll is pending. A host that waits for a signal waits at most this long.
     */
    public long nanosUntilIdlePoll() {
        return polls.nanosUntilIdlePoll(
                lifecycle == ReaderLifecycle.RUNNING && schema.phase().allowsPolling());
    }

    /**
     * Terminal check and ordered controls only, no poll turn: what the host runs when the engine
     * demands a barrier outside {@code pollNext}.
     */
    public LoopStatus runControls() {
        if (lifecycle == ReaderLifecycle.CLOSED) {
            return LoopStatus.TERMINATED;
        }
        if (mailbox.terminalSignal() != null) {
            return handleTerminal();
        }
        for (SourceCommandEnvelope env = mailbox.poll(); env != null; env = mailbox.poll()) {
            boolean reserved = mailbox.lastReserved();
            long admitted = mailbox.lastAdmittedNanos();
            if (env.commandKind() == CommandKind.CHECKPOINT_BARRIER) {
                mailbox.complete(env, reserved);
                lastBarrierResult = barrier(LocalCommands.checkpointIdOf(env));
            } else if (cutGate.holdIfPastCut(env, reserved, admitted)) {
                metrics.cutDeferrals.incrementAndGet();
            } else {
                apply(env, reserved, admitted);
            }
            if (mailbox.terminalSignal() != null) {
                return handleTerminal();
            }
        }
        checkHoldTimeout();
        checkSchemaChangeTimeout();
        if (mailbox.terminalSignal() != null) {
            return handleTerminal();
        }
        return endOfInput ? LoopStatus.FINISHED : LoopStatus.BUSY;
    }

    /**
     * Runs controls until barrier {@code checkpointId} has been taken. Only a producer caught
     * between claiming an earlier sequence and publishing it can delay the barrier; that window is
     * a few instructions, so the wait yields and is bounded by {@code maxWaitNanos}.
     *
     * @return how barrier {@code checkpointId} ended; {@link BarrierResult#failed} without a cause
     *     if this call did not reach it
     */
    public BarrierResult runControlsUntilBarrier(long checkpointId, long maxWaitNanos) {
        long deadline = clock.nanoTime() + maxWaitNanos;
        lastBarrierResult = null;
        for (; ; ) {
            LoopStatus status = runControls();
            if (lastProcessedBarrier >= checkpointId) {
                BarrierResult r = lastBarrierResult;
                lastBarrierResult = null;
                return r != null && r.checkpointId() == checkpointId
                        ? r
                        : BarrierResult.failed(checkpointId, null);
            }
            if (status == LoopStatus.TERMINATED
                    || !mailbox.hasClaimedUnpublished()
                    || clock.nanoTime() - deadline >= 0) {
                lastBarrierResult = null;
                return BarrierResult.failed(checkpointId, null);
            }
            Thread.yield();
        }
    }

    private BarrierResult barrier(long checkpointId) {
        lastProcessedBarrier = Math.max(lastProcessedBarrier, checkpointId);
        if (mailbox.terminalSignal() != null || !lifecycle.acceptsBarriers()) {
            return barrierFailed(
                    checkpointId,
                    new IllegalStateException(
                            "reader attempt " + mailbox.attemptId() + " is " + lifecycle));
        }
        // Held commands cut before this barrier belong to this checkpoint.
        cutGate.release(checkpointId - 1, applyReleased, mailbox);
        if (mailbox.terminalSignal() != null) {
            return barrierFailed(checkpointId, new IllegalStateException("terminated"));
        }
        List<SplitT> state;
        try {
            state = reader.snapshotState(checkpointId);
        } catch (Throwable e) {
            BarrierResult failed = barrierFailed(checkpointId, e);
            failConnector(e);
            return failed;
        }
        ReaderCheckpointCut cut =
                new ReaderCheckpointCut(
                        checkpointId,
                        mailbox.attemptId(),
                        ledger.watermarks(),
                        ledger.appliedAboveWatermark(),
                        noMoreSplitsGeneration);
        ReaderSnapshot snapshot;
        try {
            snapshot = host.onCheckpoint(checkpointId, state, cut);
        } catch (Throwable e) {
            return barrierFailed(checkpointId, e);
        }
        metrics.checkpoints.incrementAndGet();
        if (offLoop != null) {
            offLoopPending = offLoop.atBarrier(checkpointId, state, offLoopPending);
        }
        cutGate.barrierTaken(checkpointId);
        try {
            schema.barrierTaken(checkpointId);
        } catch (SchemaChangeRefusedException e) {
            fail(ReasonCode.SCHEMA_CHANGE_FAILED, e);
        }
        // A barrier is a command too: an idle reader is polled after it.
        polls.want();
        cutGate.release(cutGate.releasedCut(), applyReleased, mailbox);
        return BarrierResult.taken(checkpointId, snapshot);
    }

    private BarrierResult barrierFailed(long checkpointId, Throwable cause) {
        host.onCheckpointFailed(checkpointId, cause);
        return BarrierResult.failed(checkpointId, cause);
    }

    /**
     * reader.off-loop-check before a call into the reader while a window is open: closes it, true
     * if the state was unchanged and the sample watches the window after the call.
     */
    private boolean offLoopUnchanged() {
        offLoopPending = false;
        return offLoop.unchangedBeforeCall();
    }

    private void forgetOffLoop() {
        offLoopPending = false;
        if (offLoop != null) {
            offLoop.forget();
        }
    }

    private void checkHoldTimeout() {
        long overdueCut = cutGate.overdueCut();
        if (overdueCut >= 0) {
            fail(
                    ReasonCode.CUT_HOLD_TIMEOUT,
                    new IllegalStateException(
                            "a command cut at coordinator checkpoint "
                                    + overdueCut
                                    + " waited longer than reader.cut-hold-timeout for this"
                                    + " reader's barrier; failing the attempt so the job restores"
                                    + " rather than risk a duplicate split"));
        }
    }

    private void apply(SourceCommandEnvelope env, boolean reserved, long admittedNanos) {
        boolean acknowledge = false;
        try {
            boolean ledgered = env.commandId() > 0 && env.senderSequence() > 0;
            if (ledgered && !firstApplication(env)) {
                return;
            }
            switch (env.commandKind()) {
                case SPLIT_ASSIGNMENT:
                case NO_MORE_SPLITS:
                case SOURCE_EVENT:
                    applyCoordinatorCommand(env);
                    break;
                case CHECKPOINT_COMPLETE:
                    long done = LocalCommands.checkpointIdOf(env);
                    // Repeats after restore are normal in Zeta 2.3.8: one effect per id.
                    if (done > lastCompleteNotified) {
                        lastCompleteNotified = done;
                        boolean watching = offLoopPending && offLoopUnchanged();
                        reader.notifyCheckpointComplete(done);
                        if (watching) {
                            offLoopPending = offLoop.rearm();
                        }
                    }
                    schemaCheckpointCompleted(done);
                    break;
                case CHECKPOINT_ABORTED:
                    long aborted = LocalCommands.checkpointIdOf(env);
                    if (cutGate.aborted(aborted)) {
                        cutGate.release(cutGate.releasedCut(), applyReleased, mailbox);
                    }
                    boolean watching = offLoopPending && offLoopUnchanged();
                    reader.notifyCheckpointAborted(aborted);
                    if (watching) {
                        offLoopPending = offLoop.rearm();
                    }
                    schemaCheckpointAborted(aborted);
                    break;
                case GRACEFUL_CLOSE:
                    if (lifecycle == ReaderLifecycle.RUNNING) {
                        transition(ReaderLifecycle.DRAINING);
                        LOG.info(
                                "Reader attempt {} of {} closes gracefully: no further poll turns",
                                mailbox.attemptId(),
                                identity);
                    }
                    break;
                default:
                    LOG.warn(
                            "Reader attempt {} ignored a {} command it does not handle",
                            mailbox.attemptId(),
                            env.commandKind());
            }
            if (ledgered) {
                acknowledge = recordApplied(env);
            }
            // Every applied command earns an idle reader a poll: a reader that never completes
            // its availability future still makes progress at the pace of its commands.
            polls.want();
            metrics.commandsApplied.incrementAndGet();
            metrics.queueWaitNanos.addAndGet(clock.nanoTime() - admittedNanos);
        } catch (Throwable e) {
            failConnector(e);
        } finally {
            mailbox.complete(env, reserved);
        }
        if (acknowledge) {
            // After its slot is free: the coordinator sends the next command on this answer.
            host.onApplied(env);
        }
    }

    /**
     * Exactly-once apply per attempt for sequenced coordinator commands (positive ids and
     * sequences). Local commands have negative ids and are never redelivered; source events carry
     * sequence 0 because they are ephemeral and not part of the checkpointed watermark.
     */
    private boolean firstApplication(SourceCommandEnvelope env) {
        if (ledger.isApplied(env.coordinatorEpoch(), env.senderSequence())) {
            metrics.duplicatesSkipped.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Records the application in the ledger; false (and the attempt failed) past its bound. */
    private boolean recordApplied(SourceCommandEnvelope env) {
        if (!ledger.markApplied(env.coordinatorEpoch(), env.senderSequence())) {
            fail(
                    ReasonCode.LEDGER_GAPS_EXCEEDED,
                    new IllegalStateException(
                            "coordinator epoch "
                                    + env.coordinatorEpoch()
                                    + " left more out-of-order sequences than the ledger bound"));
            return false;
        }
        return true;
    }

    /** Fault points 5 and 6, tests only: the attempt fails as a connector failure would. */
    private void crashIfInjected(FaultSite site, SourceCommandEnvelope env) {
        if (FaultSeam.at(site, env.jobId(), env.targetSubtask(), env.commandKind().name())
                == FaultAction.CRASH) {
            throw new InjectedFaultException(site, FaultAction.CRASH);
        }
    }

    private void applyCoordinatorCommand(SourceCommandEnvelope env) throws Exception {
        polls.dataCommandApplied();
        boolean watching = offLoopPending && offLoopUnchanged();
        callCoordinatorCommand(env);
        if (watching) {
            offLoopPending = offLoop.rearm();
        }
    }

    private void callCoordinatorCommand(SourceCommandEnvelope env) throws Exception {
        switch (env.commandKind()) {
            case SPLIT_ASSIGNMENT:
                List<SplitT> splits = host.decodeSplits(env);
                if (FaultSeam.INSTALLED != null) {
                    crashIfInjected(FaultSite.CONNECTOR_APPLY_BEFORE_RETURN, env);
                }
                reader.addSplits(splits);
                if (FaultSeam.INSTALLED != null) {
                    crashIfInjected(FaultSite.APPLY_COMPLETION, env);
                }
                polls.want();
                break;
            case NO_MORE_SPLITS:
                noMoreSplitsGeneration = Math.max(noMoreSplitsGeneration, env.coordinatorEpoch());
                if (!noMoreSplitsApplied) {
                    noMoreSplitsApplied = true;
                    reader.handleNoMoreSplits();
                }
                polls.want();
                break;
            default:
                reader.handleSourceEvent(host.decodeSourceEvent(env));
                polls.want();
        }
    }

    /**
     * One bounded turn. The common outcome (records flowed, more available) stays on a short path;
     * accounting for measured turns and the rarer outcomes live in their own methods so that the
     * compiled hot path stays small and is not recompiled when a rare branch is first taken.
     */
    private void pollTurn() {
        boolean watching = offLoopPending && offLoopUnchanged();
        boolean afterQuiet = polls.turnStarting();
        turn.begin(output);
        watch.turnStarted();
        PollStatus status;
        try {
            status = reader.pollNextManaged(turn, turn);
        } catch (Throwable e) {
            watch.turnEnded();
            failConnector(e);
            return;
        }
        watch.turnEnded();
        if (watching) {
            offLoopPending = offLoop.rearm();
        }
        if (schema.phase() == SchemaChangePhase.QUIESCING) {
            schemaTurnEnded();
        }
        long took = turn.end();
        // One driver at a time (the host's exclusion gives happens-before between drivers), so
        // ordered stores suffice where an atomic add per turn would cost more.
        metrics.pollTurns.lazySet(metrics.pollTurns.get() + 1);
        metrics.records.lazySet(metrics.records.get() + turn.emitted());
        metrics.bytes.lazySet(metrics.bytes.get() + turn.emittedBytes());
        if (took != PollTurn.NOT_STARTED) {
            countMeasuredTurn(took);
        }
        host.onTurnEnded();
        if (turn.emitted() > budget.maxRecords()) {
            reports.recordBudgetOverrun(turn.emitted());
        }
        if (afterQuiet && polls.emittedUnsignalled(turn.emitted())) {
            reports.availabilityNotSignalled();
        }
        if (status == PollStatus.MORE_AVAILABLE || status == null) {
            polls.want();
        } else {
            afterQuietTurn(status);
        }
    }

    private void countMeasuredTurn(long took) {
        metrics.pollNanos.lazySet(metrics.pollNanos.get() + took * turn.turnsMeasured());
        if (took > budget.softNanos()) {
            reports.softOverrun(took, clock.nanoTime());
        }
    }

    private void afterQuietTurn(PollStatus status) {
        polls.quiet();
        watch.quiet();
        if (status == PollStatus.NOTHING_AVAILABLE) {
            polls.arm(reader.isAvailable());
        } else if (!schema.phase().allowsPolling()) {
            endOfInputLatched = true;
        } else {
            enterEndOfInput();
        }
    }

    private void enterEndOfInput() {
        endOfInput = true;
        transition(ReaderLifecycle.DRAINING);
        host.onEndOfInput();
    }

    /** The turn that marked a schema change returned: ask the host for its checkpoint. */
    private void schemaTurnEnded() {
        long epoch = schema.turnEnded();
        try {
            host.onSchemaChangeRequested(schema.mark(), epoch);
        } catch (Throwable e) {
            try {
                schema.triggerFailed(epoch, e);
            } catch (SchemaChangeRefusedException refused) {
                fail(ReasonCode.SCHEMA_CHANGE_FAILED, refused);
            }
        }
    }

    private void schemaCheckpointCompleted(long checkpointId) {
        boolean ended;
        try {
            ended = schema.checkpointCompleted(checkpointId);
        } catch (SchemaChangeRefusedException e) {
            fail(ReasonCode.SCHEMA_CHANGE_FAILED, e);
            return;
        }
        if (ended) {
            polls.want();
            if (endOfInputLatched && lifecycle == ReaderLifecycle.RUNNING) {
                endOfInputLatched = false;
                enterEndOfInput();
            }
        }
    }

    private void schemaCheckpointAborted(long checkpointId) {
        try {
            schema.checkpointAborted(checkpointId);
        } catch (SchemaChangeRefusedException e) {
            fail(ReasonCode.SCHEMA_CHANGE_FAILED, e);
        }
    }

    private void checkSchemaChangeTimeout() {
        try {
            schema.checkTimeout();
        } catch (SchemaChangeRefusedException e) {
            fail(ReasonCode.SCHEMA_CHANGE_FAILED, e);
        }
    }

    /**
     * Watchdog check, any thread, one at a time: see {@link TurnWatch#check()}. Past the hard
     * budget the reader is woken once; past the cancellation timeout the attempt is failed and the
     * host's hook (which interrupts the task thread) runs.
     */
    public void checkTurnBudget() {
        watch.check();
    }

    /** The loop's answers to overrunning turns; runs on the checking thread. */
    private final class WatchedOverrun implements TurnWatch.Overrun {
        @Override
        public void hardBudgetExceeded() {
            metrics.hardWakeups.incrementAndGet();
            reader.wakeup();
        }

        @Override
        public void cancellationTimeout(long elapsedNanos) {
            if (mailbox.terminate(
                    TerminalSignal.fatal(
                            ReasonCode.POLL_CANCELLATION_TIMEOUT,
                            reports.cancellationTimeoutCause()))) {
                reports.cancellationTimeout(elapsedNanos);
                cancellationTimeoutHook.run();
            }
        }
    }

    private void fail(ReasonCode reason, Throwable cause) {
        mailbox.terminate(TerminalSignal.fatal(reason, cause));
    }

    /**
     * A connector call threw. An interrupt is the engine cancelling or restarting the task (or the
     * watchdog, whose fatal signal is already set and wins): the attempt ends as a cancel and the
     * thread stays interrupted for the engine to see. Anything else is a connector failure.
     */
    private void failConnector(Throwable e) {
        if (isInterrupt(e)) {
            Thread.currentThread().interrupt();
            mailbox.terminate(TerminalSignal.cancel());
        } else {
            fail(ReasonCode.CONNECTOR_FAILURE, e);
        }
    }

    static boolean isInterrupt(Throwable e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        Throwable t = e;
        for (int depth = 0; t != null && depth < MAX_CAUSE_DEPTH; depth++) {
            if (t instanceof InterruptedException
                    || t instanceof ClosedByInterruptException
                    || (t instanceof InterruptedIOException
                            && !(t instanceof SocketTimeoutException))) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }

    private LoopStatus handleTerminal() {
        TerminalSignal t = mailbox.terminalSignal();
        if (handledTerminal == null && t != null) {
            handledTerminal = t;
            forgetOffLoop();
            schema.fence();
            watch.quiet();
            ReaderLifecycle next =
                    t.kind() == TerminalSignal.Kind.CANCEL
                            ? ReaderLifecycle.CANCELLING
                            : ReaderLifecycle.FAILED;
            if (lifecycle.canTransitionTo(next)) {
                transition(next);
            }
            LOG.info("Reader attempt {} of {} terminated: {}", mailbox.attemptId(), identity, t);
        }
        return LoopStatus.TERMINATED;
    }

    /** Closes the reader once and releases the mailbox. Idempotent. */
    public void close() throws Exception {
        if (lifecycle == ReaderLifecycle.CLOSED) {
            return;
        }
        transition(ReaderLifecycle.CLOSED);
        forgetOffLoop();
        watch.quiet();
        watch.detach();
        cutGate.discard(mailbox);
        mailbox.close();
        reader.close();
    }

    private void transition(ReaderLifecycle next) {
        if (lifecycle == next) {
            return;
        }
        if (!lifecycle.canTransitionTo(next)) {
            throw new IllegalStateException(
                    "reader attempt "
                            + mailbox.attemptId()
                            + ": illegal lifecycle transition "
                            + lifecycle
                            + " -> "
                            + next);
        }
        LOG.debug(
                "Reader attempt {} (subtask {}): {} -> {}",
                mailbox.attemptId(),
                mailbox.subtask(),
                lifecycle,
                next);
        lifecycle = next;
    }

    public ReaderLifecycle lifecycle() {
        return lifecycle;
    }

    public TerminalSignal terminalSignal() {
        return mailbox.terminalSignal();
    }

    /**
     * The schema-change sub-state machine of this attempt; read its {@link SchemaChangeGate#phase}
     * from the driving thread only.
     */
    public SchemaChangeGate schemaChange() {
        return schema;
    }

    /**
     * Turns on {@code reader.off-loop-check} with the given sampling; null turns it off (the
     * default). Call before {@link #start}.
     */
    public void setOffLoopCheck(OffLoopStateCheck<SplitT> check) {
        if (check != null) {
            check.bind(reader, reports, identity);
        }
        this.offLoop = check;
        this.offLoopPending = false;
    }

    /** Sets {@code reader.schema-change-timeout}; call before {@link #start}. */
    public void setSchemaChangeTimeoutNanos(long nanos) {
        schema.setTimeoutNanos(nanos);
    }

    public int heldCommands() {
        return cutGate.size();
    }

    public ReaderLoopMetrics metrics() {
        return metrics;
    }

    public ReaderMailbox mailbox() {
        return mailbox;
    }

    public ReaderIdentity identity() {
        return identity;
    }
}
