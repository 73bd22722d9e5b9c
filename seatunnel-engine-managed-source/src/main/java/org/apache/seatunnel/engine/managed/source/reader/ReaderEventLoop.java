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

import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
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
 * <p>Its jobs live beside it, each on the same driving thread: when to poll ({@link PollScheduler},
 * fed by the mailbox's {@link AvailabilitySignal}); applying commands once through the ledger
 * ({@link CommandApplier}); the barrier cut ({@link BarrierCutStep}, invariant 4); the
 * schema-change glue ({@link SchemaChangeSteps}); what a connector exception means ({@link
 * ConnectorFailures}); answers to overrunning turns ({@link TurnOverruns}); and {@code
 * reader.off-loop-check} ({@link OffLoopWindow}). This class keeps the iteration, the poll turn and
 * its accounting, and the lifecycle. Soft-budget overruns are reported at most once a minute,
 * emitting past the record budget once per attempt; warnings name the reader by its {@link
 * ReaderIdentity}.
 */
public final class ReaderEventLoop<T, SplitT extends SourceSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderEventLoop.class);

    private final ReaderMailbox mailbox;
    private final ReaderIdentity identity;
    private final ManagedSourceReader<T, SplitT> reader;
    private final ReaderLoopHost<SplitT> host;
    private Collector<T> output;
    private final PollBudget budget;
    private final NanoClock clock;
    private final ReaderLoopMetrics metrics;
    private final ReaderContractReports reports;
    private final PollTurn<T> turn;
    private final CheckpointCutGate cutGate;
    private final CommandApplier<SplitT> commands;
    private final BarrierCutStep<SplitT> barriers;
    private final OffLoopWindow<SplitT> offLoop = new OffLoopWindow<>();
    private final SchemaChangeGate schema;
    private final SchemaChangeSteps schemaSteps;
    private final PollScheduler polls;
    private final PollTurnStep<T> turns;

    private ReaderLifecycle lifecycle = ReaderLifecycle.CREATED;
    private long lastProcessedBarrier;
    // How the last barrier runControls took ended; handed out (and cleared) by
    // runControlsUntilBarrier on the same thread and call.
    private BarrierResult lastBarrierResult;
    private boolean endOfInput;
    private TerminalSignal handledTerminal;

    // Times this attempt's turns for the watchdog (hard budget, cancellation timeout).
    private final TurnWatch watch;
    private final TurnOverruns overruns;

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
        this.schemaSteps = new SchemaChangeSteps(this, host, schema, polls);
        this.commands =
                new CommandApplier<>(
                        this, reader, host, metrics, polls, offLoop, cutGate, schemaSteps);
        this.barriers =
                new BarrierCutStep<>(
                        this,
                        reader,
                        host,
                        metrics,
                        cutGate,
                        commands,
                        schemaSteps,
                        offLoop,
                        polls);
        this.overruns = new TurnOverruns(mailbox, reader, metrics, reports);
        this.watch = new TurnWatch(budget, clock, overruns);
        this.turns =
                new PollTurnStep<>(
                        this,
                        reader,
                        host,
                        turn,
                        watch,
                        budget,
                        reports,
                        polls,
                        schemaSteps,
                        offLoop);
        mailbox.setWakeupHook(reader::wakeup);
    }

    /**
     * The contiguous applied watermark of coordinator epoch {@code epoch}: every command of it up
     * to this sequence was applied by this attempt. Driving thread only (the loop's callbacks).
     */
    public long appliedWatermark(long epoch) {
        return commands.appliedWatermark(epoch);
    }

    /**
     * True while a barrier this attempt took is not known complete: the engine is still acking,
     * storing or announcing that checkpoint. Driving thread only.
     */
    public boolean checkpointInFlight() {
        return lastProcessedBarrier > commands.lastCompleteNotified();
    }

    /** The latest barrier this attempt took, 0 before the first. Driving thread only. */
    public long lastProcessedBarrier() {
        return lastProcessedBarrier;
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
        overruns.setCancellationTimeoutHook(hook);
    }

    /**
     * Opens the reader. {@code restoredCheckpointId} is the checkpoint this attempt restores from
     * (0 for a fresh start): commands cut at or before it are not held.
     */
    public void start(long restoredCheckpointId) throws Exception {
        cutGate.start(restoredCheckpointId);
        commands.start(restoredCheckpointId);
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
            turns.run(output);
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
        for (MailboxEntry e = mailbox.poll(); e != null; e = mailbox.poll()) {
            if (e.kind() == MailboxEntry.Kind.BARRIER) {
                mailbox.complete(e);
                long checkpointId = ((MailboxEntry.Barrier) e).checkpointId();
                lastProcessedBarrier = Math.max(lastProcessedBarrier, checkpointId);
                lastBarrierResult = barriers.take(checkpointId);
            } else if (e.kind() != MailboxEntry.Kind.REMOTE_COMMAND) {
                commands.applySignal(e);
            } else if (cutGate.holdIfPastCut((MailboxEntry.RemoteCommand) e)) {
                metrics.cutDeferrals.incrementAndGet();
            } else {
                commands.apply((MailboxEntry.RemoteCommand) e);
            }
            if (mailbox.terminalSignal() != null) {
                return handleTerminal();
            }
        }
        barriers.checkHoldTimeout();
        schemaSteps.checkTimeout();
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

    /** A graceful close was applied: no further poll turns, controls and barriers still run. */
    void closeGracefully() {
        if (lifecycle == ReaderLifecycle.RUNNING) {
            transition(ReaderLifecycle.DRAINING);
            LOG.info(
                    "Reader attempt {} of {} closes gracefully: no further poll turns",
                    mailbox.attemptId(),
                    identity);
        }
    }

    void enterEndOfInput() {
        endOfInput = true;
        transition(ReaderLifecycle.DRAINING);
        host.onEndOfInput();
    }

    /**
     * Watchdog check, any thread, one at a time: see {@link TurnWatch#check()}. Past the hard
     * budget the reader is woken once; past the cancellation timeout the attempt is failed and the
     * host's hook (which interrupts the task thread) runs.
     */
    public void checkTurnBudget() {
        watch.check();
    }

    private LoopStatus handleTerminal() {
        TerminalSignal t = mailbox.terminalSignal();
        if (handledTerminal == null && t != null) {
            handledTerminal = t;
            offLoop.forget();
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
        offLoop.forget();
        watch.quiet();
        watch.detach();
        cutGate.discard(mailbox);
        mailbox.close();
        reader.close();
    }

    private void transition(ReaderLifecycle next) {
        if (lifecycle != next) {
            ReaderLifecycle from = lifecycle;
            lifecycle = lifecycle.checkedTransitionTo(next, mailbox.attemptId());
            LOG.debug(
                    "Reader attempt {} ({}): {} -> {}", mailbox.attemptId(), identity, from, next);
        }
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
        offLoop.set(check);
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
