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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;

/**
 * The admission answers of a coordinator's commands on their way from the transport's thread to the
 * coordinator loop, gathered so that however many commands are in flight, they take one slot of the
 * loop's completion queue: the first answer into an empty board posts one drain, which takes every
 * answer there. The board holds at most one answer per command in flight, and what is in flight is
 * bounded by the readers' credit windows.
 *
 * <p>Threading: {@link #offer} from any thread (the sender's, or inline from the loop for a
 * dispatch that fails at once); the drain runs on the loop. Memory effects: an answer offered
 * before the drain's reset is seen by that drain or a later one (the queue's happens-before; the
 * flag is reset before the queue is read, so an answer racing with the reset posts a new drain).
 */
final class AdmissionOutcomes {
    /** One answer: an ack, or the failure of a send whose answer is unknown. */
    static final class Outcome {
        final long commandId;
        final int subtask;
        final long attempt;
        final boolean ephemeral;
        final AdmissionAck ack;
        final Throwable failure;

        Outcome(
                long commandId,
                int subtask,
                long attempt,
                boolean ephemeral,
                AdmissionAck ack,
                Throwable failure) {
            this.commandId = commandId;
            this.subtask = subtask;
            this.attempt = attempt;
            this.ephemeral = ephemeral;
            this.ack = ack;
            this.failure = failure;
        }
    }

    private final LoopPort loop;
    private final Consumer<Outcome> handler;
    private final ConcurrentLinkedQueue<Outcome> board = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainPosted = new AtomicBoolean();
    private final LoopPort.Action drain = this::drain;

    /**
     * @param handler applies one answer on the loop
     */
    AdmissionOutcomes(LoopPort loop, Consumer<Outcome> handler) {
        this.loop = loop;
        this.handler = handler;
    }

    void offer(Outcome o) {
        board.add(o);
        if (drainPosted.compareAndSet(false, true)
                && !loop.postCompletion(CoordinatorCommandType.ADMISSION_RESULT, drain)) {
            // The completion queue is full (the loop is far behind): the next answer posts again.
            drainPosted.set(false);
        }
    }

    /** Answers not yet applied (a gauge; approximate). */
    int size() {
        return board.size();
    }

    /**
     * Loop only: applies what the board holds now when no drain is on its way (its post found the
     * completion queue full), so no answer waits for a next one to carry it.
     */
    void drainIfStranded() {
        if (!drainPosted.get() && !board.isEmpty()) {
            drain();
        }
    }

    private void drain() {
        drainPosted.set(false);
        for (Outcome o = board.poll(); o != null; o = board.poll()) {
            try {
                handler.accept(o);
            } catch (RuntimeException e) {
                // Each answer on its own: one that fails the coordinator does not strand the rest.
                loop.reportFailure(CoordinatorCommandType.ADMISSION_RESULT.name(), e);
            }
        }
    }
}
