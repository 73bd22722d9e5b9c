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

import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Objects;

/**
 * Runs a callback the moment the engine interrupts a task thread, on the interrupting thread, while
 * the task thread is {@link #arm() armed}.
 *
 * <p>Threading: {@link #arm()} and {@link #disarm()} only on the task thread, in pairs; the
 * callback runs on whichever thread calls {@code Thread.interrupt()} on it (or on the task thread
 * itself when it arms already interrupted), at most once per listener, and must be short and
 * non-blocking: the JDK runs it inside {@code Thread.interrupt()}, holding the task thread's
 * interrupt lock, so it must not run connector code (hand that to another thread).
 *
 * <p>Why a channel: Zeta cancels a task by interrupting its thread, and a reader waiting inside a
 * poll turn may consume the interrupt (catch {@code InterruptedException} and wait on, as client
 * libraries do) while it honours only {@code wakeup()}. The JDK's one public hook into {@code
 * Thread.interrupt()} is an interruptible channel's {@code begin()}: it registers the channel as
 * the thread's interrupt blocker, so the interrupt closes the channel before the waiting code sees
 * anything. This class is such a channel that does no I/O; closing it is the callback. Connector
 * code that does channel I/O of its own inside the turn replaces the registration until the next
 * {@link #arm()}; the member's periodic interrupt check covers that window for interrupts the
 * connector leaves set.
 */
final class TaskInterruptListener extends AbstractInterruptibleChannel {
    private final Runnable onInterrupt;

    TaskInterruptListener(Runnable onInterrupt) {
        this.onInterrupt = Objects.requireNonNull(onInterrupt, "onInterrupt");
    }

    /** Task thread: from now until {@link #disarm()}, an interrupt runs the callback at once. */
    void arm() {
        begin();
    }

    /** Task thread: stops listening. The thread's interrupt flag is left as it is. */
    void disarm() {
        try {
            end(true);
        } catch (AsynchronousCloseException e) {
            // The interrupt was seen (ClosedByInterruptException): the callback already ran.
        }
    }

    @Override
    protected void implCloseChannel() {
        onInterrupt.run();
    }
}
