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

import java.util.EnumSet;
import java.util.Set;

/**
 * The main lifecycle of a Lane A reader attempt (STIP-31 "Lifecycle and schema change"): where the
 * attempt stands over its whole life, unlike {@link LoopStatus}, which is what one iteration left
 * for its host to act on, and {@link SchemaChangePhase}, a sub-state of {@code RUNNING}. All legal
 * transitions sit in {@link #canTransitionTo}; {@link ReaderEventLoop} is the only code that moves
 * a reader between states, through one gate.
 *
 * <p>The STIP's {@code RESTORING} state has no counterpart: on the hosted engine a reader attempt
 * never restores state of its own. Zeta hands every reader's checkpointed splits back to the
 * enumerator before the readers open (ARCHITECTURE hazard 2); the coordinator reconciles them with
 * the runtime metadata when the new attempt registers and assigns them again as ordinary
 * assignments, so a restored attempt goes from {@code CREATED} to {@code RUNNING} like a new one.
 * The STIP's graceful close is the engine's prepare-close (a savepoint, or the last barrier of a
 * bounded job): the host offers {@code GRACEFUL_CLOSE}, which moves a running reader to {@code
 * DRAINING}.
 */
public enum ReaderLifecycle {
    /** Constructed; nothing applied. Left by {@code start}. */
    CREATED,
    /** Controls and poll turns run. Left at end of input, close, cancel or failure. */
    RUNNING,
    /**
     * End of input or graceful close (the engine's prepare-close) latched: controls and barriers
     * still run, polls do not. Left by close, cancel or failure.
     */
    DRAINING,
    /**
     * A cancel signal preempted the loop; the reader is woken and closed. On Zeta: the engine
     * interrupted the task thread (cancel or pipeline restart).
     */
    CANCELLING,
    /** A fatal failure ended the attempt; the task fails and the job restores. */
    FAILED,
    /** Terminal. */
    CLOSED;

    private static final Set<ReaderLifecycle> FROM_CREATED =
            EnumSet.of(RUNNING, CANCELLING, FAILED, CLOSED);
    private static final Set<ReaderLifecycle> FROM_RUNNING =
            EnumSet.of(DRAINING, CANCELLING, FAILED, CLOSED);
    private static final Set<ReaderLifecycle> FROM_DRAINING =
            EnumSet.of(CANCELLING, FAILED, CLOSED);
    private static final Set<ReaderLifecycle> TO_CLOSED = EnumSet.of(CLOSED);

    public boolean canTransitionTo(ReaderLifecycle next) {
        switch (this) {
            case CREATED:
                return FROM_CREATED.contains(next);
            case RUNNING:
                return FROM_RUNNING.contains(next);
            case DRAINING:
                return FROM_DRAINING.contains(next);
            case CANCELLING:
            case FAILED:
                return TO_CLOSED.contains(next);
            default:
                return false;
        }
    }

    /**
     * The gate every transition goes through: {@code next}, or an {@link IllegalStateException}
     * naming attempt {@code attemptId} if this state cannot move to it.
     */
    ReaderLifecycle checkedTransitionTo(ReaderLifecycle next, long attemptId) {
        if (!canTransitionTo(next)) {
            throw new IllegalStateException(
                    "reader attempt "
                            + attemptId
                            + ": illegal lifecycle transition "
                            + this
                            + " -> "
                            + next);
        }
        return next;
    }

    /** Whether barriers can still be taken in this state. */
    public boolean acceptsBarriers() {
        return this == RUNNING || this == DRAINING;
    }
}
