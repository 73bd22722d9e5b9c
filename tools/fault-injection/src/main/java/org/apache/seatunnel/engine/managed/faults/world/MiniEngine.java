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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.InjectedFault;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
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
 * {@link #runToCompletion} ends the job. Its parts: {@link PipelineStarter} (epochs, state
 * hand-back), {@link Failover} (restores), {@link CheckpointDriver}, {@link WorldChecks}, {@link
 * CompletionRun} and {@link RunTrace} (failure messages).
 */
public final class MiniEngine {
    /**
     * Members of the model cluster: the coordinator runs on member 0, reader subtask s on member s
     * % 2, so some of its commands stay on one member and some cross to another.
     */
    private static final int MEMBERS = 2;

    static final int COORDINATOR_MEMBER = 0;

    final WorldConfig config;
    private final WorldChecks checks = new WorldChecks(this);
    private final RunTrace trace = new RunTrace();
    private final Random rnd;
    private final FaultInjector faults;
    private final ManualTime time = new ManualTime();
    private final ModelNetwork network;
    private final ModelMember[] members = new ModelMember[MEMBERS];
    private final PipelineStarter starter;
    private final Failover failover;
    final CommittingSink sink;
    final List<RowSplit> allSplits;
    final CheckpointDriver checkpoints;
    private final List<String> unexpectedCoordinatorFailures = new ArrayList<>();

    long epoch;
    private int parallelism;
    private ManualExecutor executor;
    CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator;
    RowEnumerator enumerator;
    ReaderTask[] readers;

    public MiniEngine(WorldConfig config) {
        this.config = config;
        this.rnd = new Random(config.seed());
        this.faults = new FaultInjector(config.schedule());
        this.network = new ModelNetwork(faults, this, rnd);
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
        this.starter = new PipelineStarter(this, faults, time, members, rnd);
        this.failover = new Failover(this, starter, trace);
        startEpoch(starter.nextEpoch(null), config.parallelism(), null);
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

    /** One {@code pollNext} of reader {@code subtask} (see {@link ReaderTask#step}). */
    public LoopStatus stepReader(int subtask) {
        ReaderTask t = readers[subtask];
        LoopStatus s = t.step();
        if (s == LoopStatus.TERMINATED) {
            failover.readerTerminated(t);
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

    /** Releases everything the network holds. */
    void releaseAllHeld() {
        network.releaseAll(rnd);
        settle();
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
        starter.rescaleTo(newParallelism);
        requestFailure("rescale " + parallelism + " -> " + newParallelism);
        settle();
    }

    /** Triggers a checkpoint, delivers every barrier and completes it, if possible. */
    public boolean fullCheckpoint() {
        boolean done = checkpoints.full();
        settle();
        return done;
    }

    /** See {@link CompletionRun}: faults off, the job driven to its end, exactly once checked. */
    public MiniEngine runToCompletion() {
        new CompletionRun(this).run();
        return this;
    }

    // ------------------------------------------------------------------ restore

    void requestFailure(String reason) {
        failover.request(reason);
    }

    boolean failurePending() {
        return failover.pending();
    }

    /** Restores after any failure, then checks the bounds (and ownership, when configured). */
    private void settle() {
        failover.restoreUntilSettled();
        checks.checkBounds();
        if (config.checkOwnershipEveryStep()) {
            checkOwnership("after a step");
        }
    }

    /**
     * Starts epoch {@code e} with {@code p} readers (see {@link PipelineStarter#start}) and opens
     * its readers.
     */
    void startEpoch(long e, int p, CheckpointDriver.Completed from) {
        epoch = e;
        parallelism = p;
        PipelineStarter.Started started = starter.start(e, p, from);
        executor = started.executor;
        coordinator = started.coordinator;
        readers = started.readers;
        for (ReaderTask t : readers) {
            try {
                t.open();
            } catch (Exception ex) {
                throw new IllegalStateException(t.name() + " did not open", ex);
            }
        }
        drainCoordinator();
    }

    /** The coordinator of this epoch built its enumerator (created or restored). */
    RowEnumerator enumeratorStarted(RowEnumerator e) {
        enumerator = e;
        return e;
    }

    /** The coordinator of epoch {@code e} failed: the pipeline restores. */
    void coordinatorFailed(long e, String where, Throwable cause) {
        if (InjectedFault.find(cause) == null) {
            unexpectedCoordinatorFailures.add("epoch " + e + " " + where + ": " + cause);
        }
        requestFailure("coordinator epoch " + e + " failed in " + where);
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

    // ------------------------------------------------------------------ checks (WorldChecks)

    /** See {@link WorldChecks#checkOwnership}. */
    public void checkOwnership(String when) {
        checks.checkOwnership(when);
    }

    /** See {@link WorldChecks#checkExactlyOnce}. */
    public void checkExactlyOnce() {
        checks.checkExactlyOnce();
    }

    boolean jobFinished() {
        return checks.jobFinished();
    }

    // ------------------------------------------------------------------ diagnostics

    void trace(String event) {
        trace.add(event);
    }

    /** An AssertionError carrying the run's configuration, faults, trace and current state. */
    public AssertionError fail(String what) {
        return trace.failure(what, this);
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
        return starter.rescalesUp();
    }

    /** Restores that lowered the parallelism. */
    public int rescalesDown() {
        return starter.rescalesDown();
    }

    /** Restored reader states this run handed to a coordinator twice, as Zeta may. */
    public int restoredStatesDeliveredTwice() {
        return starter.restoredStatesDeliveredTwice();
    }

    /** Reader states of subtasks a rescale down removed, handed back through a survivor. */
    public int statesFromRemovedSubtasks() {
        return starter.statesFromRemovedSubtasks();
    }

    /** Splits restored from the state of subtasks a rescale down removed. */
    public int splitsFromRemovedSubtasks() {
        return starter.splitsFromRemovedSubtasks();
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
        return trace.restoreReasons();
    }

    public int restores() {
        return trace.restores();
    }

    public List<String> trace() {
        return trace.events();
    }
}
