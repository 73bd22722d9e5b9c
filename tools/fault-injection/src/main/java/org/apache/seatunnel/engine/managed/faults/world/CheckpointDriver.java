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

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.faults.FaultAction;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.FaultPoint;
import org.apache.seatunnel.engine.managed.faults.InjectedFault;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;

/**
 * The engine's checkpoint coordinator, with Zeta 2.3.8's order: {@link #trigger()} snapshots the
 * enumerator first; each reader's barrier is a later, separate step ({@link #barrier(int)}), so the
 * run can interleave assignments between the two (hazard 1). After a reader's snapshot returns the
 * engine registers the state, the task acknowledges and the barrier is forwarded to the sink —
 * fault points 9 and 10 sit between those steps. {@link #complete()} commits the sink and then
 * notifies the coordinator — fault point 11 sits between the two.
 *
 * <p>Threading: confined to the run's thread.
 */
public final class CheckpointDriver {
    private final MiniEngine engine;
    private final FaultInjector faults;
    // Its own stream, so barriers between turns left every other draw of a seed as it was.
    private final Random betweenTurns;
    private long nextId = 1;
    private InFlight inFlight;
    private Completed lastCompleted;
    private int completedCount;
    private int abortedCount;
    private int barriersBetweenTurns;
    private long assignmentsLeftOut;

    CheckpointDriver(MiniEngine engine, FaultInjector faults) {
        this.engine = engine;
        this.faults = faults;
        this.betweenTurns = new Random(engine.config.seed() ^ 0xB5297A4D3F84D5B5L);
    }

    /** Starts checkpoint N with the coordinator's snapshot; false if one is in flight. */
    public boolean trigger() {
        if (!engine.config().checkpointsEnabled() || inFlight != null) {
            return false;
        }
        long id = nextId++;
        long leftOut = engine.coordinator().metrics().get(Counter.SNAPSHOT_ASSIGNMENTS_LEFT_OUT);
        CompletableFuture<byte[]> f = engine.coordinator().snapshot(id);
        engine.drainCoordinator();
        assignmentsLeftOut +=
                engine.coordinator().metrics().get(Counter.SNAPSHOT_ASSIGNMENTS_LEFT_OUT) - leftOut;
        byte[] blob = f.isDone() && !f.isCompletedExceptionally() ? f.getNow(null) : null;
        if (blob == null || engine.failurePending()) {
            engine.trace("checkpoint " + id + " not triggered: coordinator snapshot failed");
            return false;
        }
        inFlight = new InFlight(id, blob, engine.parallelism());
        engine.trace("trigger " + id);
        return true;
    }

    /** Delivers the in-flight checkpoint's barrier to {@code subtask}; false if nothing to do. */
    public boolean barrier(int subtask) {
        if (inFlight == null || !inFlight.barriersPending.remove(subtask)) {
            return false;
        }
        InFlight cp = inFlight;
        String where = "reader " + subtask + " checkpoint " + cp.id;
        ReaderSnapshot state;
        try {
            state = engine.reader(subtask).snapshot(cp.id);
        } catch (RuntimeException e) {
            InjectedFault f = InjectedFault.find(e);
            if (f != null && f.action() == FaultAction.STALL) {
                stall(cp, where + ": " + f.getMessage());
            } else {
                engine.requestFailure(where + " failed: " + e);
            }
            return true;
        }
        cp.states.put(subtask, state);
        if (inject(FaultPoint.STATE_REGISTRATION_BEFORE_TASK_ACK, cp, where)) {
            return true;
        }
        cp.acked.add(subtask);
        if (inject(FaultPoint.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING, cp, where)) {
            return true;
        }
        engine.sink().barrier(subtask, cp.id);
        cp.forwarded.add(subtask);
        engine.trace("barrier " + cp.id + " @" + subtask);
        return true;
    }

    /**
     * Reader {@code subtask} is between two turns of one engine call, lock released: the in-flight
     * checkpoint's barrier, if not yet delivered to it, takes the lock there in a third of the
     * cases, as the engine's barrier handoff lets an announced barrier in between turns.
     */
    void betweenTurns(int subtask) {
        if (engine.config.barriersBetweenTurns()
                && inFlight != null
                && inFlight.barriersPending.contains(subtask)
                && !engine.failurePending()
                && betweenTurns.nextInt(3) == 0) {
            engine.trace("barrier " + inFlight.id + " @" + subtask + " between turns");
            barriersBetweenTurns++;
            barrier(subtask);
        }
    }

    private boolean inject(FaultPoint point, InFlight cp, String where) {
        FaultAction a = faults.at(point, where);
        if (a == FaultAction.CRASH) {
            engine.requestFailure(where + ": injected crash at fault point " + point.number());
            return true;
        }
        if (a == FaultAction.STALL) {
            stall(cp, where + ": injected stall at fault point " + point.number());
            return true;
        }
        return false;
    }

