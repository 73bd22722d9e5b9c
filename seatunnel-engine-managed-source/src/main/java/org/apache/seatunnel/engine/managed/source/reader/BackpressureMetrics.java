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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of how a reader steps aside for barriers and for a full output.
 *
 * <p>Threading: written by the task thread that drives the reader (and, for the in-flight limit,
 * whenever the gate re-learns it), read by the engine's metrics thread at any time; values are
 * eventually consistent.
 */
public final class BackpressureMetrics {
    /** Announced barriers the task thread waited for, lock released, until they were taken. */
    public final AtomicLong barrierHandoffs = new AtomicLong();

    /** Announced barriers that did not arrive within {@code reader.barrier-handoff-timeout}. */
    public final AtomicLong barrierHandoffTimeouts = new AtomicLong();

    /**
     * Announced barriers after which the task thread, its own barrier taken, waited for the rest of
     * its member's readers of the source ({@link BarrierCohort}).
     */
    public final AtomicLong barrierCohortWaits = new AtomicLong();

    /**
     * Announced barriers after which the task thread stopped waiting for the rest of its member's
     * readers ({@link BarrierCohort}) at {@code reader.barrier-handoff-timeout}.
     */
    public final AtomicLong barrierCohortTimeouts = new AtomicLong();

    /** Time the task thread spent waiting for announced barriers and then for their cohort. */
    public final AtomicLong barrierHandoffWaitNanos = new AtomicLong();

    /** Time the reader could not emit because the queue to the next task had no room. */
    public final AtomicLong outputBlockedNanos = new AtomicLong();

    /** The current bound of rows in flight to the next task (0 while none is known). */
    public final AtomicLong outputInFlightLimit = new AtomicLong();

    public long barrierHandoffs() {
        return barrierHandoffs.get();
    }

    public long barrierHandoffTimeouts() {
        return barrierHandoffTimeouts.get();
    }

    public long barrierCohortWaits() {
        return barrierCohortWaits.get();
    }

    public long barrierCohortTimeouts() {
        return barrierCohortTimeouts.get();
    }

    public long barrierHandoffWaitNanos() {
        return barrierHandoffWaitNanos.get();
    }

    public long outputBlockedNanos() {
        return outputBlockedNanos.get();
    }

    public long outputInFlightLimit() {
        return outputInFlightLimit.get();
    }
}
