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

/**
 * What the loop's collaborators (scheduler, outbound commands, enumerator context) may ask of the
 * loop. Package-private seam so they can be tested without the whole loop.
 *
 * <p>Threading: {@link #postCompletion}, {@link #offerEnumeratorCall}, {@link
 * #enumeratorCallTicket} and {@link #isOwnerThread} are thread-safe; the other methods are
 * loop-only.
 */
interface LoopPort {

    /** A unit of work that runs on the loop. */
    interface Action {
        void run() throws Exception;
    }

    /**
     * Enqueues work produced by an ack, timer or worker onto the loop's completion queue. Never
     * blocks; returns false (and counts) when the bounded completion queue is full.
     */
    boolean postCompletion(CoordinatorCommandType type, Action action);

    /**
     * Offers an enumerator context call made off the loop to the loop's bounded queue of such calls
     * (its capacity is the command queue's), behind every call made before it; never blocks. Counts
     * {@code ManagedSourceEnumeratorCallsMarshalled} when enqueued, {@code CoordinatorQueueFull} or
     * {@code CoordinatorCommandsAfterClose} when refused.
     */
    OfferResult offerEnumeratorCall(Action action);

    /** Any thread: every enumerator call offered before this returns has a smaller ticket. */
    long enumeratorCallTicket();

    /**
     * Loop only: applies, in order, the queued enumerator calls whose ticket is below {@code
     * ticket}; each failure goes to the failure handler.
     */
    void applyEnumeratorCallsBefore(long ticket);

    /** True when the calling thread is the one draining the loop right now. */
    boolean isOwnerThread();

    /** Throws IllegalStateException naming {@code what} unless called on the loop. */
    void checkOwnerThread(String what);

    /** Hands a failure to the failure handler. Loop only. */
    void reportFailure(String where, Throwable cause);

    /** True while the loop applies commands (not before open, not after close or failure). */
    boolean isRunning();
}
