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
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.engine.managed.source.concurrent.SerialExecutor;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.jctools.queues.MpscArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory effects: everything a thread did before a successful offer happens-before the loop runs
 * that command (the queue's release/acquire), and each drain happens-before the next (the {@code
 * drainState} claim is released after a drain and acquired, by compare-and-set, before the next).
 *
 * <p>Threading: the public command methods ({@code open}, {@code registerReader}, {@code snapshot},
 * ...) may be called from any thread, any number of threads at once: they only offer to a bounded
 * MPSC queue and return ({@link OfferResult#QUEUE_FULL} when full, counted as {@code
 * CoordinatorQueueFull}; never blocking). A drain task on the injected {@link Executor} is the only
 * code that touches the enumerator and the {@link SourceAssignmentTracker}; at most one drain runs
 * at a time (the {@code drainState} claim), so callbacks are serialized even on a multi-threaded
 * executor — and the owner may be the caller of {@link #snapshotAndWait} instead. Life cycle:
 * {@link LoopState} CREATED → RUNNING → CLOSED (or FAILED when open throws).
 *
 * <p>Each drain runs a bounded batch, interleaving completions (acks, async results, timer ticks;
 * their own bounded queue so that replies are never starved by new requests) with commands, each in
 * its own try/catch: a failing command goes to the {@link CoordinatorFailureHandler} and the loop
 * carries on. The drain sets the context classloader to the enumerator's for connector code and
 * restores it after.
 *
 * <p>The one synchronous demand is the enumerator snapshot of an engine checkpoint: {@link
 * #snapshotAndWait} blocks its caller (never the loop) for at most {@link
 * CoordinatorConfig#snapshotTimeout()} (plus the one command that may be running when it expires).
 * To spare the checkpoint two thread hops (caller → executor → caller), the caller takes the loop
 * over when no drain is running — a drain merely scheduled is claimed from under the executor,
 * whose task then finds the loop taken and returns — and drains on its own thread until its
 * snapshot is taken; a drain running elsewhere hands the loop to the waiting caller when it ends.
 * The single-owner rule holds either way: whoever wins the claim is the only thread touching loop
 * state until it releases it. The caller may hold engine monitors (Zeta holds {@code
 * enumeratorContext}); neither the loop nor connector code on it takes any lock a caller could hold
 * (connector enumerators get this loop's context, never the engine's), and no command blocks, so
 * this cannot deadlock.
 */
public final class CoordinatorEventLoop<SplitT extends SourceSplit, StateT> implements LoopPort {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorEventLoop.class);

    /** The credit window of a registration that offers none: the default mailbox's. */
    public static final int DEFAULT_WINDOW_COMMANDS = 1024;

    public static final long DEFAULT_WINDOW_BYTES = 4L << 20;

    private final CoordinatorConfig config;
    private final CoordinatorMetrics metrics;
    private final MpscArrayQueue<Command> commands;
    private final MpscArrayQueue<Command> completions;
    private final EnumeratorCallQueue enumeratorCalls;
    // The drain claim, the executor task and the caller's takeover: one drain at a time.
    private final SerialExecutor serial;
    private final SnapshotWaitReport snapshotWaits;
    private final CoordinatorFailureHandler failureHandler;

    // Set once by attach() before the loop is published (CoordinatorLoopBuilder); never changed.
    private CoordinatorCore<SplitT, StateT> core;
    private CoordinatorSchedulerImpl scheduler;
    private CoordinatorEnumeratorContext<SplitT> context;

    /** Loop-owned: commands that arrived before open, replayed in order once open succeeded. */
    private final ArrayDeque<Command> beforeOpen = new ArrayDeque<>();

    /** Written only by the loop; read by offerers to refuse early once closed. */
    private volatile LoopState state = LoopState.CREATED;

    // Opened once the loop reached CLOSED, so a host can wait for the enumerator's close().
    private final CountDownLatch closed = new CountDownLatch(1);

    /**
     * The loop's own machinery; its collaborators come through {@link #attach}. Only {@link
     * CoordinatorLoopBuilder} builds a loop.
     */
    CoordinatorEventLoop(
            CoordinatorConfig config,
            CoordinatorMetrics metrics,
            Executor executor,
            ClassLoader enumeratorClassLoader,
            CoordinatorFailureHandler failureHandler) {
        this.config = config;
        this.metrics = metrics;
        this.commands = new MpscArrayQueue<>(config.commandQueueCapacity());
        this.completions = new MpscArrayQueue<>(config.completionQueueCapacity());
        this.enumeratorCalls = new EnumeratorCallQueue(config.commandQueueCapacity());
        this.failureHandler = failureHandler;
        this.serial =
                new SerialExecutor(
                        "coordinator loop",
                        executor,
                        config.drainBatch(),
                        enumeratorClassLoader,
                        new SerialExecutor.Body() {
                            @Override
                            public void drain(
                                    int budget, CompletableFuture<?> until, long deadlineNanos) {
                                drainBody(budget, until, deadlineNanos);
                            }

                            @Override
                            public boolean hasWork() {
                                return !commands.isEmpty()
                                        || !completions.isEmpty()
                                        || (state != LoopState.CREATED
                                                && !enumeratorCalls.isEmpty());
                            }
                        });
        this.snapshotWaits = new SnapshotWaitReport(config, metrics, System.nanoTime());
    }

    /**
     * Hands the loop its collaborators, once, before the loop is published: they need the loop (as
     * their {@link LoopPort}) to exist first.
     */
    void attach(
            CoordinatorCore<SplitT, StateT> core,
            CoordinatorSchedulerImpl scheduler,
            CoordinatorEnumeratorContext<SplitT> context) {
        if (this.core != null) {
            throw new IllegalStateException("coordinator loop already wired");
        }
        this.core = Objects.requireNonNull(core, "core");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.context = Objects.requireNonNull(context, "context");
    }

    public static <S extends SourceSplit, T> CoordinatorLoopBuilder<S, T> builder() {
        return new CoordinatorLoopBuilder<>();
    }

    // ------------------------------------------------------------------ commands (any thread)

    /** Creates (or restores from the blob given to the builder), opens and runs the enumerator. */
    public OfferResult open() {
        return offer(new Command(CoordinatorCommandType.OPEN, core::open));
    }

    /** Closes the enumerator; cancels async work; later commands are dropped and counted. */
    public OfferResult close() {
        return offer(new Command(CoordinatorCommandType.CLOSE, core::close));
    }

    /**
     * Waits until the loop has run its close (the connector's enumerator {@code close()} has
     * returned or failed), at most {@code nanos}. Any thread but the loop's own.
     *
     * @return true if the loop is closed
     */
    public boolean awaitClosed(long nanos) throws InterruptedException {
        return closed.await(nanos, TimeUnit.NANOSECONDS);
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
        return offer(
                new Command(
                        CoordinatorCommandType.REGISTER_READER,
                        () -> core.registerReader(subtask, attemptId, null, window)));
    }

    /**
     * A reader attempt registered. Attempt ids of one subtask must increase; a repeated id is a
     * duplicate. {@code restored} (kind RESTORED) is the metadata of the state it restored and
     * keeps, or null. With {@link ReaderInclusionReport#NO_ATTEMPT} it is no registration but the
     * same as {@link #reportInclusion} of the RESTORED report (a restored owner's metadata).
     */
    public OfferResult registerReader(int subtask, long attemptId, ReaderInclusionReport restored) {
        return offer(
                new Command(
                        CoordinatorCommandType.REGISTER_READER,
                        () ->
                                core.registerReader(
                                        subtask, attemptId, restored, ReaderWindow.DEFAULT)));
    }

    public OfferResult handleSplitRequest(int subtask, long attemptId) {
        return offer(
                new Command(
                        CoordinatorCommandType.SPLIT_REQUEST,
                        () -> core.splitRequest(subtask, attemptId)));
    }

    /** Splits handed back (reader states on restore, or a reader giving splits up). */
    public OfferResult addSplitsBack(List<SplitT> splits, int subtask) {
        List<SplitT> copy = new ArrayList<>(splits);
        return offer(
                new Command(
                        CoordinatorCommandType.SPLITS_RETURNED,
                        () -> core.splitsReturned(subtask, copy)));
    }

    public OfferResult handleSourceEvent(int subtask, long attemptId, SourceEvent event) {
        return offer(
                new Command(
                        CoordinatorCommandType.SOURCE_EVENT,
                        () -> core.readerEvent(subtask, attemptId, event)));
    }

    /**
     * A reader's source event in the bytes of the connector's event serializer, decoded on the
     * loop: the operation thread that receives it runs no connector code.
     */
    public OfferResult handleSourceEvent(int subtask, long attemptId, byte[] event) {
        return offer(
                new Command(
                        CoordinatorCommandType.SOURCE_EVENT,
                        () -> core.readerEvent(subtask, attemptId, event)));
    }

    public OfferResult notifyCheckpointComplete(long checkpointId) {
        return offer(
                new Command(
                        CoordinatorCommandType.CHECKPOINT_COMPLETE,
                        () -> core.checkpointComplete(checkpointId)));
    }

    public OfferResult notifyCheckpointAborted(long checkpointId) {
        return offer(
                new Command(
                        CoordinatorCommandType.CHECKPOINT_ABORT,
                        () -> core.checkpointAborted(checkpointId)));
    }

    /** Reader checkpoint metadata (CHECKPOINT) or an owner's restored metadata (RESTORED). */
    public OfferResult reportInclusion(ReaderInclusionReport report) {
        Objects.requireNonNull(report, "report");
        return offer(
                new Command(CoordinatorCommandType.INCLUSION_REPORT, () -> core.inclusion(report)));
    }

    /**
     * The reader attempt applied every command of this epoch up to sequence {@code watermark} (its
     * cumulative apply acknowledgement): flow control, never durability.
     */
    public OfferResult assignmentApplied(int subtask, long attemptId, long watermark) {
        return assignmentApplied(subtask, attemptId, watermark, AppliedAckPayload.UNKNOWN_BACKLOG);
    }

    /**
     * As {@link #assignmentApplied(int, long, long)}, with the split backlog the reader counted
     * after applying that far ({@link AppliedAckPayload#UNKNOWN_BACKLOG} if it does not count).
     */
    public OfferResult assignmentApplied(int subtask, long attemptId, long watermark, int backlog) {
        return offer(
                new Command(
                        CoordinatorCommandType.ASSIGNMENT_APPLIED,
                        () -> core.applied(subtask, attemptId, watermark, backlog)));
    }

    /**
     * Enumerator and tracker state of checkpoint {@code checkpointId} as one blob, taken after
     * every command offered before this call (strict cut). Completes on the loop; fails when the
     * queue is full or the loop is closed.
     */
    public CompletableFuture<byte[]> snapshot(long checkpointId) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        SnapshotCommand c = new SnapshotCommand(checkpointId, f);
        OfferResult r = offer(c);
        if (!r.isEnqueued()) {
            f.completeExceptionally(new RejectedExecutionException("coordinator loop " + r));
        }
        return f;
    }

    /**
     * The engine's synchronous snapshot demand: the same strict cut as {@link #snapshot}, taken on
     * the calling thread when the loop is free (see the class comment), else by the loop's current
     * owner, who hands the loop over when it ends its drain. Waits at most {@link
     * CoordinatorConfig#snapshotTimeout()} — checked between commands when the caller drains itself
     * — then throws {@link TimeoutException} so the engine fails this checkpoint (the loop itself
     * never waits). A wait above {@link CoordinatorConfig#snapshotSlowThreshold()} is counted and
     * logged. Must not be called on the loop.
     */
    public byte[] snapshotAndWait(long checkpointId) throws Exception {
        if (isOwnerThread()) {
            throw new IllegalStateException(
                    "snapshotAndWait on the coordinator loop would deadlock");
        }
        long start = System.nanoTime();
        long deadline = start + config.snapshotTimeout().toNanos();
        Thread me = Thread.currentThread();
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        SnapshotCommand c = new SnapshotCommand(checkpointId, f, me);
        // Not scheduled on the executor yet: the caller first tries to run it itself.
        OfferResult r = offerOnly(c);
        if (!r.isEnqueued()) {
            f.completeExceptionally(new RejectedExecutionException("coordinator loop " + r));
        }
        boolean waiter = serial.registerHandoffWaiter(me);
        try {
            awaitSnapshot(f, deadline, waiter);
        } catch (TimeoutException e) {
            long now = System.nanoTime();
            snapshotWaits.timedOut(checkpointId, now - start, now);
            throw e;
        } finally {
            if (waiter) {
                serial.clearHandoffWaiter(me);
            }
        }
        long now = System.nanoTime();
        snapshotWaits.answered(checkpointId, now - start, now);
        return f.get();
    }

    private void awaitSnapshot(CompletableFuture<byte[]> f, long deadline, boolean waiter)
            throws InterruptedException, TimeoutException {
        while (!f.isDone()) {
            if (Thread.interrupted()) {
                // The engine cancelling: leave the snapshot to the executor.
                scheduleDrain();
                throw new InterruptedException("interrupted waiting for the coordinator snapshot");
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                scheduleDrain();
                throw new TimeoutException(
                        "coordinator snapshot not taken within coordinator.snapshot-timeout");
            }
            // An unopened (or failed) loop keeps the snapshot until open: the executor runs it.
            boolean mayDrainHere = state == LoopState.RUNNING;
            if (mayDrainHere && serial.runOnCaller(f, deadline)) {
                metrics.increment(Counter.SNAPSHOTS_ON_CALLER);
                continue;
            }
            if (!mayDrainHere || !waiter) {
                scheduleDrain();
                try {
                    f.get(left, TimeUnit.NANOSECONDS);
                } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                    // Timeout: checked above; failure: snapshotAndWait rethrows it.
                }
                continue;
            }
            // Another thread drains: woken by the snapshot's answer or by that drain's release.
            LockSupport.parkNanos(this, left);
        }
    }

    // ------------------------------------------------------------------ views

    public CoordinatorMetrics metrics() {
        return metrics;
    }

    public long epoch() {
        return config.epoch();
    }

    public LoopState state() {
        return state;
    }

    /** Loop only (enumerators get it from their context); exposed for hosts' own ticks. */
    public CoordinatorScheduler scheduler() {
        checkOwnerThread("scheduler");
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

    @Override
    public boolean isOwnerThread() {
        return serial.owner().isOwner();
    }

    // ------------------------------------------------------------------ LoopPort

    @Override
    public boolean postCompletion(CoordinatorCommandType type, Action action) {
        if (!completions.offer(new Command(type, action))) {
            metrics.increment(Counter.COMPLETIONS_DROPPED);
            return false;
        }
        scheduleDrain();
        return true;
    }

    @Override
    public OfferResult offerEnumeratorCall(Action action) {
        if (state == LoopState.CLOSED) {
            metrics.increment(Counter.COMMANDS_AFTER_CLOSE);
            return OfferResult.CLOSED;
        }
        if (!enumeratorCalls.offer(action)) {
            metrics.increment(Counter.QUEUE_FULL);
            return OfferResult.QUEUE_FULL;
        }
        metrics.increment(Counter.ENUMERATOR_CALLS_MARSHALLED);
        scheduleDrain();
        return OfferResult.ENQUEUED;
    }

    @Override
    public long enumeratorCallTicket() {
        return enumeratorCalls.nextTicket();
    }

    @Override
    public void applyEnumeratorCallsBefore(long ticket) {
        Action call;
        while ((call = enumeratorCalls.pollBefore(ticket)) != null) {
            applyEnumeratorCall(call);
        }
    }

    private void applyEnumeratorCall(Action call) {
        if (state == LoopState.FAILED || state == LoopState.CLOSED) {
            metrics.increment(Counter.COMMANDS_AFTER_CLOSE);
            return;
        }
        try {
            call.run();
            metrics.increment(Counter.COMMANDS_APPLIED);
        } catch (Throwable e) {
            reportFailure(CoordinatorCommandType.ENUMERATOR_CALL.name(), e);
        }
    }

    @Override
    public void checkOwnerThread(String what) {
        serial.owner().check(what);
    }

    @Override
    public void reportFailure(String where, Throwable cause) {
        metrics.increment(Counter.COMMAND_FAILURES);
        LOG.warn("Coordinator epoch {} failed in {}", config.epoch(), where, cause);
        try {
            failureHandler.onFailure(where, cause);
        } catch (Throwable t) {
            LOG.error("Coordinator failure handler threw", t);
        }
    }

    @Override
    public boolean isRunning() {
        return state == LoopState.RUNNING;
    }

    // ------------------------------------------------------------------ drain (loop)

    private OfferResult offer(Command c) {
        OfferResult r = offerOnly(c);
        if (r.isEnqueued()) {
            scheduleDrain();
        }
        return r;
    }

    /** Queues without scheduling a drain: the caller drains or schedules. */
    private OfferResult offerOnly(Command c) {
        if (state == LoopState.CLOSED) {
            metrics.increment(Counter.COMMANDS_AFTER_CLOSE);
            c.drop("closed");
            return OfferResult.CLOSED;
        }
        if (!commands.offer(c)) {
            metrics.increment(Counter.QUEUE_FULL);
            return OfferResult.QUEUE_FULL;
        }
        return OfferResult.ENQUEUED;
    }

    private void scheduleDrain() {
        serial.schedule();
    }

    /**
     * One bounded pass by the thread that holds the {@link SerialExecutor}'s claim: completions and
     * commands alternately, each isolated. A snapshot caller ({@code until} non-null) drains until
     * its snapshot is answered or, between commands, its deadline passes.
     */
    private void drainBody(int batch, CompletableFuture<?> until, long deadline) {
        try {
            int budget = batch;
            while (budget > 0
                    && (until == null || (!until.isDone() && deadline - System.nanoTime() > 0))) {
                Command completion = completions.poll();
                if (completion != null) {
                    runCompletion(completion);
                    budget--;
                }
                Command command = budget > 0 ? commands.poll() : null;
                if (command != null) {
                    runCommand(command);
                    budget--;
                }
                // Calls of the enumerator's own threads wait for open: the enumerator made them.
                Action call =
                        budget > 0 && state != LoopState.CREATED
                                ? enumeratorCalls.pollBefore(Long.MAX_VALUE)
                                : null;
                if (call != null) {
                    applyEnumeratorCall(call);
                    afterCommand();
                    budget--;
                }
                if (completion == null && command == null && call == null) {
                    break;
                }
            }
        } finally {
            // What is left for the next drain (approximate, as the queue's size is): a gauge.
            metrics.set(CoordinatorMetrics.Gauge.QUEUED_COMMANDS, commands.size());
        }
    }

    private void runCompletion(Command c) {
        // Completions self-fence (scheduler closed, attempt no longer current), so they run in
        // every state: that is how late results get counted as stale.
        if (state == LoopState.CREATED) {
            return;
        }
        execute(c);
    }

    private void runCommand(Command c) {
        switch (state) {
            case CREATED:
                if (c.type == CoordinatorCommandType.OPEN) {
                    openNow(c);
                } else if (c.type == CoordinatorCommandType.CLOSE) {
                    closeNow(c);
                } else if (beforeOpen.size() < config.commandQueueCapacity()) {
                    beforeOpen.addLast(c);
                } else {
                    metrics.increment(Counter.QUEUE_FULL);
                    c.drop("queue full before open");
                }
                return;
            case RUNNING:
                if (c.type == CoordinatorCommandType.CLOSE) {
                    closeNow(c);
                } else if (c.type == CoordinatorCommandType.OPEN) {
                    reportFailure("OPEN", new IllegalStateException("already open"));
                } else {
                    execute(c);
                }
                return;
            case FAILED:
            case CLOSED:
            default:
                if (state == LoopState.FAILED && c.type == CoordinatorCommandType.CLOSE) {
                    closeNow(c);
                    return;
                }
                metrics.increment(Counter.COMMANDS_AFTER_CLOSE);
                c.drop(state.name());
        }
    }

    private void openNow(Command open) {
        try {
            open.action.run();
            moveTo(LoopState.RUNNING);
            metrics.increment(Counter.COMMANDS_APPLIED);
        } catch (Throwable e) {
            moveTo(LoopState.FAILED);
            reportFailure(CoordinatorCommandType.OPEN.name(), e);
            dropBeforeOpen();
            return;
        }
        afterCommand();
        Command c;
        while ((c = beforeOpen.pollFirst()) != null) {
            execute(c);
        }
    }

    private void closeNow(Command close) {
        try {
            close.action.run();
        } catch (Throwable e) {
            reportFailure(CoordinatorCommandType.CLOSE.name(), e);
        }
        moveTo(LoopState.CLOSED);
        dropBeforeOpen();
    }

    private void dropBeforeOpen() {
        Command c;
        while ((c = beforeOpen.pollFirst()) != null) {
            metrics.increment(Counter.COMMANDS_AFTER_CLOSE);
            c.drop(state.name());
        }
    }

    private void execute(Command c) {
        try {
            c.action.run();
            metrics.increment(Counter.COMMANDS_APPLIED);
        } catch (Throwable e) {
            c.drop("failed");
            reportFailure(c.type.name(), e);
        }
        afterCommand();
    }

    private void afterCommand() {
        if (state != LoopState.RUNNING) {
            return;
        }
        try {
            core.afterCommand();
        } catch (Throwable e) {
            reportFailure("DISPATCH", e);
        }
    }

    private void moveTo(LoopState next) {
        LoopState.checkTransition(state, next);
        LOG.info("Coordinator epoch {}: {} -> {}", config.epoch(), state, next);
        state = next;
        if (next == LoopState.CLOSED) {
            closed.countDown();
        }
    }

    // ------------------------------------------------------------------ commands

    /** One unit of loop work. Immutable. */
    private static class Command {
        final CoordinatorCommandType type;
        final Action action;

        Command(CoordinatorCommandType type, Action action) {
            this.type = type;
            this.action = action;
        }

        /** Called when the command will never run (closed, full, failed). */
        void drop(String why) {}
    }

    /**
     * The snapshot command: its future fails instead of hanging when the command is dropped; a
     * parked {@link #snapshotAndWait} caller is woken when it is answered either way.
     */
    private final class SnapshotCommand extends Command {
        private final CompletableFuture<byte[]> future;
        private final Thread waiter;

        SnapshotCommand(long checkpointId, CompletableFuture<byte[]> future) {
            this(checkpointId, future, null);
        }

        SnapshotCommand(long checkpointId, CompletableFuture<byte[]> future, Thread waiter) {
            super(
                    CoordinatorCommandType.SNAPSHOT,
                    () -> {
                        try {
                            future.complete(core.snapshot(checkpointId));
                            wake(waiter);
                        } catch (Exception e) {
                            // The engine fails this checkpoint; the coordinator itself is fine.
                            metrics.increment(Counter.SNAPSHOT_FAILURES);
                            LOG.warn(
                                    "Coordinator epoch {} could not snapshot checkpoint {}",
                                    config.epoch(),
                                    checkpointId,
                                    e);
                            future.completeExceptionally(e);
                            wake(waiter);
                        }
                    });
            this.future = future;
            this.waiter = waiter;
        }

        @Override
        void drop(String why) {
            if (future.completeExceptionally(
                    new IllegalStateException("coordinator snapshot not taken: " + why))) {
                metrics.increment(Counter.SNAPSHOT_FAILURES);
            }
            wake(waiter);
        }
    }

    private static void wake(Thread waiter) {
        if (waiter != null && waiter != Thread.currentThread()) {
            LockSupport.unpark(waiter);
        }
    }
}
