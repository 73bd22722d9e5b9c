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
import java.io.Serializable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.coordinator.CheckpointCompletionGate;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEpochs;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorInbox;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorSnapshotCodec;
import org.apache.seatunnel.engine.managed.source.coordinator.EnumeratorFactory;
import org.apache.seatunnel.engine.managed.source.coordinator.OfferResult;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.coordinator.SenderDispatcher;
import org.apache.seatunnel.engine.managed.source.coordinator.StateFormatException;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.transport.CoordinatorEndpoint;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.apache.seatunnel.engine.managed.source.zeta.member.BarrierAnnouncer;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator the engine drives on Lane A. Every engine callback becomes a command of the
 * source's {@link CoordinatorEventLoop}, which alone touches the connector's enumerator and the
 * assignment tracker, and runs on the member service's coordinator executor rather than inside
 * {@link #run()} (which must return so a bounded job can end — docs/en/architecture.md hazard 6).
 * Reader-to-coordinator commands arrive through {@link #onReaderCommand} on operation threads,
 * which only enqueue.
 *
 * <p>Threading: engine callbacks on the enumerator task thread, pool threads A (snapshot, with the
 * engine's enumerator-context monitor held) and operation threads H; all of them only enqueue,
 * except {@link #snapshotState}, the one synchronous demand: A takes the snapshot itself when the
 * coordinator loop is free, else waits for it, bounded by {@code coordinator.snapshot-timeout} and
 * reported above {@code coordinator.snapshot-slow-threshold}; it never needs the monitor A holds.
 */
final class ManagedEnumeratorHost<T, SplitT extends SourceSplit, StateT extends Serializable>
        implements SourceSplitEnumerator<ManagedSplit, ManagedEnumeratorState>,
                CoordinatorEndpoint<Address> {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedEnumeratorHost.class);
    private static final long SEND_DEADLINE_MILLIS = 60_000;
    // The retry hint of a busy or not-yet-checkable coordinator answer.
    private static final long RETRY_AFTER_MILLIS = 10;

    private final ManagedLaneSource<T, SplitT, StateT> source;
    private final SourceSplitEnumerator.Context<ManagedSplit> context;
    private final EngineBinding.EnumeratorTask engineTask;
    private final ManagedEnumeratorState restored;
    private final Serializer<SplitT> splitSerializer;
    private final long epoch;
    private final CoordinatorInbox<Address> inbox;
    private final BarrierAnnouncer announcer;
    private final CheckpointCompletionGate completions;

    private final ManagedSourceMemberService service;
    private final CoordinatorEventLoop<SplitT, StateT> loop;
    private final AtomicBoolean failureReported = new AtomicBoolean();
    private volatile boolean closing;

    /**
     * Builds the coordinator loop at once, on the engine thread that creates or restores the
     * enumerator: Zeta hands restored reader state to {@link #addSplitsBack} and may call {@link
     * #registerReader} before it calls {@link #open()} (hazard 2), so the loop must already exist
     * to queue them. Connector code still runs only once {@link #open()} offers the open command.
     */
    ManagedEnumeratorHost(
            ManagedLaneSource<T, SplitT, StateT> source,
            SourceSplitEnumerator.Context<ManagedSplit> context,
            ManagedEnumeratorState restored) {
        this.source = source;
        this.context = context;
        this.restored = restored;
        this.splitSerializer = source.inner().getSplitSerializer();
        this.engineTask = EngineBinding.running().enumeratorTask(context);
        this.service = ManagedSourceMemberService.of(engineTask.member());
        this.epoch = nextEpoch(service, engineTask.jobId(), source.sourceRuntimeId(), restored);
        this.loop = buildLoop();
        this.completions =
                new CheckpointCompletionGate(loop::notifyCheckpointComplete, loop.metrics());
        this.inbox =
                new CoordinatorInbox<>(
                        loop,
                        engineTask.jobId(),
                        context.currentParallelism(),
                        engineTask::readerMember,
                        RETRY_AFTER_MILLIS);
        this.announcer =
                new BarrierAnnouncer(
                        service,
                        engineTask.jobId(),
                        source.sourceRuntimeId(),
                        context.currentParallelism(),
                        inbox.fence());
        CoordinatorTaskMetrics.register(context.getMetricsContext(), loop.metrics());
        LaneMetric.register(context.getMetricsContext(), source.decision());
        service.targets().registerCoordinator(source.sourceRuntimeId(), this);
        service.taskTotals().coordinatorOpened(loop.metrics(), String.valueOf(engineTask.jobId()));
    }

    private CoordinatorEventLoop<SplitT, StateT> buildLoop() {
        ManagedSourceConfig cfg = source.config();
        SeaTunnelSource<T, SplitT, StateT> inner = source.inner();
        @SuppressWarnings("unchecked")
        Serializer<SourceEvent> events = source.eventSerializer();
        return CoordinatorEventLoop.<SplitT, StateT>builder()
                .config(
                        // The job's planned settings: tracker bounds, its own async share, retries.
                        cfg.coordinatorConfig()
                                .jobId(engineTask.jobId())
                                .sourceRuntimeId(source.sourceRuntimeId())
                                .epoch(epoch)
                                .parallelism(context.currentParallelism())
                                .checkpointsEnabled(source.checkpointsEnabled())
                                .build())
                .metrics(new CoordinatorMetrics())
                .enumeratorFactory(
                        new EnumeratorFactory<SplitT, StateT>() {
                            @Override
                            public SourceSplitEnumerator<SplitT, StateT> create(
                                    SourceSplitEnumerator.Context<SplitT> c) throws Exception {
                                return inner.createEnumerator(c);
                            }

                            @Override
                            public SourceSplitEnumerator<SplitT, StateT> restore(
                                    SourceSplitEnumerator.Context<SplitT> c, StateT s)
                                    throws Exception {
                                return inner.restoreEnumerator(c, s);
                            }
                        })
                .splitSerializer(splitSerializer)
                .stateSerializer(inner.getEnumeratorStateSerializer())
                .eventSerializer(events)
                .dispatcher(
                        new SenderDispatcher<>(
                                service.sender(),
                                subtask -> inbox.fence().member(subtask),
                                System::currentTimeMillis,
                                SEND_DEADLINE_MILLIS))
                .executor(service.coordinatorExecutor())
                .timer(
                        (delay, action) -> {
                            java.util.concurrent.ScheduledFuture<?> f =
                                    service.watchdog()
                                            .schedule(
                                                    action, delay.toNanos(), TimeUnit.NANOSECONDS);
                            return new org.apache.seatunnel.api.source.managed.Cancellable() {
                                @Override
                                public boolean cancel() {
                                    return f.cancel(false);
                                }

                                @Override
                                public boolean isCancelled() {
                                    return f.isCancelled();
                                }
                            };
                        })
                .clock(Clock.systemUTC())
                // Member-wide async workers, apart from the coordinator-loop threads; the loop
                // takes a lane of it and releases the lane when it closes.
                .workerPool(service.asyncWorkers())
                // The connector's own loader: the creating engine thread's context loader is not
                // guaranteed to be the job's.
                .classLoader(inner.getClass().getClassLoader())
                .failureHandler(this::onLoopFailure)
                .metricsContext(context.getMetricsContext())
                .eventListener(context.getEventListener())
                .restoreFrom(restored == null ? null : restored.coordinatorBlob())
                .build();
    }

    /**
     * A command of the coordinator loop failed (connector enumerator code threw, or the runtime
     * could not apply a command): its assignments can no longer be trusted, so the pipeline must
     * restore from the last checkpoint. The loop runs outside every engine callback, so nothing
     * would otherwise reach the engine: report it the way the engine's own task operations report a
     * task failure, once per host.
     */
    private void onLoopFailure(String where, Throwable cause) {
        LOG.error(
                "Lane A coordinator of source runtime {} failed in {}",
                source.sourceRuntimeId(),
                where,
                cause);
        if (closing || !failureReported.compareAndSet(false, true)) {
            return;
        }
        try {
            engineTask.reportFailureToMaster(
                    new IllegalStateException("Lane A coordinator failed in " + where, cause));
        } catch (RuntimeException e) {
            LOG.error("Could not report the Lane A coordinator failure to the master", e);
        }
    }

    @Override
    public void open() {
        expectAccepted(loop.open(), "open");
        RuntimeObservers.coordinatorOpened(
                engineTask.jobId(), source.sourceRuntimeId(), epoch, restored != null);
        LOG.info(
                "Lane A coordinator of source runtime {} opened in epoch {} (restored: {};"
                        + " checkpoints: {})",
                source.sourceRuntimeId(),
                epoch,
                restored != null,
                source.checkpointsEnabled()
                        ? "periodic"
                        : "none, assignments are collected once applied");
    }

    /**
     * The epoch of this coordinator (invariant 7): past every epoch its source ran in and past the
     * restored checkpoint's ({@link CoordinatorEpochs}), so two restores from one checkpoint, or a
     * restart without one, never share an epoch.
     */
    private static long nextEpoch(
            ManagedSourceMemberService service,
            long jobId,
            long sourceRuntimeId,
            ManagedEnumeratorState restored) {
        long checkpointed = 0;
        if (restored != null) {
            try {
                checkpointed = CoordinatorSnapshotCodec.decode(restored.coordinatorBlob()).epoch();
            } catch (StateFormatException e) {
                throw new IllegalStateException(
                        "Cannot read the Lane A coordinator checkpoint: " + e.getMessage(), e);
            }
        }
        return CoordinatorEpochs.next(service.epochStore(), jobId, sourceRuntimeId, checkpointed);
    }

    /**
     * Operation thread H: the coordinator epoch's {@link CoordinatorInbox} checks, enqueues and
     * answers.
     */
    @Override
    public AdmissionAck onReaderCommand(SourceCommandEnvelope env, Address from) {
        return inbox.onReaderCommand(env, from);
    }

    @Override
    public void run() {
        // Returns at once: the coordinator loop runs on the member's executor (hazard 6).
    }

    @Override
    public void addSplitsBack(List<ManagedSplit> splits, int subtaskId) {
        List<SplitT> connectorSplits = new ArrayList<>();
        // After a restore with fewer readers Zeta hands new subtask k the states of old subtasks
        // k, k + p', k + 2p', ... in one list: one metadata per old owner, each reconciled under
        // its own index (the tracker knows owners by their index when the checkpoint was taken).
        Map<Integer, SourceRuntimeCheckpointMetadata> metas = new TreeMap<>();
        for (ManagedSplit s : splits) {
            try {
                if (s.kind() == ManagedSplit.Kind.RUNTIME_METADATA) {
                    metas.put(
                            s.metadataSubtask(subtaskId),
                            new SourceRuntimeCheckpointMetadataSerializer().deserialize(s.bytes()));
                } else {
                    connectorSplits.add(splitSerializer.deserialize(s.bytes()));
                }
            } catch (IOException e) {
                throw new IllegalStateException(
                        "Cannot read Lane A reader state of subtask " + subtaskId, e);
            }
        }
        List<ReaderInclusionReport> owners = new ArrayList<>(metas.size());
        for (Map.Entry<Integer, SourceRuntimeCheckpointMetadata> m : metas.entrySet()) {
            SourceRuntimeCheckpointMetadata meta = m.getValue();
            ManagedLaneSource.verifyRestore(
                    engineTask.jobId(), source.decision(), meta.lane(), meta.capabilityDigest());
            // The engine hands reader state back before readers open: the restored owner keeps
            // nothing, its splits return here, and the tracker reconciles from the metadata.
            owners.add(
                    ReaderInclusionReport.fromMetadata(
                            ReaderInclusionReport.Kind.RESTORED,
                            m.getKey(),
                            ReaderInclusionReport.NO_ATTEMPT,
                            meta));
        }
        if (owners.isEmpty() && connectorSplits.isEmpty()) {
            return;
        }
        // One command, so the coordinator can tell a state the engine delivers twice by its owners.
        expectAccepted(
                loop.restoreReaderState(subtaskId, owners, connectorSplits),
                "restore reader state");
    }

    @Override
    public int currentUnassignedSplitSize() {
        return 0;
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        Long attempt = inbox.fence().attempt(subtaskId);
        loop.handleSplitRequest(subtaskId, attempt == null ? -1 : attempt);
    }

    @Override
    public void registerReader(int subtaskId) {
        // Lane A readers register over the managed transport with their attempt id and member.
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        Long attempt = inbox.fence().attempt(subtaskId);
        loop.handleSourceEvent(subtaskId, attempt == null ? -1 : attempt, sourceEvent);
    }

    @Override
    public ManagedEnumeratorState snapshotState(long checkpointId) throws Exception {
        byte[] blob = loop.snapshotAndWait(checkpointId);
        // Zeta sends this checkpoint's barrier to the readers right after this snapshot: tell them
        // now, so each hands its checkpoint lock to the barrier instead of racing it. (Not before
        // the snapshot: readers would idle while a busy coordinator takes it.)
        announcer.announce(checkpointId);
        return new ManagedEnumeratorState(
                Lane.A, source.decision().capabilityDigest(), checkpointId, blob);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (FaultSeam.INSTALLED != null && injectBeforeTrackerGc(checkpointId)) {
            return;
        }
        completions.fromEnumerator(checkpointId);
    }

    @Override
    public void checkpointCompletedAtReader(long checkpointId) {
        completions.fromReader(checkpointId);
    }

    /** Fault point 11, tests only; true if the notification is not to reach the loop now. */
    private boolean injectBeforeTrackerGc(long checkpointId) {
        FaultSite site = FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC;
        FaultAction f = FaultSeam.at(site, engineTask.jobId(), -1, "checkpoint " + checkpointId);
        if (f == FaultAction.CRASH) {
            throw new InjectedFaultException(site, f);
        }
        if (f == FaultAction.DELAY) {
            service.watchdog()
                    .schedule(
                            () -> completions.fromEnumerator(checkpointId),
                            FaultSeam.DELAY_MILLIS,
                            TimeUnit.MILLISECONDS);
        }
        return f == FaultAction.LOSE || f == FaultAction.DELAY;
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        loop.notifyCheckpointAborted(checkpointId);
    }

    /**
     * Closes the coordinator and waits, at most {@code coordinator.close-timeout}, until the loop
     * has run the connector's enumerator {@code close()}: the engine goes on (and may stop the
     * member's loop threads) once this returns. Idempotent: a coordinator the member already closed
     * at shutdown is not closed again.
     */
    @Override
    public void close() throws IOException {
        try {
            closeAndWait(TimeUnit.MILLISECONDS.toNanos(service.settings().closeTimeoutMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while closing the coordinator");
        }
    }

    @Override
    public boolean closeForMemberShutdown(long timeoutNanos) throws InterruptedException {
        return closeAndWait(timeoutNanos);
    }

    private boolean closeAndWait(long timeoutNanos) throws InterruptedException {
        closing = true;
        try {
            // CLOSED when another caller closed it first: nothing to add.
            loop.close();
            boolean closed = loop.awaitClosed(timeoutNanos);
            if (!closed) {
                LOG.warn(
                        "Lane A coordinator of source runtime {} did not close within"
                                + " coordinator.close-timeout ({} ms)",
                        source.sourceRuntimeId(),
                        TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
            }
            return closed;
        } finally {
            service.targets().unregisterCoordinator(source.sourceRuntimeId(), this);
            service.taskTotals().coordinatorClosed(loop.metrics());
        }
    }

    private void expectAccepted(OfferResult r, String what) {
        if (r != OfferResult.ENQUEUED) {
            throw new IllegalStateException(
                    "Lane A coordinator could not accept " + what + ": " + r);
        }
    }
}
