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

import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The current attempt of every registered reader subtask, the restored owners still to be
 * reconciled after a coordinator restore (assignment is held until none is left), the restored
 * owners whose state the engine already handed back in this epoch, and which attempt has been sent
 * no-more-splits.
 *
 * <p>Threading: loop-owned, not thread-safe, except {@link #registeredSnapshot()}, which any thread
 * may call.
 */
final class ReaderRegistry {
    private final TreeMap<Integer, Long> attempts = new TreeMap<>();
    private final Set<Integer> registeredView = Collections.unmodifiableSet(attempts.keySet());
    // written by the loop on each registration (rare), read by enumerator threads off the loop
    private volatile Set<Integer> registeredSnapshot = Collections.emptySet();
    private final TreeSet<Integer> awaitingOwners = new TreeSet<>();
    private final Map<Integer, Long> noMoreSplitsSentTo = new HashMap<>();
    // One bit per restored owner index, so bounded by the restored checkpoint's parallelism.
    private final BitSet restoredStatesReceived = new BitSet();

    Long current(int subtask) {
        return attempts.get(subtask);
    }

    boolean isCurrent(int subtask, long attempt) {
        Long a = attempts.get(subtask);
        return a != null && a == attempt;
    }

    void register(int subtask, long attempt) {
        if (attempts.put(subtask, attempt) == null) {
            registeredSnapshot = Collections.unmodifiableSet(new TreeSet<>(attempts.keySet()));
        }
    }

    /** A live, read-only view (what the enumerator context's {@code registeredReaders} returns). */
    Set<Integer> registered() {
        return registeredView;
    }

    /** Any thread: an immutable copy as of the last registration the loop applied. */
    Set<Integer> registeredSnapshot() {
        return registeredSnapshot;
    }

    void awaitOwners(Collection<Integer> owners) {
        awaitingOwners.addAll(owners);
    }

    boolean isAwaiting(int subtask) {
        return awaitingOwners.contains(subtask);
    }

    /** Returns true when this released the restore hold. */
    boolean ownerReconciled(int subtask) {
        return awaitingOwners.remove(subtask) && awaitingOwners.isEmpty();
    }

    boolean holdActive() {
        return !awaitingOwners.isEmpty();
    }

    Set<Integer> awaitingOwners() {
        return Collections.unmodifiableSet(awaitingOwners);
    }

    /**
     * Records that the state of restored owner {@code subtask} came back; false if it already had
     * in this epoch (the engine delivered the same reader state twice).
     */
    boolean firstRestoredState(int subtask) {
        if (restoredStatesReceived.get(subtask)) {
            return false;
        }
        restoredStatesReceived.set(subtask);
        return true;
    }

    boolean noMoreSplitsSentTo(int subtask, long attempt) {
        Long a = noMoreSplitsSentTo.get(subtask);
        return a != null && a == attempt;
    }

    void markNoMoreSplitsSent(int subtask, long attempt) {
        noMoreSplitsSentTo.put(subtask, attempt);
    }

    void clearNoMoreSplitsSent(int subtask) {
        noMoreSplitsSentTo.remove(subtask);
    }
}
