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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;

/**
 * Where commands arriving on this member go: the current reader mailbox per {@code
 * (sourceRuntimeId, subtask)} and the coordinator endpoint per {@code sourceRuntimeId}.
 *
 * <p>Threading: lock-free; hosts register and unregister from their own threads while operation
 * threads look up concurrently. A lookup sees either the previous or the new entry; a command that
 * reaches a replaced mailbox is answered by that mailbox's own attempt check or terminal state, so
 * the race needs no lock. Life cycle: owned by the engine binding's member runtime, lives as long
 * as the member; entries are removed by their hosts on close.
 */
public final class TransportTargets<M> {
    private final ConcurrentMap<ReaderKey, ReaderFence<M>> readers = new ConcurrentHashMap<>();
    private final ConcurrentMap<Long, CoordinatorEndpoint<M>> coordinators =
            new ConcurrentHashMap<>();

    /**
     * Makes the fence's mailbox the current target of its {@code (sourceRuntimeId, subtask)},
     * replacing the mailbox of an earlier attempt (which then stops receiving new commands here).
     *
     * @return the mailbox it replaced, or null
     */
    public ReaderMailbox registerReader(ReaderFence<M> fence) {
        Objects.requireNonNull(fence, "fence");
        ReaderMailbox mailbox = fence.mailbox();
        ReaderFence<M> old =
                readers.put(new ReaderKey(mailbox.sourceRuntimeId(), mailbox.subtask()), fence);
        return old == null ? null : old.mailbox();
    }

    /**
     * Removes {@code mailbox} if it is still the current one; a newer attempt's registration is
     * left alone, so a late close of an old attempt cannot unregister its successor.
     *
     * @return true if it was removed
     */
    public boolean unregisterReader(ReaderMailbox mailbox) {
        Objects.requireNonNull(mailbox, "mailbox");
        ReaderKey key = new ReaderKey(mailbox.sourceRuntimeId(), mailbox.subtask());
        ReaderFence<M> current = readers.get(key);
        return current != null && current.mailbox() == mailbox && readers.remove(key, current);
    }

    /** The current mailbox of a reader subtask, or null while none is registered. */
    public ReaderMailbox reader(long sourceRuntimeId, int subtask) {
        ReaderFence<M> f = readerFence(sourceRuntimeId, subtask);
        return f == null ? null : f.mailbox();
    }

    /** The fence of the current mailbox of a reader subtask, or null while none is registered. */
    public ReaderFence<M> readerFence(long sourceRuntimeId, int subtask) {
        return readers.get(new ReaderKey(sourceRuntimeId, subtask));
    }

    /**
     * Makes {@code endpoint} the coordinator of {@code sourceRuntimeId}, replacing an earlier one
     * (a restarted coordinator of the same source).
     *
     * @return the endpoint it replaced, or null
     */
    public CoordinatorEndpoint<M> registerCoordinator(
            long sourceRuntimeId, CoordinatorEndpoint<M> endpoint) {
        return coordinators.put(sourceRuntimeId, Objects.requireNonNull(endpoint, "endpoint"));
    }

    /** Removes {@code endpoint} if it is still the registered one. */
    public boolean unregisterCoordinator(long sourceRuntimeId, CoordinatorEndpoint<M> endpoint) {
        return coordinators.remove(sourceRuntimeId, endpoint);
    }

    /** The coordinator endpoint of a source, or null while none is registered. */
    public CoordinatorEndpoint<M> coordinator(long sourceRuntimeId) {
        return coordinators.get(sourceRuntimeId);
    }

    /** The registered coordinator endpoints, a snapshot. */
    public java.util.List<CoordinatorEndpoint<M>> coordinatorEndpoints() {
        return new java.util.ArrayList<>(coordinators.values());
    }

    /** The source runtime ids with a registered coordinator, a snapshot. */
    public java.util.List<Long> coordinatorSources() {
        return new java.util.ArrayList<>(coordinators.keySet());
    }

    /** The registered reader mailboxes, a snapshot. */
    public java.util.List<ReaderMailbox> readerMailboxes() {
        java.util.List<ReaderMailbox> out = new java.util.ArrayList<>();
        for (ReaderFence<M> f : readers.values()) {
            out.add(f.mailbox());
        }
        return out;
    }

    /** Registered reader mailboxes; approximate under concurrent change. */
    public int readerCount() {
        return readers.size();
    }

    /**
     * Registered reader mailboxes of one source runtime on this member; approximate under
     * concurrent change. Scans the registry: called once per checkpoint report, and a member holds
     * few readers.
     */
    public int readerCount(long sourceRuntimeId) {
        int n = 0;
        for (ReaderKey k : readers.keySet()) {
            if (k.sourceRuntimeId == sourceRuntimeId) {
                n++;
            }
        }
        return n;
    }

    /** Registered coordinator endpoints; approximate under concurrent change. */
    public int coordinatorCount() {
        return coordinators.size();
    }

    private static final class ReaderKey {
        private final long sourceRuntimeId;
        private final int subtask;

        ReaderKey(long sourceRuntimeId, int subtask) {
            this.sourceRuntimeId = sourceRuntimeId;
            this.subtask = subtask;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof ReaderKey)) {
                return false;
            }
            ReaderKey k = (ReaderKey) o;
            return sourceRuntimeId == k.sourceRuntimeId && subtask == k.subtask;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(sourceRuntimeId) * 31 + subtask;
        }
    }
}
