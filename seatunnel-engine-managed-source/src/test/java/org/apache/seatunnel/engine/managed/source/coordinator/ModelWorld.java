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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * A whole source (real {@link CoordinatorEventLoop} + tracker + scheduler, {@link TestEnumerator},
 * {@link StandInReader}s, a faulty transport, a checkpoint coordinator and a transactional sink),
 * single-threaded and stepped explicitly. Used by the hazard test (fixed steps) and the model test
 * (random steps). Every method is one step of the schedule.
 */
final class ModelWorld {
    final Random rnd;
    final boolean cutAware;
    final boolean checkpointsEnabled;
    final int maxEntries;
    final int mailboxCapacity;
    final List<TestSplit> allSplits;
    final List<String> trace = new ArrayList<>();

    final ManualExecutor loopExecutor = new ManualExecutor();
    final ManualExecutor workers = new ManualExecutor();
    final ManualTimer timer = new ManualTimer();
    final SourceAsyncWorkerPool pool = new SourceAsyncWorkerPool(workers);
    final List<String> loopFailures = new ArrayList<>();

    CoordinatorEventLoop<TestSplit, TestEnumerator.State> loop;
    TestEnumerator enumerator;
    long epoch;
    StandInReader[] readers;
    private long nextAttempt = 1;

    // transport
    boolean faults = true;
    double lostSend;
    double lostAck;
    double delay;
    double lostReport;
    double lostAppliedAck;
    final List<Object[]> delayed = new ArrayList<>();
    final List<SourceCommandEnvelope> history = new ArrayList<>();

    // checkpoints and sink
    private long nextCheckpointId = 1;
    InFlight inFlight;
    InFlight lastCompleted;
    final Map<String, Integer> committed = new HashMap<>();
    List<String>[] pendingSink;
    final List<Precommit> precommits = new ArrayList<>();
    final List<Long> delayedCompletions = new ArrayList<>();
    int restores;
    boolean checkOnRestore = true;

    ModelWorld(
            long seed,
            boolean cutAware,
            boolean checkpointsEnabled,
            int parallelism,
            List<TestSplit> splits,
            int maxEntries,
            int mailboxCapacity) {
        this.rnd = new Random(seed);
        this.cutAware = cutAware;
        this.checkpointsEnabled = checkpointsEnabled;
        this.allSplits = splits;
        this.maxEntries = maxEntries;
        this.mailboxCapacity = mailboxCapacity;
        startCoordinator(1, parallelism, null);
        startFreshReaders(parallelism);
        registerAll();
        drain();
    }

    // ------------------------------------------------------------------ construction

    private void startCoordinator(long newEpoch, int parallelism, byte[] blob) {
        epoch = newEpoch;
        CoordinatorEventLoop<TestSplit, TestEnumerator.State> l =
                CoordinatorEventLoop.<TestSplit, TestEnumerator.State>builder()
                        .config(
                                CoordinatorConfig.builder()
                                        .jobId(1)
                                        .sourceRuntimeId(1)
                                        .epoch(newEpoch)
                                        .parallelism(parallelism)
                                        .maxTrackerEntries(maxEntries)
                                        .checkpointsEnabled(checkpointsEnabled)
                                        .commandQueueCapacity(1024)
                                        .completionQueueCapacity(1024)
                                        .build())
                        .enumeratorFactory(
                                new EnumeratorFactory<TestSplit, TestEnumerator.State>() {
                                    @Override
                                    public TestEnumerator create(
                                            SourceSplitEnumerator.Context<TestSplit> ctx) {
                                        enumerator = new TestEnumerator(ctx, allSplits, true, null);
                                        return enumerator;
                                    }

                                    @Override
                                    public TestEnumerator restore(
                                            SourceSplitEnumerator.Context<TestSplit> ctx,
                                            TestEnumerator.State st) {
                                        enumerator = new TestEnumerator(ctx, allSplits, true, st);
                                        return enumerator;
                                    }
                                })
                        .splitSerializer(new TestSplit.Ser())
                        .stateSerializer(new TestEnumerator.StateSer())
                        .dispatcher(this::dispatch)
                        .executor(loopExecutor)
                        .timer(timer)
                        .clock(timer.clock())
                        .workerPool(pool)
                        .failureHandler((where, cause) -> loopFailures.add(where + ": " + cause))
                        .restoreFrom(blob)
                        .build();
        loop = l;
        loop.open();
    }