    private void stall(InFlight cp, String why) {
        cp.stalled = true;
        engine.trace("stall " + cp.id + " (" + why + ")");
    }

    /**
     * Completes the in-flight checkpoint if every reader acknowledged and every barrier reached the
     * sink: the sink commits, then the coordinator and the readers are notified.
     */
    public boolean complete() {
        InFlight cp = inFlight;
        int p = engine.parallelism();
        if (cp == null || cp.stalled || cp.acked.size() < p || cp.forwarded.size() < p) {
            return false;
        }
        inFlight = null;
        lastCompleted = new Completed(cp.id, cp.blob, cp.parallelism, cp.states);
        completedCount++;
        engine.sink().commitUpTo(cp.id);
        engine.trace("complete " + cp.id);
        CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator = engine.coordinator();
        String where = "checkpoint " + cp.id;
        FaultAction a = faults.at(FaultPoint.GLOBAL_COMPLETION_BEFORE_TRACKER_GC, where);
        if (a == FaultAction.CRASH) {
            engine.requestFailure(where + " completed, then the coordinator crashed (point 11)");
            return true;
        }
        if (a == FaultAction.DELAY) {
            engine.network().later(() -> coordinator.notifyCheckpointComplete(cp.id));
        } else if (a != FaultAction.LOSE) {
            coordinator.notifyCheckpointComplete(cp.id);
        }
        for (int s = 0; s < p; s++) {
            engine.reader(s).notifyCheckpointComplete(cp.id);
        }
        return true;
    }

    /**
     * Triggers a checkpoint, delivers every barrier and completes it; stops at the first failure
     * (the engine restores after the step). False if it did not complete.
     */
    boolean full() {
        if (!trigger()) {
            return false;
        }
        for (int s = 0; s < engine.parallelism() && !engine.failurePending(); s++) {
            barrier(s);
        }
        return !engine.failurePending() && complete();
    }

    /**
     * The in-flight checkpoint times out or is declined; {@code notify} says whether the
     * coordinator hears of it (Zeta 2.3.8 never tells readers).
     */
    public boolean abort(boolean notify) {
        InFlight cp = inFlight;
        if (cp == null) {
            return false;
        }
        inFlight = null;
        abortedCount++;
        engine.trace("abort " + cp.id + (notify ? "" : " (unnotified)"));
        if (notify) {
            engine.coordinator().notifyCheckpointAborted(cp.id);
        }
        return true;
    }

    /** The pipeline restores: whatever was in flight is gone. */
    void onRestore() {
        inFlight = null;
    }

    public boolean inFlight() {
        return inFlight != null;
    }

    public boolean stalled() {
        return inFlight != null && inFlight.stalled;
    }

    /** The checkpoint a restore starts from, or null. */
    public Completed lastCompleted() {
        return lastCompleted;
    }

    public int completedCount() {
        return completedCount;
    }

    public int abortedCount() {
        return abortedCount;
    }

    /** Barriers delivered between two turns of one reader call. */
    public int barriersBetweenTurns() {
        return barriersBetweenTurns;
    }

    /**
     * Assignments the coordinator's snapshots left out because their readers had applied them
     * before the barrier (the checkpoint gets them from the readers' state).
     */
    public long assignmentsLeftOut() {
        return assignmentsLeftOut;
    }

    /** A checkpoint being taken. */
    private static final class InFlight {
        final long id;
        final byte[] blob;
        final TreeSet<Integer> barriersPending = new TreeSet<>();
        final int parallelism;
        final Map<Integer, ReaderSnapshot> states = new TreeMap<>();
        final TreeSet<Integer> acked = new TreeSet<>();
        final TreeSet<Integer> forwarded = new TreeSet<>();
        boolean stalled;

        InFlight(long id, byte[] blob, int parallelism) {
            this.id = id;
            this.blob = blob;
            this.parallelism = parallelism;
            for (int s = 0; s < parallelism; s++) {
                barriersPending.add(s);
            }
        }
    }

    /**
     * A completed global checkpoint: the coordinator blob, the reader parallelism it was taken with
     * and every reader's state. Immutable.
     */
    public static final class Completed {
        private final long id;
        private final byte[] blob;
        private final int parallelism;
        private final Map<Integer, ReaderSnapshot> states;

        Completed(long id, byte[] blob, int parallelism, Map<Integer, ReaderSnapshot> states) {
            this.id = id;
            this.blob = blob.clone();
            this.parallelism = parallelism;
            this.states = Collections.unmodifiableMap(new TreeMap<>(states));
        }

        /** The reader parallelism when it was taken. */
        public int parallelism() {
            return parallelism;
        }

        public long id() {
            return id;
        }

        public byte[] blob() {
            return blob.clone();
        }

        public Map<Integer, ReaderSnapshot> states() {
            return states;
        }
    }
}
