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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One split the enumerator handed out that has no command yet ({@link AssignmentState#UNASSIGNED}):
 * its id and the connector's serialized bytes, waiting in the tracker for room in its reader. When
 * it leaves in a command its bytes move into that command's {@link TrackedAssignment} and this
 * object is dropped.
 *
 * <p>Threading: owned by the coordinator loop through its {@link SourceAssignmentTracker}; never
 * published to another thread.
 */
final class PendingSplit extends SplitIdIndex.Holder {
    /**
     * Heap bytes of one pending split besides its id and split bytes: this object, two array
     * headers, its deque slot, its index slots and its number there.
     */
    static final int OVERHEAD_BYTES =
            40 + 2 * 16 + 8 + 2 * SplitIdIndex.SLOT_BYTES + SplitIdIndex.HOLDER_BYTES;

    private final byte[] idUtf8;
    private final byte[] splitBytes;
    private final int subtask;
    private final long fingerprint;
    private boolean backpressureCounted;

    PendingSplit(byte[] idUtf8, long fingerprint, byte[] splitBytes, int subtask) {
        this.idUtf8 = idUtf8;
        this.fingerprint = fingerprint;
        this.splitBytes = splitBytes;
        this.subtask = subtask;
    }

    @Override
    public boolean holds(byte[] id) {
        return Arrays.equals(idUtf8, id);
    }

    byte[] idUtf8() {
        return idUtf8;
    }

    byte[] splitBytes() {
        return splitBytes;
    }

    int subtask() {
        return subtask;
    }

    long fingerprint() {
        return fingerprint;
    }

    /** A copy for views and restores: id, bytes and subtask, unassigned. */
    AssignmentEntry view() {
        return AssignmentEntry.unassigned(
                new String(idUtf8, StandardCharsets.UTF_8), splitBytes.clone(), subtask);
    }

    /** What the tracker counts for it against the unassigned byte bound. */
    long estimatedBytes() {
        return OVERHEAD_BYTES + idUtf8.length + splitBytes.length;
    }

    /** True the first time: a back-pressured split is counted once however often it waits. */
    boolean markBackpressureCounted() {
        boolean first = !backpressureCounted;
        backpressureCounted = true;
        return first;
    }

    /** Sizes only; the split id is user data and never logged by this package. */
    @Override
    public String toString() {
        return "PendingSplit{subtask=" + subtask + ", bytes=" + splitBytes.length + '}';
    }
}
