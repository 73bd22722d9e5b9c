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

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The readers of one source on one member that were announced the same checkpoint: a reader whose
 * own barrier was taken waits, lock released, until every member of its cohort took theirs (within
 * the handoff timeout), instead of resuming its turns at once.
 *
 * <p>Threading: created by the thread that announces the checkpoint on the member; {@link #took} is
 * called by barrier threads and by the announcing thread, any number of times per reader; {@link
 * #complete()} by any thread. Immutable but for the set of readers that took their barrier.
 *
 * <p>Why: on Zeta the enumerator task sends the barrier to every reader at once, and each is run on
 * a thread of the engine's pool. On a member whose cores the job keeps busy, a reader that resumed
 * right after its own barrier competes for the core with the pool threads that still carry the
 * other readers' barriers, which stretches the checkpoint's last reader ack. Holding the readers
 * whose barriers were taken until the cohort is through gives those threads the core; the pause is
 * the few milliseconds the rest of the barriers take, at most the handoff timeout.
 *
 * <p>The last barrier wakes only the members whose drivers wait in the handoff: a driver waiting
 * for data has nothing to do with the cohort, and waking all of them put a burst of task threads on
 * the cores just as the sink tasks and the enumerator's acknowledgement need them.
 */
public final class BarrierCohort {
    private final long checkpointId;
    private final List<ReaderMailbox> members;
    private final Set<ReaderMailbox> took = ConcurrentHashMap.newKeySet();
    // How many members took their barrier; read by a waiting driver after it announced its wait
    // (BarrierSignals#handoffWaiting), written before the last one looks for waiting drivers, so
    // one of the two always sees the other.
    private final AtomicInteger tookCount = new AtomicInteger();
    private final AtomicReference<ReaderMailbox> completedBy = new AtomicReference<>();

    /**
     * @param members the mailboxes announced {@code checkpointId} on this member, at most one per
     *     reader
     */
    public BarrierCohort(long checkpointId, List<ReaderMailbox> members) {
        this.checkpointId = checkpointId;
        this.members = members;
    }

    public long checkpointId() {
        return checkpointId;
    }

    public int size() {
        return members.size();
    }

    /**
     * {@code m} took its barrier of this checkpoint (or will not wait for it: it was taken before
     * the announcement). The last one wakes the drivers that wait in the handoff. Idempotent per
     * reader.
     */
    public void took(ReaderMailbox m) {
        if (took.add(m) && tookCount.incrementAndGet() >= members.size()) {
            completedBy.compareAndSet(null, m);
            for (ReaderMailbox member : members) {
                member.wakeDriverInHandoff();
            }
        }
    }

    /**
     * True if {@code m}'s barrier was the one that completed the cohort, so {@code m} did not wait
     * for the others (two barriers taken at the same moment may both count as the last one).
     */
    public boolean completedBy(ReaderMailbox m) {
        return completedBy.get() == m;
    }

    /** True once every member took its barrier. */
    public boolean complete() {
        return tookCount.get() >= members.size();
    }
}
