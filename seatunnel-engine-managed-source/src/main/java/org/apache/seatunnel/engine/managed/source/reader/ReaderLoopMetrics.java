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
 * Counters of one reader event loop. Written by the loop (and the watchdog for overruns), read by
 * any thread; values are eventually consistent.
 */
public final class ReaderLoopMetrics {
    final AtomicLong pollTurns = new AtomicLong();
    final AtomicLong records = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong unsizedRecords = new AtomicLong();
    final AtomicLong pollNanos = new AtomicLong();
    final AtomicLong softOverruns = new AtomicLong();
    final AtomicLong hardWakeups = new AtomicLong();
    final AtomicLong commandsApplied = new AtomicLong();
    final AtomicLong duplicatesSkipped = new AtomicLong();
    final AtomicLong cutDeferrals = new AtomicLong();
    final AtomicLong checkpoints = new AtomicLong();
    final AtomicLong queueWaitNanos = new AtomicLong();
    final AtomicLong availabilityNotSignalled = new AtomicLong();
    final AtomicLong pollsLingered = new AtomicLong();
    final AtomicLong reportsUnchanged = new AtomicLong();
    final AtomicLong recordBudgetOverruns = new AtomicLong();
    final AtomicLong schemaChangesRequested = new AtomicLong();
    final AtomicLong schemaChangesCompleted = new AtomicLong();
    final AtomicLong schemaChangeIgnoredCallbacks = new AtomicLong();
    final AtomicLong schemaChangeEvents = new AtomicLong();
    final AtomicLong offLoopStateChecks = new AtomicLong();
    final AtomicLong offLoopStateChanges = new AtomicLong();

    private final BackpressureMetrics backpressure = new BackpressureMetrics();

    /** Barrier handoffs and output-blocked time of the reader host. */
    public BackpressureMetrics backpressure() {
        return backpressure;
    }

    public long pollTurns() {
        return pollTurns.get();
    }

    public long records() {
        return records.get();
    }

    public long bytes() {
        return bytes.get();
    }

    /** Sampled records the sizer rejected; each counted 0 bytes in {@link #bytes()}. */
    public long unsizedRecords() {
        return unsizedRecords.get();
    }

    public long pollNanos() {
        return pollNanos.get();
    }

    public long softOverruns() {
        return softOverruns.get();
    }

    public long hardWakeups() {
        return hardWakeups.get();
    }

    public long commandsApplied() {
        return commandsApplied.get();
    }

    public long duplicatesSkipped() {
        return duplicatesSkipped.get();
    }

    public long cutDeferrals() {
        return cutDeferrals.get();
    }

    public long checkpoints() {
        return checkpoints.get();
    }

    /**
     * Poll turns that produced records after {@code NOTHING_AVAILABLE} while the reader's
     * availability future was still incomplete and no split, no-more-splits or source event came in
     * between: the reader's data arrived without the signal it owes the loop
     * (ManagedSourceAvailabilityNotSignalled).
     */
    public long availabilityNotSignalled() {
        return availabilityNotSignalled.get();
    }

    /**
     * Lingers ({@code reader.poll-linger}) at whose end data was already waiting: each is a poll
     * turn, and a wake-up, that the linger deferred (ManagedSourcePollsLingered).
     */
    public long pollsLingered() {
        return pollsLingered.get();
    }

    /**
     * Checkpoints whose report to the coordinator was not sent because it proved no assignment the
     * last admitted report had not (ManagedSourceCheckpointReportsUnchanged): most checkpoints of a
     * running job whose splits are all applied.
     */
    public long reportsUnchanged() {
        return reportsUnchanged.get();
    }

    /**
     * Poll turns that emitted more records than the turn's record budget ({@code
     * remainingRecords()} at the start), ManagedSourcePollRecordBudgetOverruns.
     */
    public long recordBudgetOverruns() {
        return recordBudgetOverruns.get();
    }

    /** Schema changes the connector marked (ManagedSourceSchemaChangesRequested). */
    public long schemaChangesRequested() {
        return schemaChangesRequested.get();
    }

    /**
     * Schema changes whose bound checkpoint completed, after which polling resumed
     * (ManagedSourceSchemaChangesCompleted).
     */
    public long schemaChangesCompleted() {
        return schemaChangesCompleted.get();
    }

    /**
     * Stale or repeated checkpoint callbacks the schema-change gate ignored while a change was in
     * progress or right after one (ManagedSourceSchemaChangeIgnoredCallbacks).
     */
    public long schemaChangeIgnoredCallbacks() {
        return schemaChangeIgnoredCallbacks.get();
    }

    /** Schema-change events the connector emitted (ManagedSourceSchemaChangeEvents). */
    public long schemaChangeEvents() {
        return schemaChangeEvents.get();
    }

    /**
     * Comparisons {@code reader.off-loop-check} made: a sampled barrier's state against the state
     * at the next call into the reader (ManagedSourceOffLoopStateChecks). 0 while the check is off.
     */
    public long offLoopStateChecks() {
        return offLoopStateChecks.get();
    }

    /**
     * Of those, comparisons that found the reader's checkpoint-visible state changed although no
     * turn or callback ran in between: a thread other than the reader loop moved it
     * (ManagedSourceOffLoopStateChanges).
     */
    public long offLoopStateChanges() {
        return offLoopStateChanges.get();
    }

    /** Sum of admission→apply waits of applied commands. */
    public long queueWaitNanos() {
        return queueWaitNanos.get();
    }
}
