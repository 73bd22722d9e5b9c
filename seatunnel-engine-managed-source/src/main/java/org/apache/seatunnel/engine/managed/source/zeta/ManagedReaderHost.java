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
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.OutboundRequests;
import org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt;
import org.apache.seatunnel.engine.managed.source.reader.ReaderDriver;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.SchemaChangeMark;
import org.apache.seatunnel.engine.managed.source.transport.CoordinatorEndpoint;
import org.apache.seatunnel.engine.managed.source.transport.ReaderFence;
import org.apache.seatunnel.engine.managed.source.transport.SenderUplink;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader the engine drives on Lane A: Zeta's thin adapter over the engine-neutral {@link
 * ReaderAttempt} (mailbox, loop, snapshot handover, what the attempt tells its coordinator) and
 * {@link ReaderDriver} (what one {@code pollNext} does). This class adds only what is Zeta's: the
 * checkpoint lock, the engine's task ({@link EngineBinding.ReaderTask}), the Hazelcast transport
 * ({@link ReaderHostWiring}, the {@link ReaderFence}), the watchdog, interrupts ({@link
 * ReaderInterrupts}), the barrier call ({@link ReaderBarrierCall}) and the engine metrics. It owns
 * no connector state: every engine callback becomes a command in the attempt's {@link
 * ReaderMailbox} or one turn of its {@link ReaderEventLoop}.
 *
 * <p>Threading: {@code open}, {@code pollNext} and {@code close} run on the task thread T; {@code
 * snapshotState} on an engine pool thread A that holds the checkpoint lock; {@code
 * notifyCheckpointComplete}, {@code addSplits} and {@code handleNoMoreSplits} on Hazelcast
 * operation threads H, which only offer to the mailbox (and, for a completed checkpoint, look
 * whether the engine's schema-change phase needs watching: {@link SchemaChangeEndRepair}, and pass
 * the completion to the source's coordinator if it is on this member). T drives the loop only while
 * holding the same checkpoint lock, so T and A never drive it at once and a barrier falls between
 * turns. T waits for work with the lock released, on the loop's signal, so an idle reader answers a
 * new command within microseconds instead of the engine's 100 ms empty-poll sleep. The connector's
 * split requests and source events leave through {@link OutboundRequests} from whichever thread
 * makes them, never blocking it. Life cycle: one instance per reader task attempt, {@code open} →
 * {@code pollNext}/{@code snapshotState} → {@code close}.
 */
final class ManagedReaderHost<T, SplitT extends SourceSplit>
        implements SourceReader<T, ManagedSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedReaderHost.class);

    private final ManagedSourceReader<T, SplitT> reader;
    private final SourceReader.Context context;
    private final ManagedLaneSource<T, SplitT, ?> source;
    private final ReaderLoopMetrics loopMetrics = new ReaderLoopMetrics();
    private final OutboundRequests requests;

    // Set in open() on T, before any other thread can reach this reader's attempt.
    private EngineBinding.ReaderTask engineTask;
    private ManagedSourceMemberService service;
    private SchemaChangeEndRepair schemaChangeEnd;
    private ReaderIdentity identity;
    private ReaderAttempt<T, SplitT> attempt;
    private ReaderMailbox mailbox;
    private ReaderEventLoop<T, SplitT> loop;
    private ReaderInterrupts interrupts;
    private ReaderHostErrors errors;
    private ReaderBarrierCall barriers;
    private ReaderDriver driver;
    // The engine's checkpoint lock, learned from the first pollNext; close drives the loop under
    // it.
    private volatile Object checkpointLock;
    private boolean endSignalled;
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
        ReaderHostWiring.checkCapability(reader, source);
        ManagedSourceConfig cfg = source.config();
        engineTask = EngineBinding.running().readerTask(context);
        service = ManagedSourceMemberService.of(engineTask.member());
        Address coordinatorAddress = engineTask.enumeratorAddress();
        long attemptId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        long jobId = engineTask.jobId();
        int subtask = context.getIndexOfSubtask();
        identity = ReaderHostWiring.identity(source, jobId, subtask);
        SenderUplink<Address> uplink = ReaderHostWiring.uplink(service, coordinatorAddress);
        attempt =
                ReaderHostWiring.attempt(
                        source,
                        reader,
                        service,
                        identity,
                        attemptId,
                        uplink,
                        loopMetrics,
                        this::onSchemaChangeRequested);
        mailbox = attempt.mailbox();
        loop = attempt.loop();
        interrupts = new ReaderInterrupts(mailbox, identity, service.watchdog());
        errors = new ReaderHostErrors(identity, attemptId, cfg.pollBudget().cancellationNanos());
        barriers = new ReaderBarrierCall(attempt, errors, jobId);
        driver =
                new ReaderDriver(
                        attempt,
                        NanoClock.SYSTEM,
                        cfg.idleWaitNanos(),
                        engineTask::prepareClose,
                        TimeUnit.MILLISECONDS.toNanos(source.checkpointIntervalMillis()),
                        ReaderDriver.crowdedWhenReadersExceed(
                                Runtime.getRuntime().availableProcessors(), service::readerCount));
        loop.setCancellationTimeoutHook(interrupts::interruptTaskThread);
        loop.setSchemaChangeTimeoutNanos(cfg.schemaChangeTimeoutNanos());
        attempt.start();
        ReaderFence<Address> fence = new ReaderFence<>(mailbox, coordinatorAddress);
        uplink.bind(fence);
        service.targets().registerReader(fence);
        loop.turnWatch().attach(service.turnWatchdog());
        schemaChangeEnd =
                new SchemaChangeEndRepair(
                        engineTask, service.watchdog(), "Lane A reader of " + identity);
        RuntimeObservers.readerOpened(mailbox, loopMetrics);
        service.taskTotals().readerOpened(loopMetrics);
        ReaderTaskMetrics.register(
                context.getMetricsContext(),
                mailbox,
                loopMetrics,
                System::nanoTime,
                cfg.readerMetricsLevel(),
                cfg.offLoopCheckEnabled());
        attempt.register();
        // Behind the registration on the same transport lane, so the coordinator knows the
        // attempt before its first request.
        requests.open(attempt::sendRequest);
        interrupts.watch(service.interruptWatch(), cfg.interruptCheckNanos(), loop.turnWatch());
        ReaderTaskMetrics.registerHostMetrics(
                context.getMetricsContext(),
                requests,
                interrupts::cancels,
                cfg.readerMetricsLevel());
        LOG.info(
                "Lane A reader subtask {} attempt {} opened (source runtime {})",
                subtask,
                attemptId,
                source.sourceRuntimeId());
    }

    /**
     * One engine call, driven by the {@link ReaderDriver} with the task thread armed for
     * interrupts: the engine's cancel reaches a reader waiting inside a turn at once, whatever the
     * reader does with the interrupt.
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
        errors.schemaChangePause(false);
        loop.bindOutput(output);
        Object lock = output.getCheckpointLock();
        checkpointLock = lock;
        if (flow == null) {
            flow =
                    ReaderFlowControl.bind(
                            output,
                            loop,
                            mailbox,
                            attempt.signal(),
                            source.config(),
                            loopMetrics.backpressure());
        }
        switch (driver.drive(lock, flow)) {
            case TERMINATED:
                if (loop.terminalSignal() != null) {
                    requests.close();
                    errors.rethrowTerminal(loop.terminalSignal());
                }
                return;
            case FINISHED:
                if (!endSignalled) {
                    endSignalled = true;
                    context.signalNoMoreElement();
                }
                return;
            default:
                // SCHEMA_CHANGE: the engine triggers its schema-change checkpoint once this call
                // returns with the mark in its collector (ZetaSchemaChange).
        }
    }

    @Override
    public List<ManagedSplit> snapshotState(long checkpointId) throws Exception {
        return barriers.snapshotState(checkpointId, engineTask.prepareClose());
    }

    private void onSchemaChangeRequested(SchemaChangeMark mark, long epoch) {
        errors.schemaChangePause(true);
        ZetaSchemaChange.requested(identity, attempt.attemptId(), mark, epoch);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (attempt != null) {
            attempt.notifyCheckpointComplete(checkpointId);
            schemaChangeEnd.checkpointCompleted(checkpointId);
        }
        // The engine tells the source's tasks one by one; the coordinator, if it is on this
        // member, takes the first notice (CheckpointCompletionGate).
        ManagedSourceMemberService s = service;
        CoordinatorEndpoint<Address> coordinator =
                s == null ? null : s.targets().coordinator(source.sourceRuntimeId());
        if (coordinator != null) {
            coordinator.checkpointCompletedAtReader(checkpointId);
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
        LOG.debug("Lane A reader subtask {} ignored engine no-more-splits", identity);
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {}

    @Override
    public void close() throws IOException {
        requests.close();
        if (loop == null) {
            reader.close();
            return;
        }
        errors.closed();
        interrupts.close();
        loop.turnWatch().detach();
        schemaChangeEnd.close();
        driver.applyLastCheckpointNotices(checkpointLock);
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
