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

package org.apache.seatunnel.engine.managed.e2e.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;

/**
 * One chaos schedule, drawn entirely from its seed: the engine (2 or 3 members, a split window), a
 * bounded ManagedFakeTesting job (parallelism, splits, rows, pacing, slow data, checkpoint
 * interval, a reader failure at a row or an enumerator failure at a checkpoint or neither), and one
 * to three events after its first completed checkpoint, each after a drawn pause: a fault at one of
 * the STIP's eleven points, a member shut down, a savepoint with a restore. The same seed draws the
 * same schedule, so a failure replays with {@code -Dchaos.seed=<seed> -Dchaos.schedules=1}.
 *
 * <p>Immutable.
 */
final class ChaosSchedule {

    /** What happens to the running job. */
    enum Kind {
        FAULT,
        MEMBER_SHUTDOWN,
        SAVEPOINT_RESTORE
    }

    /** One event: its kind, the pause before it, and for a fault its point and action. */
    static final class Event {
        final Kind kind;
        final long pauseMillis;
        final FaultSite site;
        final FaultAction action;

        Event(Kind kind, long pauseMillis, FaultSite site, FaultAction action) {
            this.kind = kind;
            this.pauseMillis = pauseMillis;
            this.site = site;
            this.action = action;
        }

        @Override
        public String toString() {
            return kind == Kind.FAULT
                    ? "after " + pauseMillis + " ms " + action + " at point " + site.number()
                    : "after " + pauseMillis + " ms " + kind;
        }
    }

    final long seed;
    final int members;
    final int splitWindow;
    final int parallelism;
    final int splits;
    final int rowsPerSplit;
    final int rowsPerSecond;
    final long slowDataMillis;
    final int checkpointMillis;
    final long failAtRow;
    final long enumeratorFailAtCheckpoint;
    final List<Event> events;

    private ChaosSchedule(long seed) {
        Random r = new Random(seed);
        this.seed = seed;
        this.members = 2 + r.nextInt(2);
        this.splitWindow = new int[] {2, 8, 1024}[r.nextInt(3)];
        this.parallelism = 2 + r.nextInt(3);
        this.splits = 20 + r.nextInt(100);
        this.rowsPerSplit = 5 + r.nextInt(26);
        this.rowsPerSecond = new int[] {300, 600, 1200}[r.nextInt(3)];
        this.slowDataMillis = new long[] {0, 0, 50, 200}[r.nextInt(4)];
        this.checkpointMillis = new int[] {200, 400, 800}[r.nextInt(3)];
        int failure = r.nextInt(4);
        long rowsPerReader = (long) splits * rowsPerSplit / parallelism;
        this.failAtRow = failure == 0 ? 1 + r.nextInt((int) Math.max(1, rowsPerReader)) : -1;
        this.enumeratorFailAtCheckpoint = failure == 1 ? 2 + r.nextInt(3) : -1;
        List<Event> es = new ArrayList<>();
        boolean shutdown = false;
        boolean savepoint = false;
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            long pause = r.nextInt(800);
            int k = r.nextInt(6);
            if (k == 0 && !shutdown) {
                shutdown = true;
                es.add(new Event(Kind.MEMBER_SHUTDOWN, pause, null, null));
            } else if (k == 1 && !savepoint) {
                savepoint = true;
                es.add(new Event(Kind.SAVEPOINT_RESTORE, pause, null, null));
            } else {
                Object[] f = FAULTS[r.nextInt(FAULTS.length)];
                es.add(new Event(Kind.FAULT, pause, (FaultSite) f[0], (FaultAction) f[1]));
            }
        }
        this.events = Collections.unmodifiableList(es);
    }

    /** Every action the runtime and the interposers carry out, at every point. */
    private static final Object[][] FAULTS = {
        {FaultSite.COMMAND_CREATION, FaultAction.CRASH},
        {FaultSite.COMMAND_CREATION, FaultAction.LOSE},
        {FaultSite.OPERATION_SEND, FaultAction.LOSE},
        {FaultSite.OPERATION_SEND, FaultAction.DUPLICATE},
        {FaultSite.OPERATION_SEND, FaultAction.DELAY},
        {FaultSite.OPERATION_SEND, FaultAction.REORDER},
        {FaultSite.CAPACITY_RESERVATION, FaultAction.RETRY_LATER},
        {FaultSite.ADMISSION_ACK, FaultAction.LOSE},
        {FaultSite.ADMISSION_ACK, FaultAction.DELAY},
        {FaultSite.CONNECTOR_APPLY_BEFORE_RETURN, FaultAction.CRASH},
        {FaultSite.APPLY_COMPLETION, FaultAction.CRASH},
        {FaultSite.APPLY_ACK, FaultAction.LOSE},
        {FaultSite.APPLY_ACK, FaultAction.DUPLICATE},
        {FaultSite.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION, FaultAction.CRASH},
        {FaultSite.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION, FaultAction.STALL},
        {FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK, FaultAction.CRASH},
        {FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK, FaultAction.STALL},
        {FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING, FaultAction.CRASH},
        {FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING, FaultAction.STALL},
        {FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC, FaultAction.CRASH},
        {FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC, FaultAction.LOSE},
        {FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC, FaultAction.DELAY},
    };

    static ChaosSchedule draw(long seed) {
        return new ChaosSchedule(seed);
    }

    long rows() {
        return (long) splits * rowsPerSplit;
    }

    @Override
    public String toString() {
        return "seed "
                + seed
                + ": "
                + members
                + " members, window "
                + splitWindow
                + ", p="
                + parallelism
                + ", "
                + splits
                + " splits x "
                + rowsPerSplit
                + " rows at "
                + rowsPerSecond
                + " rows/s"
                + (slowDataMillis > 0 ? ", slow data " + slowDataMillis + " ms" : "")
                + ", checkpoint every "
                + checkpointMillis
                + " ms"
                + (failAtRow > 0 ? ", a reader fails at row " + failAtRow : "")
                + (enumeratorFailAtCheckpoint > 0
                        ? ", the enumerator fails at checkpoint " + enumeratorFailAtCheckpoint
                        : "")
                + ", events "
                + events;
    }
}