    @SuppressWarnings("unchecked")
    private void startFreshReaders(int parallelism) {
        readers = new StandInReader[parallelism];
        pendingSink = new List[parallelism];
        for (int s = 0; s < parallelism; s++) {
            readers[s] = new StandInReader(s, nextAttempt++, cutAware, mailboxCapacity);
            pendingSink[s] = new ArrayList<>();
        }
    }

    private void registerAll() {
        for (StandInReader r : readers) {
            loop.registerReader(r.subtask, r.attemptId);
        }
    }

    // ------------------------------------------------------------------ transport

    private void dispatch(SourceCommandEnvelope env, CommandDispatcher.AckCallback cb) {
        if (history.size() > 64) {
            history.remove(0);
        }
        history.add(env);
        if (faults && rnd.nextDouble() < lostSend) {
            cb.onTransportFailure(new TimeoutException("send lost"));
            return;
        }
        if (faults && rnd.nextDouble() < delay) {
            delayed.add(new Object[] {env, cb});
            return;
        }
        deliver(env, cb, faults && rnd.nextDouble() < lostAck);
    }

    private void deliver(
            SourceCommandEnvelope env, CommandDispatcher.AckCallback cb, boolean lose) {
        StandInReader r = readerFor(env);
        AdmissionAck ack =
                r == null
                        ? AdmissionAck.rejected(
                                AdmissionStatus.STALE_TARGET,
                                env.targetAttemptId(),
                                ReasonCode.STALE_ATTEMPT)
                        : r.offer(env);
        if (lose) {
            cb.onTransportFailure(new TimeoutException("ack lost"));
        } else {
            cb.onAdmission(ack);
        }
    }

    private StandInReader readerFor(SourceCommandEnvelope env) {
        int s = env.targetSubtask();
        if (s >= readers.length || readers[s].attemptId != env.targetAttemptId()) {
            return null;
        }
        return readers[s];
    }

    void deliverDelayed() {
        if (delayed.isEmpty()) {
            return;
        }
        Object[] d = delayed.remove(rnd.nextInt(delayed.size()));
        deliver(
                (SourceCommandEnvelope) d[0],
                (CommandDispatcher.AckCallback) d[1],
                faults && rnd.nextDouble() < lostAck);
    }

    /** At-least-once transport: an old envelope arrives again; its answer goes nowhere. */
    void duplicateDelivery() {
        if (history.isEmpty()) {
            return;
        }
        SourceCommandEnvelope env = history.get(rnd.nextInt(history.size()));
        StandInReader r = readerFor(env);
        if (r != null) {
            r.offer(env);
        }
    }

    // ------------------------------------------------------------------ loop, workers, time

    void drain() {
        loopExecutor.runAll();
        if (!loopFailures.isEmpty()) {
            throw new AssertionError("coordinator failure: " + loopFailures);
        }
        if (loop.tracker().inFlightCount() > maxEntries) {
            throw new AssertionError("tracker above its bound: " + loop.tracker().inFlightCount());
        }
    }

    void runWorker() {
        workers.runOne();
    }

    void advanceTime(long millis) {
        timer.advance(java.time.Duration.ofMillis(millis));
    }

    // ------------------------------------------------------------------ readers

    /**
     * One reader turn: apply ready commands, ack applies, emit one record, maybe ask for a split.
     */
    void readerStep(int s) {
        StandInReader r = readers[s];
        String rec = r.poll();
        for (long cmd : r.takeAppliedAssignments()) {
            if (!(faults && rnd.nextDouble() < lostAppliedAck)) {
                loop.assignmentApplied(s, r.attemptId, cmd);
            }
        }
        if (rec != null) {
            if (checkpointsEnabled) {
                pendingSink[s].add(rec);
            } else {
                committed.merge(rec, 1, Integer::sum);
            }
        }
        if (r.owned.isEmpty()
                && !r.noMoreSplits
                && (!r.requestOutstanding || rnd.nextInt(8) == 0)) {
            r.requestOutstanding = true;
            loop.handleSplitRequest(s, r.attemptId);
        }
    }

    // ------------------------------------------------------------------ checkpoints

    /** The engine triggers checkpoint N: coordinator snapshot first (hazard 1), barriers later. */
    boolean triggerCheckpoint() {
        if (!checkpointsEnabled || inFlight != null) {
            return false;
        }
        long id = nextCheckpointId++;
        CompletableFuture<byte[]> f = loop.snapshot(id);
        drain();
        byte[] blob = f.getNow(null);
        if (blob == null) {
            throw new AssertionError("snapshot did not complete on the drained loop");
        }
        inFlight = new InFlight(id, epoch, readers.length, blob);
        for (int s = 0; s < readers.length; s++) {
            inFlight.barriersPending.add(s);
        }
        trace.add("trigger " + id);
        return true;
    }

