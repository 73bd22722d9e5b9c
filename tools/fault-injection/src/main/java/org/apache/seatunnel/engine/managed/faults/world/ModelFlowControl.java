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

import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderDriver;

/**
 * The model's {@link ReaderDriver.FlowControl}: what happens between the turns of one engine call,
 * lock released. As on the engine, the in-flight checkpoint's barrier may take the lock there
 * ({@code betweenTurns}; the engine's barrier handoff), so a barrier lands between any two turns,
 * not only between calls. The sink always has room. Nothing else in the world runs during a call,
 * so a wait for the loop's signal either consumes a pending signal or runs out: the call's own
 * clock ({@link #clock()}, the world's time plus the time this attempt's calls waited) moves by the
 * wait, so an idle call returns after {@code reader.idle-wait} as on the engine, without moving the
 * world's time, which only schedule steps move.
 *
 * <p>Threading: confined to the run's thread, which plays the reader's task thread.
 */
final class ModelFlowControl implements ReaderDriver.FlowControl {
    /** Turns one call may run before the run fails: a call that never returns is a defect. */
    private static final int MAX_TURNS_PER_CALL = 10_000;

    private final ManualTime time;
    private final String name;
    private final Runnable betweenTurns;
    private long waitedNanos;
    private int turns;
    private boolean leftWork;

    ModelFlowControl(ManualTime time, String name, Runnable betweenTurns) {
        this.time = time;
        this.name = name;
        this.betweenTurns = betweenTurns;
    }

    /** The clock the driver measures one call's waits with. */
    NanoClock clock() {
        return () -> time.nanoTime() + waitedNanos;
    }

    /** A new engine call starts. */
    void callStarted() {
        turns = 0;
        leftWork = false;
    }

    /** Whether the call's last turn left work for the next call. */
    boolean leftWork() {
        return leftWork;
    }

    /** Before the first turn of a call this is the same as a barrier step before the call. */
    @Override
    public void awaitAnnouncedBarrier() {
        if (turns > 0) {
            betweenTurns.run();
        }
    }

    @Override
    public boolean outputBlocked() {
        return false;
    }

    @Override
    public void awaitRoom(long maxNanos) {}

    @Override
    public void turnEnded(boolean leftWork) {
        this.leftWork = leftWork;
        if (++turns > MAX_TURNS_PER_CALL) {
            throw new IllegalStateException(
                    name + ": one pollNext ran " + turns + " turns and did not return");
        }
    }

    @Override
    public void readerIdled() {}

    @Override
    public void awaitSignal(LoopSignal signal, long maxNanos) {
        if (!signal.clear()) {
            // Nothing else runs during the call, so no signal can come: the wait runs out.
            waitedNanos += Math.max(0, maxNanos);
        }
    }
}
