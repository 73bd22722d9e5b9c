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

import java.util.ArrayDeque;
import java.util.Iterator;
import org.apache.seatunnel.engine.managed.source.reader.MailboxEntry.RemoteCommand;

/**
 * Holds back the coordinator commands of one reader attempt that were cut after a checkpoint this
 * reader has not taken yet, and releases them once it has (hazard 1: the coordinator snapshots
 * first, so a command dispatched after its snapshot N must not reach the connector before the
 * reader's own snapshot N, or the split would be in both).
 *
 * <p>Threading: owned by the {@link ReaderEventLoop} of the attempt and touched only by the thread
 * driving it, one call at a time (the host's exclusion orders successive drivers). Life cycle:
 * created with the loop, {@link #start} when the loop opens, {@link #discard} when it closes; a
 * discarded gate holds nothing.
 *
 * <p>The released cut is the later of the last barrier this reader took and the last checkpoint the
 * coordinator reported aborted (an aborted checkpoint never reaches this reader, so its commands
 * must not wait for it). Held commands keep their mailbox reservation, so they count against the
 * mailbox bound until applied; the oldest is bounded by {@code reader.cut-hold-timeout}.
 */
final class CheckpointCutGate {

    /** Applies one released command, as the loop applies any command. */
    interface Applier {
        void apply(RemoteCommand command);
    }

    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private final NanoClock clock;
    private final long holdLimitNanos;

    private long barrierCut;
    private long abortedCut;

    /**
     * @param clock read only while something is held: a loop with nothing held pays no clock read
     * @param holdLimitNanos {@code reader.cut-hold-timeout}
     */
    CheckpointCutGate(NanoClock clock, long holdLimitNanos) {
        this.clock = clock;
        this.holdLimitNanos = holdLimitNanos;
    }

    /**
     * The checkpoint this attempt restores from (0 for a fresh start): commands cut at or before it
     * are not held.
     */
    void start(long restoredCheckpointId) {
        barrierCut = restoredCheckpointId;
    }

    /**
     * Holds {@code command} if it was cut after the released cut; false if it may be applied now. A
     * held command keeps its mailbox capacity until it is applied or discarded.
     */
    boolean holdIfPastCut(RemoteCommand command) {
        if (command.envelope().coordinatorCutId() <= releasedCut()) {
            return false;
        }
        held.addLast(new Held(command, clock.nanoTime()));
        return true;
    }

    /**
     * Commands cut at or below this may be applied: this reader took that barrier, or the
     * coordinator told it the checkpoint was aborted and will never reach it.
     */
    long releasedCut() {
        return Math.max(barrierCut, abortedCut);
    }

    /** This reader took barrier {@code checkpointId}. */
    void barrierTaken(long checkpointId) {
        barrierCut = Math.max(barrierCut, checkpointId);
    }

    /**
     * The coordinator reported checkpoint {@code checkpointId} aborted.
     *
     * @return true if that moved the released cut's abort bound
     */
    boolean aborted(long checkpointId) {
        if (checkpointId <= abortedCut) {
            return false;
        }
        abortedCut = checkpointId;
        return true;
    }

    /** The last barrier taken (or the restored checkpoint). */
    long barrierCut() {
        return barrierCut;
    }

    /**
     * Applies, in FIFO order, every held command whose cut is at most {@code cutLimit}; stops early
     * once {@code mailbox} carries a terminal signal (nothing may reach the connector then).
     */
    void release(long cutLimit, Applier applier, ReaderMailbox mailbox) {
        if (held.isEmpty()) {
            return;
        }
        for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (h.cutId() <= cutLimit) {
                it.remove();
                applier.apply(h.command);
                if (mailbox.terminalSignal() != null) {
                    return;
                }
            }
        }
    }

    /**
     * The coordinator cut of the oldest held command if it has waited longer than the hold limit,
     * else -1.
     */
    long overdueCut() {
        Held oldest = held.peekFirst();
        if (oldest != null && clock.nanoTime() - oldest.heldSinceNanos > holdLimitNanos) {
            return oldest.cutId();
        }
        return -1;
    }

    int size() {
        return held.size();
    }

    /** Drops every held command and gives its mailbox reservation back (the attempt closes). */
    void discard(ReaderMailbox mailbox) {
        for (Held h : held) {
            mailbox.complete(h.command);
        }
        held.clear();
    }

    private static final class Held {
        final RemoteCommand command;
        final long heldSinceNanos;

        Held(RemoteCommand command, long since) {
            this.command = command;
            this.heldSinceNanos = since;
        }

        long cutId() {
            return command.envelope().coordinatorCutId();
        }
    }
}
