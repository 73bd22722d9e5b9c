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

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a source task's schema-change phase that Zeta 2.3.8 lost the end of, so that the engine
 * polls the reader again instead of never.
 *
 * <p>Threading: {@link #checkpointCompleted} on the engine thread that notifies the reader of a
 * completed checkpoint (an operation thread: it only reads and schedules); the checks run on the
 * member's watchdog scheduler, one at a time; {@link #close} from any thread.
 *
 * <p>Why: the engine's {@code SourceFlowLifeCycle.triggerBarrier} acknowledges a schema-change
 * barrier inside the checkpoint lock and binds that checkpoint to its schema-change phase only
 * after releasing the lock. If the checkpoint completes, and its end notification reaches the task,
 * in between, the notification finds the phase not yet bound to it and leaves it; the phase is then
 * never ended and the engine stops calling {@code pollNext} for good, on either lane (a bounded job
 * restored in the middle of a schema change hung this way once in seven CI runs of the end-to-end
 * suite). The engine delivers a checkpoint's end right after every task acknowledged its
 * completion, so a phase still bound to a checkpoint whose completion was known at the previous
 * check, {@link #CHECK_MILLIS} earlier, lost its end: it is ended as that notification would have
 * ended it. A check runs while a phase exists after a completion, and not otherwise.
 */
final class SchemaChangeEndRepair {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaChangeEndRepair.class);
    // Far longer than the engine takes from a checkpoint's completion to its end (two local
    // operations), and short next to the stall it ends.
    static final long CHECK_MILLIS = 1000;

    // The engine's phase holder, resolved at open so that another engine version fails there.
    private final AtomicReference<Object> phase;
    private final EngineBinding.ReaderTask task;
    private final ScheduledExecutorService scheduler;
    private final String identity;
    private final AtomicLong completed = new AtomicLong(-1);
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean closed;
    // Watchdog only: the highest completed checkpoint known at the previous check.
    private long completedAtLastCheck = -1;

    SchemaChangeEndRepair(
            EngineBinding.ReaderTask task, ScheduledExecutorService scheduler, String identity) {
        this.task = task;
        this.phase = task.schemaChangePhase();
        this.scheduler = scheduler;
        this.identity = identity;
    }

    /** The engine notified checkpoint {@code checkpointId} complete. */
    void checkpointCompleted(long checkpointId) {
        completed.accumulateAndGet(checkpointId, Math::max);
        if (!closed && phase.get() != null) {
            scheduleCheck();
        }
    }

    void close() {
        closed = true;
    }

    private void scheduleCheck() {
        if (!scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            scheduler.schedule(this::check, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The member is shutting down: its tasks end with it.
            scheduled.set(false);
        }
    }

    private void check() {
        scheduled.set(false);
        if (closed) {
            return;
        }
        try {
            Object current = phase.get();
            if (current == null) {
                completedAtLastCheck = -1;
                return;
            }
            long bound = task.schemaChangeCheckpoint(current);
            if (bound >= 0 && bound <= completedAtLastCheck) {
                // Null unless the engine replaced or ended the phase meanwhile.
                if (phase.compareAndSet(current, null)) {
                    LOG.warn(
                            "{}: the engine lost the end of schema-change checkpoint {} (it"
                                    + " arrived before the engine bound the checkpoint to the"
                                    + " change) and would never poll the reader again; ended"
                                    + " the change as that notification would have",
                            identity,
                            bound);
                }
                completedAtLastCheck = -1;
                return;
            }
            completedAtLastCheck = completed.get();
            scheduleCheck();
        } catch (RuntimeException e) {
            LOG.warn("{}: could not check the engine's schema-change phase", identity, e);
        }
    }
}