    void deliverBarrier(int s) {
        if (inFlight == null || !inFlight.barriersPending.remove(s)) {
            return;
        }
        StandInReader r = readers[s];
        StandInReader.Snapshot snap = r.barrier(inFlight.id);
        inFlight.snapshots.put(s, snap);
        precommits.add(new Precommit(inFlight.id, s, pendingSink[s]));
        pendingSink[s] = new ArrayList<>();
        if (!(faults && rnd.nextDouble() < lostReport)) {
            loop.reportInclusion(
                    snap.report(ReaderInclusionReport.Kind.CHECKPOINT, s, r.attemptId));
        }
    }

    boolean completeCheckpoint(boolean delayNotification) {
        if (inFlight == null || !inFlight.barriersPending.isEmpty()) {
            return false;
        }
        lastCompleted = inFlight;
        inFlight = null;
        for (Iterator<Precommit> it = precommits.iterator(); it.hasNext(); ) {
            Precommit p = it.next();
            if (p.checkpointId <= lastCompleted.id) {
                for (String rec : p.records) {
                    committed.merge(rec, 1, Integer::sum);
                }
                it.remove();
            }
        }
        if (delayNotification) {
            delayedCompletions.add(lastCompleted.id);
        } else {
            loop.notifyCheckpointComplete(lastCompleted.id);
        }
        trace.add("complete " + lastCompleted.id);
        return true;
    }

    void deliverDelayedCompletion(boolean duplicate) {
        if (!delayedCompletions.isEmpty()) {
            loop.notifyCheckpointComplete(delayedCompletions.remove(0));
        } else if (duplicate && lastCompleted != null) {
            loop.notifyCheckpointComplete(lastCompleted.id);
        }
    }

    void abortCheckpoint(boolean notify) {
        if (inFlight == null) {
            return;
        }
        if (notify) {
            loop.notifyCheckpointAborted(inFlight.id);
        }
        trace.add("abort " + inFlight.id);
        inFlight = null;
    }

    // ------------------------------------------------------------------ failures

    /** One reader fails and restores from the last completed checkpoint of this epoch. */
    void readerFailover(int s) {
        if (!checkpointsEnabled) {
            coordinatorFailover(readers.length, false);
            return;
        }
        abortCheckpoint(true);
        pendingSink[s] = new ArrayList<>();
        precommits.removeIf(p -> p.subtask == s);
        long attempt = nextAttempt++;
        StandInReader.Snapshot snap =
                lastCompleted != null && lastCompleted.epoch == epoch
                        ? lastCompleted.snapshots.get(s)
                        : null;
        if (snap == null) {
            readers[s] = new StandInReader(s, attempt, cutAware, mailboxCapacity);
            loop.registerReader(s, attempt);
        } else {
            readers[s] = StandInReader.restore(s, attempt, cutAware, mailboxCapacity, snap);
            loop.registerReader(
                    s, attempt, snap.report(ReaderInclusionReport.Kind.RESTORED, s, attempt));
        }
        trace.add("reader failover " + s + " from " + (snap == null ? "-" : snap.checkpointId));
        drain();
        restores++;
        checkOwnership("after reader failover of " + s);
    }

    /**
     * The pipeline restores (Zeta): new coordinator epoch from the last completed checkpoint's
     * blob, reader states back through addSplitsBack plus their metadata, fresh reader attempts.
     * Without a checkpoint (or with checkpoints disabled) it is a fresh start.
     */
    void coordinatorFailover(int newParallelism, boolean reportsAfterRegistration) {
        abortCheckpoint(false);
        loop.close();
        drain();
        InFlight from = checkpointsEnabled ? lastCompleted : null;
        if (from == null) {
            committed.clear();
            lastCompleted = null;
        }
        precommits.clear();
        delayedCompletions.clear();
        delayed.clear();
        startCoordinator(epoch + 1, newParallelism, from == null ? null : from.blob);
        startFreshReaders(newParallelism);
        drain();
        if (!reportsAfterRegistration) {
            restoreReaderStates(from, newParallelism);
            registerAll();
        } else {
            registerAll();
            drain();
            restoreReaderStates(from, newParallelism);
        }
        trace.add(
                "coordinator failover epoch "
                        + epoch
                        + " p="
                        + newParallelism
                        + " from "
                        + (from == null ? "-" : from.id));
        drain();
        restores++;
        checkOwnership("after coordinator failover to epoch " + epoch);
    }

