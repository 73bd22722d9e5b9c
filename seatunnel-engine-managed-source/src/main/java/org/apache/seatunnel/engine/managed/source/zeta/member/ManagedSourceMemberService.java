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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.services.ManagedService;
import com.hazelcast.spi.impl.NodeEngine;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEpochs;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.reader.TurnWatchdog;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.transport.CheckpointReportLane;
import org.apache.seatunnel.engine.managed.source.transport.CommandSender;
import org.apache.seatunnel.engine.managed.source.transport.CoordinatorEndpoint;
import org.apache.seatunnel.engine.managed.source.transport.FrameInvoker;
import org.apache.seatunnel.engine.managed.source.transport.ReportGrouping;
import org.apache.seatunnel.engine.managed.source.transport.SenderScheduler;
import org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;
import org.apache.seatunnel.engine.managed.source.transport.TransportTargets;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineVersion;
import org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandOperation;
import org.apache.seatunnel.engine.managed.source.zeta.transport.FailJobOperation;
import org.apache.seatunnel.engine.managed.source.zeta.transport.InboundRouter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lane A's per-member Hazelcast service: owns what exists once per member — the worker mailbox
 * budget, the registry of reader mailboxes and coordinator endpoints, the shared coordinator-loop
 * executor, the async worker pool (its own bounded executors, one per worker class, apart from the
 * coordinator-loop threads), the watchdog scheduler, and the command transport (both ends, with the
 * checkpoint-report batcher).
 *
 * <p>Threading: created and {@link #init initialized} by Hazelcast on the node-start thread and
 * {@link #shutdown shut down} on the node-shutdown thread; every accessor may be called from any
 * thread once {@link #of} can find the service (Hazelcast registers services before the member
 * accepts operations). The owned executors run daemon threads named {@code
 * hz.<member>.managed-source-coordinator-N}, {@code hz.<member>.managed-source-watchdog}, {@code
 * hz.<member>.managed-source-sender} and {@code hz.<member>.managed-source-async-discovery-N} /
 * {@code hz.<member>.managed-source-async-compute-N} (the async workers), after Hazelcast's own
 * {@code hz.<member>.*} naming, so two members in one JVM stay apart in a thread dump.
 *
 * <p>Registration: {@link ManagedSourceServiceDescriptorProvider}, listed in {@code
 * META-INF/services/com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider}, which
 * Hazelcast's {@code ServiceManagerImpl} reads at node start (only when the services config keeps
 * its defaults enabled, as SeaTunnel's does).
 *
 * <p>Settings are read once, at creation, from the static {@link #configure} holder: Hazelcast
 * builds the service with no access to job or host configuration.
 */
public final class ManagedSourceMemberService implements ManagedService, InboundRouter {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedSourceMemberService.class);

    /** The Hazelcast service name our operations are addressed to. */
    public static final String SERVICE_NAME = InboundRouter.SERVICE_NAME;

    private static volatile MemberSettings configured = MemberSettings.defaults();

    private final MemberSettings settings;
    private final WorkerMailboxBudget workerBudget;
    private final TransportTargets<Address> targets = new TransportTargets<>();
    private final TransportMetrics metrics = new TransportMetrics();
    private final MemberTaskTotals taskTotals = new MemberTaskTotals();
    private final SourceCommandTransportAdapter<Address> adapter;
    private final InterruptWatch interruptWatch = new InterruptWatch(this::watchdog);

    // Set once in init(); volatile because accessors run on other threads.
    private volatile NodeEngine nodeEngine;
    private volatile MemberExecutors executors;
    private volatile ThreadPoolExecutor coordinatorExecutor;
    private volatile ScheduledThreadPoolExecutor watchdog;
    private volatile TurnWatchdog turnWatchdog;
    private volatile ScheduledThreadPoolExecutor senderScheduler;
    private volatile CommandSender<Address> sender;
    private volatile CheckpointReportLane<Address> reportBatcher;
    private volatile SourceAsyncWorkerPool asyncWorkers;

    /**
     * Called by {@link ManagedSourceServiceDescriptorProvider} when a member starts: the configured
     * settings, with the worker budget, payload bound ({@code command.max-payload-bytes}, also the
     * transport's) and retry backoffs of the operator's managed-source section. Loading that
     * section here also reports, at startup, allowlisted connector names that match nothing; an
     * invalid section is logged and never stops the member (jobs that use Lane A then fail at
     * planning with the same message).
     */
    public ManagedSourceMemberService() {
        this(fromOperatorConfig(configured));
    }

    private static MemberSettings fromOperatorConfig(MemberSettings base) {
        try {
            ManagedSourceConfig c = OperatorSettings.operatorConfig();
            if (c == null) {
                return base;
            }
            return base.withOperatorConfig(c);
        } catch (RuntimeException e) {
            // The message names the key, the value and the allowed range; a stack trace adds
            // nothing an operator needs.
            LOG.error(
                    "Invalid managed-source settings; the member keeps the defaults and jobs"
                            + " that use Lane A fail at planning: {}",
                    e.getMessage());
            return base;
        }
    }

    ManagedSourceMemberService(MemberSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.workerBudget = new WorkerMailboxBudget(settings.workerMailboxBytes());
        this.adapter =
                new SourceCommandTransportAdapter<>(
                        targets,
                        settings.maxPayloadBytes(),
                        settings.retryInitialBackoffMillis(),
                        metrics,
                        settings.admissionBudgetNanos());
    }

    /**
     * Sets the settings of members started after this call in this JVM; members already running
     * keep theirs. Call before the engine starts (e.g. from the server launcher) or in tests before
     * creating a member.
     */
    public static void configure(MemberSettings settings) {
        configured = Objects.requireNonNull(settings, "settings");
    }

    /** Shorthand for {@link #configure(MemberSettings)} with another worker budget. */
    public static void configure(long workerMailboxBytes) {
        configure(configured.withWorkerMailboxBytes(workerMailboxBytes));
    }

    /** The settings new members will read. */
    public static MemberSettings configuredSettings() {
        return configured;
    }

    /**
     * The service of a member started in this JVM, found through the engine binding's node engine.
     *
     * @throws IllegalArgumentException for a client instance
     * @throws IllegalStateException if this module was not on the member's classpath at start
     */
    public static ManagedSourceMemberService of(HazelcastInstance instance) {
        Objects.requireNonNull(instance, "instance");
        return of(EngineBinding.running().nodeEngine(instance));
    }

    /** The service of the member that owns {@code nodeEngine}. */
    public static ManagedSourceMemberService of(NodeEngine nodeEngine) {
        ManagedSourceMemberService s = nodeEngine.getServiceOrNull(SERVICE_NAME);
        if (s == null) {
            throw new IllegalStateException(
                    "Hazelcast service "
                            + SERVICE_NAME
                            + " is not registered on this member: the managed-source runtime jar"
                            + " must be in SeaTunnel's lib/ when the engine starts");
        }
        return s;
    }

    @Override
    public void init(NodeEngine nodeEngine, Properties properties) {
        this.nodeEngine = nodeEngine;
        String member = nodeEngine.getHazelcastInstance().getName();
        MemberExecutors ex = new MemberExecutors(member, settings);
        this.executors = ex;
        this.coordinatorExecutor = ex.coordinator;
        this.asyncWorkers = new SourceAsyncWorkerPool(ex.async);
        ManagedSourceTelemetry.add(
                String.valueOf(nodeEngine.getThisAddress()), metrics, asyncWorkers, taskTotals);
        this.watchdog = ex.watchdog;
        this.senderScheduler = ex.sender;
        this.turnWatchdog = TurnWatchdog.on(watchdog);
        FrameInvoker<Address> invoker = new HazelcastFrameInvoker(nodeEngine);
        this.sender =
                new CommandSender<>(
                        invoker,
                        SenderScheduler.of(senderScheduler),
                        settings.retryPolicy(),
                        settings.maxQueuedPerTarget(),
                        settings.commandBatchMaxCommands(),
                        metrics,
                        System::currentTimeMillis);
        this.reportBatcher =
                sender.openReportLane(
                        new ReportGrouping(
                                settings.reportBatchWindowMillis(),
                                settings.reportBatchMaxReports(),
                                targets::readerCount));
        LOG.info("Managed source member service started on {} with {}", member, settings);
        String refusal = EngineVersion.refusal();
        if (!refusal.isEmpty()) {
            LOG.error(
                    "Lane A is off on {}: {}; every Managed job plans on Lane B", member, refusal);
        }
    }

    @Override
    public void reset() {
        // Called when the member rejoins after a split-brain merge. Registrations belong to the
        // local hosts, which still exist, so there is nothing to forget.
    }

    @Override
    public void shutdown(boolean terminate) {
        // Close every coordinator of this member on its own loop while the loop threads still
        // run: Hazelcast may stop this service before the engine closes its enumerator tasks, and
        // a connector's enumerator close() must still run, once.
        closeCoordinators();
        MemberExecutors ex = executors;
        if (ex != null) {
            ex.shutdownSender();
        }
        CommandSender<Address> s = sender;
        if (s != null) {
            s.close();
        }
        if (ex != null) {
            ex.shutdownRest();
        }
        ManagedSourceTelemetry.remove(metrics);
        LOG.info(
                "Managed source member service stopped ({} readers, {} coordinators registered)",
                targets.readerCount(),
                targets.coordinatorCount());
    }

    private void closeCoordinators() {
        if (coordinatorExecutor == null) {
            return;
        }
        long deadline = System.nanoTime() + settings.closeTimeoutMillis() * 1_000_000L;
        for (CoordinatorEndpoint endpoint : targets.coordinatorEndpoints()) {
            try {
                if (!endpoint.closeForMemberShutdown(Math.max(0, deadline - System.nanoTime()))) {
                    LOG.warn(
                            "A Lane A coordinator did not close within coordinator.close-timeout"
                                    + " ({} ms) while the member shut down",
                            settings.closeTimeoutMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.warn("Closing a Lane A coordinator at member shutdown failed", e);
            }
        }
    }

    // ------------------------------------------------------------------ accessors

    public MemberSettings settings() {
        return settings;
    }

    /** Where this cluster keeps the high-water marks of coordinator epochs. */
    public CoordinatorEpochs.Store epochStore() {
        return new ClusterEpochStore(nodeEngine.getHazelcastInstance());
    }

    /** The Lane A reader attempts registered on this member now (the adaptive linger's count). */
    public int readerCount() {
        return targets.readerCount();
    }

    /** The payload-byte budget shared by every reader mailbox of this member. */
    public WorkerMailboxBudget workerBudget() {
        return workerBudget;
    }

    @Override
    public byte[] deliverFrame(byte[] frame, Address from) {
        return adapter().deliverFrame(frame, from);
    }

    @Override
    public byte[] deliverBatchFrame(byte[] batch, Address from) {
        return adapter().deliverBatchFrame(batch, from);
    }

    @Override
    public void announceBarrier(
            long jobId, long sourceRuntimeId, long checkpointId, int[] subtasks) {
        BarrierAnnouncer.announceLocally(targets(), jobId, sourceRuntimeId, checkpointId, subtasks);
    }

    /** Where commands arriving here go; hosts register their mailboxes and endpoints here. */
    public TransportTargets<Address> targets() {
        return targets;
    }

    /** The receiving end, used by {@link DeliverCommandOperation}. */
    public SourceCommandTransportAdapter<Address> adapter() {
        return adapter;
    }

    /** The sending end. */
    public CommandSender<Address> sender() {
        return requireStarted(sender);
    }

    /**
     * The checkpoint-report lane of {@link #sender()}: readers' reports, batched per coordinator.
     */
    public CheckpointReportLane<Address> reportBatcher() {
        return requireStarted(reportBatcher);
    }

    /** Member-wide sums of the reader and coordinator metrics on the telemetry endpoint. */
    public MemberTaskTotals taskTotals() {
        return taskTotals;
    }

    public TransportMetrics metrics() {
        return metrics;
    }

    /**
     * The shared bounded executor for coordinator loops: a few daemon threads and a bounded queue;
     * a full queue throws {@link java.util.concurrent.RejectedExecutionException}. Tasks must be
     * short turns of a loop, never a loop that runs forever.
     */
    public ExecutorService coordinatorExecutor() {
        return requireStarted(coordinatorExecutor);
    }

    /**
     * The member's async worker pool: coordinators take a {@link
     * SourceAsyncWorkerPool.CoordinatorShare} of it with their job's bounds and close it with the
     * coordinator.
     */
    public SourceAsyncWorkerPool asyncWorkers() {
        return requireStarted(asyncWorkers);
    }

    /** A single daemon thread for periodic checks (timeouts, stuck loops). Tasks must be short. */
    public ScheduledExecutorService watchdog() {
        return requireStarted(watchdog);
    }

    /** The interrupt checks of this member's Lane A readers, on the {@link #watchdog()}. */
    public InterruptWatch interruptWatch() {
        return interruptWatch;
    }

    /** The member-wide checker of reader poll turns; idle while no reader polls. */
    public TurnWatchdog turnWatchdog() {
        return requireStarted(turnWatchdog);
    }

    /**
     * Fails {@code jobId} on its master with {@code reason} as the job's error and no pipeline
     * restarts ({@link FailJobOperation}); waits for a remote master at most {@code
     * coordinator.close-timeout}.
     *
     * @return true if the master knew the job
     */
    public boolean failJob(long jobId, String reason) throws InterruptedException {
        NodeEngine ne = requireStarted(nodeEngine);
        if (EngineBinding.running().failJobIfMaster(ne, jobId, reason)) {
            return true;
        }
        Address master = ne.getMasterAddress();
        if (master == null || master.equals(ne.getThisAddress())) {
            return false;
        }
        try {
            Object found =
                    ne.getOperationService()
                            .invokeOnTarget(
                                    SERVICE_NAME, new FailJobOperation(jobId, reason), master)
                            .get(settings.closeTimeoutMillis(), TimeUnit.MILLISECONDS);
            return Boolean.TRUE.equals(found);
        } catch (java.util.concurrent.ExecutionException
                | java.util.concurrent.TimeoutException e) {
            LOG.warn("Could not fail job {} on its master {}: {}", jobId, master, e.toString());
            return false;
        }
    }

    /** Sends an operation of this service to {@code target} and does not wait for its answer. */
    void invokeWithoutWaiting(
            com.hazelcast.spi.impl.operationservice.Operation op, Address target) {
        requireStarted(nodeEngine).getOperationService().invokeOnTarget(SERVICE_NAME, op, target);
    }

    /** This member's address, the {@code from} of commands it sends. */
    public Address thisAddress() {
        return requireStarted(nodeEngine).getThisAddress();
    }

    private static <T> T requireStarted(T value) {
        if (value == null) {
            throw new IllegalStateException("managed source member service not initialized yet");
        }
        return value;
    }
}
