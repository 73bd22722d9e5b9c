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

import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema-change sub-state machine of one reader attempt: it aligns a connector's schema change
 * with a checkpoint cut, so that the state of the bound checkpoint holds exactly what the reader
 * had read when it marked the change, and no poll turn runs until that checkpoint completed.
 *
 * <p>Threading: owned by the thread driving the {@link ReaderEventLoop} (one driver at a time, as
 * the loop itself); every method is called there. The counters it bumps live in {@link
 * ReaderLoopMetrics} and are read by any thread.
 *
 * <p>Life cycle: the connector marks a change inside a poll turn ({@link #request}: IDLE →
 * QUIESCING, a new request epoch, the turn is told to yield); when the turn returned the loop
 * reports it ({@link #turnEnded}: → TRIGGER_REQUESTED) and asks its host for a schema-change
 * checkpoint under that epoch; the first barrier the loop then takes is the bound checkpoint
 * ({@link #barrierTaken}: → WAITING_END), and its completion ends the change ({@link
 * #checkpointCompleted}: → IDLE). Every barrier after the mark carries the same cut, because no
 * turn runs in between, so binding the first is exact whichever checkpoint the engine meant. {@link
 * #fence} (cancel, fatal failure) ends it for good and cancels the request's future.
 *
 * <p>Only the bound checkpoint id and the current request epoch advance the state. Completions of
 * other checkpoints while a change is in progress and repeats of the last bound completion are
 * ignored and counted ({@code ManagedSourceSchemaChangeIgnoredCallbacks}); a second mark while a
 * change is in progress, an abort of the bound checkpoint, a later checkpoint completing before it,
 * a failed trigger and a change older than the timeout are refused with a {@link
 * SchemaChangeRefusedException} that names the state, epoch and bound checkpoint.
 */
public final class SchemaChangeGate {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaChangeGate.class);

    /** No checkpoint bound yet. */
    public static final long UNBOUND = -1L;

    /** The default of {@code reader.schema-change-timeout}: 10 minutes. */
    public static final long DEFAULT_TIMEOUT_NANOS = 10L * 60 * 1_000_000_000L;

    private final ReaderIdentity identity;
    private final NanoClock clock;
    private final ReaderLoopMetrics metrics;
    private long timeoutNanos;

    private SchemaChangePhase phase = SchemaChangePhase.IDLE;
    private SchemaChangeMark mark;
    private long epoch;
    private long boundCheckpoint = UNBOUND;
    private long lastEndedCheckpoint = UNBOUND;
    private long requestedAtNanos;
    private CompletableFuture<Void> request = CompletableFuture.completedFuture(null);

    public SchemaChangeGate(
            ReaderIdentity identity,
            NanoClock clock,
            ReaderLoopMetrics metrics,
            long timeoutNanos) {
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException(
                    "reader.schema-change-timeout must be positive: " + timeoutNanos + " ns");
        }
        this.identity = identity;
        this.clock = clock;
        this.metrics = metrics;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Sets the bound of one change, request to completion ({@code reader.schema-change-timeout}).
     */
    public void setTimeoutNanos(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException(
                    "reader.schema-change-timeout must be positive: " + nanos + " ns");
        }
        this.timeoutNanos = nanos;
    }

    /**
     * The connector marked a schema change in the running turn. Returns the request's future, which
     * completes when the bound checkpoint completed and is cancelled when the request is fenced.
     *
     * @throws SchemaChangeRefusedException if a change is already in progress (overlapping changes
     *     fail the task) or the gate is fenced
     */
    public CompletableFuture<Void> request(SchemaChangeMark requested) {
        if (phase != SchemaChangePhase.IDLE) {
            throw refused(
                    "overlapping schema change: "
                            + requested
                            + " marked while "
                            + phase
                            + (mark != null ? " with " + mark : ""));
        }
        epoch++;
        mark = requested;
        boundCheckpoint = UNBOUND;
        transitionTo(SchemaChangePhase.QUIESCING);
        requestedAtNanos = clock.nanoTime();
        request = new CompletableFuture<>();
        metrics.schemaChangesRequested.incrementAndGet();
        return request;
    }

    /**
     * The turn that marked the change returned. Returns the request epoch the host triggers the
     * schema-change checkpoint under.
     */
    public long turnEnded() {
        transitionTo(SchemaChangePhase.TRIGGER_REQUESTED);
        return epoch;
    }

    /**
     * The loop took barrier {@code checkpointId}. The first one after the request binds the change
     * to it; in every other state a barrier changes nothing.
     *
     * @throws SchemaChangeRefusedException if the barrier fell inside the marking turn
     */
    public void barrierTaken(long checkpointId) {
        if (phase == SchemaChangePhase.QUIESCING) {
            throw refused(
                    "barrier "
                            + checkpointId
                            + " arrived before the turn that marked the change returned");
        }
        if (phase == SchemaChangePhase.TRIGGER_REQUESTED) {
            boundCheckpoint = checkpointId;
            transitionTo(SchemaChangePhase.WAITING_END);
        }
    }

    /**
     * Checkpoint {@code checkpointId} completed. Returns true if that ended the change (the bound
     * checkpoint completed: polling may resume).
     *
     * @throws SchemaChangeRefusedException if a later checkpoint completed while the bound one did
     *     not: the bound checkpoint was aborted without notice
     */
    public boolean checkpointCompleted(long checkpointId) {
        if (phase == SchemaChangePhase.WAITING_END) {
            if (checkpointId == boundCheckpoint) {
                lastEndedCheckpoint = checkpointId;
                transitionTo(SchemaChangePhase.IDLE);
                metrics.schemaChangesCompleted.incrementAndGet();
                request.complete(null);
                return true;
            }
            if (checkpointId > boundCheckpoint) {
                throw refused(
                        "checkpoint "
                                + checkpointId
                                + " completed before the bound schema-change checkpoint");
            }
            ignored("completion of checkpoint " + checkpointId);
            return false;
        }
        if (phase.inProgress()) {
            // Completions of checkpoints cut before the mark: they say nothing about the change.
            ignored("completion of checkpoint " + checkpointId);
        } else if (lastEndedCheckpoint != UNBOUND && checkpointId == lastEndedCheckpoint) {
            ignored("repeated completion of checkpoint " + checkpointId);
        }
        return false;
    }

    /**
     * Checkpoint {@code checkpointId} was aborted.
     *
     * @throws SchemaChangeRefusedException if it is the bound checkpoint
     */
    public void checkpointAborted(long checkpointId) {
        if (phase == SchemaChangePhase.WAITING_END && checkpointId == boundCheckpoint) {
            throw refused("the bound schema-change checkpoint " + checkpointId + " was aborted");
        }
        if (phase.inProgress()) {
            ignored("abort of checkpoint " + checkpointId);
        }
    }

    /**
     * The host could not trigger the schema-change checkpoint of request {@code requestEpoch}. A
     * failure of an earlier request is stale and ignored.
     *
     * @throws SchemaChangeRefusedException if it is the current request's trigger
     */
    public void triggerFailed(long requestEpoch, Throwable cause) {
        if (requestEpoch != epoch || !phase.inProgress()) {
            ignored("trigger failure of epoch " + requestEpoch);
            return;
        }
        throw new SchemaChangeRefusedException(
                describe("the schema-change checkpoint could not be triggered"), cause);
    }

    /**
     * Refuses a change that has been in progress longer than the timeout.
     *
     * @throws SchemaChangeRefusedException if it has
     */
    public void checkTimeout() {
        if (phase.inProgress() && clock.nanoTime() - requestedAtNanos > timeoutNanos) {
            throw refused(
                    "the schema change did not complete within reader.schema-change-timeout ("
                            + timeoutNanos / 1_000_000L
                            + " ms)");
        }
    }

    /** Cancel or fatal failure: fences the request (its future is cancelled); idempotent. */
    public void fence() {
        if (phase == SchemaChangePhase.FENCED) {
            return;
        }
        transitionTo(SchemaChangePhase.FENCED);
        request.cancel(false);
    }

    /** The one gate through which the state changes: validates and logs. */
    private void transitionTo(SchemaChangePhase next) {
        if (!phase.canTransitionTo(next)) {
            throw refused("illegal schema-change transition " + phase + " -> " + next);
        }
        LOG.info(
                "Reader {}: schema change {} -> {} ({}, epoch {}, bound checkpoint {})",
                identity,
                phase,
                next,
                mark,
                epoch,
                boundCheckpoint);
        phase = next;
    }

    private void ignored(String what) {
        metrics.schemaChangeIgnoredCallbacks.incrementAndGet();
        LOG.debug("Reader {}: ignored {} ({})", identity, what, describeState());
    }

    private SchemaChangeRefusedException refused(String why) {
        return new SchemaChangeRefusedException(describe(why));
    }

    private String describe(String why) {
        return "reader " + identity + ": " + why + " (" + describeState() + ")";
    }

    private String describeState() {
        return "schema change "
                + phase
                + ", epoch "
                + epoch
                + ", bound checkpoint "
                + (boundCheckpoint == UNBOUND ? "none" : String.valueOf(boundCheckpoint));
    }

    public SchemaChangePhase phase() {
        return phase;
    }

    /** The mark of the current or last request; null before the first. */
    public SchemaChangeMark mark() {
        return mark;
    }

    /** The current or last request's epoch; 0 before the first. */
    public long epoch() {
        return epoch;
    }

    /** The checkpoint the current change is bound to, or {@link #UNBOUND}. */
    public long boundCheckpoint() {
        return boundCheckpoint;
    }
}
