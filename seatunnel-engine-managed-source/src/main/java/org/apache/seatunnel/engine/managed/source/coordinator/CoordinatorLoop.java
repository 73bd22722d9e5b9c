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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.engine.managed.source.concurrent.BoundedMpscQueues;
import org.apache.seatunnel.engine.managed.source.concurrent.SerialExecutor;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.jctools.queues.MessagePassingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serialized loop under a {@link CoordinatorEventLoop}: its queues, one drain at a time through
 * a {@link SerialExecutor}, the loop state machine, the engine's snapshot demand and the {@link
 * LoopPort} its collaborators post to.
 *
 * <p>Memory effects: everything a thread did before a successful offer happens-before the loop runs
 * that command (the queue's release/acquire), and each drain happens-before the next (the {@link
 * SerialExecutor}'s claim is released after a drain and acquired, by compare-and-set, before the
 * next).
 *
 * <p>Threading: the commands of {@link CoordinatorEventLoop} and the {@link LoopPort} posts may be
 * called from any thread, any number of threads at once: they only offer to a bounded MPSC queue
 * and return ({@link OfferResult#QUEUE_FULL} when full, counted as {@code CoordinatorQueueFull};
 * never blocking). A drain task on the injected {@link Executor} is the only code that touches the
 * enumerator and the {@link SourceAssignmentTracker}; at most one drain runs at a time (the {@link
 * SerialExecutor}'s claim), so callbacks are serialized even on a multi-threaded executor — and the
 * owner may be the caller of {@link SnapshotDemand#snapshotAndWait} instead. Life cycle: {@link
 * LoopState} CREATED → RUNNING → CLOSED (or FAILED when open throws).
 *
 * <p>Each drain runs a bounded batch, interleaving completions (acks, async results, timer ticks;
 * their own bounded queue so that replies are never starved by new requests) with commands and the
 * readers' apply acknowledgements, each in its own try/catch: a failing command goes to the {@link
 * CoordinatorFailureHandler} and the loop carries on.
 *
 * <p>Apply acknowledgements ({@link #offerFlowControl}) have a bounded queue of their own, beside
 * the commands, so the engine's snapshot demand (a command) never waits behind them: with many
 * readers an acknowledgement is queued behind nearly every command, each one's work (credit,
 * dispatch, sends) ahead of the snapshot. That keeps the strict cut — every ordered command offered
 * before a snapshot still runs before it, in offer order — because an acknowledgement is flow
 * control and not an ordered command: it is cumulative and idempotent, and it only returns credit
 * and tells later snapshots what they need not keep, so applying it after a snapshot is the same as
 * its arriving a little later, which it always may. The drain sets the context classloader to the
 * enumerator's for connector code and restores it after.
 *
 * <p>The one synchronous demand, the enumerator snapshot of an engine checkpoint, is {@link
 * SnapshotDemand}'s.
 */
final class CoordinatorLoop<SplitT extends SourceSplit, StateT> implements LoopPort {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorEventLoop.class);

    private final CoordinatorConfig config;
    private final CoordinatorMetrics metrics;
    private final MessagePassingQueue<Command> commands;
    // Reader apply acknowledgements: flow control, not in the snapshot's cut order (class comment).
    private final MessagePassingQueue<Command> flowControl;
    private final MessagePassingQueue<Command> completions;
    private final EnumeratorCallQueue enumeratorCalls;

    // The drain claim, the executor task and the caller's takeover: one drain at a time.
    private final SerialExecutor serial;
    private final SnapshotDemand<SplitT, StateT> snapshots;
    private final CoordinatorFailureHandler failureHandler;

    // Set once by attach() before the loop is published (CoordinatorLoopBuilder); never changed.
    private CoordinatorCore<SplitT, StateT> core;

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
    CoordinatorLoop(
            CoordinatorConfig config,
            CoordinatorMetrics metrics,
            Executor executor,
            ClassLoader enumeratorClassLoader,
            CoordinatorFailureHandler failureHandler) {
        this.config = config;
        this.metrics = metrics;
        this.commands = BoundedMpscQueues.create(config.commandQueueCapacity());
        this.flowControl = BoundedMpscQueues.create(config.commandQueueCapacity());
        this.completions = BoundedMpscQueues.create(config.completionQueueCapacity());
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
                                        || !flowControl.isEmpty()
                                        || !completions.isEmpty()
                                        || (state != LoopState.CREATED
                                                && !enumeratorCalls.isEmpty());
                            }
                        });
        this.snapshots = new SnapshotDemand<>(this, config, metrics, serial);
    }

    /**
     * Hands the loop its collaborators, once, before the loop is published: they need the loop (as
     * their {@link LoopPort}) to exist first.
     */
    void attach(CoordinatorCore<SplitT, StateT> core) {
        if (this.core != null) {
            throw new IllegalStateException("coordinator loop already wired");
        }
        this.core = Objects.requireNonNull(core, "core");
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

    /** See {@link SnapshotDemand#snapshot}. */
    CompletableFuture<byte[]> snapshot(long checkpointId) {
        return snapshots.snapshot(checkpointId);
    }

    /** See {@link SnapshotDemand#snapshotAndWait}. */
    byte[] snapshotAndWait(long checkpointId) throws Exception {
        return snapshots.snapshotAndWait(checkpointId);
    }

    /** The core; attached before the loop is published. */
    CoordinatorCore<SplitT, StateT> core() {
        return core;
    }

    public CoordinatorMetrics metrics() {
        return metrics;
    }

    public long epoch() {
        return config.epoch();
    }

    public LoopState state() {
        return state;
    }

    @Override
    public boolean isOwnerThread() {
        return serial.owner().isOwner();
    }

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

    OfferResult offer(Command c) {
        OfferResult r = offerOnly(c);
        if (r.isEnqueued()) {
            scheduleDrain();
        }
        return r;
    }

    /** Queues without scheduling a drain: the caller drains or schedules. */
    OfferResult offerOnly(Command c) {
        return offerTo(commands, c);
    }

    /**
     * Queues a reader's apply acknowledgement apart from the commands (see the class comment),
     * bounded by the same capacity, and schedules a drain.
     */
    OfferResult offerFlowControl(Command c) {
        OfferResult r = offerTo(flowControl, c);
        if (r.isEnqueued()) {
            scheduleDrain();
        }
        return r;
    }

    private OfferResult offerTo(MessagePassingQueue<Command> queue, Command c) {
        if (state == LoopState.CLOSED) {
            metrics.increment(Counter.COMMANDS_AFTER_CLOSE);
            c.drop("closed");
            return OfferResult.CLOSED;
        }
        if (!queue.offer(c)) {
            metrics.increment(Counter.QUEUE_FULL);
            return OfferResult.QUEUE_FULL;
        }
        return OfferResult.ENQUEUED;
    }

    void scheduleDrain() {
        serial.schedule();
    }

    /**
     * One bounded pass by the thread that holds the {@link SerialExecutor}'s claim: completions,
     * commands, acknowledgements and marshalled enumerator calls in turn, each isolated. A snapshot
     * caller ({@code until} non-null) drains until its snapshot is answered or, between commands,
     * its deadline passes.
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
                // A snapshot caller's answer may have come: its commands were ahead, not these.
                Command ack =
                        budget > 0 && (until == null || !until.isDone())
                                ? flowControl.poll()
                                : null;
                if (ack != null) {
                    runCommand(ack);
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
                if (completion == null && command == null && ack == null && call == null) {
                    break;
                }
            }
        } finally {
            // What is left for the next drain (approximate, as the queue's size is): a gauge.
            metrics.set(
                    CoordinatorMetrics.Gauge.QUEUED_COMMANDS, commands.size() + flowControl.size());
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

    /** One unit of loop work. Immutable. */
    static class Command {
        final CoordinatorCommandType type;
        final Action action;

        Command(CoordinatorCommandType type, Action action) {
            this.type = type;
            this.action = action;
        }

        /** Called when the command will never run (closed, full, failed). */
        void drop(String why) {}
    }
}
