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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The engine's interrupt of an armed task thread runs the callback inside {@code
 * Thread.interrupt()}, on the interrupting thread, even when the task thread swallows the
 * interrupt; it leaves the interrupt flag alone, runs at most once, and does nothing once disarmed.
 */
class TaskInterruptListenerTest {

    @Test
    void anInterruptOfTheArmedThreadRunsTheCallbackOnTheInterruptingThread() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicInteger runs = new AtomicInteger();
        TaskInterruptListener listener =
                new TaskInterruptListener(
                        () -> {
                            runs.incrementAndGet();
                            ranOn.set(Thread.currentThread());
                        });
        CountDownLatch armed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch swallowed = new CountDownLatch(1);
        Thread task =
                new Thread(
                        () -> {
                            listener.arm();
                            try {
                                armed.countDown();
                                // A wait that swallows interrupts, as a client library may.
                                while (release.getCount() > 0) {
                                    try {
                                        release.await();
                                    } catch (InterruptedException e) {
                                        swallowed.countDown();
                                    }
                                }
                            } finally {
                                listener.disarm();
                            }
                        });
        task.start();
        assertTrue(armed.await(10, TimeUnit.SECONDS));
        task.interrupt();
        // interrupt() returned: the callback already ran, on this thread.
        assertEquals(1, runs.get());
        assertSame(Thread.currentThread(), ranOn.get());
        task.interrupt();
        assertEquals(1, runs.get(), "at most once");
        assertTrue(
                swallowed.await(10, TimeUnit.SECONDS),
                "the task thread consumed the interrupt itself");
        release.countDown();
        task.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(task.isAlive());
    }

    @Test
    void armingAnAlreadyInterruptedThreadRunsTheCallbackAtOnceAndKeepsTheFlag() {
        AtomicInteger runs = new AtomicInteger();
        TaskInterruptListener listener = new TaskInterruptListener(runs::incrementAndGet);
        Thread.currentThread().interrupt();
        try {
            listener.arm();
            assertEquals(1, runs.get());
            listener.disarm();
            assertTrue(Thread.currentThread().isInterrupted(), "the flag is the engine's");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aDisarmedThreadIsNotListenedTo() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        TaskInterruptListener listener = new TaskInterruptListener(runs::incrementAndGet);
        listener.arm();
        listener.disarm();
        Thread.currentThread().interrupt();
        Thread.interrupted();
        assertEquals(0, runs.get());
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
