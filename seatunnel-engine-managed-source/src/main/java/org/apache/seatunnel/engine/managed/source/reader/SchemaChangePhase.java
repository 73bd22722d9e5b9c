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
 * The schema-change sub-state of a Lane A reader (STIP-31 "Lifecycle and schema change"),
 * orthogonal to its {@link ReaderLifecycle}. All legal transitions sit in {@link #canTransitionTo};
 * {@link SchemaChangeGate#transitionTo} is the only code that moves a reader between these states.
 *
 * <pre>{@code
 * IDLE -> QUIESCING -> TRIGGER_REQUESTED -> WAITING_END -> IDLE
 *   any state except FENCED -> FENCED   (cancel or fatal failure)
 * }</pre>
 */
public enum SchemaChangePhase {
    /** No schema change in progress: poll turns run. Left when the connector marks a change. */
    IDLE,
    /**
     * The connector marked a schema change inside the current poll turn; the turn is told to yield
     * and no new turn starts. Left when that turn has returned.
     */
    QUIESCING,
    /**
     * The turn that marked the change has returned; the host was asked for a schema-change
     * checkpoint under the request's epoch. Left at the next barrier the loop takes, whose
     * checkpoint id becomes the bound id.
     */
    TRIGGER_REQUESTED,
    /**
     * The bound checkpoint's barrier was taken: its state holds exactly what the reader had read
     * when it marked the change. Left when that checkpoint completes.
     */
    WAITING_END,
    /** A cancel or fatal failure fenced the request; terminal. */
    FENCED;

    private static final Set<SchemaChangePhase> FROM_IDLE = EnumSet.of(QUIESCING, FENCED);
    private static final Set<SchemaChangePhase> FROM_QUIESCING =
            EnumSet.of(TRIGGER_REQUESTED, FENCED);
    private static final Set<SchemaChangePhase> FROM_TRIGGER_REQUESTED =
            EnumSet.of(WAITING_END, FENCED);
    private static final Set<SchemaChangePhase> FROM_WAITING_END = EnumSet.of(IDLE, FENCED);

    public boolean canTransitionTo(SchemaChangePhase next) {
        switch (this) {
            case IDLE:
                return FROM_IDLE.contains(next);
            case QUIESCING:
                return FROM_QUIESCING.contains(next);
            case TRIGGER_REQUESTED:
                return FROM_TRIGGER_REQUESTED.contains(next);
            case WAITING_END:
                return FROM_WAITING_END.contains(next);
            default:
                return false;
        }
    }

    /** Whether a new poll turn may start in this state: only when no change is in progress. */
    public boolean allowsPolling() {
        return this == IDLE;
    }

    /** Whether a schema change is in progress (requested and neither ended nor fenced). */
    public boolean inProgress() {
        return this == QUIESCING || this == TRIGGER_REQUESTED || this == WAITING_END;
    }
}
