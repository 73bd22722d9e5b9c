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

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A sticky wakeup flag between producers (operation threads, availability callbacks) and the one
 * host thread that idles a reader loop.
 *
 * <p>Threading: {@link #signal()} from any thread, never blocks (a flag store and at most one
 * {@code unpark}); {@link #await(long)} only from the host thread driving the loop.
 *
 * <p>No lost wakeup: the flag is set before the waiter is looked up, and the waiter publishes
 * itself before it re-checks the flag, so a signal racing with going idle either is seen by the
 * re-check or finds the waiter and unparks it; a stray unpark only shortens one bounded wait.
 */
public final class LoopSignal {
    private final AtomicBoolean pending = new AtomicBoolean();
    private final AtomicReference<Thread> waiter = new AtomicReference<>();

    public void signal() {
        pending.set(true);
        Thread t = waiter.get();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** True if a signal is pending; does not consume it. */
    public boolean isPending() {
        return pending.get();
    }

    /** Consumes a pending signal without waiting. */
    public boolean clear() {
        return pending.getAndSet(false);
    }

    /**
     * Waits at most {@code maxNanos} for a signal, consuming it.
     *
     * @return true if signalled, false on timeout or interrupt (the interrupt flag stays set)
     */
    public boolean await(long maxNanos) {
        if (pending.getAndSet(false)) {
            return true;
        }
        Thread me = Thread.currentThread();
        waiter.set(me);
        try {
            long deadline = System.nanoTime() + maxNanos;
            for (; ; ) {
                if (pending.getAndSet(false)) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || me.isInterrupted()) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            waiter.set(null);
        }
    }
}
