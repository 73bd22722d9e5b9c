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

package org.apache.seatunnel.engine.managed.source.zeta;

import com.hazelcast.cluster.Address;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.table.catalog.CatalogTableUtil;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.reader.BarrierResult;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.OutboundRequests;
import org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.ReaderUplink;
import org.apache.seatunnel.engine.managed.source.reader.RecordSizes;
import org.apache.seatunnel.engine.managed.source.reader.SchemaChangeMark;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.TurnWatch;
import org.apache.seatunnel.engine.managed.source.transport.ReaderFence;
import org.apache.seatunnel.engine.managed.source.transport.SenderUplink;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.apache.seatunnel.engine.managed.source.zeta.transport.ManagedSourceMemberService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader the engine drives on Lane A: Zeta's thin adapter over the engine-neutral {@link
 * ReaderAttempt}, which owns the mailbox, the loop, the snapshot handover and what the attempt
 * tells its coordinator. This class adds only what is Zeta's: the checkpoint lock around every loop
 * call, the engine's context and lifecycle ({@link EngineBinding.ReaderTask}), the Hazelcast
 * transport (the {@link ReaderUplink} over the member service's sender, the {@link ReaderFence}),
 * the watchdog and the engine metrics registration. It owns no connector state: every engine
 * callback becomes a command in the attempt's {@link ReaderMailbox} or one turn of its {@link
 * ReaderEventLoop}, and the connector only ever runs inside the loop.
 *
 * <p>Threading: {@code open}, {@code pollNext} and {@code close} run on the task thread T; {@code
 * snapshotState} on an engine pool thread A that holds the checkpoint lock; {@code
 * notifyCheckpointComplete}, {@code addSplits} and {@code handleNoMoreSplits} on Hazelcast
 * operation threads H, which only offer to the mailbox (and, for a completed checkpoint, look
 * whether the engine's schema-change phase needs watching: {@link SchemaChangeEndRepair}). T drives
 * the loop only while holding the same checkpoint lock, so T and A never drive it at once and a
 * barrier falls between turns. T waits for work with the lock released, on the loop's signal, so an
 * idle reader answers a new command within microseconds instead of the engine's 100 ms empty-poll
 * sleep. The engine's interrupt of T (its cancel) is seen on the interrupting thread while T is
 * inside {@code pollNext}, or by the member's periodic check; either hands the attempt's cancel
 * (terminal signal and the reader's {@code wakeup()}) to the member's watchdog thread. The
 * connector's split requests and source events leave through {@link OutboundRequests} from
 * whichever thread makes them, never blocking it. Life cycle: one instance per reader task attempt,
 * {@code open} → {@code pollNext}/{@code snapshotState} → {@code close}.
 */
final class ManagedReaderHost<T, SplitT extends SourceSplit>
        implements SourceReader<T, ManagedSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedReaderHost.class);
    private static final long REGISTRATION_DEADLINE_MILLIS = 60_000;
    private static final long BARRIER_PUBLISH_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int MAX_TURNS_PER_POLL = 4;

    private final ManagedSourceReader<T, SplitT> reader;
    private final SourceReader.Context context;
    private final ManagedLaneSource<T, SplitT, ?> source;
    private final LoopSignal signal = new LoopSignal();
    private final ReaderLoopMetrics loopMetrics = new ReaderLoopMetrics();
    private final OutboundRequests requests;
    private final AtomicLong interruptCancels = new AtomicLong();
    private final TaskInterruptListener interrupts =
            new TaskInterruptListener(this::onTaskInterrupted);
    // Counted down when the engine closes this reader: its task has ended.
    private final CountDownLatch closed = new CountDownLatch(1);

    private EngineBinding.ReaderTask engineTask;
    private ManagedSourceMemberService service;
    private SchemaChangeEndRepair schemaChangeEnd;
    private Address coordinatorAddress;
    private long attemptId;
    private ReaderAttempt<T, SplitT> attempt;
    // Set once in open(); read by the interrupt callbacks on other threads.
    private volatile ReaderMailbox mailbox;
    private ReaderFence<Address> fence;
    private ReaderIdentity identity;
    private ReaderEventLoop<T, SplitT> loop;
    // Set in open(); read by the check on the watchdog thread.
    private volatile InterruptWatch.Registration interruptCheck;
    private boolean gracefulCloseOffered;
    private volatile Thread taskThread;
    // The engine's checkpoint lock, learned from the first pollNext; close drives the loop under
    // it.
    private volatile Object checkpointLock;
    private boolean endSignalled;
    // Set when a poll call returned for a schema change, cleared when the engine calls pollNext
    // again: meanwhile Zeta does not call pollNext at all (it waits for its schema-change
    // checkpoint), so a failed barrier must not wait for the task thread to notice the failure.
    private volatile boolean schemaChangePause;
    // T only: barrier handoff and output room between turns, bound on the first pollNext.
    private ReaderFlowControl flow;

    ManagedReaderHost(
            ManagedSourceReader<T, SplitT> reader,
            SourceReader.Context context,
            ManagedLaneSource<T, SplitT, ?> source,
            OutboundRequests requests) {
        this.reader = reader;
        this.requests = requests;
        this.context = context;
        this.source = source;
    }

    @Override
    public void open() throws Exception {
        String digest = reader.managedSourceCapability().digest();
        if (!digest.equals(source.decision().capabilityDigest())) {
            throw new IllegalStateException(
                    "Reader capability digest "
                            + digest
                            + " differs from the planned "
                            + source.decision().capabilityDigest());
        }
        ManagedSourceConfig cfg = source.config();
        engineTask = EngineBinding.running().readerTask(context);
        service = ManagedSourceMemberService.of(engineTask.member());
        coordinatorAddress = engineTask.enumeratorAddress();
        attemptId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        long jobId = engineTask.jobId();
        identity =
                new ReaderIdentity(
                        source.inner().getPluginName(),
                        jobId,
                        source.jobName(),
                        context.getIndexOfSubtask());
        SenderUplink<Address> uplink =
                new SenderUplink<>(
                        service.sender(),
                        // Travels with the other local readers' reports of this checkpoint.
                        service.reportBatcher()::submit,
                        coordinatorAddress,
                        System::currentTimeMillis,
                        REGISTRATION_DEADLINE_MILLIS);
        attempt =
                ReaderAttempt.<T, SplitT>builder()
                        .ids(
                                jobId,
                                source.sourceRuntimeId(),
                                context.getIndexOfSubtask(),
                                attemptId)
                        .mailboxLimits(cfg.mailboxLimits())
                        .workerBudget(service.workerBudget())
                        .clock(NanoClock.SYSTEM)
                        .signal(signal)
                        .loopMetrics(loopMetrics)
                        .identity(identity)
                        .reader(reader)
                        .pollBudget(cfg.pollBudget())
                        .splitWindow(cfg.splitWindow())
                        .offLoopCheckInterval(
                                cfg.offLoopCheckEnabled() ? cfg.offLoopCheckInterval() : 0)
                        .recordSizer(RecordSizes.<T>forRowType(producedType(source.inner())))
                        .splitSerializer(source.inner().getSplitSerializer())
                        .eventSerializer(source.eventSerializer())
                        .capabilityDigest(source.decision().capabilityDigest())
                        .uplink(uplink)
                        .schemaChangeListener(this::onSchemaChangeRequested)
                        .build();
        mailbox = attempt.mailbox();
        loop = attempt.loop();
        loop.setCancellationTimeoutHook(
                () -> {
                    Thread t = taskThread;
                    if (t != null) {
                        t.interrupt();
                    }
                });
        loop.setSchemaChangeTimeoutNanos(cfg.schemaChangeTimeoutNanos());
        attempt.start();
        fence = new ReaderFence<>(mailbox, coordinatorAddress);
        uplink.bind(fence);
        service.targets().registerReader(fence);
        loop.turnWatch().attach(service.turnWatchdog());
        schemaChangeEnd =
                new SchemaChangeEndRepair(
                        engineTask, service.watchdog(), "Lane A reader of " + identity);
        RuntimeObservers.readerOpened(mailbox, loopMetrics);
        service.taskTotals().readerOpened(loopMetrics);
        ReaderTaskMetrics.register(
                context.getMetricsContext(), mailbox, loopMetrics, System::nanoTime);
        attempt.register();
        // Behind the registration on the same transport lane, so the coordinator knows the
        // attempt before its first request.
        requests.open(this::sendRequest);
        // Only a turn runs connector code that can hide an interrupt from this host: between turns
        // the host's own waits end on it. So the fallback check runs for a turn the member's turn
        // watchdog found still running, and ends with that turn: a reader on slow data runs turns
        // of microseconds many times a second, and a timer armed for each cost more CPU than its
        // reading.
        final TurnWatch turns = loop.turnWatch();
        final InterruptWatch.Registration check =
                service.interruptWatch()
                        .watch(cfg.interruptCheckNanos(), () -> checkInterrupted(turns));
        interruptCheck = check;
        turns.onLongTurn(check::activate);
        ReaderTaskMetrics.registerHostMetrics(
                context.getMetricsContext(), requests, interruptCancels::get);
        LOG.info(
                "Lane A reader subtask {} attempt {} opened (source runtime {})",
                context.getIndexOfSubtask(),
                attemptId,
                source.sourceRuntimeId());
    }

    /**
     * The type Zeta's source task derives for its collector (from the produced catalog tables, or
     * the produced type of a connector without them), so that the poll turn sizes a sampled row as
     * the collector then does. Null, and rows sized without a type, if the connector declares
     * neither.
     */
    static SeaTunnelDataType<?> producedType(SeaTunnelSource<?, ?, ?> source) {
        try {
            try {
                return CatalogTableUtil.convertToDataType(source.getProducedCatalogTables());
            } catch (UnsupportedOperationException e) {
                return source.getProducedType();
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Lane A sizes rows without their type: the source declares no produced type"
                            + " ({})",
                    e.getClass().getSimpleName());
            return null;
        }
    }

    /**
     * Drives the loop with the task thread armed for interrupts: the engine's cancel reaches a
     * reader waiting inside a turn at once, whatever the reader does with the interrupt.
     */
    @Override
    public void pollNext(Collector<T> output) throws Exception {
        interrupts.arm();
        try {
            drive(output);
        } finally {
            interrupts.disarm();
        }
    }

    private void drive(Collector<T> output) throws Exception {
        taskThread = Thread.currentThread();
        schemaChangePause = false;
        loop.bindOutput(output);
        Object lock = output.getCheckpointLock();
        checkpointLock = lock;
        if (flow == null) {
            flow =
                    ReaderFlowControl.bind(
                            output,
                            loop,
                            mailbox,
                            signal,
                            source.config(),
                            loopMetrics.backpressure());
        }
        long recordsBefore = loopMetrics.records();
        // Read lazily: a call that emits rows returns after a few turns and never needs it.
        long deadline = 0;
        boolean deadlineSet = false;
        int turns = 0;
        for (; ; ) {
            // Lock released: an announced barrier takes it now, and a full output is waited for
            // here rather than inside the engine's collector with the lock held.
            flow.awaitAnnouncedBarrier();
            if (flow.outputBlocked()) {
                long now = System.nanoTime();
                if (!deadlineSet) {
                    deadline = now + source.config().idleWaitNanos();
                    deadlineSet = true;
                }
                if (deadline - now <= 0) {
                    return;
                }
                flow.awaitRoom(deadline - now);
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException("Lane A reader interrupted");
                }
            }
            LoopStatus status;
            boolean moreWork;
            synchronized (lock) {
                if (engineTask.prepareClose()) {
                    // The engine took its final barrier: no record may follow it.
                    offerGracefulClose();
                    loop.runControls();
                    return;
                }
                status = loop.runOnce();
                moreWork = loop.hasWork();
                if (status == LoopStatus.IDLE) {
                    attempt.onIdle();
                }
            }
            flow.turnEnded(status == LoopStatus.BUSY && moreWork);
            if (status == LoopStatus.TERMINATED) {
                rethrowTerminal();
                return;
            }
            if (status == LoopStatus.FINISHED) {
                if (!endSignalled) {
                    endSignalled = true;
                    context.signalNoMoreElement();
                }
                return;
            }
            if (!loop.schemaChange().phase().allowsPolling()) {
                // A schema change is in progress: the engine triggers its schema-change checkpoint
                // once this call returns with the mark in its collector (ZetaSchemaChange).
                return;
            }
            boolean emitted = loopMetrics.records() != recordsBefore;
            if (status == LoopStatus.BUSY) {
                // Several turns per engine call spread the engine's per-call work over more rows;
                // the lock is released between turns, so a barrier still waits one turn at most.
                // Each turn is time-bounded, so counting them bounds the call without a clock.
                if (emitted) {
                    // A reader that just said nothing more is available leaves with its rows: the
                    // next call waits for its signal, and yielding here would only hand the core
                    // to the sink for a second time per chunk.
                    if (++turns >= MAX_TURNS_PER_POLL || !moreWork) {
                        return;
                    }
                    // Zeta yields the core after every poll call that emitted (a zero sleep), so
                    // that on a loaded machine its checkpoint threads run between calls; turns
                    // within one call keep that point, or a barrier's delivery waits for the
                    // task thread's time slice.
                    Thread.yield();
                    continue;
                }
            }
            long now = System.nanoTime();
            if (!deadlineSet) {
                deadline = now + source.config().idleWaitNanos();
                deadlineSet = true;
            }
            long left = deadline - now;
            if (status == LoopStatus.BUSY) {
                // Busy without rows (applying commands): bounded by the same wait as idling.
                if (left <= 0) {
                    return;
                }
                continue;
            }
            // Idle. Returning without a row costs an engine sleep of 100 ms, so an idle host waits
            // here (lock released) for a command, availability or barrier signal instead; after a
            // barrier it only has to leave once the engine latched prepare-close, which the next
            // iteration checks under the lock.
            if (emitted || left <= 0) {
                return;
            }
            // The loop polls an idle reader by itself after reader.idle-wait, in case its
            // availability future never completes: wake up for that too.
            signal.await(Math.min(left, loop.nanosUntilIdlePoll()));
            flow.readerIdled();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("Lane A reader interrupted");
            }
        }
    }

    /**
     * Ends the engine's call after the attempt terminated. A failure is thrown with a text that
     * names the connector, the job, the subtask and the reason code: the engine reports the first
     * error it sees as the job's error. A cancel (the engine interrupted the task) is thrown as the
     * interrupt it is, which the engine does not count as a task failure while it cancels.
     */
    private void rethrowTerminal() throws InterruptedException {
        TerminalSignal t = loop.terminalSignal();
        if (t == null) {
            return;
        }
        requests.close();
        if (t.kind() == TerminalSignal.Kind.FATAL) {
            throw failure(t, "");
        }
        // Always thrown, even if the reader cleared the interrupt flag: a call that returned
        // normally would have the engine poll a cancelled reader until its next sleep noticed.
        Thread.interrupted();
        throw new InterruptedException("Lane A reader of " + identity + " cancelled");
    }

    /**
     * Inside {@code Thread.interrupt()}, on the interrupting thread: hands the cancel, which runs
     * the connector's {@code wakeup()}, to the member's watchdog thread (where the poll watchdog
     * calls {@code wakeup()} too), so connector code never runs while the JDK holds the task
     * thread's interrupt lock.
     */
    private void onTaskInterrupted() {
        try {
            service.watchdog().execute(this::cancelOnInterrupt);
        } catch (RuntimeException e) {
            // The member is shutting down: cancel here rather than not at all.
            cancelOnInterrupt();
        }
    }

    /**
     * Watchdog thread, every {@code reader.interrupt-check-interval} from the turn watchdog's first
     * sight of a running turn until that turn ended: the fallback of {@link #interrupts} for a task
     * thread whose interrupt registration connector I/O displaced during the current engine call,
     * while the interrupt flag is still set.
     */
    private void checkInterrupted(TurnWatch turns) {
        Thread t = taskThread;
        if (t != null && t.isInterrupted()) {
            cancelOnInterrupt();
        } else if (!turns.turnRunning()) {
            // The turn ended (the host sees the flag itself between turns); a later long turn is
            // found by the turn watchdog again.
            interruptCheck.deactivate();
        }
    }

    /**
     * The engine interrupted the task thread, which is how Zeta cancels a task (or restarts its
     * pipeline). A reader waiting inside a turn may honour only {@code wakeup()}, so the interrupt
     * becomes the attempt's cancel signal, which calls {@code wakeup()}; the turn returns and
     * {@link #rethrowTerminal} ends the engine's call. Runs on the member's watchdog thread. The
     * first terminal signal wins, so a failure already signalled (the poll watchdog interrupts the
     * thread itself) is never replaced by a cancel.
     */
    private void cancelOnInterrupt() {
        ReaderMailbox m = mailbox;
        if (m != null && m.terminalSignal() == null && m.terminate(TerminalSignal.cancel())) {
            interruptCancels.incrementAndGet();
            LOG.info(
                    "Lane A reader of {} (attempt {}): task thread interrupted by the engine;"
                            + " cancelling the attempt and waking the reader",
                    identity,
                    attemptId);
        }
    }

    /**
     * The engine latched prepare-close (a savepoint or the end of a bounded job took its final
     * barrier): the attempt closes gracefully, controls and barriers still run, no poll turn does.
     */
    private void offerGracefulClose() {
        if (!gracefulCloseOffered) {
            gracefulCloseOffered = true;
            attempt.gracefulClose();
        }
    }

    /** A request of the connector's reader, numbered by {@link OutboundRequests}; never blocks. */
    private CompletableFuture<AdmissionAck> sendRequest(
            CommandKind kind, long sequence, byte[] payload) {
        return attempt.sendRequest(kind, sequence, payload);
    }

    /**
     * The error of a barrier that reached a failed attempt, thrown once the engine has closed this
     * reader. Zeta reports the first error it sees as the job's, and a checkpoint error reaching
     * the master first also cancels this task's group, which then ends CANCELED and the task's own
     * failure is dropped: the job would report a checkpoint error instead of the cause. The task
     * thread closes the reader right after it reported the failure to its group, so the barrier
     * waits for that, at most {@code poll.cancellation-timeout}. The engine interrupts this thread
     * as soon as the task failed, which is too early: the wait outlasts interrupts and restores the
     * flag afterwards. The error names the same cause in any case.
     */
    private IllegalStateException failedBarrier(TerminalSignal t, long checkpointId) {
        if (schemaChangePause) {
            return failure(t, "; checkpoint " + checkpointId + " not taken");
        }
        long deadline = System.nanoTime() + source.config().pollBudget().cancellationNanos();
        boolean interrupted = false;
        try {
            for (; ; ) {
                long left = deadline - System.nanoTime();
                try {
                    if (closed.await(left, TimeUnit.NANOSECONDS)) {
                        break;
                    }
                    LOG.warn(
                            "Lane A reader of {}: checkpoint {} reached the failed attempt and the"
                                    + " reader was not closed within poll.cancellation-timeout",
                            identity,
                            checkpointId);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return failure(t, "; checkpoint " + checkpointId + " not taken");
    }

    private IllegalStateException failure(TerminalSignal t, String suffix) {
        return new IllegalStateException(
                "Lane A reader of "
                        + identity
                        + " (attempt "
                        + attemptId
                        + ") failed: "
                        + t.reason()
                        + suffix,
                t.cause());
    }

    @Override
    public List<ManagedSplit> snapshotState(long checkpointId) throws Exception {
        long start = System.nanoTime();
        if (engineTask.prepareClose()) {
            // The engine latched prepare-close for this barrier and calls pollNext no more.
            offerGracefulClose();
        }
        boolean aliveBefore = loop.terminalSignal() == null;
        BarrierResult barrier = attempt.takeBarrier(checkpointId, BARRIER_PUBLISH_WAIT_NANOS);
        if (barrier.refusal() != null) {
            // A barrier refused because the attempt already failed reports that failure: the
            // engine may see this checkpoint error before the task's own and report it as the
            // job's error.
            TerminalSignal t = loop.terminalSignal();
            if (t != null && t.kind() == TerminalSignal.Kind.FATAL) {
                throw failedBarrier(t, checkpointId);
            }
            throw new IllegalStateException(
                    "Checkpoint "
                            + checkpointId
                            + " barrier was not admitted: "
                            + barrier.refusal());
        }
        RuntimeObservers.barrierTaken(System.nanoTime() - start);
        ReaderSnapshot state = barrier.snapshot();
        TerminalSignal terminal = loop.terminalSignal();
        if (state == null && terminal != null && terminal.kind() == TerminalSignal.Kind.FATAL) {
            if (aliveBefore) {
                // This barrier's own snapshot failed the attempt. The task thread could close the
                // reader only in a turn under the checkpoint lock this thread holds, so waiting for
                // that close would always last poll.cancellation-timeout; the error names the
                // cause.
                throw failure(terminal, "; checkpoint " + checkpointId + " not taken");
            }
            throw failedBarrier(terminal, checkpointId);
        }
        if (state == null) {
            throw new IllegalStateException(
                    "Lane A reader subtask "
                            + context.getIndexOfSubtask()
                            + " could not take checkpoint "
                            + checkpointId,
                    barrier.failure());
        }
        if (FaultSeam.INSTALLED != null) {
            injectBeforeStateRegistration(checkpointId);
        }
        return managedSplits(state);
    }

    /** Fault point 8, tests only: the snapshot was taken, the engine has not got it. */
    private void injectBeforeStateRegistration(long checkpointId) throws InterruptedException {
        FaultSite site = FaultSite.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION;
        FaultAction f =
                FaultSeam.at(
                        site,
                        engineTask.jobId(),
                        context.getIndexOfSubtask(),
                        "checkpoint " + checkpointId);
        if (f == FaultAction.CRASH) {
            throw new InjectedFaultException(site, f);
        }
        if (f == FaultAction.STALL) {
            FaultSeam.hold(site);
        }
    }

    /**
     * The snapshot in Zeta's state form: one {@link ManagedSplit} per connector split, then the
     * runtime metadata, tagged with this subtask so that a restore with a changed parallelism can
     * tell the owners apart.
     */
    private static List<ManagedSplit> managedSplits(ReaderSnapshot state) {
        List<ManagedSplit> out = new ArrayList<>(state.splitCount() + 1);
        for (int i = 0; i < state.splitCount(); i++) {
            out.add(ManagedSplit.connector(state.splitId(i), state.split(i)));
        }
        out.add(ManagedSplit.metadata(state.subtask(), state.metadata()));
        return out;
    }

    private void onSchemaChangeRequested(SchemaChangeMark mark, long epoch) {
        schemaChangePause = true;
        ZetaSchemaChange.requested(identity, attemptId, mark, epoch);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (attempt != null) {
            attempt.notifyCheckpointComplete(checkpointId);
            schemaChangeEnd.checkpointCompleted(checkpointId);
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        if (attempt != null) {
            attempt.notifyCheckpointAborted(checkpointId);
        }
    }

    @Override
    public void addSplits(List<ManagedSplit> splits) {
        // Lane A assignments travel over the managed transport; the engine path stays unused.
        LOG.warn(
                "Lane A reader subtask {} ignored {} splits delivered by the engine path",
                context.getIndexOfSubtask(),
                splits.size());
    }

    @Override
    public void handleNoMoreSplits() {
        LOG.debug("Lane A reader subtask {} ignored engine no-more-splits", attemptId);
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {}

    /**
     * The engine notifies the checkpoint its final barrier belonged to (a savepoint, the end of a
     * bounded job) after {@code pollNext} stopped driving the loop, so the notice would only sit in
     * the mailbox: apply it before closing, so the connector hears it (a Kafka reader commits its
     * offsets there). Not after a cancel or failure, where nothing must reach the connector.
     */
    private void applyLastCheckpointNotices() {
        Object lock = checkpointLock;
        if (lock == null || loop.terminalSignal() != null) {
            return;
        }
        try {
            synchronized (lock) {
                loop.runControls();
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Lane A reader subtask {} attempt {} could not apply its last checkpoint"
                            + " notices before closing ({})",
                    context.getIndexOfSubtask(),
                    attemptId,
                    e.getClass().getSimpleName());
        }
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        requests.close();
        if (interruptCheck != null) {
            interruptCheck.cancel();
        }
        if (loop == null) {
            reader.close();
            return;
        }
        loop.turnWatch().detach();
        schemaChangeEnd.close();
        applyLastCheckpointNotices();
        service.targets().unregisterReader(mailbox);
        RuntimeObservers.readerClosed(mailbox, loopMetrics);
        service.taskTotals().readerClosed(loopMetrics);
        try {
            attempt.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
