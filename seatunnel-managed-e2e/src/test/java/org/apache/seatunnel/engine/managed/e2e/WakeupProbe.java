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

package org.apache.seatunnel.engine.managed.e2e;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the readers of {@link WakeupWaitSource} observed in one run, keyed by the run's probe name
 * (the test JVM hosts the engine).
 *
 * <p>Threading: any thread; atomics only.
 */
final class WakeupProbe {
    private static final ConcurrentMap<String, WakeupProbe> RUNS = new ConcurrentHashMap<>();

    /** Waits entered inside a poll turn. */
    final AtomicInteger waitsStarted = new AtomicInteger();

    /** Waits that ended because {@code wakeup()} was called (not because their time ran out). */
    final AtomicInteger waitsWoken = new AtomicInteger();

    /** Calls of the reader's {@code wakeup()}. */
    final AtomicInteger wakeups = new AtomicInteger();

    /** Interrupts the reader saw (and ignored) while it waited. */
    final AtomicInteger interruptsIgnored = new AtomicInteger();

    /** {@code System.nanoTime()} of the first {@code wakeup()} call, 0 before any. */
    final AtomicLong firstWakeupNanos = new AtomicLong();

    /** {@code System.nanoTime()} of the reader's {@code close()}, 0 before it. */
    final AtomicLong closedNanos = new AtomicLong();

    /** {@code System.nanoTime()} when the latest wait began, 0 before any. */
    final AtomicLong waitingSinceNanos = new AtomicLong();

    static WakeupProbe of(String name) {
        return RUNS.computeIfAbsent(name, n -> new WakeupProbe());
    }

    static void clear(String name) {
        RUNS.remove(name);
    }

    /** True while a reader is inside a wait that has not ended yet. */
    boolean waiting() {
        return waitsStarted.get() > waitsEnded.get();
    }

    final AtomicInteger waitsEnded = new AtomicInteger();
}
