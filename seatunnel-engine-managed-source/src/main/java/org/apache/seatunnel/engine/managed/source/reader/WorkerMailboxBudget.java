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

import java.util.concurrent.atomic.AtomicLong;

/**
 * The payload-byte budget shared by every reader mailbox of one member (STIP-31's third capacity
 * level). Each mailbox also takes its reserved control bytes from here when it is created, so
 * reserved capacity cannot be starved by other mailboxes later.
 *
 * <p>Threading: lock-free; any thread may reserve and release.
 */
public final class WorkerMailboxBudget {
    private final long maxBytes;
    private final AtomicLong used = new AtomicLong();

    public WorkerMailboxBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException(
                    "worker.mailbox-max-bytes must be positive, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Reserves {@code bytes} if they fit; never blocks. */
    public boolean tryReserve(long bytes) {
        if (bytes == 0) {
            return true;
        }
        for (; ; ) {
            long cur = used.get();
            long next = cur + bytes;
            if (next > maxBytes) {
                return false;
            }
            if (used.compareAndSet(cur, next)) {
                return true;
            }
        }
    }

    public void release(long bytes) {
        if (bytes != 0) {
            long after = used.addAndGet(-bytes);
            if (after < 0) {
                throw new IllegalStateException("worker mailbox budget released below zero");
            }
        }
    }

    public long usedBytes() {
        return used.get();
    }

    public long maxBytes() {
        return maxBytes;
    }
}
