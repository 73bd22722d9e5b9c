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

package org.apache.seatunnel.engine.managed.faults.world;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingDispatcher;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.InjectedFault;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.coordinator.AssignmentEntry;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorConfig;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEpochs;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorInbox;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorSnapshotCodec;
import org.apache.seatunnel.engine.managed.source.coordinator.EnumeratorFactory;
import org.apache.seatunnel.engine.managed.source.coordinator.OfferResult;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.coordinator.SenderDispatcher;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.coordinator.StateFormatException;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * A deterministic in-process engine around the real {@link CoordinatorEventLoop} and real reader
 * loops ({@link ReaderTask}), driven the way Zeta 2.3.8 drives a Lane A source: see the package
 * comment. Each step ends by restoring after any failure, checking that the tracker and every
 * mailbox stay within their bounds, and (after a restore, or after every step when configured)
 * checking split ownership: every split is finished or has exactly one owner — enumerator, a
 * reader's connector, or the coordinator while in transit — positioned exactly where its rows in
 * the sink's lineage stop, and no row is in the lineage twice.
 *
 * <p>Threading: confined to the one thread that drives it; every public method is one step of a
 * schedule and runs the real loops inline. Life cycle: constructed running (epoch 1, readers
 * registered); any failure restores the whole pipeline from the last completed checkpoint before
 * the step returns, with the current reader parallelism or, after {@link #rescale}, a new one;
 * {@link #runToCompletion} ends the job.
 */
public final class MiniEngine {
    private static final int TRACE_LIMIT = 400;

    /**
     * Members of the model cluster: the coordinator runs on member 0, reader subtask s on member s
     * % 2, so some of its commands stay on one member and some cross to another.
     */
    private static final int MEMBERS = 2;

    private static final int COORDINATOR_MEMBER = 0;

    /** How long a command may take from its send to its final answer, as on the engine. */
    private static final long SEND_DEADLINE_MILLIS = 60_000;

    final WorldConfig config;
    private final WorldChecks checks = new WorldChecks(this);
    private final Random rnd;
    private final Random duplicateDeliveries;
    private final FaultInjector faults;
    private final ManualTime time = new ManualTime();
    private final ModelNetwork network;
    private final CoordinatorEpochs.Store epochs = CoordinatorEpochs.inMemory();
    private final ModelMember[] members = new ModelMember[MEMBERS];
    final CommittingSink sink;
    private final WorkerMailboxBudget workerBudget = new WorkerMailboxBudget(256L << 20);
    private final SourceAsyncWorkerPool workerPool =
            new SourceAsyncWorkerPool(new ManualExecutor());
    final List<RowSplit> allSplits;
    final CheckpointDriver checkpoints;
    private final ArrayDeque<String> trace = new ArrayDeque<>();
    private final List<String> restoreReasons = new ArrayList<>();
    private final List<String> unexpectedCoordinatorFailures = new ArrayList<>();

    long epoch;
    private int parallelism;
    private int pendingParallelism;
    private int rescalesUp;
    private int rescalesDown;
    private int restoredStatesDeliveredTwice;
    private int splitsFromRemovedSubtasks;
    private int statesFromRemovedSubtasks;
    private long nextAttempt = 1;
    private ManualExecutor executor;
    private FaultInjectingDispatcher dispatcher;
    CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator;
    RowEnumerator enumerator;
    ReaderTask[] readers;
    private String pendingFailure;

    public MiniEngine(WorldConfig config) {
        this.config = config;
        this.rnd = new Random(config.seed());
        // Its own stream, so adding this event left every other draw of a seed as it was.
        this.duplicateDeliveries = new Random(config.seed() ^ 0x5DEECE66DL);
        this.faults = new FaultInjector(config.schedule());
        this.network = new ModelNetwork(faults, this);
        for (int m = 0; m < MEMBERS; m++) {
            members[m] = new ModelMember(m, time, network, new RetryPolicy(10, 1000, 120), 4096);
            network.add(members[m]);
        }
        network.onAdmitted(this::admitted);
        this.sink = new CommittingSink(config.checkpointsEnabled());
        this.checkpoints = new CheckpointDriver(this, faults);
        List<RowSplit> splits = new ArrayList<>();
        for (int i = 0; i < config.splits(); i++) {
            splits.add(new RowSplit("split-" + i, 1 + rnd.nextInt(config.maxRowsPerSplit()), 0));
        }
        this.allSplits = Collections.unmodifiableList(splits);
        this.epoch =
                config.epochPolicy() == WorldConfig.EpochPolicy.HIGH_WATER
                        ? CoordinatorEpochs.next(epochs, ReaderTask.JOB_ID, ReaderTask.SOURCE_ID, 0)
                        : 1;
        this.parallelism = config.parallelism();
        startEpoch(null);
        settle();
    }

    // ------------------------------------------------------------------ steps

    /** Runs the coordinator loop and the members' senders until all are idle. */
    public void drain() {
        drainCoordinator();
        settle();
    }

    /** Runs one task of one member's sender thread (a send, an answer, a retry), if any. */
    public boolean stepNetwork() {
        boolean ran = network.stepSender(rnd);
        checkCoordinatorFailures();
        settle();
        return ran;
    }

    /** Runs one coordinator drain task (one bounded batch), if any. */
    public void stepCoordinator() {
        executor.runOne();
        checkCoordinatorFailures();
        settle();
    }

    /** One {@code pollNext} of reader {@code subtask}: one loop iteration. */
    public LoopStatus stepReader(int subtask) {
        ReaderTask t = readers[subtask];
        LoopStatus s = t.step();
        if (s == LoopStatus.TERMINATED) {
            readerTerminated(t);
        }
        settle();
        return s;
    }

    /** Releases one held message (send, answer, duplicate or apply ack); false if none. */
    public boolean releaseHeld() {
        boolean released = network.releaseOne(rnd);
        settle();
        return released;
    }

    /** An old envelope arrives again. */
    public void redeliverOld() {
        network.redeliverOld(rnd);
        settle();
    }

    /** Moves time, firing the coordinator's retry timers. */
    public void advanceTime(long millis) {
        time.advance(millis);
        settle();
    }

    public boolean triggerCheckpoint() {
        boolean b = checkpoints.trigger();
        settle();
        return b;
    }

    public boolean deliverBarrier(int subtask) {
        boolean b = checkpoints.barrier(subtask);
        settle();
        return b;
    }

    public boolean completeCheckpoint() {
        boolean b = checkpoints.complete();
        settle();
        return b;
    }

    public boolean abortCheckpoint(boolean notifyCoordinator) {
        boolean b = checkpoints.abort(notifyCoordinator);
        settle();
        return b;
    }

    /** Reader failover: on Zeta a reader task failure restores the pipeline. */
    public void failReader(int subtask) {
        requestFailure("reader " + subtask + " failed (schedule)");
        settle();
    }

    /** Coordinator failover: the enumerator task fails; the pipeline restores. */
    public void failCoordinator() {
        requestFailure("coordinator epoch " + epoch + " failed (schedule)");
        settle();
    }

    /**
     * Rescale: the pipeline restores from the last completed checkpoint (from scratch without
     * checkpoints) with {@code newParallelism} readers, as Zeta restores a job resubmitted with
     * another parallelism. Reader states are handed back the way Zeta's checkpoint coordinator
     * distributes them: new subtask k gets those of old subtasks k, k + p, k + 2p, ...
     */
    public void rescale(int newParallelism) {
        if (newParallelism < 1) {
            throw new IllegalArgumentException("parallelism " + newParallelism);
        }
        pendingParallelism = newParallelism;
        requestFailure("rescale " + parallelism + " -> " + newParallelism);
        settle();
    }

    /** Triggers a checkpoint, delivers every barrier and completes it, if possible. */
    public boolean fullCheckpoint() {
        if (!checkpoints.trigger()) {
            settle();
            return false;
        }
        for (int s = 0; s < parallelism && pendingFailure == null; s++) {
            checkpoints.barrier(s);
        }
        boolean done = pendingFailure == null && checkpoints.complete();
        settle();
        return done;
    }

    /**
     * Turns faults off and drives the job to its end: releases what is held, fires timers, polls
     * every reader, checkpoints; then checks that every row was committed exactly once and the
     * tracker was collected empty.
     */
    public MiniEngine runToCompletion() {
        faults.disable();
        for (int round = 0; round < 500; round++) {
            network.releaseAll(rnd);
            settle();
            drainCoordinator();
            settle();
            time.advance(2000);
            settle();
            drainCoordinator();
            settle();
            for (int s = 0; s < parallelism; s++) {
                for (int i = 0; i < 256; i++) {
                    if (stepReader(s) != LoopStatus.BUSY) {
                        break;
                    }
                }
            }
            drain();
            if (config.checkpointsEnabled()) {
                if (checkpoints.inFlight()) {
                    abortCheckpoint(true);
                }
                fullCheckpoint();
                drain();
            }
            if (jobFinished()) {
                checkExactlyOnce();
                return this;
            }
        }
        throw fail("the job did not finish");
    }

    // ------------------------------------------------------------------ restore

    void requestFailure(String reason) {
        if (pendingFailure == null) {
            pendingFailure = reason;
        }
        trace("failure: " + reason);
    }

    boolean failurePending() {
        return pendingFailure != null;
    }

    private void settle() {
        for (int guard = 0; ; guard++) {
            if (pendingFailure == null) {
                for (ReaderTask t : readers) {
                    if (t.terminalSignal() != null) {
                        readerTerminated(t);
                        break;
                    }
                }
            }
            if (pendingFailure == null) {
                break;
            }
            if (guard > 100) {
                throw fail("restores never settle");
            }
            restore();
        }
        checkBounds();
        if (config.checkOwnershipEveryStep()) {
            checkOwnership("after a step");
        }
    }

    /**
     * A reader attempt ended with a terminal signal: the pipeline restores, unless the signal is
     * one that only a sender other than the runtime's own may cause (a gap in the coordinator's
     * sequences the applied-command ledger cannot hold): that is a defect of the runtime.
     */
    private void readerTerminated(ReaderTask t) {
        TerminalSignal signal = t.terminalSignal();
        if (signal != null && signal.reason() == ReasonCode.LEDGER_GAPS_EXCEEDED) {
            throw fail(t.name() + " terminated: " + signal + " (the runtime's sender left gaps)");
        }
        requestFailure(t.name() + " terminated: " + signal);
    }

    private void restore() {
        String why = pendingFailure;
        pendingFailure = null;
        restoreReasons.add(why);
        for (ReaderTask t : readers) {
            t.close();
        }
        sink.discardUncommitted();
        checkpoints.onRestore();
        CheckpointDriver.Completed from =
                config.checkpointsEnabled() ? checkpoints.lastCompleted() : null;
        epoch =
                config.epochPolicy() == WorldConfig.EpochPolicy.HIGH_WATER
                        ? CoordinatorEpochs.next(
                                epochs,
                                ReaderTask.JOB_ID,
                                ReaderTask.SOURCE_ID,
                                from == null ? 0 : checkpointedEpoch(from.blob()))
                        : 1;
        if (pendingParallelism > 0) {
            if (pendingParallelism > parallelism) {
                rescalesUp++;
            } else if (pendingParallelism < parallelism) {
                rescalesDown++;
            }
            parallelism = pendingParallelism;
            pendingParallelism = 0;
        }
        trace(
                "restore #"
                        + restoreReasons.size()
                        + " epoch "
                        + epoch
                        + " p="
                        + parallelism
                        + " from "
                        + (from == null ? "scratch" : "checkpoint " + from.id())
                        + " ("
                        + why
                        + ")");
        startEpoch(from);
        checkOwnership("after restore #" + restoreReasons.size() + " (" + why + ")");
    }

    /**
     * A new coordinator epoch and new reader attempts, in Zeta's order: the enumerator host is
     * built (restoring the coordinator blob), reader states come back through {@code addSplitsBack}
     * before readers register, and open runs before or after them.
     */
    private void startEpoch(CheckpointDriver.Completed from) {
        long e = epoch;
        executor = new ManualExecutor();
        // This epoch's dispatcher finds readers through this epoch's inbox, set just below.
        @SuppressWarnings("unchecked")
        CoordinatorInbox<Integer>[] inboxOfEpoch = new CoordinatorInbox[1];
        dispatcher =
                new FaultInjectingDispatcher(
                        new SenderDispatcher<>(
                                members[COORDINATOR_MEMBER].sender,
                                s -> inboxOfEpoch[0].fence().member(s),
                                time::nowMillis,
                                SEND_DEADLINE_MILLIS),
                        faults,
                        () -> requestFailure("coordinator epoch " + e + " crashed (point 1)"));
        coordinator = buildCoordinator(from == null ? null : from.blob());
        CoordinatorInbox<Integer> inbox =
                new CoordinatorInbox<>(
                        coordinator,
                        ReaderTask.JOB_ID,
                        parallelism,
                        MiniEngine::readerMember,
                        ModelMember.NO_TARGET_RETRY_MILLIS);
        inboxOfEpoch[0] = inbox;
        members[COORDINATOR_MEMBER].targets.registerCoordinator(
                ReaderTask.SOURCE_ID, inbox::onReaderCommand);
        boolean openFirst = rnd.nextBoolean();
        if (openFirst) {
            expect(coordinator.open(), "open");
        }
        if (from != null) {
            // As Zeta's CheckpointCoordinator#restoreTaskState: new subtask k restores the states
            // of old subtasks k, k + p, k + 2p, ... and hands them back as one list.
            for (int k = 0; k < parallelism; k++) {
                List<ReaderSnapshot> states = new ArrayList<>();
                for (int old = k; old < from.parallelism(); old += parallelism) {
                    ReaderSnapshot st = from.states().get(old);
                    if (st != null) {
                        states.add(st);
                    }
                }
                if (!states.isEmpty()) {
                    restoreReaderStates(k, states, false);
                    if (duplicateDeliveries.nextInt(4) == 0) {
                        // Zeta's restore operation retries until it finds the enumerator task, so
                        // one started by the previous attempt's reader can land on this epoch's
                        // task too: the same state, delivered twice.
                        restoredStatesDeliveredTwice++;
                        restoreReaderStates(k, states, true);
                    }
                }
            }
        }
        if (!openFirst) {
            expect(coordinator.open(), "open");
        }
        if (from != null && rnd.nextBoolean()) {
            // Zeta repeats the restored checkpoint's completion after a restore.
            coordinator.notifyCheckpointComplete(from.id());
        }
        readers = new ReaderTask[parallelism];
        for (int s = 0; s < readers.length; s++) {
            readers[s] =
                    new ReaderTask(
                            this,
                            s,
                            nextAttempt++,
                            members[readerMember(s)],
                            COORDINATOR_MEMBER,
                            config.mailboxLimits(),
                            workerBudget,
                            config.pollBudget(),
                            config.splitWindow(),
                            config.rowsPerTurn(),
                            faults,
                            network);
        }
        for (ReaderTask t : readers) {
            try {
                t.open();
            } catch (Exception ex) {
                throw new IllegalStateException(t.name() + " did not open", ex);
            }
        }
        drainCoordinator();
    }

    /**
     * As {@code ManagedEnumeratorHost#addSplitsBack} with the list Zeta hands new subtask {@code
     * subtask}: one RESTORED report per old owner, under its own old index, then every split.
     */
    private void restoreReaderStates(int subtask, List<ReaderSnapshot> states, boolean again) {
        List<RowSplit> splits = new ArrayList<>();
        Map<Integer, SourceRuntimeCheckpointMetadata> metas = new TreeMap<>();
        RowSplit.Ser ser = new RowSplit.Ser();
        for (ReaderSnapshot st : states) {
            try {
                for (int i = 0; i < st.splitCount(); i++) {
                    splits.add(ser.deserialize(st.split(i)));
                }
                metas.put(
                        st.subtask(),
                        new SourceRuntimeCheckpointMetadataSerializer().deserialize(st.metadata()));
            } catch (IOException ex) {
                throw new IllegalStateException("cannot read reader state " + st.subtask(), ex);
            }
            if (st.subtask() >= parallelism && !again) {
                statesFromRemovedSubtasks++;
                splitsFromRemovedSubtasks += st.splitCount();
            }
        }
        List<ReaderInclusionReport> owners = new ArrayList<>();
        for (Map.Entry<Integer, SourceRuntimeCheckpointMetadata> m : metas.entrySet()) {
            owners.add(
                    ReaderInclusionReport.fromMetadata(
                            ReaderInclusionReport.Kind.RESTORED,
                            m.getKey(),
                            ReaderInclusionReport.NO_ATTEMPT,
                            m.getValue()));
        }
        expect(coordinator.restoreReaderState(subtask, owners, splits), "restore reader state");
    }

    private CoordinatorEventLoop<RowSplit, List<RowSplit>> buildCoordinator(byte[] blob) {
        long e = epoch;
        return CoordinatorEventLoop.<RowSplit, List<RowSplit>>builder()
                .config(
                        CoordinatorConfig.builder()
                                .jobId(ReaderTask.JOB_ID)
                                .sourceRuntimeId(ReaderTask.SOURCE_ID)
                                .epoch(e)
                                .parallelism(parallelism)
                                .maxTrackerEntries(config.maxTrackerEntries())
                                .checkpointsEnabled(config.checkpointsEnabled())
                                .commandQueueCapacity(1024)
                                .completionQueueCapacity(1024)
                                .drainBatch(config.drainBatch())
                                .build())
                .enumeratorFactory(
                        new EnumeratorFactory<RowSplit, List<RowSplit>>() {
                            @Override
                            public SourceSplitEnumerator<RowSplit, List<RowSplit>> create(
                                    SourceSplitEnumerator.Context<RowSplit> ctx) {
                                enumerator =
                                        RowEnumerator.create(
                                                ctx, allSplits, config.enumeratorMode());
                                return enumerator;
                            }

                            @Override
                            public SourceSplitEnumerator<RowSplit, List<RowSplit>> restore(
                                    SourceSplitEnumerator.Context<RowSplit> ctx,
                                    List<RowSplit> state) {
                                enumerator =
                                        RowEnumerator.create(ctx, state, config.enumeratorMode());
                                return enumerator;
                            }
                        })
                .splitSerializer(new RowSplit.Ser())
                .stateSerializer(new RowEnumerator.StateSer())
                .dispatcher(dispatcher)
                .executor(executor)
                .timer(time)
                .clock(time.clock())
                .workerPool(workerPool)
                .failureHandler(
                        (where, cause) -> {
                            if (InjectedFault.find(cause) == null) {
                                unexpectedCoordinatorFailures.add(
                                        "epoch " + e + " " + where + ": " + cause);
                            }
                            requestFailure("coordinator epoch " + e + " failed in " + where);
                        })
                .restoreFrom(blob)
                .build();
    }

    private void expect(OfferResult r, String what) {
        if (r != OfferResult.ENQUEUED) {
            throw fail("coordinator did not accept " + what + ": " + r);
        }
    }

    /** Runs the coordinator loop and the members' senders until none has work left. */
    void drainCoordinator() {
        for (int guard = 0; ; guard++) {
            int ran = executor.runAll() + network.runSenders(rnd);
            checkCoordinatorFailures();
            if (ran == 0) {
                return;
            }
            if (guard > 10_000) {
                throw fail("the coordinator and the senders never became idle");
            }
        }
    }

    private static long checkpointedEpoch(byte[] blob) {
        try {
            return CoordinatorSnapshotCodec.decode(blob).epoch();
        } catch (StateFormatException e) {
            throw new IllegalStateException("unreadable coordinator checkpoint", e);
        }
    }

    /** The member reader subtask {@code subtask} runs on. */
    static int readerMember(int subtask) {
        return subtask % MEMBERS;
    }

    /** A reader mailbox admitted an assignment: its attempt records it for ownership checks. */
    void admitted(SourceCommandEnvelope assignment) {
        int s = assignment.targetSubtask();
        if (readers != null && s < readers.length) {
            ReaderTask t = readers[s];
            if (t != null && t.attemptId() == assignment.targetAttemptId()) {
                t.admitted(assignment);
            }
        }
    }

    private void checkCoordinatorFailures() {
        if (!unexpectedCoordinatorFailures.isEmpty()) {
            throw fail("coordinator command failed: " + unexpectedCoordinatorFailures);
        }
    }

    /** Inclusion reports travel fire-and-forget; the config says how many the network loses. */
    boolean loseInclusionReport(SourceCommandEnvelope report) {
        if (faults.enabled() && rnd.nextDouble() < config.inclusionReportLoss()) {
            trace(
                    "lost inclusion report of reader "
                            + report.targetSubtask()
                            + " attempt "
                            + report.senderAttemptId());
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ checks

    // ------------------------------------------------------------------ checks (WorldChecks)

    private void checkBounds() {
        checks.checkBounds();
    }

    /** See {@link WorldChecks#checkOwnership}. */
    public void checkOwnership(String when) {
        checks.checkOwnership(when);
    }

    /** See {@link WorldChecks#checkExactlyOnce}. */
    public void checkExactlyOnce() {
        checks.checkExactlyOnce();
    }

    private boolean jobFinished() {
        return checks.jobFinished();
    }

    // ------------------------------------------------------------------ diagnostics

    void trace(String event) {
        if (trace.size() >= TRACE_LIMIT) {
            trace.pollFirst();
        }
        trace.addLast(event);
    }

    /** An AssertionError carrying the run's configuration, faults, trace and current state. */
    public AssertionError fail(String what) {
        StringBuilder sb = new StringBuilder(what);
        sb.append("\nconfig: ").append(config);
        sb.append("\nfaults: ").append(faults);
        sb.append("\nrestores: ").append(restoreReasons);
        sb.append("\ntrace: ").append(trace);
        if (coordinator != null) {
            sb.append("\ntracker:");
            for (AssignmentEntry e : coordinator.tracker().entries()) {
                sb.append(' ').append(e);
            }
            sb.append("\nmetrics: ").append(coordinator.metrics());
        }
        if (enumerator != null) {
            sb.append("\nenumerator pending: ").append(enumerator.pending());
        }
        if (readers != null) {
            for (ReaderTask t : readers) {
                sb.append('\n')
                        .append(t.name())
                        .append(": owned=")
                        .append(t.reader().owned())
                        .append(" nms=")
                        .append(t.reader().noMoreSplits())
                        .append(" finished=")
                        .append(t.finished())
                        .append(" lifecycle=")
                        .append(t.loop().lifecycle())
                        .append(" queued=")
                        .append(t.mailbox().commandCount())
                        .append(" held=")
                        .append(t.loop().heldCommands())
                        .append(" terminal=")
                        .append(t.terminalSignal())
                        .append(" requests: ")
                        .append(t.describeRequests());
            }
        }
        sb.append("\nnetwork: ").append(network.describe());
        sb.append(" sink committed: ").append(new java.util.TreeMap<>(sink.committed()));
        return new AssertionError(sb.toString());
    }

    // ------------------------------------------------------------------ views

    public WorldConfig config() {
        return config;
    }

    public FaultInjector faults() {
        return faults;
    }

    public CommittingSink sink() {
        return sink;
    }

    public ModelNetwork network() {
        return network;
    }

    public CheckpointDriver checkpoints() {
        return checkpoints;
    }

    public ManualTime time() {
        return time;
    }

    public CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator() {
        return coordinator;
    }

    ReaderTask reader(int subtask) {
        return readers[subtask];
    }

    /** The current reader parallelism (changes with {@link #rescale}). */
    public int parallelism() {
        return parallelism;
    }

    /** Restores that raised the parallelism. */
    public int rescalesUp() {
        return rescalesUp;
    }

    /** Restores that lowered the parallelism. */
    public int rescalesDown() {
        return rescalesDown;
    }

    /** Restored reader states this run handed to a coordinator twice, as Zeta may. */
    public int restoredStatesDeliveredTwice() {
        return restoredStatesDeliveredTwice;
    }

    /** Reader states of subtasks a rescale down removed, handed back through a survivor. */
    public int statesFromRemovedSubtasks() {
        return statesFromRemovedSubtasks;
    }

    /** Splits restored from the state of subtasks a rescale down removed. */
    public int splitsFromRemovedSubtasks() {
        return splitsFromRemovedSubtasks;
    }

    /** The current attempt of reader {@code subtask}. */
    public long readerAttempt(int subtask) {
        return readers[subtask].attemptId();
    }

    /** Splits the current attempt of {@code subtask} reads. */
    public List<RowSplit> readerOwned(int subtask) {
        return readers[subtask].reader().owned();
    }

    /** Commands reader {@code subtask} holds back for the coordinator cut. */
    public int readerHeldCommands(int subtask) {
        return readers[subtask].loop().heldCommands();
    }

    public boolean readerFinished(int subtask) {
        return readers[subtask].finished();
    }

    public List<RowSplit> enumeratorPending() {
        return enumerator.pending();
    }

    public List<RowSplit> allSplits() {
        return allSplits;
    }

    public long epoch() {
        return epoch;
    }

    /** Why each restore happened, in order. */
    public List<String> restoreReasons() {
        return Collections.unmodifiableList(restoreReasons);
    }

    public int restores() {
        return restoreReasons.size();
    }

    public List<String> trace() {
        return new ArrayList<>(trace);
    }
}
