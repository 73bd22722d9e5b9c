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
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.table.catalog.CatalogTableUtil;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LocalCommands;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopHost;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.RecordSizes;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.zeta.transport.ManagedSourceMemberService;
import org.apache.seatunnel.engine.managed.source.zeta.transport.ReaderFence;
import org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threading: {@code open}, {@code pollNext} and {@code close} run on the task thread T; {@code
 * snapshotState} on an engine pool thread A that holds the checkpoint lock; {@code
 * notifyCheckpointComplete}, {@code addSplits} and {@code handleNoMoreSplits} on Hazelcast
 * operation threads H, which only offer to the mailbox. T drives the loop only while holding the
 * same checkpoint lock, so T and A never drive it at once and a barrier falls between turns. T
 * waits for work with the lock released, on the loop's signal, so an idle reader answers a new
 * command within microseconds instead of the engine's 100 ms empty-poll sleep.
 *
 * <p>The reader the engine drives on Lane A. It owns no connector state: every engine callback
 * becomes a command in the attempt's {@link ReaderMailbox} or one turn of its {@link
 * ReaderEventLoop}, and the connector only ever runs inside the loop.
 */
final class ManagedReaderHost<T, SplitT extends SourceSplit>
        implements SourceReader<T, ManagedSplit>, ReaderLoopHost<SplitT> {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedReaderHost.class);
    private static final long REGISTRATION_DEADLINE_MILLIS = 60_000;
    private static final long BARRIER_PUBLISH_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int MAX_TURNS_PER_POLL = 4;

    private final ManagedSourceReader<T, SplitT> reader;
    private final SourceReader.Context context;
    private final ManagedLaneSource<T, SplitT, ?> source;
    private final Serializer<SplitT> splitSerializer;
    private final Serializer<SourceEvent> eventSerializer;
    private final LoopSignal signal = new LoopSignal();
    private final ReaderLoopMetrics loopMetrics = new ReaderLoopMetrics();
    private final AtomicLong outboundIds = new AtomicLong();
    // Counted down when the engine closes this reader: its task has ended.
    private final CountDownLatch closed = new CountDownLatch(1);

    private SourceFlowLifeCycle<?, ?> lifecycle;
    private ManagedSourceMemberService service;
    private Address coordinatorAddress;
    private long attemptId;
    private ReaderMailbox mailbox;
    private ReaderFence fence;
    private ReaderIdentity identity;
    private LocalCommands local;
    private ReaderEventLoop<T, SplitT> loop;
    private volatile Thread taskThread;
    // The engine's checkpoint lock, learned from the first pollNext; close drives the loop under
    // it.
    private volatile Object checkpointLock;
    private boolean endSignalled;

    // Handed from the loop's onCheckpoint callback to snapshotState, both on the thread holding
    // the checkpoint lock.
    private List<ManagedSplit> pendingState;
    private Throwable pendingFailure;

    ManagedReaderHost(
            ManagedSourceReader<T, SplitT> reader,
            SourceReader.Context context,
            ManagedLaneSource<T, SplitT, ?> source) {
        this.reader = reader;
        this.context = context;
        this.source = source;
        this.splitSerializer = source.inner().getSplitSerializer();
        this.eventSerializer = source.eventSerializer();
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
        lifecycle = EngineAccess.lifecycle(context);
        service = ManagedSourceMemberService.of(EngineAccess.member(context));
        coordinatorAddress = EngineAccess.enumeratorAddress(context);
        attemptId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        mailbox =
                new ReaderMailbox(
                        EngineAccess.jobId(context),
                        source.sourceRuntimeId(),
                        context.getIndexOfSubtask(),
                        attemptId,
                        cfg.mailboxLimits(),
                        service.workerBudget(),
                        NanoClock.SYSTEM,
                        signal,
                        new ReaderMailboxMetrics());
        local = new LocalCommands(mailbox);
        identity =
                new ReaderIdentity(
                        source.inner().getPluginName(),
                        mailbox.jobId(),
                        source.jobName(),
                        context.getIndexOfSubtask());
        loop =
                new ReaderEventLoop<>(
                        mailbox,
                        identity,
                        reader,
                        this,
                        null,
                        cfg.pollBudget(),
                        RecordSizes.<T>forRowType(producedType(source.inner())),
                        loopMetrics);
        loop.setCancellationTimeoutHook(
                () -> {
                    Thread t = taskThread;
                    if (t != null) {
                        t.interrupt();
                    }
                });
        loop.start(0);
        fence = new ReaderFence(mailbox, coordinatorAddress);
        service.targets().registerReader(fence);
        loop.turnWatch().attach(service.turnWatchdog());
        RuntimeStats.readerOpened(mailbox, loopMetrics);
        ReaderTaskMetrics.register(
                context.getMetricsContext(), mailbox, loopMetrics, System::nanoTime);
        send(toCoordinator(CommandKind.READER_REGISTRATION, new byte[0]), true);
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

    @Override
    public void pollNext(Collector<T> output) throws Exception {
        taskThread = Thread.currentThread();
        loop.bindOutput(output);
        Object lock = output.getCheckpointLock();
        checkpointLock = lock;
        long recordsBefore = loopMetrics.records();
        // Read lazily: a call that emits rows returns after a few turns and never needs it.
        long deadline = 0;
        boolean deadlineSet = false;
        int turns = 0;
        for (; ; ) {
            LoopStatus status;
            synchronized (lock) {
                if (EngineAccess.prepareClose(lifecycle)) {
                    // The engine took its final barrier: no record may follow it.
                    loop.runControls();
                    return;
                }
                status = loop.runOnce();
            }
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
            boolean emitted = loopMetrics.records() != recordsBefore;
            if (status == LoopStatus.BUSY) {
                // Several turns per engine call spread the engine's per-call work over more rows;
                // the lock is released between turns, so a barrier still waits one turn at most.
                // Each turn is time-bounded, so counting them bounds the call without a clock.
                if (emitted) {
                    if (++turns >= MAX_TURNS_PER_POLL) {
                        return;
                    }
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
        if (t.kind() == TerminalSignal.Kind.FATAL) {
            throw failure(t, "");
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("Lane A reader of " + identity + " cancelled");
        }
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
        pendingState = null;
        pendingFailure = null;
        AdmissionAck ack = mailbox.offer(local.barrier(checkpointId));
        if (!ack.status().isAdmitted()) {
            // A barrier refused because the attempt already failed reports that failure: the
            // engine may see this checkpoint error before the task's own and report it as the
            // job's error.
            TerminalSignal t = loop.terminalSignal();
            if (t != null && t.kind() == TerminalSignal.Kind.FATAL) {
                throw failedBarrier(t, checkpointId);
            }
            throw new IllegalStateException(
                    "Checkpoint " + checkpointId + " barrier was not admitted: " + ack);
        }
        boolean done = loop.runControlsUntilBarrier(checkpointId, BARRIER_PUBLISH_WAIT_NANOS);
        RuntimeStats.barrierWait(System.nanoTime() - start);
        // Wake an idle task thread: if this was the engine's final barrier it must return now.
        signal.signal();
        List<ManagedSplit> state = pendingState;
        pendingState = null;
        TerminalSignal terminal = loop.terminalSignal();
        if (state == null && terminal != null && terminal.kind() == TerminalSignal.Kind.FATAL) {
            throw failedBarrier(terminal, checkpointId);
        }
        if (!done || state == null) {
            throw new IllegalStateException(
                    "Lane A reader subtask "
                            + context.getIndexOfSubtask()
                            + " could not take checkpoint "
                            + checkpointId,
                    pendingFailure);
        }
        return state;
    }

    @Override
    public void onCheckpoint(long checkpointId, List<SplitT> splitState, ReaderCheckpointCut cut)
            throws Exception {
        List<ManagedSplit> out = new ArrayList<>(splitState.size() + 1);
        for (SplitT s : splitState) {
            out.add(ManagedSplit.connector(s.splitId(), splitSerializer.serialize(s)));
        }
        byte[] meta =
                new SourceRuntimeCheckpointMetadataSerializer()
                        .serialize(cut.toMetadata(source.decision().capabilityDigest()));
        out.add(ManagedSplit.metadata(context.getIndexOfSubtask(), meta));
        pendingState = out;
        // The inclusion proof the coordinator's tracker waits for; fire-and-forget.
        send(toCoordinator(CommandKind.READER_CHECKPOINTED, meta), false);
    }

    @Override
    public void onCheckpointFailed(long checkpointId, Throwable cause) {
        pendingFailure = cause;
    }

    @Override
    public List<SplitT> decodeSplits(SourceCommandEnvelope assignment) throws IOException {
        return Collections.singletonList(splitSerializer.deserialize(assignment.copyPayload()));
    }

    @Override
    public SourceEvent decodeSourceEvent(SourceCommandEnvelope event) throws IOException {
        if (eventSerializer == null) {
            throw new IllegalStateException(
                    "received a source event but the connector declares no event serializer");
        }
        return eventSerializer.deserialize(event.copyPayload());
    }

    @Override
    public void onApplied(SourceCommandEnvelope command) {
        if (command.commandKind() == CommandKind.SPLIT_ASSIGNMENT) {
            byte[] id = new byte[8];
            long v = command.commandId();
            for (int i = 7; i >= 0; i--) {
                id[i] = (byte) v;
                v >>>= 8;
            }
            send(toCoordinator(CommandKind.ASSIGNMENT_ACK, id), false);
        }
    }

    @Override
    public void onEndOfInput() {
        LOG.info(
                "Lane A reader subtask {} attempt {} reached end of input",
                context.getIndexOfSubtask(),
                attemptId);
    }

    private SourceCommandEnvelope toCoordinator(CommandKind kind, byte[] payload) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(mailbox.jobId())
                .sourceRuntimeId(source.sourceRuntimeId())
                .targetSubtask(context.getIndexOfSubtask())
                .senderAttemptId(attemptId)
                // 0 until the registration is acknowledged: the coordinator checks it when set.
                .coordinatorEpoch(fence.epoch())
                .commandId(outboundIds.incrementAndGet())
                .payloadVersion(1)
                .payload(payload)
                .build();
    }

    /** Sends without waiting; a lost registration is fatal, other losses are recoverable. */
    private void send(SourceCommandEnvelope env, boolean fatalOnFailure) {
        service.sender()
                .send(
                        coordinatorAddress,
                        env,
                        System.currentTimeMillis() + REGISTRATION_DEADLINE_MILLIS)
                .whenComplete(
                        (ack, err) -> {
                            boolean ok = err == null && ack.status().isAdmitted();
                            if (ok && env.commandKind() == CommandKind.READER_REGISTRATION) {
                                // The coordinator answers with its epoch: from now on only its
                                // commands are accepted.
                                fence.bindEpoch(ack.targetAttemptId());
                            }
                            if (!ok && fatalOnFailure) {
                                mailbox.terminate(
                                        TerminalSignal.fatal(
                                                ReasonCode.NO_SUCH_TARGET,
                                                err != null
                                                        ? err
                                                        : new IllegalStateException(
                                                                "coordinator refused "
                                                                        + env.commandKind()
                                                                        + ": "
                                                                        + ack)));
                            } else if (!ok) {
                                LOG.debug(
                                        "Lane A reader {} could not deliver {}: {}",
                                        attemptId,
                                        env.commandKind(),
                                        err != null ? err.toString() : ack);
                            }
                        });
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        offerLocal(local.checkpointComplete(checkpointId));
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        offerLocal(local.checkpointAborted(checkpointId));
    }

    private void offerLocal(SourceCommandEnvelope env) {
        if (mailbox == null) {
            return;
        }
        AdmissionAck ack = mailbox.offer(env);
        if (!ack.status().isAdmitted()) {
            LOG.debug("Lane A reader {} dropped {}: {}", attemptId, env.commandKind(), ack);
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
        if (loop == null) {
            reader.close();
            return;
        }
        loop.turnWatch().detach();
        applyLastCheckpointNotices();
        service.targets().unregisterReader(mailbox);
        RuntimeStats.readerClosed(mailbox, loopMetrics);
        try {
            loop.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