    private void restoreReaderStates(InFlight from, int newParallelism) {
        if (from == null) {
            return;
        }
        for (Map.Entry<Integer, StandInReader.Snapshot> e : from.snapshots.entrySet()) {
            int old = e.getKey();
            StandInReader.Snapshot snap = e.getValue();
            loop.addSplitsBack(snap.splits, old % newParallelism);
            loop.reportInclusion(
                    snap.report(
                            ReaderInclusionReport.Kind.RESTORED,
                            old,
                            ReaderInclusionReport.NO_ATTEMPT));
        }
    }

    // ------------------------------------------------------------------ invariants

    /** Records of each split emitted in the current lineage: committed, pre-committed, pending. */
    Map<String, int[]> lineage() {
        Map<String, int[]> out = new TreeMap<>();
        for (TestSplit s : allSplits) {
            out.put(s.id, new int[s.length]);
        }
        List<String> all = new ArrayList<>();
        for (Map.Entry<String, Integer> c : committed.entrySet()) {
            for (int i = 0; i < c.getValue(); i++) {
                all.add(c.getKey());
            }
        }
        for (Precommit p : precommits) {
            all.addAll(p.records);
        }
        for (List<String> l : pendingSink) {
            all.addAll(l);
        }
        for (String rec : all) {
            int hash = rec.lastIndexOf('#');
            out.get(rec.substring(0, hash))[Integer.parseInt(rec.substring(hash + 1))]++;
        }
        return out;
    }

    /**
     * After a restore: every split is done (all records emitted once in the lineage) or has exactly
     * one owner (enumerator, a current reader, or the tracker while in transit) positioned exactly
     * where the lineage stops. No record was emitted twice.
     */
    void checkOwnership(String when) {
        if (!checkOnRestore) {
            return;
        }
        Map<String, int[]> lin = lineage();
        Map<String, List<Integer>> copies = new HashMap<>();
        for (TestSplit s : allSplits) {
            copies.put(s.id, new ArrayList<>());
        }
        if (!enumerator.discovered) {
            for (TestSplit s : allSplits) {
                copies.get(s.id).add(0);
            }
        } else {
            for (TestSplit p : enumerator.pending) {
                copies.get(p.id).add(p.position);
            }
        }
        for (StandInReader r : readers) {
            for (TestSplit t : r.owned.values()) {
                copies.get(t.id).add(t.position);
            }
            for (int i = 0; i < r.mailbox.size(); i++) {
                if (r.mailboxSplitIds.get(i) != null) {
                    copies.get(r.mailboxSplitIds.get(i)).add(positionOf(r.mailbox.get(i)));
                }
            }
            if (!r.violations.isEmpty()) {
                fail(when, "reader violation " + r.violations);
            }
        }
        for (AssignmentEntry e : loop.tracker().entries()) {
            // CHECKPOINT_INCLUDED: a reader checkpoint owns it (the entry waits for the completion
            // notice); otherwise it is in transit unless the current target attempt received it.
            boolean inTransit =
                    e.state() != AssignmentState.CHECKPOINT_INCLUDED
                            && (e.state() == AssignmentState.UNASSIGNED
                                    || e.targetSubtask() >= readers.length
                                    || readers[e.targetSubtask()].attemptId != e.attemptId()
                                    || !readers[e.targetSubtask()].seen.contains(e.commandId()));
            if (inTransit) {
                try {
                    copies.get(e.splitId())
                            .add(new TestSplit.Ser().deserialize(e.splitBytes()).position);
                } catch (java.io.IOException ex) {
                    throw new AssertionError(ex);
                }
            }
        }
        for (TestSplit s : allSplits) {
            int[] counts = lin.get(s.id);
            int emitted = 0;
            for (int k = 0; k < counts.length; k++) {
                if (counts[k] > 1) {
                    fail(when, "record " + s.id + "#" + k + " emitted " + counts[k] + " times");
                }
                if (counts[k] == 1) {
                    if (k != emitted) {
                        fail(when, "split " + s.id + " has a hole before offset " + k);
                    }
                    emitted++;
                }
            }
            List<Integer> c = copies.get(s.id);
            if (emitted == s.length) {
                if (!c.isEmpty()) {
                    fail(when, "finished split " + s.id + " still owned " + c);
                }
            } else if (c.size() != 1) {
                fail(when, "split " + s.id + " has " + c.size() + " owners " + c);
            } else if (c.get(0) != emitted) {
                fail(
                        when,
                        "split "
                                + s.id
                                + " resumes at "
                                + c.get(0)
                                + " but "
                                + emitted
                                + " emitted");
            }
        }
    }

