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

import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.concurrent.BoundedMpscQueues;
import org.jctools.queues.MessagePassingQueue;

/**
 * The bounded queue of enumerator context calls made off the coordinator loop, each stamped with a
 * ticket in the order the calls were made.
 *
 * <p>Threading: {@link #offer} and {@link #nextTicket} from any thread; {@link #pollBefore} and
 * {@link #isEmpty} only on the loop (the single consumer). A call's ticket is taken and the call
 * offered on the caller's thread in one go, so calls that one thread makes, or that several threads
 * make under a common lock, have increasing tickets and sit in the queue in ticket order. Memory
 * effects: everything a caller did before a successful offer happens-before the loop applies that
 * call.
 */
final class EnumeratorCallQueue {
    private final MessagePassingQueue<Call> queue;
    private final AtomicLong tickets = new AtomicLong();

    EnumeratorCallQueue(int capacity) {
        this.queue = BoundedMpscQueues.create(capacity);
    }

    /** Any thread: false when the queue is full (the call is then not recorded). */
    boolean offer(LoopPort.Action action) {
        return queue.offer(new Call(tickets.getAndIncrement(), action));
    }

    /** Any thread: every call offered before this returns has a smaller ticket. */
    long nextTicket() {
        return tickets.get();
    }

    /** Loop: removes and returns the oldest call if its ticket is below {@code bound}. */
    LoopPort.Action pollBefore(long bound) {
        Call c = queue.peek();
        if (c == null || c.ticket >= bound) {
            return null;
        }
        queue.poll();
        return c.action;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** One queued call. Immutable. */
    private static final class Call {
        final long ticket;
        final LoopPort.Action action;

        Call(long ticket, LoopPort.Action action) {
            this.ticket = ticket;
            this.action = action;
        }
    }
}