    private static int positionOf(SourceCommandEnvelope e) {
        try {
            return new TestSplit.Ser().deserialize(e.copyPayload()).position;
        } catch (java.io.IOException ex) {
            throw new AssertionError(ex);
        }
    }

    /** End of the job: every record of every split committed exactly once. */
    void checkExactlyOnce() {
        for (TestSplit s : allSplits) {
            for (int k = 0; k < s.length; k++) {
                Integer n = committed.get(s.id + "#" + k);
                if (n == null || n != 1) {
                    fail("at the end", "record " + s.id + "#" + k + " committed " + n + " times");
                }
            }
        }
    }

    boolean jobFinished() {
        if (!enumerator.discovered || !enumerator.pending.isEmpty()) {
            return false;
        }
        for (StandInReader r : readers) {
            if (!r.finished()) {
                return false;
            }
        }
        if (checkpointsEnabled) {
            if (!precommits.isEmpty() || inFlight != null) {
                return false;
            }
            for (List<String> l : pendingSink) {
                if (!l.isEmpty()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Drives the job to its end without faults; fails if it does not finish. */
    void runToCompletion() {
        faults = false;
        for (int round = 0; round < 2000; round++) {
            while (!delayed.isEmpty()) {
                deliverDelayed();
            }
            while (!delayedCompletions.isEmpty()) {
                deliverDelayedCompletion(false);
            }
            drain();
            workers.runAll();
            drain();
            advanceTime(2000);
            drain();
            for (int s = 0; s < readers.length; s++) {
                for (int i = 0; i < 8; i++) {
                    readerStep(s);
                }
            }
            drain();
            if (checkpointsEnabled) {
                triggerCheckpoint();
                for (int s = 0; s < readers.length; s++) {
                    deliverBarrier(s);
                }
                completeCheckpoint(false);
                drain();
            }
            if (jobFinished()) {
                checkExactlyOnce();
                return;
            }
        }
        fail("at the end", "job did not finish; tracker=" + loop.tracker().size());
    }

    void fail(String when, String what) {
        StringBuilder sb = new StringBuilder();
        sb.append(what).append(" (").append(when).append(")\ntrace: ").append(trace);
        sb.append("\ntracker: ");
        for (AssignmentEntry e : loop.tracker().entries()) {
            sb.append(e.splitId()).append('=').append(e).append("; ");
        }
        sb.append("\nenumerator pending: ").append(enumerator.pending);
        sb.append(" discovered=").append(enumerator.discovered);
        for (StandInReader r : readers) {
            sb.append("\nreader ").append(r.subtask).append(" attempt ").append(r.attemptId);
            sb.append(" owned=").append(r.owned.keySet()).append(" mailbox=");
            sb.append(r.mailboxSplitIds).append(" nms=").append(r.noMoreSplits);
            sb.append(" seen=").append(r.seen).append(" wm=").append(r.watermarks);
            sb.append(" gaps=").append(r.gaps);
        }
        sb.append("\nmetrics: ").append(loop.metrics());
        sb.append("\ndelayed=").append(delayed.size()).append(" timers=").append(timer.pending());
        sb.append(" lineage=").append(lineage().keySet());
        throw new AssertionError(sb.toString());
    }

    /** A checkpoint being taken or taken. */
    static final class InFlight {
        final long id;
        final long epoch;
        final int parallelism;
        final byte[] blob;
        final TreeSet<Integer> barriersPending = new TreeSet<>();
        final Map<Integer, StandInReader.Snapshot> snapshots = new TreeMap<>();

        InFlight(long id, long epoch, int parallelism, byte[] blob) {
            this.id = id;
            this.epoch = epoch;
            this.parallelism = parallelism;
            this.blob = blob;
        }
    }

    /** Records a reader emitted before barrier N: committed when a checkpoint >= N completes. */
    static final class Precommit {
        final long checkpointId;
        final int subtask;
        final List<String> records;

        Precommit(long checkpointId, int subtask, List<String> records) {
            this.checkpointId = checkpointId;
            this.subtask = subtask;
            this.records = records;
        }
    }

    static List<TestSplit> splits(int n, Random rnd) {
        List<TestSplit> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new TestSplit("split-" + i, 1 + rnd.nextInt(3), 0));
        }
        return l;
    }
}
